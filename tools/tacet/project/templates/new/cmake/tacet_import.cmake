# SPDX-License-Identifier: MIT
# How this project finds Tacet; written by `tacet new` (Tacet's docs/using-tacet.md).
# CMakeLists.txt includes it before project(): a Cortex-M or RISC-V build compiles with Tacet's
# toolchain file, which project() must already know. After project(), tacet_init() adds the kernel.
#
# Tacet is, in this order:
#   1. TACET_DIR: -DTACET_DIR=DIR, else the environment variable TACET_DIR, else the default
#      that `tacet new` wrote into tacet-local.cmake (a path of this machine: .gitignore keeps
#      the file out of git). DIR is a Tacet source tree (added with add_subdirectory) or the
#      prefix of an installed Tacet (cmake --install; find_package there). A relative DIR is
#      relative to this project.
#   2. An installed Tacet (find_package): in Tacet_DIR, on CMAKE_PREFIX_PATH (the variable or
#      the environment variable), in /usr/local or /usr.
#   3. A Tacet source tree fetched at configure time (FetchContent): TACET_GIT_REPOSITORY at
#      TACET_GIT_TAG (or FETCHCONTENT_SOURCE_DIR_TACET, CMake's override, for a local copy).
#
# What the kernel is built for (the presets set them): TACET_PORT (sim | cortex-m | riscv),
# TACET_CPU (cortex-m3 | cortex-m4f | rv32imac | rv32imafc), TACET_CM_BOARD (mps2, the QEMU boards; stm32f407 ...) and
# TACET_DEFINITIONS, kernel options (TC_TRACE=1 for a traced build ...). An installed Tacet
# holds kernels already built, one per configuration: TACET_COMPONENT names the one to use
# (default: sim, the CPU for RISC-V and the mps2 board, else the board's name; with -trace
# appended when
# TACET_DEFINITIONS holds TC_TRACE=1), and its options and board must be the ones asked for.
include_guard(GLOBAL)

set(_tacet_version_wanted @VERSION@)  # as find_package(Tacet @VERSION@): @VERSION@.x
set(TACET_DIR "" CACHE PATH
    "Tacet: a source tree or an installed prefix (default: the environment variable TACET_DIR, then tacet-local.cmake)")
set(TACET_GIT_REPOSITORY "" CACHE STRING
    "Tacet's git repository, fetched (FetchContent) when neither TACET_DIR nor an installed Tacet is found")
set(TACET_GIT_TAG "" CACHE STRING "The tag or commit of TACET_GIT_REPOSITORY to fetch")
set(TACET_PORT "sim" CACHE STRING "Kernel port: sim | cortex-m | riscv")
set(TACET_CPU "cortex-m3" CACHE STRING
    "CPU of the cortex-m port (cortex-m3 | cortex-m4f) or of the riscv port (rv32imac | rv32imafc)")
set(TACET_CM_BOARD "mps2" CACHE STRING "Board of the cortex-m port: mps2 | stm32f407 ...")
set(TACET_COMPONENT "" CACHE STRING
    "The configuration of an installed Tacet to use (default: from the port, CPU, board and TC_TRACE)")

set(_tacet_project ${CMAKE_CURRENT_LIST_DIR}/..)
cmake_path(NORMAL_PATH _tacet_project)
set(_tacet_dir "")
if(TACET_DIR)
  set(_tacet_dir "${TACET_DIR}")
  set(_tacet_how "TACET_DIR")
elseif(NOT "$ENV{TACET_DIR}" STREQUAL "")
  set(_tacet_dir "$ENV{TACET_DIR}")
  set(_tacet_how "the environment variable TACET_DIR")
elseif(EXISTS ${_tacet_project}/tacet-local.cmake)
  include(${_tacet_project}/tacet-local.cmake)
  if(TACET_LOCAL_DIR)
    set(_tacet_dir "${TACET_LOCAL_DIR}")
    set(_tacet_how "TACET_LOCAL_DIR in tacet-local.cmake")
  endif()
endif()

if(_tacet_dir)
  cmake_path(ABSOLUTE_PATH _tacet_dir BASE_DIRECTORY ${_tacet_project} NORMALIZE)
  string(REGEX REPLACE "(.)/$" "\\1" _tacet_dir "${_tacet_dir}")
  if(EXISTS ${_tacet_dir}/CMakeLists.txt AND IS_DIRECTORY ${_tacet_dir}/kernel)
    set(_tacet_kind "source tree")
  elseif(EXISTS ${_tacet_dir}/lib/cmake/Tacet/TacetConfig.cmake)
    set(_tacet_kind "package")
  else()
    message(FATAL_ERROR "${_tacet_how} is ${_tacet_dir}: neither a Tacet source tree "
      "(CMakeLists.txt beside kernel/) nor the prefix of an installed Tacet "
      "(lib/cmake/Tacet/TacetConfig.cmake)")
  endif()
