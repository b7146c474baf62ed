# SPDX-License-Identifier: MIT
# Thread-Metric on the anchor kernels (docs/measurements.md): the same programs (tests.c) on ThreadX and
# FreeRTOS, through their porting layers, in the configurations `tacet bench --anchors`
# compares Tacet's default and lean builds with. Built only when THREADX_DIR / FREERTOS_DIR
# name the kernels' source trees, which whoever measures fetches: their code is never part of
# this repository. THREADX_COMMIT / FREERTOS_COMMIT name the trees' commits in the programs'
# reports (by default what git says of the tree, else "unknown").
#
#   thread_metric_threadx_bare     TX_DISABLE_ERROR_CHECKING
#   thread_metric_threadx_checks   ThreadX's default: the _txe_ argument checks
#   thread_metric_threadx_counters the checks + the performance information of threads,
#                                  semaphores, queues and block pools + the execution profile
#                                  kit timed by the CMSDK timer 0 (Tacet's default counters)
#   thread_metric_freertos         FreeRTOS's defaults (FreeRTOSConfig.h)
#   thread_metric_freertos_stats   + configGENERATE_RUN_TIME_STATS + configUSE_TRACE_FACILITY
#
# Kernels and layers at -O2, with the tree's code generation flags, like Tacet's benchmark
# kernels; every kernel ticks at TM_TICK_HZ (1000, Tacet's TC_TICK_HZ).
set(THREADX_DIR "" CACHE PATH "ThreadX source tree for the Thread-Metric anchors (empty: not built)")
set(FREERTOS_DIR "" CACHE PATH "FreeRTOS-Kernel source tree for the Thread-Metric anchors (empty: not built)")
set(THREADX_COMMIT "" CACHE STRING "ThreadX's commit, for the reports (empty: ask git)")
set(FREERTOS_COMMIT "" CACHE STRING "FreeRTOS-Kernel's commit, for the reports (empty: ask git)")
set(TM_TICK_HZ 1000)
set(_tm ${CMAKE_CURRENT_LIST_DIR})

