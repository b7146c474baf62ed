"""Kernel footprint on the Cortex-M port: flash and RAM per kernel module.

Two configurations, both built with arm-none-eabi-gcc -Os and TC_CHECKS=0 for a Cortex-M3
(or -M4F):

``minimal``  TC_PRIORITIES=32, no counters, no stack checking; a program that uses threads,
             semaphores and queues (the minimal configuration of issue 4: thread create,
             sleep, yield, suspend, resume; semaphore create, take with a timeout, give; queue
             create, send, receive) is linked with --gc-sections, and what the linker kept is
             attributed to modules through its map file: the kernel a minimal application
             actually carries.
``full``     the default options (256 priorities, counters, stack checking); every function of
             every kernel module, whether an application calls it or not: the sizes of the
             compiled objects (sum of their sections).

Flash is .text + .rodata + .data (the initial values of .data are stored in flash); RAM is
.data + .bss. Thread control blocks and stacks belong to the application and are not counted.
The port (context switch, tick, idle) counts as kernel; the board support (vector table,
reset code, semihosting console, the mps2 cycle timer) is shown apart, it is the part an
application's own startup code would replace.

    python -m tacet.footprint [--cpu cortex-m3|cortex-m4f] [--build-root build] [--check]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tacet.errors import TacetError
from tacet.repo import find_repo

GOALS = {"minimal": 3 * 1024, "full": 12 * 1024}  # flash, bytes

CONFIGS = {
    "minimal": "TC_CHECKS=0;TC_PRIORITIES=32;TC_STATS=0;TC_STACK_CHECK=0;TC_TRACE=0",
    "full": "TC_CHECKS=0",
}

# Objects of the port that are not the kernel: start-up, console, the board's timer.
BOARD_SUPPORT = {"startup", "semihosting", "mps2"}

MINIMAL_APP = """\
/* The smallest useful application: two threads that pass messages through a queue, signal
 * with a semaphore, and sleep, yield, suspend and resume. */
#include "tacet/tacet.h"

static tc_thread worker, waker;
static tc_sem done;
static tc_queue mailbox;
static uint32_t slots[4];
static uint8_t stacks[2][512] __attribute__((aligned(8)));

static void worker_entry(void *arg)
{
  (void)arg;
  for (int i = 0; i < 3; i++) {
    uint32_t msg;
    tc_queue_receive(&mailbox, &msg, TC_WAIT_FOREVER);
    tc_sem_give(&done);
    tc_thread_yield();
    tc_thread_suspend(&worker);
  }
}

static void waker_entry(void *arg)
{
  (void)arg;
  for (uint32_t i = 0; i < 3; i++) {
    tc_queue_send(&mailbox, &i, TC_WAIT_FOREVER);
    tc_sem_take(&done, 10);
    tc_thread_sleep(1);
    tc_thread_resume(&worker);
  }
}

