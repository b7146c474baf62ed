# SPDX-License-Identifier: MIT
# Toolchain file for the Cortex-M port built with clang: the cores and flags of
# arm-none-eabi.cmake (TACET_CPU), clang in place of arm-none-eabi-gcc, compiling against the
# newlib headers of gcc-arm-none-eabi. For the compiler's warnings on the port (`make lint`
# builds the kernel libraries this way): programs still link with arm-none-eabi-gcc, whose
# driver knows newlib's multilibs and start files.
#
#   cmake -S . -B build/clang-cortex-m3 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi-clang.cmake \
#         -DTACET_PORT=cortex-m -DTACET_CPU=cortex-m3
#   cmake --build build/clang-cortex-m3 --target tacet_kernels
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake)

set(CMAKE_C_COMPILER clang)
set(CMAKE_ASM_COMPILER clang)
set(CMAKE_C_COMPILER_TARGET arm-none-eabi)
set(CMAKE_ASM_COMPILER_TARGET arm-none-eabi)

# newlib's headers, found from arm-none-eabi-gcc (clang has no newlib of its own).
execute_process(COMMAND arm-none-eabi-gcc -print-file-name=include
                OUTPUT_VARIABLE _tacet_gcc_include OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE _tacet_rc ERROR_QUIET)
get_filename_component(_tacet_newlib_include "${_tacet_gcc_include}/../../../../arm-none-eabi/include" REALPATH)
if(NOT _tacet_rc EQUAL 0 OR NOT EXISTS "${_tacet_newlib_include}/stdint.h")
  message(FATAL_ERROR "arm-none-eabi-clang.cmake: no newlib headers (packages gcc-arm-none-eabi, libnewlib-arm-none-eabi)")
endif()
if(NOT CMAKE_C_FLAGS_INIT MATCHES "-isystem")
  string(APPEND CMAKE_C_FLAGS_INIT " -isystem ${_tacet_newlib_include}")
endif()
