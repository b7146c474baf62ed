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
# The generator runs in the repository's Python environment, .venv (make deps), from this
# tree's tools/; TACET_PYTHON names another interpreter (it needs PyYAML and jsonschema).
set(TACET_APP_ROOT ${CMAKE_CURRENT_LIST_DIR}/..)
cmake_path(NORMAL_PATH TACET_APP_ROOT)
# (The default is looked for at every configure, not cached: a .venv made after the first
# configure is then used.)
set(TACET_PYTHON "" CACHE FILEPATH
    "Python that runs the generator of tacet_add_app (needs PyYAML and jsonschema); default: .venv")
if(TACET_PYTHON)
  set(TACET_APP_PYTHON ${TACET_PYTHON})
elseif(EXISTS ${TACET_APP_ROOT}/.venv/bin/python)
  set(TACET_APP_PYTHON ${TACET_APP_ROOT}/.venv/bin/python)
else()
  set(TACET_APP_PYTHON python3)
endif()
# What the generated code depends on besides the description.
set(TACET_APP_GENERATOR
  ${TACET_APP_ROOT}/tools/tacet/appdesc.py
  ${TACET_APP_ROOT}/tools/tacet/yamldoc.py
  ${TACET_APP_ROOT}/tools/tacet/appgen.py
  ${TACET_APP_ROOT}/tools/tacet/config.py
  ${TACET_APP_ROOT}/tools/tacet/analysis.py
  ${TACET_APP_ROOT}/tools/tacet/power.py
  ${TACET_APP_ROOT}/schema/tacet-app.schema.json
  ${TACET_APP_ROOT}/schema/tacet-power.schema.json)
# Seen by tacet_add_app and tacet_power_table wherever they are called: a project that adds
# Tacet with add_subdirectory calls them from its own directory scope, where the normal
# variables set here do not reach.
foreach(var TACET_APP_ROOT TACET_APP_PYTHON TACET_APP_GENERATOR)
  set(${var} "${${var}}" CACHE INTERNAL "")
endforeach()

function(tacet_add_app target description)
  cmake_path(ABSOLUTE_PATH description BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
             NORMALIZE OUTPUT_VARIABLE yaml)
  if(NOT EXISTS ${yaml})
    message(FATAL_ERROR "tacet_add_app(${target} ${description}): no such file ${yaml}")
  endif()
  # One output directory (and one custom command) per description.
  cmake_path(RELATIVE_PATH yaml BASE_DIRECTORY ${TACET_APP_ROOT} OUTPUT_VARIABLE relative)
  string(MAKE_C_IDENTIFIER "${relative}" key)
  set(out ${CMAKE_BINARY_DIR}/tacet_apps/${key})
  set(generated ${out}/tacet_app.c ${out}/tacet_app.h)
  if(NOT TARGET tacet_app_${key})
    add_custom_command(
      OUTPUT ${generated}
      COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${TACET_APP_ROOT}/tools
              ${TACET_APP_PYTHON} -m tacet config --quiet -o ${out}
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
