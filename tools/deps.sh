#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What Tacet's builds and tests need from a Debian 12 machine, each tool checked by doing what
# the builds do with it: a compiler compiles and links a small program (and the program runs
# where it can), an emulator and the browser start. A tool on PATH that cannot do its job
# (gcc-aarch64-linux-gnu without libc6-dev-arm64-cross cannot link) fails its check. This runs
# in bash alone: a fresh minbase machine has no Python and no compiler yet.
#
#   tools/deps.sh check          every check; exit 1 and name the failures if one fails
#   tools/deps.sh install        check, install the Debian packages of the failing checks with
#                                one apt-get (as root), check again; exit 1 if one still fails
#   tools/deps.sh doctor         one line per tool: name, version, works / fails and why; then
#                                the virtual environment and the tacet package in it
#   tools/deps.sh venv-current   exit 0 when $VENV runs and was made from $PYTHON
#
# Run from the repository root (make deps and make doctor do). PYTHON is the interpreter the
# virtual environment VENV is made from: the distribution's, whatever else is on PATH.
set -euo pipefail

PYTHON=${PYTHON:-/usr/bin/python3}
VENV=${VENV:-.venv}

# Check name -> the Debian packages that make it pass. Installing a package that is already
# there changes nothing, so a check lists all it needs, not only what is usually missing.
declare -A PACKAGES=(
  [gcc]="gcc libc6-dev"
  [gcc-sanitizers]="gcc libc6-dev"
  [cmake]="cmake"
  [ninja]="ninja-build"
  [arm-none-eabi-gcc]="gcc-arm-none-eabi libnewlib-arm-none-eabi"
  [qemu-system-arm]="qemu-system-arm"
  [riscv64-unknown-elf-gcc]="gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf"
  [qemu-system-riscv32]="qemu-system-misc"
  [aarch64-linux-gnu-gcc]="gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
  [qemu-aarch64]="qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
  [clang]="clang libc6-dev"
  [clang-libfuzzer]="clang libclang-rt-dev"
  [cppcheck]="cppcheck"
  [chromium]="chromium"
  [chromedriver]="chromium-driver chromium"
  [git]="git"
  [python3]="python3"
  [ca-certificates]="ca-certificates python3"
  [python3-venv]="python3-venv"
)
# In the order doctor prints them.
CHECKS=(gcc gcc-sanitizers cmake ninja arm-none-eabi-gcc qemu-system-arm riscv64-unknown-elf-gcc
        qemu-system-riscv32 aarch64-linux-gnu-gcc qemu-aarch64 clang clang-libfuzzer cppcheck
        chromium chromedriver git python3 ca-certificates python3-venv)

# --- helpers for the checks ---------------------------------------------------------------------
# Each check runs in a scratch directory of its own, in the background beside the others. It
# writes its version to ./version and, when it fails, a few words on why to ./reason.

version() { printf '%s\n' "$*" >version; }
reason() { printf '%s\n' "$*" >reason; }

# The program is on PATH (or the file exists), else the check fails saying so.
have() {
  if [[ $1 == /* ]]; then [[ -x $1 ]] && return 0; else command -v "$1" >/dev/null && return 0; fi
  reason "$1: not installed"
  return 1
}

# Runs a command, output to log; on failure the reason is the command's name and its first
# line that says what went wrong (cannot find Scrt1.o, undefined reference, ...).
try() {
  local status=0 line
  timeout 60 "$@" >log 2>&1 || status=$?
  ((status == 0)) && return 0
  # chromium logs D-Bus complaints (no session bus) even when it works: never the reason.
  line=$(grep -v -E 'dbus|unexpected operator' log |
         grep -m1 -iE 'error|cannot|not found|undefined|fatal|no such|unsupported|failed' ||
         head -n1 log || true)
  line=${line#*: }   # the message without its "file:line:col: " or "/usr/bin/ld: " prefix
  line=${line#fatal error: }
  line=${line#error: }
  ((status == 124)) && line="no answer in 60 s"
  reason "${1##*/}: ${line:-exit status $status}"
  return 1
}

write_hello() {
  cat >hello.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    char *p = malloc(16);
    if (p == NULL) return 1;
    snprintf(p, 16, "%s", "tacet");
    puts(p);
    free(p);
    return 0;
}
EOF
}

