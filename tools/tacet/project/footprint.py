# SPDX-License-Identifier: MIT
"""Kernel footprint on the Cortex-M port: flash and RAM per kernel module.

Two configurations, both built with arm-none-eabi-gcc -Os and TC_CHECKS=0 for a Cortex-M3
(or -M4F). Each is a program linked with --gc-sections; what the linker kept of each kernel
object is attributed to modules through its map file. Measured this way a figure is the
kernel an application of that kind actually carries: summing the compiled objects instead
would count code nobody calls, every object's copy of strings the linker merges, and the
invariant checker.

``minimal``  TC_PRIORITIES=32, no counters, no stack checking; the program (MINIMAL_APP)
             uses threads, semaphores and queues: the minimal configuration of a small kernel
             (thread create, sleep, yield, suspend, resume; semaphore create, take with a
             timeout, give; queue create, send, receive).
``full``     the default options (256 priorities, counters, stack checking); the program
             (FULL_APP) calls every public kernel service, every function declared in
             include/tacet/ (tools/tests/test_size.py keeps it so): the kernel an
             application that uses all of it carries.

tc_check(), the invariant checker, is for tests and debug builds, and it pulls in a checker
from every object: the full program is linked a second time with a call to it, and the
difference is printed on a line of its own, not in the total.

Flash is .text + .rodata + .data (the initial values of .data are stored in flash); RAM is
.data + .bss. Thread control blocks and stacks belong to the application and are not counted.
The port (context switch, tick, idle) counts as kernel; the board support (vector table,
reset code, semihosting console, the mps2 cycle timer) is shown apart, it is the part an
application's own startup code would replace.

    python -m tacet.project.footprint [--cpu cortex-m3|cortex-m4f] [--build-root build] [--check]
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

from tacet.core.errors import TacetError
from tacet.core.repo import find_repo

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

FULL_APP = """\
/* Every public kernel service, called at least once: `tacet size` links this program with
 * --gc-sections to measure the kernel an application using all of it carries (the sum of
 * the compiled objects would also count tc_check(), the per-object checkers and every
 * object's copy of merged strings, which such an application does not link). It need not
 * run meaningfully; each call only has to be reachable, so that the linker keeps it. Calls
 * that end an object's life are guarded by a volatile flag the compiler cannot see through.
 * Built a second time with TACET_FOOTPRINT_CHECK to measure what tc_check() adds.
 * tools/tests/test_size.py checks that every function declared in include/tacet/ is called. */
#include "tacet/tacet.h"

static tc_thread worker, helper;
static uint8_t stacks[3][512] __attribute__((aligned(8)));
static volatile int teardown;   /* read at run time: the calls it guards stay */
static volatile uint32_t sink;  /* results go here, so no call is dropped as unused */

/* kernel.h */
void UARTRX0_Handler(void);
static tc_hisr hisr;
static tc_event flags;

/* An interrupt handler (LISR) that defers its work to an HISR: mps2's line 0, so that the
 * vector table keeps it. */
void UARTRX0_Handler(void)
{
  tc_isr_enter();
  tc_hisr_activate(&hisr);
  tc_event_set(&flags, 0x1);
  tc_isr_exit();
}

static void kernel_services(void)
{
  tc_kernel_stats_t stats;
  tc_sched_lock();
  sink = tc_tick_get();
  tc_sched_unlock();
  tc_kernel_stats(&stats);
  unsigned old = tc_interrupt_disable();
  tc_interrupt_restore(old);
  sink = (uint32_t)tc_cycles() / tc_cycles_hz();
#ifdef TACET_FOOTPRINT_CHECK
  sink = tc_check() != NULL;
#endif
}

/* thread.h */
static void thread_services(void)
{
  tc_thread_info_t info;
  unsigned old;
  tc_thread_priority_change(&helper, 12, &old);
  tc_thread_threshold_change(&helper, 11, &old);
  tc_thread_suspend(&helper);
  tc_thread_resume(&helper);
  tc_thread_wait_abort(&helper);
  tc_thread_info(tc_thread_self(), &info);
  tc_thread_yield();
  tc_thread_sleep(1);
  if (teardown) {
    tc_thread_terminate(&helper);
    tc_thread_delete(&helper);
  }
}

/* sem.h */
static tc_sem sem;

static void sem_services(void)
{
  tc_sem_create(&sem, "sem", 0, 1);
  tc_sem_give(&sem);
  tc_sem_take(&sem, 10);
  if (teardown)
    tc_sem_delete(&sem);
}

