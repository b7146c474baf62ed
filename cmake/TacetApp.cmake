# SPDX-License-Identifier: MIT
# tacet_add_app(<target> <app.yaml>): build <target> with the start-up code generated from a
# system description (docs/config.md). At build time `tacet config` turns the description into
# tacet_app.c and tacet_app.h under <build>/tacet_apps/<path of the description>/; the source
# is compiled into <target> and the directory is on its include path (#include "tacet_app.h").
# The description, the board power table it names (board.power, through a depfile) and the
# generator's own sources are dependencies, so editing the YAML (or the generator) regenerates
# the files and rebuilds what includes them. Several targets may use one description: it is
# generated once.
#
# The description is checked for the build's target (TACET_PORT and TACET_CPU: sim, qemu-m3
# or qemu-m4, `tacet config --target`): a thread's stack against that port's minimum only, so
# a 4096-byte stack is fine on Cortex-M and refused, naming the thread, on the sim port.
#
# The generator is this tree's tools/ or, in an installed package, the copy under
# share/tacet/ (TacetConfig.cmake sets TACET_APP_GENERATOR_ROOT). It runs in the Python that
# TACET_PYTHON names (the cache variable, else the environment variable), else the tree's
# .venv (make deps), else python3; it needs PyYAML, jsonschema and rich, and the first call of
# tacet_add_app stops the configuration with what to do when they are missing.
if(DEFINED TACET_APP_GENERATOR_ROOT)
  set(TACET_APP_ROOT ${TACET_APP_GENERATOR_ROOT})
else()
  set(TACET_APP_ROOT ${CMAKE_CURRENT_LIST_DIR}/..)
endif()
cmake_path(NORMAL_PATH TACET_APP_ROOT)
string(REGEX REPLACE "(.)/$" "\\1" TACET_APP_ROOT "${TACET_APP_ROOT}")
# (The default is looked for at every configure, not cached: a .venv made after the first
# configure is then used.)
set(TACET_PYTHON "" CACHE FILEPATH
    "Python that runs the generator of tacet_add_app (needs PyYAML, jsonschema and rich); default: $ENV{TACET_PYTHON}, the tree's .venv, python3")
if(TACET_PYTHON)
  set(TACET_APP_PYTHON ${TACET_PYTHON})
elseif(NOT "$ENV{TACET_PYTHON}" STREQUAL "")
  set(TACET_APP_PYTHON $ENV{TACET_PYTHON})
elseif(EXISTS ${TACET_APP_ROOT}/.venv/bin/python)
  set(TACET_APP_PYTHON ${TACET_APP_ROOT}/.venv/bin/python)
else()
  set(TACET_APP_PYTHON python3)
