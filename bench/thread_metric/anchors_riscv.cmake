# SPDX-License-Identifier: MIT
# Thread-Metric on the anchor kernels on RISC-V (QEMU virt, RV32): anchors.cmake's programs for
# the RISC-V port (docs/measurements.md), from the trees the caller names, never part of this
# repository; THREADX_DIR, FREERTOS_DIR, THREADX_COMMIT, FREERTOS_COMMIT as there.
#
#   thread_metric_freertos         FreeRTOS's defaults (riscv/FreeRTOSConfig.h), GCC/RISC-V
#   thread_metric_freertos_stats   + configGENERATE_RUN_TIME_STATS + configUSE_TRACE_FACILITY
#
# ThreadX has no RV32 port for GCC: its tree holds ports/risc-v32/iar (IAR's assembler) and
# ports/risc-v64/gnu, whose context restore reads the saved mepc at a 64-bit byte offset
# (240(sp), not 30*REGBYTES) and whose interrupt posture is a 64-bit ULONG64 -- it does not
# run as RV32 unmodified. Rather than a port of our own under ThreadX's name, THREADX_DIR is
# refused here (and `tacet bench anchors` says so before configuring). A tree with
# ports/risc-v32/gnu is refused too: no such port has been released to build against yet.
set(THREADX_DIR "" CACHE PATH "ThreadX source tree for the Thread-Metric anchors (empty: not built)")
set(FREERTOS_DIR "" CACHE PATH "FreeRTOS-Kernel source tree for the Thread-Metric anchors (empty: not built)")
set(FREERTOS_COMMIT "" CACHE STRING "FreeRTOS-Kernel's commit, for the reports (empty: ask git)")
set(TM_TICK_HZ 1000)
set(_tm ${CMAKE_CURRENT_LIST_DIR})

if(THREADX_DIR)
  message(FATAL_ERROR "THREADX_DIR=${THREADX_DIR}: ThreadX has no RV32 port for GCC (its tree has "
          "ports/risc-v32/iar and ports/risc-v64/gnu): no ThreadX anchor on ${TACET_CPU}")
endif()

if(FREERTOS_DIR)
  if(NOT EXISTS ${FREERTOS_DIR}/include/FreeRTOS.h)
    message(FATAL_ERROR "FREERTOS_DIR=${FREERTOS_DIR}: not a FreeRTOS-Kernel tree (no include/FreeRTOS.h)")
  endif()
  set(rtos_port ${FREERTOS_DIR}/portable/GCC/RISC-V)
  set(rtos_chip ${rtos_port}/chip_specific_extensions/RISCV_MTIME_CLINT_no_extensions)
  if(NOT EXISTS ${rtos_port}/portASM.S OR NOT EXISTS ${rtos_chip})
    message(FATAL_ERROR "FREERTOS_DIR=${FREERTOS_DIR}: no RISC-V port (portable/GCC/RISC-V with "
            "chip_specific_extensions/RISCV_MTIME_CLINT_no_extensions)")
  endif()
  set(rtos_commit "${FREERTOS_COMMIT}")
  if(rtos_commit STREQUAL "")
    execute_process(COMMAND git -C ${FREERTOS_DIR} rev-parse --short=7 HEAD OUTPUT_VARIABLE rtos_commit
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
    if(failed OR rtos_commit STREQUAL "")
      set(rtos_commit unknown)
    endif()
  endif()
  # riscv/ first: its FreeRTOSConfig.h, not the Cortex-M one beside the layer.
  set(rtos_includes ${_tm}/riscv ${_tm} ${FREERTOS_DIR}/include ${rtos_port} ${rtos_chip})
  foreach(variant "|0|default" "_stats|1|run_time_stats,trace_facility")
    string(REPLACE "|" ";" v "${variant}")
    list(GET v 0 suffix)
    list(GET v 1 stats)
    list(GET v 2 options)
    add_library(tm_freertos${suffix} STATIC ${FREERTOS_DIR}/tasks.c ${FREERTOS_DIR}/queue.c
                ${FREERTOS_DIR}/list.c ${rtos_port}/port.c ${rtos_port}/portASM.S)
    target_include_directories(tm_freertos${suffix} BEFORE PUBLIC ${rtos_includes})
    target_compile_definitions(tm_freertos${suffix} PUBLIC TM_FREERTOS_STATS=${stats} TM_TICK_HZ=${TM_TICK_HZ})
    if(TACET_CPU STREQUAL "rv32imafc")
      # The FP context (saved when mstatus.FS is dirty, as Tacet's RV32IMAFC build does): on
      # the command line, because portASM.S reads it and includes no FreeRTOSConfig.h.
      target_compile_definitions(tm_freertos${suffix} PUBLIC configENABLE_FPU=1)
    endif()
    target_compile_options(tm_freertos${suffix} PRIVATE -O2 -w -fno-data-sections -fno-function-sections)
    set(exe thread_metric_freertos${suffix})
    add_executable(${exe} ${_tm}/tests.c ${_tm}/port_freertos.c ${_tm}/board_virt.c)
    target_include_directories(${exe} BEFORE PRIVATE ${_tm}/riscv ${_tm})
    target_include_directories(${exe} SYSTEM PRIVATE ${rtos_includes})
    target_compile_definitions(${exe} PRIVATE TM_TICK_HZ=${TM_TICK_HZ} "TM_KERNEL_VERSION=\"${rtos_commit}\""
                               "TM_KERNEL_OPTIONS=\"${options}\"")
    target_compile_options(${exe} PRIVATE ${TACET_WARNINGS} -O2)
    target_link_libraries(${exe} PRIVATE tm_freertos${suffix} tacet_rv_link)
    set_property(GLOBAL APPEND PROPERTY TM_ANCHOR_PROGRAMS ${exe})
  endforeach()
endif()