/* mutex.h */
static tc_mutex mutex;

static void mutex_services(void)
{
  tc_mutex_create(&mutex, "mutex", TC_INHERIT);
  tc_mutex_lock(&mutex, TC_WAIT_FOREVER);
  tc_mutex_unlock(&mutex);
  if (teardown)
    tc_mutex_delete(&mutex);
}

/* queue.h */
static tc_queue queue;
static uint32_t queue_buf[4];

static void queue_services(void)
{
  uint32_t msg = 1;
  tc_queue_create(&queue, "queue", sizeof msg, queue_buf, sizeof queue_buf);
  tc_queue_send(&queue, &msg, 10);
  tc_queue_send_front(&queue, &msg, TC_NO_WAIT);
  tc_queue_receive(&queue, &msg, 10);
  tc_queue_flush(&queue);
  if (teardown)
    tc_queue_delete(&queue);
}

/* msgport.h */
static tc_port port;
static void *port_slots[4];

static void msgport_services(void)
{
  void *msg = &port;
  tc_port_create(&port, "port", port_slots, 4);
  tc_port_send(&port, msg, 10);
  tc_port_receive(&port, &msg, 10);
  if (teardown)
    tc_port_delete(&port);
}

/* taskport.h: the worker posts, the helper receives (helper_entry) */
static void taskport_services(void)
{
  tc_thread_post(&helper, 42, 10);
}

/* event.h */
static void event_services(void)
{
  uint32_t actual;
  tc_event_create(&flags, "flags");
  tc_event_set(&flags, 0x3);
  tc_event_wait(&flags, 0x3, TC_EVENT_ALL | TC_EVENT_CLEAR, &actual, 10);
  tc_event_clear(&flags, 0x1);
  if (teardown)
    tc_event_delete(&flags);
}

/* signal.h */
static void on_signal(uint32_t signals)
{
  sink = signals;
  tc_signal_abort_wait(); /* end the wait the signal interrupted */
}

static void signal_services(void)
{
  tc_signal_handler_set(&helper, on_signal);
  tc_signal_send(&helper, 0x1);
  sink = tc_signal_pending(&helper);
}

/* timer.h */
static tc_timer timer;

static void on_timer(void *arg)
{
  sink = (uint32_t)(uintptr_t)arg;
}

static void timer_services(void)
{
  tc_timer_info_t info;
  tc_timer_create(&timer, "timer", on_timer, 0, 10, 10, TC_AUTO_ACTIVATE);
  tc_timer_deactivate(&timer);
  tc_timer_change(&timer, 5, 5);
  tc_timer_activate(&timer);
  tc_timer_info(&timer, &info);
  if (teardown)
    tc_timer_delete(&timer);
}

/* block_pool.h */
static tc_block_pool blocks;
static uint8_t block_mem[256] __attribute__((aligned(8)));

static void block_pool_services(void)
{
  tc_block_pool_info_t info;
  void *block;
  tc_block_pool_create(&blocks, "blocks", 32, block_mem, sizeof block_mem);
  if (tc_block_alloc(&blocks, &block, 10) == TC_OK)
    tc_block_free(block);
  tc_block_pool_info(&blocks, &info);
  if (teardown)
    tc_block_pool_delete(&blocks);
}

/* byte_pool.h */
static tc_byte_pool bytes;
static uint8_t byte_mem[512] __attribute__((aligned(8)));

static void byte_pool_services(void)
{
  tc_byte_pool_info_t info;
  void *mem;
  tc_byte_pool_create(&bytes, "bytes", byte_mem, sizeof byte_mem);
  if (tc_byte_alloc(&bytes, &mem, 40, 10) == TC_OK)
    tc_byte_free(mem);
  tc_byte_pool_info(&bytes, &info);
  if (teardown)
    tc_byte_pool_delete(&bytes);
}

/* hisr.h */
static void hisr_fn(void)
{
  sink = tc_hisr_self() == &hisr;
}

static void hisr_services(void)
{
  tc_hisr_info_t info;
  tc_hisr_create(&hisr, "hisr", hisr_fn, 1, stacks[2], sizeof stacks[2]);
  tc_hisr_activate(&hisr);
  tc_hisr_info(&hisr, &info);
  if (teardown)
    tc_hisr_delete(&hisr);
}

static void helper_entry(void *arg)
{
  (void)arg;
  uint32_t word;
  tc_thread_receive(&word, TC_WAIT_FOREVER);
  sink = word;
}