endif()
# What the generated code depends on besides the description: `tacet config` and the packages
# it imports (tools/tacet/__init__.py says which may import which).
file(GLOB TACET_APP_GENERATOR
  ${TACET_APP_ROOT}/tools/tacet/app/*.py
  ${TACET_APP_ROOT}/tools/tacet/analysis/*.py
  ${TACET_APP_ROOT}/tools/tacet/power/*.py
  ${TACET_APP_ROOT}/tools/tacet/core/*.py)
list(APPEND TACET_APP_GENERATOR
  ${TACET_APP_ROOT}/tools/tacet/cli/config.py
  ${TACET_APP_ROOT}/schema/tacet-app.schema.json
  ${TACET_APP_ROOT}/schema/tacet-power.schema.json)
# Seen by tacet_add_app and tacet_power_table wherever they are called: a project that adds
# Tacet with add_subdirectory calls them from its own directory scope, where the normal
# variables set here do not reach.
foreach(var TACET_APP_ROOT TACET_APP_PYTHON TACET_APP_GENERATOR)
  set(${var} "${${var}}" CACHE INTERNAL "")
endforeach()

# The generator's interpreter can import what it needs: checked once per configure, by the
# first tacet_add_app, so that a missing module is a configure error saying what to do rather
# than a traceback in the middle of the build.
function(_tacet_app_check_python)
  get_property(checked GLOBAL PROPERTY _TACET_APP_PYTHON_CHECKED)
  if(checked)
    return()
  endif()
  execute_process(
    COMMAND ${TACET_APP_PYTHON} -c "import sys; assert sys.version_info >= (3, 11), sys.version; import yaml, jsonschema, rich"
    RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE error)
  if(NOT status EQUAL 0)
    # The last line of the traceback (ModuleNotFoundError: ...), or why it did not start.
    string(STRIP "${error}" error)
    string(REGEX REPLACE ".*\n" "" error "${error}")
    if(NOT error)
      set(error "${status}")
    endif()
    message(FATAL_ERROR "tacet_add_app: the generator's Python, ${TACET_APP_PYTHON}, cannot run "
      "it (${error}): it needs Python 3.11 or later with PyYAML, jsonschema and rich. "
      "Set TACET_PYTHON (-DTACET_PYTHON=... or the environment variable) to one that has them, "
      "e.g. the .venv/bin/python that `make deps` makes in a Tacet tree.")
  endif()
  set_property(GLOBAL PROPERTY _TACET_APP_PYTHON_CHECKED TRUE)
endfunction()

function(tacet_add_app target description)
  cmake_path(ABSOLUTE_PATH description BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
             NORMALIZE OUTPUT_VARIABLE yaml)
  if(NOT EXISTS ${yaml})
    message(FATAL_ERROR "tacet_add_app(${target} ${description}): no such file ${yaml}")
  endif()
  _tacet_app_check_python()
  # The build's target, as `tacet config --target` names it (its stack minimum).
  set(for_target "")
  if(TACET_PORT STREQUAL "sim")
    set(for_target --target sim)
  elseif(TACET_PORT STREQUAL "cortex-m" AND TACET_CPU STREQUAL "cortex-m3")
    set(for_target --target qemu-m3)
  elseif(TACET_PORT STREQUAL "cortex-m" AND TACET_CPU STREQUAL "cortex-m4f")
    set(for_target --target qemu-m4)
  elseif(TACET_PORT STREQUAL "riscv" AND TACET_CPU STREQUAL "rv32imac")
    set(for_target --target qemu-rv32)
  elseif(TACET_PORT STREQUAL "riscv" AND TACET_CPU STREQUAL "rv32imafc")
    set(for_target --target qemu-rv32f)
  endif()
  # One output directory (and one custom command) per description.
  cmake_path(RELATIVE_PATH yaml BASE_DIRECTORY ${TACET_APP_ROOT} OUTPUT_VARIABLE relative)
  if(relative MATCHES "^\\.\\./")
    # Outside the Tacet tree (a project of its own): named from the project's top directory.
    cmake_path(RELATIVE_PATH yaml BASE_DIRECTORY ${CMAKE_SOURCE_DIR} OUTPUT_VARIABLE relative)
  endif()
  string(MAKE_C_IDENTIFIER "${relative}" key)
  set(out ${CMAKE_BINARY_DIR}/tacet_apps/${key})
  set(generated ${out}/tacet_app.c ${out}/tacet_app.h)
  if(NOT TARGET tacet_app_${key})
    add_custom_command(
      OUTPUT ${generated}
      COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${TACET_APP_ROOT}/tools
              ${TACET_APP_PYTHON} -m tacet config --quiet ${for_target} -o ${out}
              --depfile ${out}/tacet_app.d ${yaml}
      DEPENDS ${yaml} ${TACET_APP_GENERATOR}
      DEPFILE ${out}/tacet_app.d
      COMMENT "tacet config ${relative}"
      VERBATIM)
    add_custom_target(tacet_app_${key} DEPENDS ${generated})
  endif()
  target_sources(${target} PRIVATE ${generated})
  target_include_directories(${target} PRIVATE ${out})
  add_dependencies(${target} tacet_app_${key})
endfunction()
