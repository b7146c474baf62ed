# SPDX-License-Identifier: MIT
"""``tacet lint``: cppcheck on kernel/, ports/ and compat/, in every kernel configuration the
builds use.

Each configuration is one cppcheck run over the kernel, one port's C sources and the layers
built on that configuration's kernel (compat/cmsis-rtos2) with that configuration's
definitions. Given -D, cppcheck checks that configuration alone rather than the combinations
of #if it would guess, so the runs are the configurations that are built and tested, and the
result is the same on every run. A finding fails the command unless an inline
suppression with its reason sits on the line before it (or at the end of its line), in
cppcheck's own syntax::

    /* cppcheck-suppress knownConditionTrueFalse ; n wraps to 0 every 2^32 switches */

The suppressions are matched here rather than by cppcheck (--inline-suppr), because cppcheck
2.10 does not say when a suppression in a header matched nothing: a suppression without a
reason, or one that matches no finding in any configuration, fails the command too, so that
none outlives its reason.
"""

import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from tacet.core.errors import TacetError

# cppcheck's checks beyond errors; `information` includes a header not found (a wrong -I).
ENABLE = "warning,style,performance,portability,information"
# One finding per line: file, line, column, severity, id, message (the message may hold ':').
TEMPLATE = "{file}:{line}:{column}:{severity}:{id}:{message}"
# cppcheck does not read the C library's headers (it knows the library from its own
# configuration): that it did not find them is no finding.
IGNORED_IDS = frozenset({"missingIncludeSystem"})
# An inline suppression, and its reason after the ';' (up to the end of the comment).
SUPPRESSION = re.compile(r"cppcheck-suppress\s+(\w+)(?:\s*;\s*([^*]*[^*\s]))?")
# Where the suppressions may be, and the sources the analysis covers.
ROOTS = ("kernel", "include", "ports", "compat")


@dataclass(frozen=True)
class Port:
    """A port's part of a cppcheck run, or a layer's on the kernel: its C sources (globs) and
    include directories, relative to the repository."""

    name: str
    sources: tuple[str, ...]
    includes: tuple[str, ...]


SIM = Port(
    "sim",
    sources=("kernel/*.c", "ports/sim/*.c"),
    includes=("include", "kernel", "ports/sim/include"),
)
CORTEX_M = Port(
    "cortex-m",
    sources=(
        "kernel/*.c", "ports/cortex-m/*.c", "ports/cortex-m/boards/mps2/*.c", "ports/common/*.c",
    ),
    includes=("include", "kernel", "ports/cortex-m/include", "ports/cortex-m/boards/mps2/include"),
)  # fmt: skip
RISCV = Port(
    "riscv",
    sources=("kernel/*.c", "ports/riscv/*.c", "ports/riscv/boards/virt/*.c", "ports/common/*.c"),
    includes=("include", "kernel", "ports/riscv/include", "ports/riscv/boards/virt/include"),
)

# CMSIS-RTOS2 on Tacet (docs/cmsis-rtos2.md): built and tested on the default kernel of each
# port and on the tests' kernels without checks and with the trace; it needs 64 priorities or
# more, so not in the 32-priority configurations.
CMSIS_OS2 = Port(
    "cmsis-rtos2",
    sources=("compat/cmsis-rtos2/src/*.c",),
    includes=("compat/cmsis-rtos2/include",),
)

# The porting guide's real chip (docs/porting.md): only its own code, the rest is the
# cortex-m port's above.
STM32F407 = Port(
    "cortex-m",
    sources=("ports/cortex-m/boards/stm32f407/*.c",),
    includes=("include", "ports/cortex-m/include", "ports/cortex-m/boards/stm32f407/include"),
)

# The RISC-V port's second board, the SiFive FE310 (ports/riscv/boards/fe310): its own code and
# the port's, whose tick carries a fraction there (the tests' 300 Hz on QEMU's 10 MHz mtime).
FE310 = Port(
    "riscv",
    sources=("ports/riscv/riscv.c", "ports/riscv/boards/fe310/*.c"),
    includes=("include", "kernel", "ports/riscv/include", "ports/riscv/boards/fe310/include"),
)


@dataclass(frozen=True)
class Configuration:
    """One cppcheck run: a port, the definitions of one kernel build, the compiler's own
    predefined macros included (cppcheck does not know them), and the layers built on it."""

    name: str
    port: Port
    defines: tuple[str, ...]
    layers: tuple[Port, ...] = ()

    @property
    def parts(self) -> tuple[Port, ...]:
        return (self.port, *self.layers)