else()
  set(_tacet_places "")
  if(Tacet_DIR)
    list(APPEND _tacet_places ${Tacet_DIR}/../../..)
  endif()
  find_file(_tacet_config TacetConfig.cmake
    PATHS ${_tacet_places} ${CMAKE_PREFIX_PATH} ENV CMAKE_PREFIX_PATH /usr/local /usr
    PATH_SUFFIXES lib/cmake/Tacet NO_DEFAULT_PATH NO_CACHE)
  if(_tacet_config)
    cmake_path(GET _tacet_config PARENT_PATH _tacet_dir)  # lib/cmake/Tacet
    cmake_path(APPEND _tacet_dir ../../.. OUTPUT_VARIABLE _tacet_dir)
    cmake_path(NORMAL_PATH _tacet_dir)
    string(REGEX REPLACE "(.)/$" "\\1" _tacet_dir "${_tacet_dir}")
    set(_tacet_kind "package")
    set(_tacet_how "find_package")
  elseif(TACET_GIT_REPOSITORY)
    if(NOT TACET_GIT_TAG)
      message(FATAL_ERROR "TACET_GIT_REPOSITORY is ${TACET_GIT_REPOSITORY}: set TACET_GIT_TAG "
        "too, the tag or commit to fetch (so that every build gets the same Tacet)")
    endif()
    include(FetchContent)
    if(POLICY CMP0169)
      cmake_policy(SET CMP0169 OLD)  # FetchContent_Populate(name): the only way before project()
    endif()
    FetchContent_Declare(tacet GIT_REPOSITORY ${TACET_GIT_REPOSITORY} GIT_TAG ${TACET_GIT_TAG})
    FetchContent_GetProperties(tacet)
    if(NOT tacet_POPULATED)
      # Populated now, before project(), for its toolchain file; added after it.
      FetchContent_Populate(tacet)
    endif()
    set(_tacet_dir ${tacet_SOURCE_DIR})
    set(_tacet_kind "source tree")
    set(_tacet_how "FetchContent of ${TACET_GIT_REPOSITORY} at ${TACET_GIT_TAG}")
  else()
    message(FATAL_ERROR "Tacet not found. Give it one of three ways:\n"
      "  1. -DTACET_DIR=<a Tacet source tree or installed prefix> (or the environment "
      "variable TACET_DIR, or TACET_LOCAL_DIR in tacet-local.cmake);\n"
      "  2. an installed Tacet (cmake --install of Tacet) on CMAKE_PREFIX_PATH, e.g. "
      "-DCMAKE_PREFIX_PATH=/opt/tacet;\n"
      "  3. -DTACET_GIT_REPOSITORY=<Tacet's git URL> -DTACET_GIT_TAG=<a tag or commit> to "
      "fetch it.")
  endif()
endif()

# A Cortex-M or RISC-V build compiles with Tacet's toolchain file, unless one is given.
if(TACET_PORT MATCHES "^(cortex-m|riscv)$" AND NOT CMAKE_TOOLCHAIN_FILE)
  if(TACET_PORT STREQUAL "riscv")
    set(_tacet_toolchain_name riscv32-unknown-elf.cmake)
  else()
    set(_tacet_toolchain_name arm-none-eabi.cmake)
  endif()
  if(_tacet_kind STREQUAL "package")
    set(_tacet_toolchain ${_tacet_dir}/share/tacet/cmake/${_tacet_toolchain_name})
  else()
    set(_tacet_toolchain ${_tacet_dir}/cmake/${_tacet_toolchain_name})
  endif()
  if(NOT EXISTS ${_tacet_toolchain})
    message(FATAL_ERROR "TACET_PORT=${TACET_PORT}: no toolchain file ${_tacet_toolchain} in the "
      "Tacet found (${_tacet_how}); give one with -DCMAKE_TOOLCHAIN_FILE")
  endif()
  set(CMAKE_TOOLCHAIN_FILE ${_tacet_toolchain} CACHE FILEPATH "Tacet's toolchain file")
endif()

