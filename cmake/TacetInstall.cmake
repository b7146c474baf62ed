# SPDX-License-Identifier: MIT
# cmake --install: Tacet as a CMake package (docs/using-tacet.md). Installed under the prefix:
#
#   include/tacet/              the portable headers (the same in every configuration)
#   include/tacet/cmsis-rtos2/  cmsis_os2.h and tacet_os2.h (compat/cmsis-rtos2)
#   lib/tacet/<config>/         libtacet_kernel.a, libtacet_cmsis_os2.a (where the configuration
#                               has 64 priorities or more); include/, the port's and board's
#                               headers; ld/, the linker scripts (Cortex-M)
#   lib/cmake/Tacet/            TacetConfig.cmake, TacetConfigVersion.cmake, and <config>/:
#                               the exported targets tacet::kernel and tacet::cmsis_os2, and what
#                               the configuration is
#   share/tacet/cmake/          the toolchain files
#   share/tacet/tools/ ...      tacet_add_app's generator (tools/tacet, with the schemas, board
#                               power tables and port headers it reads, laid out as in the tree)
#   share/doc/tacet/LICENSE     the licence (MIT), which a copy of the kernel must carry
#
# <config> is TACET_INSTALL_CONFIG (sim, cortex-m3, cortex-m4f, rv32imac, rv32imafc by default), so every
# configuration installs into the same prefix beside the others and find_package(Tacet
# COMPONENTS <config>) picks one. Every path in the installed files is relative to the prefix:
# the prefix can be moved.
option(TACET_INSTALL "Define the install rules of the package (cmake --install)" ${TACET_TOP_LEVEL})
if(NOT TACET_INSTALL)
  return()
endif()
if(TACET_COVERAGE OR TACET_SANITIZE OR TACET_FUZZ)
  # An instrumented kernel needs its runtime in every program that links it: not a package.
  message(STATUS "Tacet: instrumented build (coverage, sanitizers or fuzzing): nothing to install")
  return()
endif()

include(CMakePackageConfigHelpers)
set(_tacet_cmakedir lib/cmake/Tacet)

set_target_properties(tacet_kernel PROPERTIES EXPORT_NAME kernel)
target_include_directories(tacet_kernel INTERFACE
  $<INSTALL_INTERFACE:include> $<INSTALL_INTERFACE:${TACET_INSTALL_LIBDIR}/include>)
set(_tacet_exported tacet_kernel)
foreach(_tacet_link cm_link rv_link)
  if(TARGET tacet_${_tacet_link})
    set_target_properties(tacet_${_tacet_link} PROPERTIES EXPORT_NAME ${_tacet_link})
    list(APPEND _tacet_exported tacet_${_tacet_link})
  endif()
endforeach()
# CMSIS-RTOS2 on this kernel, where the configuration builds it: the library beside the
# kernel's, compiled with the layer's defaults (TC_OS2_HEAP_SIZE ...: docs/cmsis-rtos2.md).
if(TARGET tacet_cmsis_os2)
  set_target_properties(tacet_cmsis_os2 PROPERTIES EXPORT_NAME cmsis_os2)
  target_include_directories(tacet_cmsis_os2 INTERFACE $<INSTALL_INTERFACE:include/tacet/cmsis-rtos2>)
  list(APPEND _tacet_exported tacet_cmsis_os2)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/compat/cmsis-rtos2/include/
          DESTINATION include/tacet/cmsis-rtos2)
endif()
install(TARGETS ${_tacet_exported} EXPORT TacetTargets ARCHIVE DESTINATION ${TACET_INSTALL_LIBDIR})
install(EXPORT TacetTargets NAMESPACE tacet::
        DESTINATION ${_tacet_cmakedir}/${TACET_INSTALL_CONFIG})

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION include)
foreach(dir ${TACET_PORT_INCLUDES})
  install(DIRECTORY ${dir}/ DESTINATION ${TACET_INSTALL_LIBDIR}/include)
endforeach()
if(TACET_PORT_LINKER_SCRIPTS)
  install(FILES ${TACET_PORT_LINKER_SCRIPTS} DESTINATION ${TACET_INSTALL_LIBDIR}/ld)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/cmake/arm-none-eabi.cmake
              ${PROJECT_SOURCE_DIR}/cmake/arm-none-eabi-clang.cmake
              ${PROJECT_SOURCE_DIR}/cmake/aarch64-linux-gnu.cmake
              ${PROJECT_SOURCE_DIR}/cmake/riscv32-unknown-elf.cmake
        DESTINATION share/tacet/cmake)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION share/doc/tacet)

# tacet_add_app and its generator: the Python package tools/tacet run from share/tacet, where
# the files it reads lie as they do in the tree (schema/, power/, include/tacet/config.h, the
# ports' tacet_port.h for the stack minima, VERSION), so that it runs unchanged.
install(FILES ${PROJECT_SOURCE_DIR}/cmake/TacetApp.cmake DESTINATION ${_tacet_cmakedir})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/tools/tacet DESTINATION share/tacet/tools
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE PATTERN "templates" EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/schema/tacet-app.schema.json
              ${PROJECT_SOURCE_DIR}/schema/tacet-power.schema.json
        DESTINATION share/tacet/schema)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/power/ DESTINATION share/tacet/power
        FILES_MATCHING PATTERN "*.yaml")
install(FILES ${PROJECT_SOURCE_DIR}/include/tacet/config.h DESTINATION share/tacet/include/tacet)
foreach(port sim cortex-m riscv)
  install(FILES ${PROJECT_SOURCE_DIR}/ports/${port}/include/tacet_port.h
          DESTINATION share/tacet/ports/${port}/include)
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/VERSION DESTINATION share/tacet)

# What TacetConfig.cmake needs to know of this configuration.
string(REPLACE ";" " " _tacet_emulator "${TACET_EMULATOR}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/TacetConfiguration.cmake.in
               ${PROJECT_BINARY_DIR}/TacetConfiguration.cmake @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/TacetConfiguration.cmake
        DESTINATION ${_tacet_cmakedir}/${TACET_INSTALL_CONFIG})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/TacetConfig.cmake.in
  ${PROJECT_BINARY_DIR}/TacetConfig.cmake INSTALL_DESTINATION ${_tacet_cmakedir})
# 0.x: a minor version may break the API, so 0.1 accepts 0.1.*. The package holds kernels for
# several architectures: the version file does not compare pointer sizes, TacetConfig.cmake
# checks the configuration against the project instead.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/TacetConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/TacetConfig.cmake ${PROJECT_BINARY_DIR}/TacetConfigVersion.cmake
        DESTINATION ${_tacet_cmakedir})
