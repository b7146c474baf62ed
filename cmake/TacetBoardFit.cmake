# SPDX-License-Identifier: MIT
# tacet_board_unfit(): call at the end of a CMakeLists.txt that defines programs and their
# tests. A board with little RAM lists in TACET_BOARD_UNFIT (its board.cmake) the programs of
# the repository that do not fit in it -- the linker would refuse them ("cannot move location
# counter backwards" at the stacks). Those of the calling directory are left out of `all`, and
# their tests (named as the program, or example.<program>) are disabled, so that ctest names
# each one "Not Run (Disabled)" instead of leaving it out silently. The directory's static
# libraries (the kernel in the tests' and benchmarks' configurations) are left out of `all` too:
# those the remaining programs link are built as their dependencies, the others -- kernels only
# the programs left out use -- not at all.
function(tacet_board_unfit)
  if(NOT TACET_BOARD_UNFIT)
    return()
  endif()
  get_property(targets DIRECTORY PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    if(t IN_LIST TACET_BOARD_UNFIT OR type STREQUAL "STATIC_LIBRARY")
      set_target_properties(${t} PROPERTIES EXCLUDE_FROM_ALL TRUE)
    endif()
  endforeach()
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t ${tests})
    string(REGEX REPLACE "^example\\." "" program ${t})
    if(program IN_LIST TACET_BOARD_UNFIT)
      set_tests_properties(${t} PROPERTIES DISABLED TRUE)
    endif()
  endforeach()
endfunction()
