# SPDX-License-Identifier: MIT
# Sim port: kernel threads as host machine contexts on a virtual clock.
set(TACET_PORT_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/sim.c
  ${CMAKE_CURRENT_LIST_DIR}/context.S)
set(TACET_PORT_INCLUDES ${CMAKE_CURRENT_LIST_DIR}/include)
set(TACET_PORT_LIBRARIES "")
