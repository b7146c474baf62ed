# SPDX-License-Identifier: MIT
# tacet_power_table(<target> <board>): compile <target> with the C header of a board power
# table (docs/energy.md, "Board tables"). <board> is a table's name in power/ (lpc2148) or a
# path to a .yaml file (relative to the calling CMakeLists.txt). At build time `tacet power
# --header` writes tacet_power_<name>.h (the name in lower case with - as _) under
# tacet_power/ in <target>'s binary directory, which goes on <target>'s include path:
#   #include "tacet_power_lpc2148.h"   /* TC_POWER_LPC2148_POINTS, _COUNT, _C_EFF ... */
# The table and the generator's sources are dependencies: editing the YAML regenerates the
# header and rebuilds what includes it. Several targets of one directory may use one table.
# The generator runs in the interpreter tacet_add_app uses (TACET_PYTHON, default .venv).
if(NOT COMMAND tacet_add_app)  # TACET_APP_ROOT and TACET_APP_PYTHON come from there
  include(${CMAKE_CURRENT_LIST_DIR}/TacetApp.cmake)
endif()
file(GLOB _tacet_power_sources
  ${TACET_APP_ROOT}/tools/tacet/power/*.py ${TACET_APP_ROOT}/tools/tacet/core/*.py)
set(TACET_POWER_GENERATOR
  ${_tacet_power_sources}
  ${TACET_APP_ROOT}/tools/tacet/cli/power.py
  ${TACET_APP_ROOT}/schema/tacet-power.schema.json
  ${TACET_APP_ROOT}/include/tacet/config.h
  CACHE INTERNAL "")

function(tacet_power_table target board)
  if(board MATCHES "/" OR board MATCHES "\\.ya?ml$")
    cmake_path(ABSOLUTE_PATH board BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
               NORMALIZE OUTPUT_VARIABLE yaml)
    cmake_path(GET yaml STEM name)
  else()
    set(yaml ${TACET_APP_ROOT}/power/${board}.yaml)
    set(name ${board})
  endif()
  if(NOT EXISTS ${yaml})
    message(FATAL_ERROR "tacet_power_table(${target} ${board}): no such table ${yaml}")
  endif()
  # The header is named after the file; the generator checks the table's own name.
  string(TOLOWER "${name}" name)
  string(REPLACE "-" "_" name "${name}")
  get_target_property(bin ${target} BINARY_DIR)
  set(out ${bin}/tacet_power)
  set(header ${out}/tacet_power_${name}.h)
  # One custom command per header: targets of one directory share it.
  cmake_path(RELATIVE_PATH header BASE_DIRECTORY ${CMAKE_BINARY_DIR} OUTPUT_VARIABLE relative)
  string(MAKE_C_IDENTIFIER "${relative}" key)
  if(NOT TARGET tacet_power_${key})
    add_custom_command(
      OUTPUT ${header}
      COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${TACET_APP_ROOT}/tools
              ${TACET_APP_PYTHON} -m tacet power --header ${header} ${yaml}
      DEPENDS ${yaml} ${TACET_POWER_GENERATOR}
      COMMENT "tacet power ${board}"
      VERBATIM)
    add_custom_target(tacet_power_${key} DEPENDS ${header})
  endif()
  target_sources(${target} PRIVATE ${header})
  target_include_directories(${target} PRIVATE ${out})
  add_dependencies(${target} tacet_power_${key})
endfunction()