# The configurations of the Makefile's TEST_BUILDS, their tests and benchmarks (see
# tests/CMakeLists.txt, ports/cortex-m/tests.cmake, ports/riscv/tests.cmake,
# bench/CMakeLists.txt), and the footprint's minimal one (cortex-m3-lean).
CM3 = ("__arm__", "__ARM_ARCH_7M__")
CM4F = ("__arm__", "__ARM_ARCH_7EM__", "__ARM_FP=4")
OS = ("__OPTIMIZE_SIZE__",)  # the toolchain file's -Os; the benchmarks are built at -O2
LEAN = ("TC_CHECKS=0", "TC_STATS=0", "TC_STACK_CHECK=0", "TC_PRIORITIES=32")
RV32 = ("__riscv", "__riscv_xlen=32")
RV32F = (*RV32, "__riscv_flen=32")
CONFIGURATIONS: tuple[Configuration, ...] = (
    Configuration("sim", SIM, ("__x86_64__",), (CMSIS_OS2,)),
    Configuration("sim-prio32", SIM, ("__x86_64__", "TC_PRIORITIES=32")),
    # The 64-priority build of the scaling benchmark (bench/rhealstone/scaling.c).
    Configuration("sim-prio64", SIM, ("__x86_64__", "TC_PRIORITIES=64")),
    Configuration("sim-prio1024", SIM, ("__x86_64__", "TC_PRIORITIES=1024")),
    Configuration("sim-nochecks", SIM, ("__x86_64__", "TC_CHECKS=0"), (CMSIS_OS2,)),
    Configuration("sim-ucontext", SIM, ("__x86_64__", "TC_SIM_UCONTEXT=1")),
    Configuration("sim-asan", SIM, ("__x86_64__", "__SANITIZE_ADDRESS__"), (CMSIS_OS2,)),
    Configuration("sim-aarch64", SIM, ("__aarch64__",), (CMSIS_OS2,)),
    Configuration("cortex-m3", CORTEX_M, (*CM3, *OS), (CMSIS_OS2,)),
    # The layer's tests on the kernel without checks (the kernel's own are in the lean one).
    Configuration("cortex-m3-nochecks", CORTEX_M, (*CM3, *OS, "TC_CHECKS=0"), (CMSIS_OS2,)),
    Configuration("cortex-m3-irqoff", CORTEX_M, (*CM3, *OS, "TC_IRQ_OFF_MEASURE=1")),
    Configuration("cortex-m3-lean", CORTEX_M, (*CM3, *OS, *LEAN)),
    Configuration("cortex-m3-bench", CORTEX_M, (*CM3, "TC_CM_IDLE_WFI=0", "TC_PRIORITIES=1024")),
    Configuration("cortex-m4f", CORTEX_M, (*CM4F, *OS, "TC_CM_TICKLESS=0"), (CMSIS_OS2,)),
    # The MPU stack guard (docs/stack-guard.md), on both cores: the M4F's guard differs.
    Configuration("cortex-m3-mpuguard", CORTEX_M, (*CM3, *OS, "TC_MPU_STACK_GUARD=1")),
    Configuration("cortex-m4f-mpuguard", CORTEX_M, (*CM4F, *OS, "TC_MPU_STACK_GUARD=1")),
    # The event trace compiled in (docs/trace.md), on both ports.
    Configuration("sim-trace", SIM, ("__x86_64__", "TC_TRACE=1"), (CMSIS_OS2,)),
    Configuration("sim-power", SIM, ("__x86_64__", "TC_POWER=1")),
    # The simulation engine's kernel (simulator/CMakeLists.txt).
    Configuration("sim-engine", SIM, ("__x86_64__", "TC_STACK_CHECK=0", "TC_PRIORITIES=1024")),
    Configuration("cortex-m3-trace", CORTEX_M, (*CM3, "TC_TRACE=1"), (CMSIS_OS2,)),
    # Both: the energy snapshot of a trace (kernel/power.c, test_energy_trace).
    Configuration("sim-powertrace", SIM, ("__x86_64__", "TC_POWER=1", "TC_TRACE=1")),
    Configuration("cortex-m3-powertrace", CORTEX_M, (*CM3, *OS, "TC_POWER=1", "TC_TRACE=1")),
    Configuration("cortex-m4f-stm32f407", STM32F407, (*CM4F, *OS)),
    Configuration("rv32imac", RISCV, (*RV32, *OS)),
    Configuration("rv32imac-fe310", FE310, (*RV32, *OS, "TC_TICK_HZ=300u")),
    Configuration("rv32imac-irqoff", RISCV, (*RV32, *OS, "TC_IRQ_OFF_MEASURE=1")),
    Configuration("rv32imac-bench", RISCV, (*RV32, "TC_RV_IDLE_WFI=0", *LEAN)),
    Configuration("rv32imac-powertrace", RISCV, (*RV32, *OS, "TC_POWER=1", "TC_TRACE=1")),
    Configuration("rv32imafc", RISCV, (*RV32F, *OS)),
)


@dataclass(frozen=True, order=True)
class Finding:
    file: str
    line: int
    column: int
    severity: str
    id: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message} [{self.id}]"


