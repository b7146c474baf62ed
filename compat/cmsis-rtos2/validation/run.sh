#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ARM's CMSIS-RTOS2 validation suite on Tacet, under QEMU (docs/cmsis-rtos2.md).
#
#   compat/cmsis-rtos2/validation/run.sh SUITE CMSIS_6 [cortex-m3|cortex-m4f ...]
#
# SUITE: a checkout of ARM-software/CMSIS-RTOS2_Validation; CMSIS_6: one of
# ARM-software/CMSIS_6 (for CMSIS/Core/Include). Builds the suite with every test case enabled
# against tacet::cmsis_os2 (arm-none-eabi-gcc -O2), runs it on QEMU's mps2-an385 (Cortex-M3)
# and mps2-an386 (Cortex-M4F) with -icount shift=5, and prints each group's passed, failed
# and not run, then a closing "N passed, N failed" line per CPU. The kernel idles spinning
# (TC_CM_IDLE_WFI=0): a sleeping QEMU core follows the host's clock, and on a loaded host the
# suite's check of the system timer against osDelay (TC_osKernelGetSysTimerCount_1) then fails
# now and then; spinning, every run is the same. Exits non-zero when a case
# failed or did not run. Build trees: build/rv2-<cpu> (RV2_BUILD overrides build/).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
suite=$(cd "${1:?usage: run.sh SUITE CMSIS_6 [cpu...]}" && pwd)
cmsis6=$(cd "${2:?usage: run.sh SUITE CMSIS_6 [cpu...]}" && pwd)
shift 2
cpus=("$@")
[[ ${#cpus[@]} -gt 0 ]] || cpus=(cortex-m3 cortex-m4f)
out=${RV2_BUILD:-$root/build}

if [[ -d $suite/.git ]] || git -C "$suite" rev-parse HEAD >/dev/null 2>&1; then
  echo "suite: $(git -C "$suite" rev-parse HEAD)"
fi

status=0
for cpu in "${cpus[@]}"; do
  case $cpu in
    cortex-m3) machine=mps2-an385 qcpu=cortex-m3 ;;
    cortex-m4f) machine=mps2-an386 qcpu=cortex-m4 ;;
    *) echo "run.sh: $cpu: expected cortex-m3 or cortex-m4f" >&2; exit 2 ;;
  esac
  build=$out/rv2-$cpu
  cmake -S "$here" -B "$build" -G Ninja \
    -DCMAKE_TOOLCHAIN_FILE="$root/cmake/arm-none-eabi.cmake" \
    -DTACET_PORT=cortex-m -DTACET_CPU="$cpu" -DTACET_DEFINITIONS=TC_CM_IDLE_WFI=0 \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE=-O2 \
    -DRV2_SUITE="$suite" -DCMSIS_CORE="$cmsis6/CMSIS/Core/Include" >/dev/null
  cmake --build "$build" -j2 >/dev/null
  log=$build/rv2.log
  # The suite's own time limits are in ticks; 20 minutes of host time is a hang.
  timeout 1200 qemu-system-arm -M "$machine" -cpu "$qcpu" -nographic -icount shift=5 \
    -semihosting-config enable=on,target=native -kernel "$build/rv2" >"$log" 2>&1 || true
  tr -d '\r' <"$log" >"$log.txt"
  echo "== $cpu ($machine, -icount shift=5): $log.txt"
  # Each case's group is the section of the suite's list it is in (#if (TC_<GROUP>_EN)).
  awk -v log_file="$log.txt" '
    BEGIN {
      while ((getline l < log_file) > 0) {
        # A case that failed prints its failed checks on the lines after its own.
        if (match(l, /^TEST +[0-9]+: +TC_[A-Za-z0-9_]+/)) {
          n = split(substr(l, RSTART, RLENGTH), w, " ")
          name = w[n]
          if (l ~ /PASSED/) res[name] = "passed"
          else if (l ~ /NOT EXECUTED/) res[name] = "not run"
          else res[name] = "failed"
        }
      }
    }
    /^#if \(TC_[A-Z0-9]+_EN\)/ { group = $2; gsub(/[()]/, "", group); sub(/^TC_/, "", group); sub(/_EN$/, "", group) }
    /TCD *\(/ {
      n = $0; sub(/.*TCD *\( */, "", n); sub(/ *,.*/, "", n)
      order[++count] = n; grp[n] = group
      if (!(group in seen)) { seen[group] = 1; groups[++ng] = group }
    }
    END {
      for (i = 1; i <= count; i++) {
        n = order[i]; r = (n in res) ? res[n] : "not run"
        tally[grp[n], r]++; total[r]++
        if (r != "passed") printf "  %-8s %s\n", r, n
      }
      for (g = 1; g <= ng; g++)
        printf "  %-16s %3d passed, %3d failed, %3d not run\n", groups[g], tally[groups[g], "passed"], tally[groups[g], "failed"], tally[groups[g], "not run"]
      printf "%s: %d passed, %d failed, %d not run\n", cpu, total["passed"], total["failed"], total["not run"]
      exit (total["failed"] + total["not run"] > 0)
    }' cpu="$cpu" "$suite/Source/cmsis_rv2.c" || status=1
done
exit $status