# --- the checks ---------------------------------------------------------------------------------

check_gcc() {
  have gcc || return 1
  version "$(gcc -dumpfullversion)"
  write_hello
  try gcc -o hello hello.c && try ./hello
}

# build/sim-asan and build/coverage: the sanitizer runtimes and gcov come with gcc.
check_gcc_sanitizers() {
  have gcc || return 1
  version "$(gcc -dumpfullversion)"
  write_hello
  try gcc -fsanitize=address,undefined -fno-sanitize-recover=all --coverage -o hello hello.c &&
    try ./hello
}

check_cmake() {
  have cmake || return 1
  version "$(cmake --version | sed -n '1s/^cmake version //p')"
  try cmake -E capabilities
}

check_ninja() {
  have ninja || return 1
  version "$(ninja --version)"
  # shellcheck disable=SC2016  # $in and $out are ninja's
  printf 'rule copy\n  command = cp $in $out\nbuild out.txt: copy in.txt\n' >build.ninja
  echo tacet >in.txt
  try ninja || return 1
  [[ $(cat out.txt 2>/dev/null) == tacet ]] || { reason "ninja: built nothing"; return 1; }
}

# The Cortex-M builds: newlib's libc and the multilibs of both cores the presets use.
check_arm_none_eabi_gcc() {
  have arm-none-eabi-gcc || return 1
  local newlib
  newlib=$(echo '#include <newlib.h>' | arm-none-eabi-gcc -E -dM - 2>/dev/null |
           sed -n 's/^#define _NEWLIB_VERSION "\(.*\)"/\1/p' || true)
  version "$(arm-none-eabi-gcc -dumpversion), newlib ${newlib:-none}"
  write_hello
  try arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -mfloat-abi=soft --specs=nosys.specs \
      -o hello-m3.elf hello.c &&
    try arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard \
      --specs=nosys.specs -o hello-m4f.elf hello.c
}

# The boards of qemu-m3 and qemu-m4: the machine is made and left paused, then quit.
check_qemu_system_arm() {
  have qemu-system-arm || return 1
  version "$(qemu-system-arm --version | sed -n '1s/^QEMU emulator version \([^ ]*\).*/\1/p')"
  local board
  for board in mps2-an385:cortex-m3 mps2-an386:cortex-m4; do
    echo quit >quit
    try qemu-system-arm -M "${board%:*}" -cpu "${board#*:}" -nodefaults -display none -S \
        -monitor stdio -serial null -nic none <quit || return 1
  done
}

# The RISC-V builds: rv32 programs of both presets (rv32imac, rv32imafc) linked against
# picolibc, whose specs file the toolchain file uses; with its semihosting system calls
# (--oslib=semihost), as the port links them. -misa-spec=2.2 as cmake/riscv32-unknown-elf.cmake.
check_riscv64_unknown_elf_gcc() {
  have riscv64-unknown-elf-gcc || return 1
  local picolibc
  picolibc=$(echo '#include <picolibc.h>' |
             riscv64-unknown-elf-gcc --specs=picolibc.specs -E -dM - 2>/dev/null |
             sed -n 's/^#define __PICOLIBC_VERSION__ "\(.*\)"/\1/p' || true)
  version "$(riscv64-unknown-elf-gcc -dumpversion), picolibc ${picolibc:-none}"
  write_hello
  try riscv64-unknown-elf-gcc -march=rv32imac -mabi=ilp32 -misa-spec=2.2 --specs=picolibc.specs \
      --oslib=semihost -o hello-rv32imac.elf hello.c &&
    try riscv64-unknown-elf-gcc -march=rv32imafc -mabi=ilp32f -misa-spec=2.2 \
      --specs=picolibc.specs --oslib=semihost -o hello-rv32imafc.elf hello.c
}

