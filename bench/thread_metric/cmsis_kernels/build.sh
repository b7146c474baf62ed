#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Thread-Metric's CMSIS-RTOS2 program (../main.c, ../port_cmsis_os2.h) built against another
# kernel's CMSIS-RTOS2, for QEMU's mps2-an385 (compare.py runs it):
#
#   build.sh rtx      OUT CMSIS_6 CMSIS-RTX
#   build.sh freertos OUT CMSIS_6 FreeRTOS-Kernel CMSIS-FreeRTOS
#
# Their sources are compiled from the trees given, with their own default configuration files
# (RTX_Config.h without round robin; CMSIS-FreeRTOS's FreeRTOSConfig.h, with what
# FreeRTOSConfig.h here changes),
# arm-none-eabi-gcc -O2 as Tacet's benchmarks; the start-up, the device header and the linker
# script are this directory's. Writes OUT/thread_metric_cmsis_os2.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kind=${1:?usage: build.sh rtx|freertos OUT CMSIS_6 TREE...}
out=${2:?OUT}
cmsis6=$(cd "${3:?CMSIS_6}" && pwd)
shift 3
mkdir -p "$out"
cc=(arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -O2 -g -ffunction-sections -fdata-sections -std=gnu11)
includes=(-DCMSIS_device_header="\"mps2_device.h\"" -I"$here" -I"$cmsis6/CMSIS/Core/Include" -I"$cmsis6/CMSIS/RTOS2/Include")
ours=("$here/../main.c" "$here/startup.c")
case $kind in
  rtx)
    rtx=$(cd "${1:?CMSIS-RTX}" && pwd)
    # No round robin, as on Tacet (TC_OS2_TIME_SLICE 0): a thread runs until it yields or
    # blocks, the cooperative test's premise (its counts within one of each other).
    includes+=(-I"$rtx/Include" -I"$rtx/Config" -I"$rtx/Source" -DOS_ROBIN_ENABLE=0)
    theirs=("$rtx"/Source/rtx_*.c "$rtx/Config/RTX_Config.c" "$rtx/Source/GCC/irq_armv7m.S"
            "$cmsis6/CMSIS/RTOS2/Source/os_systick.c")
    ;;
  freertos)
    kernel=$(cd "${1:?FreeRTOS-Kernel}" && pwd)
    wrapper=$(cd "${2:?CMSIS-FreeRTOS}" && pwd)/CMSIS/RTOS2/FreeRTOS
    # This directory's FreeRTOSConfig.h (first on the path) includes the wrapper's own.
    includes+=(-I"$kernel/include" -I"$kernel/portable/GCC/ARM_CM3" -I"$wrapper/Include"
               -DTM_WRAPPER_CONFIG="\"$wrapper/Config/FreeRTOSConfig.h\"")
    theirs=("$kernel"/{tasks,queue,list,timers,event_groups}.c "$kernel/portable/GCC/ARM_CM3/port.c"
            "$kernel/portable/MemMang/heap_4.c" "$wrapper/Source/cmsis_os2.c"
            "$cmsis6/CMSIS/RTOS2/Source/os_systick.c")
    ;;
  *) echo "build.sh: $kind: expected rtx or freertos" >&2; exit 2 ;;
esac
objs=()
for src in "${ours[@]}"; do
  obj="$out/$(basename "$src").o"
  "${cc[@]}" -Wall -Wextra -DTM_CMSIS_OS2 "${includes[@]}" -c "$src" -o "$obj"
  objs+=("$obj")
done
for src in "${theirs[@]}"; do
  obj="$out/$(basename "$src").o"
  "${cc[@]}" -w "${includes[@]}" -c "$src" -o "$obj"
  objs+=("$obj")
done
"${cc[@]}" -T "$here/mps2.ld" --specs=rdimon.specs -Wl,--gc-sections "${objs[@]}" \
  -o "$out/thread_metric_cmsis_os2"