function(_tm_commit dir given out)
  set(commit "${given}")
  if(commit STREQUAL "")
    execute_process(COMMAND git -C ${dir} rev-parse --short=7 HEAD OUTPUT_VARIABLE commit
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
    if(failed OR commit STREQUAL "")
      set(commit unknown)
    endif()
  endif()
  set(${out} ${commit} PARENT_SCOPE)
endfunction()

# An anchor program: `exe` from the kernel library `kernel`, its layer `layer` compiled with
# `defs` (the kernel's options, which its headers read too).
function(_tm_anchor exe kernel layer includes defs)
  add_executable(${exe} ${_tm}/tests.c ${_tm}/${layer} ${_tm}/board_mps2.c)
  target_include_directories(${exe} SYSTEM PRIVATE ${includes})
  target_include_directories(${exe} PRIVATE ${_tm})
  target_compile_definitions(${exe} PRIVATE ${defs} TM_TICK_HZ=${TM_TICK_HZ})
  target_compile_options(${exe} PRIVATE ${TACET_WARNINGS} -O2)
  target_link_libraries(${exe} PRIVATE ${kernel} tacet_cm_link)
  set_property(GLOBAL APPEND PROPERTY TM_ANCHOR_PROGRAMS ${exe})
endfunction()

if(THREADX_DIR)
  if(NOT EXISTS ${THREADX_DIR}/common/inc/tx_api.h)
    message(FATAL_ERROR "THREADX_DIR=${THREADX_DIR}: not a ThreadX tree (no common/inc/tx_api.h)")
  endif()
  _tm_commit(${THREADX_DIR} "${THREADX_COMMIT}" tx_commit)
  if(TACET_CPU STREQUAL "cortex-m4f")
    set(tx_port ${THREADX_DIR}/ports/cortex_m4/gnu)
  else()
    set(tx_port ${THREADX_DIR}/ports/cortex_m3/gnu)
  endif()
  file(GLOB tx_sources ${THREADX_DIR}/common/src/*.c ${tx_port}/src/*.S)
  set(tx_includes ${THREADX_DIR}/common/inc ${tx_port}/inc)
  set(tx_profile_kit ${THREADX_DIR}/utility/execution_profile_kit)
  # Joined by commas: one element of the variant list below.
  set(tx_counters "TX_THREAD_ENABLE_PERFORMANCE_INFO,TX_SEMAPHORE_ENABLE_PERFORMANCE_INFO,\
TX_QUEUE_ENABLE_PERFORMANCE_INFO,TX_BLOCK_POOL_ENABLE_PERFORMANCE_INFO,TX_EXECUTION_PROFILE_ENABLE,\
TX_CORTEX_M_EPK,TX_EXECUTION_TIME_SOURCE=(EXECUTION_TIME_SOURCE_TYPE)tm_board_counter()")
  foreach(variant "bare|TX_DISABLE_ERROR_CHECKING|TX_DISABLE_ERROR_CHECKING" "checks||default"
                  "counters|${tx_counters}|checks,performance_info,execution_profile")
    string(REPLACE "|" ";" v "${variant}")
    list(GET v 0 name)
    list(GET v 1 defs)
    list(GET v 2 options)
    string(REPLACE "," ";" defs "${defs}")
    set(sources ${tx_sources})
    set(includes ${tx_includes})
    if(name STREQUAL "counters")
      list(APPEND sources ${tx_profile_kit}/tx_execution_profile.c)
      list(APPEND includes ${tx_profile_kit} ${_tm})
    endif()
    add_library(tm_threadx_${name} STATIC ${sources})
    target_include_directories(tm_threadx_${name} PUBLIC ${includes})
    target_compile_definitions(tm_threadx_${name} PUBLIC ${defs})
    target_compile_options(tm_threadx_${name} PRIVATE -O2 -w -fno-data-sections -fno-function-sections)
    if(name STREQUAL "counters")
      # The profile kit's time source reads the board's counter.
      target_compile_options(tm_threadx_${name} PRIVATE $<$<COMPILE_LANGUAGE:C>:-include ${_tm}/board_mps2.h>)
    endif()
    _tm_anchor(thread_metric_threadx_${name} tm_threadx_${name} port_threadx.c "${includes}"
               "TM_KERNEL_VERSION=\"${tx_commit}\";TM_KERNEL_OPTIONS=\"${options}\"")
  endforeach()
endif()

if(FREERTOS_DIR)
  if(NOT EXISTS ${FREERTOS_DIR}/include/FreeRTOS.h)
    message(FATAL_ERROR "FREERTOS_DIR=${FREERTOS_DIR}: not a FreeRTOS-Kernel tree (no include/FreeRTOS.h)")
  endif()
  _tm_commit(${FREERTOS_DIR} "${FREERTOS_COMMIT}" rtos_commit)
  if(TACET_CPU STREQUAL "cortex-m4f")
    set(rtos_port ${FREERTOS_DIR}/portable/GCC/ARM_CM4F)
  else()
    set(rtos_port ${FREERTOS_DIR}/portable/GCC/ARM_CM3)
  endif()
  set(rtos_includes ${FREERTOS_DIR}/include ${rtos_port})
  foreach(variant "|0|default" "_stats|1|run_time_stats,trace_facility")
    string(REPLACE "|" ";" v "${variant}")
    list(GET v 0 suffix)
    list(GET v 1 stats)
    list(GET v 2 options)
    add_library(tm_freertos${suffix} STATIC ${FREERTOS_DIR}/tasks.c ${FREERTOS_DIR}/queue.c
                ${FREERTOS_DIR}/list.c ${rtos_port}/port.c)
    target_include_directories(tm_freertos${suffix} PUBLIC ${_tm} ${rtos_includes})
    target_compile_definitions(tm_freertos${suffix} PUBLIC TM_FREERTOS_STATS=${stats} TM_TICK_HZ=${TM_TICK_HZ})
    target_compile_options(tm_freertos${suffix} PRIVATE -O2 -w -fno-data-sections -fno-function-sections)
    _tm_anchor(thread_metric_freertos${suffix} tm_freertos${suffix} port_freertos.c "${rtos_includes}"
               "TM_KERNEL_VERSION=\"${rtos_commit}\";TM_KERNEL_OPTIONS=\"${options}\"")
  endforeach()
endif()

# ---- Thread-Metric through CMSIS-RTOS2 on other kernels ------------------------------------------
# The same programs through CMSIS-RTOS2 (port_cmsis_os2.c, cmsis_os2.h alone), which
# bench/CMakeLists.txt builds on Tacet's layer, on Keil RTX5 (RTX_DIR: ARM-software/CMSIS-RTX)
# and on FreeRTOS through ARM's CMSIS-RTOS2 wrapper (CMSIS_FREERTOS_DIR:
# ARM-software/CMSIS-FreeRTOS, with the kernel of FREERTOS_DIR), both needing CMSIS_6
# (CMSIS6_DIR: CMSIS-Core, cmsis_os2.h and its SysTick driver os_systick.c). Each kernel in its
# own default configuration (RTX_Config.h; the wrapper's FreeRTOSConfig.h), but for time
# slicing, off as on Tacet's layer (cmsis_kernels/FreeRTOSConfig.h); the device header and
# SystemCoreClock are cmsis_kernels/, the start-up board_mps2.c.
#
#   thread_metric_rtx              RTX5: RTX_Config.h, OS_ROBIN_ENABLE=0
#   thread_metric_cmsis_freertos   FreeRTOS + CMSIS-FreeRTOS: its FreeRTOSConfig.h,
#                                  configUSE_TIME_SLICING=0, a 32 KB heap
set(RTX_DIR "" CACHE PATH "CMSIS-RTX (RTX5) source tree for Thread-Metric through CMSIS-RTOS2 (empty: not built)")
set(CMSIS_FREERTOS_DIR "" CACHE PATH "CMSIS-FreeRTOS source tree (with FREERTOS_DIR) for Thread-Metric through CMSIS-RTOS2")
set(CMSIS6_DIR "" CACHE PATH "CMSIS_6 source tree, which RTX_DIR and CMSIS_FREERTOS_DIR need")
set(RTX_COMMIT "" CACHE STRING "CMSIS-RTX's commit, for the reports (empty: ask git)")
set(CMSIS_FREERTOS_COMMIT "" CACHE STRING "CMSIS-FreeRTOS's commit, for the reports (empty: ask git)")

function(_tm_cmsis_check variable dir file what)
  if(NOT EXISTS ${dir}/${file})
    message(FATAL_ERROR "${variable}=${dir}: not ${what} (no ${file})")
  endif()
endfunction()

if(RTX_DIR OR CMSIS_FREERTOS_DIR)
  if(NOT CMSIS6_DIR)
    message(FATAL_ERROR "RTX_DIR and CMSIS_FREERTOS_DIR need CMSIS6_DIR, a CMSIS_6 tree")
  endif()
  _tm_cmsis_check(CMSIS6_DIR ${CMSIS6_DIR} CMSIS/RTOS2/Include/cmsis_os2.h "a CMSIS_6 tree")
  set(cmsis_includes ${_tm}/cmsis_kernels ${CMSIS6_DIR}/CMSIS/Core/Include ${CMSIS6_DIR}/CMSIS/RTOS2/Include)
  set(cmsis_defs "CMSIS_device_header=\"mps2_device.h\"")
  # A CMSIS kernel library: its sources, the SysTick driver and SystemCoreClock, at -O2 with the
  # trees' code generation flags, as the other anchors.
  function(_tm_cmsis_kernel name sources includes defs)
    add_library(${name} STATIC ${sources} ${CMSIS6_DIR}/CMSIS/RTOS2/Source/os_systick.c
                ${_tm}/cmsis_kernels/system_mps2.c)
    target_include_directories(${name} SYSTEM PUBLIC ${includes})
    target_compile_definitions(${name} PUBLIC ${defs})
    target_compile_options(${name} PRIVATE -O2 -w -fno-data-sections -fno-function-sections)
  endfunction()
  function(_tm_cmsis_anchor exe kernel name version options)
    _tm_anchor(${exe} ${kernel} port_cmsis_os2.c "" "TM_KERNEL_NAME=\"${name}\";TM_KERNEL_VERSION=\"${version}\";TM_KERNEL_OPTIONS=\"${options}\"")
  endfunction()
endif()

if(RTX_DIR)
  _tm_cmsis_check(RTX_DIR ${RTX_DIR} Source/rtx_kernel.c "a CMSIS-RTX tree")
  _tm_commit(${RTX_DIR} "${RTX_COMMIT}" rtx_commit)
  file(GLOB rtx_sources ${RTX_DIR}/Source/rtx_*.c)
  list(APPEND rtx_sources ${RTX_DIR}/Config/RTX_Config.c ${RTX_DIR}/Source/GCC/irq_armv7m.S)
  _tm_cmsis_kernel(tm_rtx "${rtx_sources}"
                   "${cmsis_includes};${RTX_DIR}/Include;${RTX_DIR}/Config;${RTX_DIR}/Source"
                   "${cmsis_defs};OS_ROBIN_ENABLE=0")
  _tm_cmsis_anchor(thread_metric_rtx tm_rtx RTX5 ${rtx_commit} "RTX_Config.h,no_round_robin")
endif()

if(CMSIS_FREERTOS_DIR)
  if(NOT FREERTOS_DIR)
    message(FATAL_ERROR "CMSIS_FREERTOS_DIR needs FREERTOS_DIR, the FreeRTOS-Kernel tree it wraps")
  endif()
  set(wrapper ${CMSIS_FREERTOS_DIR}/CMSIS/RTOS2/FreeRTOS)
  _tm_cmsis_check(CMSIS_FREERTOS_DIR ${CMSIS_FREERTOS_DIR} CMSIS/RTOS2/FreeRTOS/Source/cmsis_os2.c
                  "a CMSIS-FreeRTOS tree")
  _tm_commit(${CMSIS_FREERTOS_DIR} "${CMSIS_FREERTOS_COMMIT}" wrapper_commit)
  _tm_commit(${FREERTOS_DIR} "${FREERTOS_COMMIT}" kernel_commit)
  if(TACET_CPU STREQUAL "cortex-m4f")
    set(rtos_port ${FREERTOS_DIR}/portable/GCC/ARM_CM4F)
  else()
    set(rtos_port ${FREERTOS_DIR}/portable/GCC/ARM_CM3)
  endif()
  set(sources ${FREERTOS_DIR}/tasks.c ${FREERTOS_DIR}/queue.c ${FREERTOS_DIR}/list.c ${FREERTOS_DIR}/timers.c
      ${FREERTOS_DIR}/event_groups.c ${rtos_port}/port.c ${FREERTOS_DIR}/portable/MemMang/heap_4.c
      ${wrapper}/Source/cmsis_os2.c)
  # cmsis_kernels/FreeRTOSConfig.h first: it includes the wrapper's own (TM_WRAPPER_CONFIG).
  _tm_cmsis_kernel(tm_cmsis_freertos "${sources}"
                   "${cmsis_includes};${FREERTOS_DIR}/include;${rtos_port};${wrapper}/Include"
                   "${cmsis_defs};TM_WRAPPER_CONFIG=\"${wrapper}/Config/FreeRTOSConfig.h\"")
  _tm_cmsis_anchor(thread_metric_cmsis_freertos tm_cmsis_freertos FreeRTOS
                   "${kernel_commit}+CMSIS-FreeRTOS-${wrapper_commit}" "wrapper_config,no_time_slicing")
endif()