# The board of qemu-rv32 and qemu-rv32f: the machine is made and left paused, then quit.
check_qemu_system_riscv32() {
  have qemu-system-riscv32 || return 1
  version "$(qemu-system-riscv32 --version | sed -n '1s/^QEMU emulator version \([^ ]*\).*/\1/p')"
  local cpu
  for cpu in rv32,f=off,d=off rv32,f=on,d=off; do
    echo quit >quit
    try qemu-system-riscv32 -M virt -cpu "$cpu" -bios none -nodefaults -display none -S \
        -monitor stdio -serial null -nic none <quit || return 1
  done
}

check_aarch64_linux_gnu_gcc() {
  have aarch64-linux-gnu-gcc || return 1
  version "$(aarch64-linux-gnu-gcc -dumpfullversion)"
  write_hello
  try aarch64-linux-gnu-gcc -o hello hello.c
}

# build/sim-aarch64's tests run under qemu-user with the cross C library.
check_qemu_aarch64() {
  have qemu-aarch64 || return 1
  version "$(qemu-aarch64 -version | sed -n '1s/^qemu-aarch64 version \([^ ]*\).*/\1/p')"
  have aarch64-linux-gnu-gcc || { reason "needs aarch64-linux-gnu-gcc"; return 1; }
  write_hello
  try aarch64-linux-gnu-gcc -o hello hello.c || { reason "needs a working aarch64-linux-gnu-gcc"; return 1; }
  try qemu-aarch64 -L /usr/aarch64-linux-gnu ./hello || return 1
  grep -qx tacet log || { reason "qemu-aarch64: the program printed nothing"; return 1; }
}

check_clang() {
  have clang || return 1
  version "$(clang -dumpversion)"
  write_hello
  try clang -o hello hello.c && try ./hello
}

# build/fuzz: libFuzzer's runtime (libclang-rt) with the sanitizers the harnesses use.
check_clang_libfuzzer() {
  have clang || return 1
  version "$(clang -dumpversion)"
  cat >fuzz.c <<'EOF'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    return size > 0 && data[0] == 0xff ? 0 : 0;
}
EOF
  try clang -fsanitize=fuzzer,address,undefined -o fuzz fuzz.c && try ./fuzz -runs=10
}

check_cppcheck() {
  have cppcheck || return 1
  version "$(cppcheck --version | sed 's/^Cppcheck //')"
  printf 'int f(int x) { return x + 1; }\n' >lint.c
  try cppcheck --quiet --error-exitcode=1 lint.c
}

# tools/tacet/trace/report.py runs it the same way: headless, no sandbox (root).
check_chromium() {
  have chromium || return 1
  version "$(chromium --version 2>/dev/null | sed -n 's/^Chromium \([^ ]*\).*/\1/p')"
  try chromium --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage \
      --user-data-dir="$PWD/profile" --dump-dom 'data:text/html,<p>tacet-ok</p>' || return 1
  grep -q tacet-ok log || { reason "chromium: printed no page"; return 1; }
}

# Selenium needs the driver of the same chromium major version.
check_chromedriver() {
  have chromedriver || return 1
  local driver browser
  try chromedriver --version || return 1
  driver=$(sed -n 's/^ChromeDriver \([^ ]*\).*/\1/p' log)
  version "$driver"
  have chromium || { reason "needs chromium"; return 1; }
  browser=$(chromium --version 2>/dev/null | sed -n 's/^Chromium \([^ ]*\).*/\1/p')
  [[ ${driver%%.*} == "${browser%%.*}" ]] ||
    { reason "chromedriver $driver, chromium $browser: not the same major version"; return 1; }
}

check_git() {
  have git || return 1
  version "$(git --version | sed 's/^git version //')"
  try git init -q repo
}

# The oldest Python the tacet package accepts is its requires-python (tools/pyproject.toml).
check_python3() {
  have "$PYTHON" || return 1
  try "$PYTHON" -c 'import platform; print(platform.python_version())' || return 1
  local found oldest
  found=$(cat log)
  version "$found"
  oldest=$(sed -n 's/^requires-python = ">=\([0-9.]*\)".*/\1/p' "$REPO/tools/pyproject.toml")
  if [[ -n $oldest && $(printf '%s\n%s\n' "$oldest" "$found" | sort -V | head -n1) != "$oldest" ]]; then
    reason "$PYTHON is $found; tools/pyproject.toml requires >= $oldest"
    return 1
  fi
}