# After project(): tacet::kernel, tacet_add_app() and TACET_EMULATOR (the command that runs a
# program of the build: QEMU for the mps2 boards, nothing on sim, empty when nothing can).
macro(tacet_init)
  if(_tacet_kind STREQUAL "source tree")
    file(STRINGS ${_tacet_dir}/VERSION _tacet_version LIMIT_COUNT 1)
    string(REGEX MATCH "^[0-9]+\\.[0-9]+" _tacet_minor "${_tacet_version}")
    if(NOT _tacet_minor VERSION_EQUAL _tacet_version_wanted)
      message(FATAL_ERROR "Tacet in ${_tacet_dir} (${_tacet_how}) is version "
        "${_tacet_version}; this project is written for ${_tacet_version_wanted}.x")
    endif()
    add_subdirectory(${_tacet_dir} ${CMAKE_BINARY_DIR}/tacet EXCLUDE_FROM_ALL)
  else()
    set(_tacet_component "${TACET_COMPONENT}")
    if(NOT _tacet_component)
      if(TACET_PORT STREQUAL "sim")
        set(_tacet_component sim)
      elseif(TACET_PORT STREQUAL "riscv" OR TACET_CM_BOARD STREQUAL "mps2")
        set(_tacet_component ${TACET_CPU})
      else()
        set(_tacet_component ${TACET_CM_BOARD})
      endif()
      if("TC_TRACE=1" IN_LIST TACET_DEFINITIONS)
        string(APPEND _tacet_component -trace)
      endif()
    endif()
    if(NOT EXISTS ${_tacet_dir}/lib/cmake/Tacet/${_tacet_component}/TacetConfiguration.cmake)
      file(GLOB _tacet_installed RELATIVE ${_tacet_dir}/lib/cmake/Tacet
           ${_tacet_dir}/lib/cmake/Tacet/*/TacetConfiguration.cmake)
      list(TRANSFORM _tacet_installed REPLACE "/TacetConfiguration.cmake$" "")
      list(SORT _tacet_installed)
      string(REPLACE ";" ", " _tacet_installed "${_tacet_installed}")
      if(TACET_PORT STREQUAL "sim")
        set(_tacet_preset sim)
      elseif(TACET_PORT STREQUAL "riscv")
        set(_tacet_preset "qemu-rv32 -DTACET_CPU=${TACET_CPU}")
      else()
        set(_tacet_preset "qemu-m3 -DTACET_CPU=${TACET_CPU} -DTACET_CM_BOARD=${TACET_CM_BOARD}")
      endif()
      message(FATAL_ERROR "The Tacet installed in ${_tacet_dir} (${_tacet_how}) has no "
        "configuration ${_tacet_component} (installed: ${_tacet_installed}). Install one from a "
        "Tacet tree:
"
        "  cmake --preset ${_tacet_preset} -B build/pkg-${_tacet_component} "
        "-DTACET_DEFINITIONS='${TACET_DEFINITIONS}' -DTACET_INSTALL_CONFIG=${_tacet_component} "
        "-DTACET_BUILD_TESTS=OFF -DTACET_BUILD_EXAMPLES=OFF
"
        "  cmake --build build/pkg-${_tacet_component} && cmake --install "
        "build/pkg-${_tacet_component} --prefix ${_tacet_dir}
"
        "or name another with -DTACET_COMPONENT, or build against a Tacet source tree "
        "(TACET_DIR).")
    endif()
    set(Tacet_DIR ${_tacet_dir}/lib/cmake/Tacet CACHE PATH "The directory of TacetConfig.cmake" FORCE)
    find_package(Tacet ${_tacet_version_wanted} REQUIRED COMPONENTS ${_tacet_component})
    set(_tacet_version ${Tacet_VERSION})
    # The installed kernel was compiled with its options and for its board: they cannot change.
    foreach(_tacet_d ${TACET_DEFINITIONS})
      if(NOT _tacet_d IN_LIST TACET_INSTALLED_DEFINITIONS)
        message(FATAL_ERROR "TACET_DEFINITIONS asks for ${_tacet_d}, and the installed "
          "configuration ${TACET_CONFIGURATION} in ${_tacet_dir} was built without it "
          "(with: ${TACET_INSTALLED_DEFINITIONS}). Install one built with it (cmake --preset ... "
          "-DTACET_DEFINITIONS='${TACET_DEFINITIONS}' -DTACET_INSTALL_CONFIG=<name>, then "
          "cmake --install) and name it with -DTACET_COMPONENT=<name>, or build against a "
          "Tacet source tree (TACET_DIR)")
      endif()
    endforeach()
    if(TACET_PORT STREQUAL "cortex-m" AND DEFINED TACET_INSTALLED_BOARD
       AND NOT TACET_INSTALLED_BOARD STREQUAL TACET_CM_BOARD)
      message(FATAL_ERROR "TACET_CM_BOARD is ${TACET_CM_BOARD}, and the installed configuration "
        "${TACET_CONFIGURATION} in ${_tacet_dir} is built for board ${TACET_INSTALLED_BOARD}: "
        "install a build of that board (-DTACET_CM_BOARD=${TACET_CM_BOARD} "
        "-DTACET_INSTALL_CONFIG=${TACET_CM_BOARD}) and name it with -DTACET_COMPONENT")
    endif()
  endif()
  if(TACET_PORT STREQUAL "cortex-m")
    set(_tacet_for "${TACET_PORT} port, ${TACET_CPU}, board ${TACET_CM_BOARD}")
  elseif(TACET_PORT STREQUAL "riscv")
    set(_tacet_for "${TACET_PORT} port, ${TACET_CPU}")
  else()
    set(_tacet_for "${TACET_PORT} port")
  endif()
  message(STATUS "Tacet ${_tacet_version}: the ${_tacet_kind} ${_tacet_dir} (${_tacet_how}); "
                 "${_tacet_for}")
endmacro()