static void worker_entry(void *arg)
{
  (void)arg;
  kernel_services();
  sem_services();
  mutex_services();
  queue_services();
  msgport_services();
  taskport_services();
  event_services();
  signal_services();
  timer_services();
  block_pool_services();
  byte_pool_services();
  hisr_services();
  thread_services();
}

int main(void)
{
  tc_kernel_init();
  tc_thread_create(&worker, "worker", worker_entry, 0, stacks[0], sizeof stacks[0], 10, 10, 0,
                   TC_AUTO_START);
  tc_thread_create(&helper, "helper", helper_entry, 0, stacks[1], sizeof stacks[1], 20, 20, 5,
                   TC_AUTO_START);
  return tc_kernel_start();
}
"""

# The programs each configuration links: name -> (source text, extra compile definition).
PROGRAMS = {
    "minimal": {"minimal": (MINIMAL_APP, "")},
    "full": {"full": (FULL_APP, ""), "full_check": (FULL_APP, "TACET_FOOTPRINT_CHECK")},
}

PROJECT = """\
cmake_minimum_required(VERSION 3.20)
project(tacet_footprint C ASM)
add_subdirectory({repo} tacet)
"""

# -Werror: a program that no longer matches the kernel's headers must fail, not be measured.
PROGRAM = """\
add_executable({name} {name}.c)
target_compile_options({name} PRIVATE -Wall -Wextra -Werror)
target_link_libraries({name} PRIVATE tacet::kernel)
target_link_options({name} PRIVATE -Wl,-Map=${{CMAKE_BINARY_DIR}}/{name}.map)
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
    """Configure and build the programs of one configuration; its build dir (with a map
    file per program)."""
    source = root / f"footprint-{cpu}-{name}" / "src"
    binary = source.parent / "build"
    source.mkdir(parents=True, exist_ok=True)
    project = PROJECT.format(repo=repo.as_posix())
    for program, (text, definition) in PROGRAMS[name].items():
        (source / f"{program}.c").write_text(text)
        project += PROGRAM.format(name=program)
        if definition:
            project += f"target_compile_definitions({program} PRIVATE {definition})\n"
    (source / "CMakeLists.txt").write_text(project)
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


def kernel_total(sizes: dict[str, Size]) -> Size:
    """The sum over the kernel's modules (the board support left out)."""
    total = Size()
    for module, s in sizes.items():
        if module not in BOARD_SUPPORT:
            total.text += s.text
            total.data += s.data
            total.bss += s.bss
    return total


def table(
    title: str, sizes: dict[str, Size], goal: int, with_check: dict[str, Size] | None = None
) -> bool:
    """Print one configuration; `with_check` is the same program linked with tc_check()."""
    kernel = {m: s for m, s in sizes.items() if m not in BOARD_SUPPORT}
    board = {m: s for m, s in sizes.items() if m in BOARD_SUPPORT}
    print(title)
    print(f"  {'module':<14} {'flash':>7} {'RAM':>7}   (text+rodata / data / bss)")
    for module, s in sorted(kernel.items(), key=lambda kv: -kv[1].flash):
        if s.flash or s.ram:
            print(f"  {module:<14} {s.flash:7d} {s.ram:7d}   ({s.text} / {s.data} / {s.bss})")
    total = kernel_total(sizes)
    verdict = "meets" if total.flash <= goal else "MISSES"
    print(f"  {'kernel total':<14} {total.flash:7d} {total.ram:7d}   "
          f"{verdict} the goal of <= {goal} flash")  # fmt: skip
    if with_check is not None:
        checked = kernel_total(with_check)
        print(f"  {'+ tc_check()':<14} {checked.flash - total.flash:+7d} "
              f"{checked.ram - total.ram:+7d}   (when also called: the invariant checker, "
              "for tests and debug builds)")  # fmt: skip
    bflash = sum(s.flash for s in board.values())
    bram = sum(s.ram for s in board.values())
    names = ", ".join(sorted(m for m, s in board.items() if s.flash or s.ram))
    print(f"  {'board support':<14} {bflash:7d} {bram:7d}   (not kernel: {names})")
    return total.flash <= goal


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
        for tool in ("cmake", "ninja", "arm-none-eabi-gcc"):
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
            f"full ({CONFIGS['full']}, other options default): every public kernel service",
            linked_sizes(full / "full.map"),
            GOALS["full"],
            with_check=linked_sizes(full / "full_check.map"),
        )
    except TacetError as error:
        print(f"tacet footprint: error: {error.message}", file=sys.stderr)
        return error.status
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
