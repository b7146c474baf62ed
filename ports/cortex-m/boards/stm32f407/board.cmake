# SPDX-License-Identifier: MIT
# STM32F407 (Cortex-M4F, 168 MHz; the STM32F4DISCOVERY board): 1 MB of flash, 128 KB of SRAM
# and 64 KB of CCM RAM (stm32f407.ld), the console on USART2 (console.c). QEMU does not model
# this chip's clock tree, so programs are built, not run: there is no emulator, and the
# kernel tests (which run under one) cannot be built for it.
if(NOT TACET_CPU STREQUAL "cortex-m4f")
  message(FATAL_ERROR "TACET_CM_BOARD=stm32f407: the chip is a Cortex-M4F (-DTACET_CPU=cortex-m4f)")
endif()
if(TACET_BUILD_TESTS)
  message(FATAL_ERROR "TACET_CM_BOARD=stm32f407: the kernel tests run under QEMU, which has no "
                      "model of this board; configure with -DTACET_BUILD_TESTS=OFF")
endif()
set(TACET_CM_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/stm32f407.ld)
set(TACET_CM_CONSOLE_SOURCES ${CMAKE_CURRENT_LIST_DIR}/console.c)