# pip (in the venv) verifies the package index's certificate against the system's store.
check_ca_certificates() {
  have "$PYTHON" || { reason "needs $PYTHON"; return 1; }
  try "$PYTHON" -c 'import ssl; print(ssl.create_default_context().cert_store_stats()["x509_ca"])' ||
    return 1
  version "$(cat log) CAs"
  (($(cat log) > 0)) || { reason "no CA certificate in the system store"; return 1; }
}

# Debian's python3 makes a venv with pip only with python3-venv. An existing venv made from
# $PYTHON shows it did, except to doctor, which always makes one (seconds).
check_python3_venv() {
  have "$PYTHON" || { reason "needs $PYTHON"; return 1; }
  if [[ $MODE != doctor ]] && venv_current; then
    version "$(sed -n 's/^version *= *//p' "$REPO/$VENV/pyvenv.cfg"), $VENV made"
    return 0
  fi
  try "$PYTHON" -m venv venv && try venv/bin/python -m pip --version || return 1
  version "pip $(sed -n 's/^pip \([^ ]*\).*/\1/p' log)"
}

# --- the virtual environment --------------------------------------------------------------------

# The interpreter VENV was made from (pyvenv.cfg's executable, Python 3.11 on), resolved.
venv_interpreter() {
  local exe
  exe=$(sed -n 's/^executable *= *//p' "$REPO/$VENV/pyvenv.cfg" 2>/dev/null || true)
  [[ -n $exe ]] && realpath -m "$exe"
}

venv_current() {
  "$REPO/$VENV/bin/python" -c '' 2>/dev/null || return 1
  [[ $(venv_interpreter) == "$(realpath -m "$PYTHON")" ]]
}

# --- running the checks -------------------------------------------------------------------------

# All checks at once, each in the background: about as long as the slowest (chromium).
# Results in $RESULTS/<check>/{version,reason,status}.
run_checks() {
  local name
  rm -rf "$RESULTS"
  for name in "${CHECKS[@]}"; do
    mkdir -p "$RESULTS/$name"
    (
      cd "$RESULTS/$name"
      if "check_${name//-/_}"; then echo works >status; else echo fails >status; fi
    ) </dev/null >/dev/null 2>&1 &
  done
  wait
}

failing() {
  local name
  for name in "${CHECKS[@]}"; do
    [[ $(cat "$RESULTS/$name/status" 2>/dev/null) == works ]] || echo "$name"
  done
}

describe() {  # one line for a failing check: name, reason, packages
  local why
  why=$(cat "$RESULTS/$1/reason" 2>/dev/null || echo "no result")
  printf '  %-22s %s (Debian: %s)\n' "$1" "$why" "${PACKAGES[$1]}"
}

packages_of() {  # the packages of these checks, each once, on one line
  local name
  local -a all
  # shellcheck disable=SC2086  # one word per package
  mapfile -t all < <(for name in "$@"; do printf '%s\n' ${PACKAGES[$name]}; done | sort -u)
  echo "${all[*]}"
}