int main(void)
{
  tc_kernel_init();
  tc_sem_create(&done, "done", 0, 1);
  tc_queue_create(&mailbox, "mailbox", sizeof slots[0], slots, sizeof slots);
  tc_thread_create(&worker, "worker", worker_entry, 0, stacks[0], sizeof stacks[0], 10, 10, 0,
                   TC_AUTO_START);
  tc_thread_create(&waker, "waker", waker_entry, 0, stacks[1], sizeof stacks[1], 5, 5, 0,
                   TC_AUTO_START);
  return tc_kernel_start();
}
"""

PROJECT = """\
cmake_minimum_required(VERSION 3.20)
project(tacet_footprint C ASM)
add_subdirectory({repo} tacet)
add_executable(minimal minimal.c)
target_link_libraries(minimal PRIVATE tacet::kernel)
target_link_options(minimal PRIVATE -Wl,-Map=${{CMAKE_BINARY_DIR}}/minimal.map)
"""


@dataclass
class Size:
    text: int = 0  # .text and .rodata
    data: int = 0
    bss: int = 0

    @property
    def flash(self) -> int:
        return self.text + self.data

    @property
    def ram(self) -> int:
        return self.data + self.bss

    def add(self, section: str, size: int) -> None:
        if section.startswith((".text", ".rodata")):
            self.text += size
        elif section.startswith(".data"):
            self.data += size
        elif section.startswith((".bss", "COMMON")):
            self.bss += size


def run(command: list[str], cwd: Path | None = None) -> str:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise TacetError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def build(repo: Path, root: Path, cpu: str, name: str) -> Path:
    """Configure and build the footprint project for one configuration; its build dir."""
    source = root / f"footprint-{cpu}-{name}" / "src"
    binary = source.parent / "build"
    source.mkdir(parents=True, exist_ok=True)
    (source / "CMakeLists.txt").write_text(PROJECT.format(repo=repo.as_posix()))
    (source / "minimal.c").write_text(MINIMAL_APP)
    run([
        "cmake", "-S", str(source), "-B", str(binary), "-G", "Ninja",
        f"-DCMAKE_TOOLCHAIN_FILE={repo / 'cmake' / 'arm-none-eabi.cmake'}",
        "-DTACET_PORT=cortex-m", f"-DTACET_CPU={cpu}", f"-DTACET_DEFINITIONS={CONFIGS[name]}",
    ])  # fmt: skip
    run(["cmake", "--build", str(binary)])
    return binary


def module_of(obj: str) -> str:
    """'.../libtacet_kernel.a(sched.c.obj)' or '.../sched.c.obj' -> 'sched'."""
    base = obj.rsplit("(", 1)[-1].rstrip(")").rsplit("/", 1)[-1]
    return base.split(".", 1)[0]


def object_sizes(library: Path) -> dict[str, Size]:
    """Every section of every object in the kernel archive."""
    sizes: dict[str, Size] = {}
    out = run(["arm-none-eabi-size", "-A", str(library)])
    current: Size | None = None
    for line in out.splitlines():
        head = re.match(r"(\S+)\s+\(ex ", line)
        if head:
            current = sizes.setdefault(module_of(head.group(1)), Size())
            continue
        fields = line.split()
        if current is not None and len(fields) == 3 and fields[1].isdigit():
            current.add(fields[0], int(fields[1]))
    return sizes


MAP_LINE = re.compile(
    r"^ (\.\S+|COMMON)?\s*0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S*libtacet_kernel\.a\(\S+\))"
)


def linked_sizes(map_file: Path) -> dict[str, Size]:
    """What the linker kept of each kernel object, from its map file."""
    sizes: dict[str, Size] = {}
    section = ""
    text = map_file.read_text()
    # The map lists the sections --gc-sections discarded first, in the same format: only what
    # follows the memory map heading was linked.
    _, found, kept = text.partition("\nLinker script and memory map\n")
    if not found:
        raise TacetError(f"{map_file}: no memory map in the linker's map file")
    for line in kept.splitlines():
        named = re.match(r"^ (\.\S+|COMMON)\s*$", line)
        if named:  # a long section name: address, size and object follow on the next line
            section = named.group(1)
            continue
        m = MAP_LINE.match(line)
        if m:
            name = m.group(1) or section
            sizes.setdefault(module_of(m.group(3)), Size()).add(name, int(m.group(2), 16))
            section = ""
    return sizes


def table(title: str, sizes: dict[str, Size], goal: int) -> bool:
    kernel = {m: s for m, s in sizes.items() if m not in BOARD_SUPPORT}
    board = {m: s for m, s in sizes.items() if m in BOARD_SUPPORT}
    print(title)
    print(f"  {'module':<14} {'flash':>7} {'RAM':>7}   (text+rodata / data / bss)")
    for module, s in sorted(kernel.items(), key=lambda kv: -kv[1].flash):
        if s.flash or s.ram:
            print(f"  {module:<14} {s.flash:7d} {s.ram:7d}   ({s.text} / {s.data} / {s.bss})")
    flash = sum(s.flash for s in kernel.values())
    ram = sum(s.ram for s in kernel.values())
    verdict = "meets" if flash <= goal else "MISSES"
    print(f"  {'kernel total':<14} {flash:7d} {ram:7d}   {verdict} the goal of <= {goal} flash")
    if "check" in kernel:
        c = kernel["check"]
        print(f"  {'without check':<14} {flash - c.flash:7d} {ram - c.ram:7d}   "
              "(tc_check, the invariant checker for tests and debugging)")  # fmt: skip
    bflash = sum(s.flash for s in board.values())
    bram = sum(s.ram for s in board.values())
    names = ", ".join(sorted(m for m, s in board.items() if s.flash or s.ram))
    print(f"  {'board support':<14} {bflash:7d} {bram:7d}   (not kernel: {names})")
    return flash <= goal


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tacet-footprint", description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", choices=("cortex-m3", "cortex-m4f"), default="cortex-m3")
    parser.add_argument("--build-root", type=Path, default=None,
                        help="where to build (default: <repo>/build)")  # fmt: skip
    parser.add_argument("--repo", type=Path, default=None, help="the Tacet source tree")
    parser.add_argument("--check", action="store_true",
                        help="exit with status 1 when a configuration misses its goal")  # fmt: skip
    args = parser.parse_args(argv)
    try:
        repo = find_repo(Path.cwd(), args.repo)
        for tool in ("cmake", "ninja", "arm-none-eabi-gcc", "arm-none-eabi-size"):
            if shutil.which(tool) is None:
                raise TacetError(f"{tool} not found (make deps installs it)")
        root = (args.build_root or repo / "build").resolve()
        print(f"Tacet kernel footprint, {args.cpu}, arm-none-eabi-gcc -Os, TC_CHECKS=0 (bytes)")
        minimal = build(repo, root, args.cpu, "minimal")
        ok = table(
            f"minimal ({CONFIGS['minimal']}): threads, semaphores, queues",
            linked_sizes(minimal / "minimal.map"),
            GOALS["minimal"],
        )
        full = build(repo, root, args.cpu, "full")
        ok &= table(
            f"full ({CONFIGS['full']}, other options default): every kernel object",
            object_sizes(full / "tacet" / "libtacet_kernel.a"),
            GOALS["full"],
        )
    except TacetError as error:
        print(f"tacet footprint: error: {error.message}", file=sys.stderr)
        return error.status
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