@dataclass(frozen=True, order=True)
class Suppression:
    """`/* cppcheck-suppress <id> ; <reason> */` on line `line` of `file`: it covers a
    finding of that id on its own line or the next."""

    file: str
    line: int
    id: str
    reason: str

    def covers(self, finding: Finding) -> bool:
        return (
            finding.file == self.file
            and finding.id == self.id
            and finding.line in (self.line, self.line + 1)
        )


def parse_findings(output: str) -> list[Finding]:
    """The findings in cppcheck's output (printed with TEMPLATE); other lines are skipped."""
    findings = []
    for line in output.splitlines():
        parts = line.split(":", 5)
        if len(parts) != 6 or not parts[1].isdigit() or not parts[2].isdigit():
            continue
        file, row, column, severity, ident, message = parts
        findings.append(Finding(file, int(row), int(column), severity, ident, message))
    return findings


def parse_suppressions(file: str, text: str) -> list[Suppression]:
    return [
        Suppression(file, number, match.group(1), (match.group(2) or "").strip())
        for number, line in enumerate(text.splitlines(), 1)
        for match in SUPPRESSION.finditer(line)
    ]


def find_suppressions(repo: Path, roots: Iterable[str] = ROOTS) -> list[Suppression]:
    """Every inline suppression in the C sources and headers under `roots`."""
    return [
        s
        for root in roots
        for path in sorted((repo / root).rglob("*"))
        if path.suffix in {".c", ".h"}
        for s in parse_suppressions(str(path.relative_to(repo)), path.read_text(errors="replace"))
    ]


def judge(
    results: dict[Configuration, list[Finding]], suppressions: Sequence[Suppression]
) -> tuple[dict[Finding, list[str]], list[Suppression], list[Suppression]]:
    """The runs' findings that no suppression covers, each with the configurations that
    report it; the suppressions that cover nothing in any configuration (a suppression that
    one configuration needs, as 32 priorities, is none of these); and those without a reason."""
    findings: dict[Finding, list[str]] = {}
    used: set[Suppression] = set()
    for config, found in results.items():
        for f in found:
            covering = [s for s in suppressions if s.covers(f)]
            used.update(covering)
            if not covering:
                findings.setdefault(f, []).append(config.name)
    stale = sorted(set(suppressions) - used)
    unexplained = sorted(s for s in suppressions if not s.reason)
    return findings, stale, unexplained


def cppcheck_command(repo: Path, config: Configuration, cppcheck: str = "cppcheck") -> list[str]:
    sources = sorted(
        {
            str(p.relative_to(repo))
            for part in config.parts
            for pattern in part.sources
            for p in repo.glob(pattern)
        }
    )
    if not sources:
        raise TacetError(f"lint: no C sources for configuration {config.name} in {repo}")
    return [
        cppcheck,
        "--std=c11",
        f"--enable={ENABLE}",
        f"--template={TEMPLATE}",
        *(f"-I{d}" for part in config.parts for d in part.includes),
        *(f"-D{d}" for d in config.defines),
        *sources,
    ]


def run_cppcheck(repo: Path, config: Configuration, cppcheck: str) -> list[Finding]:
    result = subprocess.run(
        cppcheck_command(repo, config, cppcheck),
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise TacetError(
            f"lint: cppcheck failed in configuration {config.name} "
            f"(status {result.returncode}): {result.stderr.strip()[-500:]}"
        )
    return [f for f in parse_findings(result.stderr) if f.id not in IGNORED_IDS]


def find_cppcheck(given: str | None) -> str:
    name = given or "cppcheck"
    path = shutil.which(name)
    if path is None:
        raise TacetError(f"{name}: not found (Debian package cppcheck; `make deps` installs it)")
    return path


def cppcheck_version(cppcheck: str) -> str:
    result = subprocess.run([cppcheck, "--version"], capture_output=True, text=True, check=False)
    return result.stdout.strip() or "cppcheck (version unknown)"


def lint(repo: Path, cppcheck: str, configs: Sequence[Configuration], jobs: int) -> int:
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        found = pool.map(lambda c: run_cppcheck(repo, c, cppcheck), configs)
        results = dict(zip(configs, found, strict=True))
    suppressions = find_suppressions(repo)
    findings, stale, unexplained = judge(results, suppressions)
    for f in sorted(findings):
        print(f"{f}  (in {', '.join(findings[f])})")
    for s in stale:
        print(f"{s.file}:{s.line}: suppression of {s.id} matches nothing in any configuration")
    for s in unexplained:
        print(f"{s.file}:{s.line}: suppression of {s.id} without its reason (`; why` after it)")
    total = len(findings) + len(stale) + len(unexplained)
    print(
        f"tacet lint: {cppcheck_version(cppcheck)}, {len(configs)} configurations "
        f"({', '.join(c.name for c in configs)}): {total} finding{'s' * (total != 1)}, "
        f"{len(suppressions)} inline suppression{'s' * (len(suppressions) != 1)}",
        file=sys.stderr if total else sys.stdout,
    )
    return 1 if total else 0