do_check() {
  run_checks
  local -a failed
  mapfile -t failed < <(failing)
  ((${#failed[@]} == 0)) && return 0
  echo "make deps: these tools do not work:" >&2
  for name in "${failed[@]}"; do describe "$name" >&2; done
  return 1
}

do_install() {
  run_checks
  local -a failed
  mapfile -t failed < <(failing)
  ((${#failed[@]} == 0)) && return 0
  local missing
  missing=$(packages_of "${failed[@]}")
  echo "make deps: these tools do not work yet:"
  for name in "${failed[@]}"; do describe "$name"; done
  if [[ $(id -u) != 0 ]]; then
    echo "make deps: install them as root: apt-get install --no-install-recommends $missing" >&2
    exit 1
  fi
  if ! command -v apt-get >/dev/null; then
    echo "make deps: no apt-get here; install by hand (Debian names): $missing" >&2
    exit 1
  fi
  echo "make deps: installing $missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -q update
  # shellcheck disable=SC2086  # one word per package
  apt-get -q install -y --no-install-recommends $missing
  run_checks
  mapfile -t failed < <(failing)
  ((${#failed[@]} == 0)) && return 0
  echo "make deps: still not working after installing their packages:" >&2
  for name in "${failed[@]}"; do describe "$name" >&2; done
  echo "make deps: 'make doctor' shows every tool; the lines above say what failed" >&2
  exit 1
}

# The table: the checks, then what make deps put in the venv.
do_doctor() {
  run_checks
  local name status why ver bad=0
  printf '%-24s %-30s %s\n' tool version status
  for name in "${CHECKS[@]}"; do
    status=$(cat "$RESULTS/$name/status" 2>/dev/null || echo fails)
    ver=$(cat "$RESULTS/$name/version" 2>/dev/null || echo -)
    if [[ $status == works ]]; then
      printf '%-24s %-30s works\n' "$name" "$ver"
    else
      bad=1
      why=$(cat "$RESULTS/$name/reason" 2>/dev/null || echo "no result")
      printf '%-24s %-30s fails: %s (Debian: %s)\n' "$name" "$ver" "$why" "${PACKAGES[$name]}"
    fi
  done

  local venv_python="$REPO/$VENV/bin/python" made
  made=$(venv_interpreter || true)
  if ! "$venv_python" -c '' 2>/dev/null; then
    printf '%-24s %-30s fails: no venv (make deps makes it)\n' "$VENV" -
    printf '%-24s %-30s fails: no venv (make deps installs it)\n' tacet -
    return 1
  fi
  ver=$("$venv_python" -c 'import platform; print(platform.python_version())')
  if venv_current; then
    printf '%-24s %-30s works (made from %s)\n' "$VENV" "Python $ver" "$PYTHON"
  else
    bad=1
    printf '%-24s %-30s fails: made from %s, not %s (make deps makes it again)\n' \
      "$VENV" "Python $ver" "${made:-an unknown interpreter}" "$PYTHON"
  fi
  # The tacet package must be this tree's tools/, installed editable, its dependencies whole.
  local where
  if ! where=$("$venv_python" -c 'import tacet; print(tacet.__file__, tacet.__version__)' 2>/dev/null); then
    bad=1
    printf '%-24s %-30s fails: not installed (make deps installs it)\n' tacet -
  elif [[ ${where% *} != "$REPO/tools/tacet/__init__.py" ]]; then
    bad=1
    printf '%-24s %-30s fails: installed from %s, not this tree (make deps)\n' \
      tacet "${where##* }" "${where% *}"
  elif ! "$venv_python" -m pip check >"$RESULTS/pip-check" 2>&1; then
    bad=1
    printf '%-24s %-30s fails: %s\n' tacet "${where##* }" "$(head -n1 "$RESULTS/pip-check")"
  elif [[ ! -e $REPO/$VENV/.tacet-installed || -n $(find "$REPO/tools/pyproject.toml" \
            "$REPO/tools/constraints.txt" "$REPO/VERSION" -newer "$REPO/$VENV/.tacet-installed") ]]; then
    bad=1
    printf '%-24s %-30s fails: older than tools/pyproject.toml or constraints (make deps)\n' \
      tacet "${where##* }"
  else
    printf '%-24s %-30s works (editable from tools/)\n' tacet "${where##* }"
  fi
  return $bad
}

MODE=${1:-}
REPO=$(pwd -P)
[[ -f $REPO/tools/pyproject.toml ]] || { echo "tools/deps.sh: run it from the repository root" >&2; exit 2; }
RESULTS=$(mktemp -d "${TMPDIR:-/tmp}/tacet-deps.XXXXXX")
trap 'rm -rf "$RESULTS"' EXIT
case $MODE in
  check) do_check ;;
  install) do_install ;;
  doctor) do_doctor ;;
  venv-current) venv_current ;;
  *) echo "usage: tools/deps.sh check|install|doctor|venv-current" >&2; exit 2 ;;
esac
