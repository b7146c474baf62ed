# SPDX-License-Identifier: MIT
"""The targets an application can be built for and run on, and the Cortex-M boards.

A target fixes the kernel port, the CMake options and toolchain, the build directory
(``build/<target>`` in the repository) and how a built program is started. A Cortex-M target
is built for a board (ports/cortex-m/boards/<name>, TACET_CM_BOARD): by default the MPS2 that
QEMU models, which is what makes it runnable; another board changes the memory map, the
console and the clocks, and may have no emulator at all. The RISC-V targets run on QEMU's
virt machine (ports/riscv/boards/virt), qemu-fe310 on its sifive_e, the SiFive FE310
(ports/riscv/boards/fe310).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from tacet.core.errors import TacetError

QEMU = "qemu-system-arm"
QEMU_RISCV32 = "qemu-system-riscv32"
# The configure presets of the repository: one per target, of the same name.
PRESETS = "CMakePresets.json"
ARM_GCC = "arm-none-eabi-gcc"
RISCV_GCC = "riscv64-unknown-elf-gcc"

# What to install (Debian package names) when a host tool is missing.
INSTALL_HINTS: Mapping[str, str] = MappingProxyType(
    {
        "cmake": "apt-get install cmake",
        "ctest": "apt-get install cmake",
        "ninja": "apt-get install ninja-build",
        ARM_GCC: "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi",
        QEMU: "apt-get install qemu-system-arm",
        RISCV_GCC: "apt-get install gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf",
        QEMU_RISCV32: "apt-get install qemu-system-misc",
    }
)


@dataclass(frozen=True)
class Target:
    """One row of the target table."""

    name: str
    summary: str
    port: str
    definitions: tuple[tuple[str, str], ...] = ()  # what its preset sets (CMakePresets.json)
    extra_definitions: tuple[tuple[str, str], ...] = ()  # added to the preset's, e.g. TC_TRACE
    toolchain_file: str | None = None  # relative to the repository root
    compiler: str | None = None  # cross compiler that must be on PATH
    qemu_machine: str | None = None
    qemu_cpu: str | None = None
    qemu: str = QEMU  # the emulator program
    # QEMU's -icount shift: 2^shift ns per instruction (the board's choice, its board.cmake).
    icount_shift: int = 5
    fpu: bool = False  # the CPU has an FPU: the port's larger minimum stack (TC_PORT_STACK_MIN)
    qemu_options: tuple[str, ...] = ()  # more of the board's options, e.g. no firmware
    run_timeout: float | None = None  # seconds; None: the program may run as long as it likes
    # Why the benchmark programs (tacet bench) do not fit the target's RAM; None: they do.
    no_benchmarks: str | None = None

    @property
    def emulated(self) -> bool:
        return self.qemu_machine is not None

    def build_dir(self, repo: Path) -> Path:
        return repo / "build" / self.name

    def configure_command(self, repo: Path, build_dir: Path) -> list[str]:
        """The CMake configure command line for this target: its preset in the repository's
        CMakePresets.json, or (a tree without presets) the same options spelt out."""
        extra = [f"-D{key}={value}" for key, value in self.extra_definitions]
        if (repo / PRESETS).is_file():
            return ["cmake", "--preset", self.name, "-S", str(repo), "-B", str(build_dir), *extra]
        command = ["cmake", "-S", str(repo), "-B", str(build_dir), "-G", "Ninja"]
        command += [f"-D{key}={value}" for key, value in self.definitions]
        if self.toolchain_file is not None:
            command.append(f"-DCMAKE_TOOLCHAIN_FILE={repo / self.toolchain_file}")
        return command + extra

    def run_command(self, program: Path) -> list[str]:
        """The command line that runs a built program on this target."""
        if not self.emulated:
            return [str(program)]
        assert self.qemu_machine is not None and self.qemu_cpu is not None
        return [
            self.qemu,
            "-M", self.qemu_machine,
            "-cpu", self.qemu_cpu,
            *self.qemu_options,
            "-nographic",
            # Deterministic virtual time: 2^shift ns per instruction (docs: "Measuring on QEMU").
            "-icount", f"shift={self.icount_shift}",
            # The program's semihosting exit code becomes QEMU's exit status.
            "-semihosting-config", "enable=on,target=native",
            "-kernel", str(program),
        ]  # fmt: skip


def _riscv_target(name: str, summary: str, fpu: bool) -> Target:
    """A target of the RISC-V port on QEMU's virt (ports/riscv/boards/virt/board.cmake): no
    firmware, the real-time clock on virtual time, one instruction per nanosecond (mcycle then
    counts instructions); QEMU's generic rv32 CPU with the F extension exactly when the build
    has it, and never D."""
    return Target(
        name=name,
        summary=summary,
        port="riscv",
        definitions=(("TACET_PORT", "riscv"), ("TACET_CPU", "rv32imafc" if fpu else "rv32imac")),
        toolchain_file="cmake/riscv32-unknown-elf.cmake",
        compiler=RISCV_GCC,
        qemu_machine="virt",
        qemu_cpu=f"rv32,f={'on' if fpu else 'off'},d=off",
        qemu=QEMU_RISCV32,
        icount_shift=0,
        fpu=fpu,
        qemu_options=("-bios", "none", "-rtc", "clock=vm"),
        run_timeout=120.0,
    )


def _fe310_target() -> Target:
    """The RISC-V port on the SiFive FE310 (ports/riscv/boards/fe310/board.cmake): QEMU's
    sifive_e as the HiFive1 Rev B (revb=true: the program in flash at 0x20010000), its E31 core
    (RV32IMAC), 16 KB of RAM; one instruction per nanosecond, as on virt."""
    return Target(
        name="qemu-fe310",
        summary="RISC-V RV32IMAC on the SiFive FE310 (16 KB of RAM) under QEMU (sifive_e)",
        port="riscv",
        definitions=(
            ("TACET_PORT", "riscv"),
            ("TACET_CPU", "rv32imac"),
            ("TACET_RV_BOARD", "fe310"),
        ),
        toolchain_file="cmake/riscv32-unknown-elf.cmake",
        compiler=RISCV_GCC,
        qemu_machine="sifive_e,revb=true",
        qemu_cpu="sifive-e31",
        qemu=QEMU_RISCV32,
        icount_shift=0,
        run_timeout=120.0,
        no_benchmarks="the FE310's 16 KB of RAM holds none of the benchmark programs "
        "(ports/riscv/boards/fe310/board.cmake, TACET_BOARD_UNFIT)",
    )


TARGETS: Mapping[str, Target] = MappingProxyType(
    {
        "sim": Target(
            name="sim",
            summary="the sim port: a Linux process on a virtual clock",
            port="sim",
            definitions=(("TACET_PORT", "sim"),),
        ),
        "qemu-m3": Target(
            name="qemu-m3",
            summary="Cortex-M3 under QEMU (mps2-an385)",
            port="cortex-m",
            definitions=(("TACET_PORT", "cortex-m"), ("TACET_CPU", "cortex-m3")),
            toolchain_file="cmake/arm-none-eabi.cmake",
            compiler=ARM_GCC,
            qemu_machine="mps2-an385",
            qemu_cpu="cortex-m3",
            run_timeout=120.0,
        ),
        "qemu-m4": Target(
            name="qemu-m4",
            summary="Cortex-M4F under QEMU (mps2-an386)",
            port="cortex-m",
            definitions=(("TACET_PORT", "cortex-m"), ("TACET_CPU", "cortex-m4f")),
            toolchain_file="cmake/arm-none-eabi.cmake",
            compiler=ARM_GCC,
            qemu_machine="mps2-an386",
            qemu_cpu="cortex-m4",
            fpu=True,
            run_timeout=120.0,
        ),
        "qemu-rv32": _riscv_target("qemu-rv32", "RISC-V RV32IMAC under QEMU (virt)", fpu=False),
        "qemu-rv32f": _riscv_target(
            "qemu-rv32f",
            "RISC-V RV32IMAFC (single-precision FPU, lazy FP context) under QEMU (virt)",
            fpu=True,
        ),
        "qemu-fe310": _fe310_target(),
    }
)


def get_target(name: str) -> Target:
    try:
        return TARGETS[name]
    except KeyError:
        known = ", ".join(TARGETS)
        raise TacetError(f"unknown target {name!r} (known targets: {known})") from None


@dataclass(frozen=True)
class Board:
    """A board of the Cortex-M port (ports/cortex-m/boards/<name>/board.cmake)."""

    name: str
    summary: str
    cpus: tuple[str, ...]  # the TACET_CPU values it is built for, the first the default
    emulated: bool  # QEMU models it: its programs run under tacet run and ctest
    clock_hz: int  # TC_BOARD_CPU_HZ, the processor clock (tacet_board.h)


DEFAULT_BOARD = "mps2"
BOARDS: Mapping[str, Board] = MappingProxyType(
    {
        "mps2": Board(
            name="mps2",
            summary="ARM MPS2 as QEMU models it: mps2-an385 (Cortex-M3), mps2-an386 "
            "(Cortex-M4F); the default",
            cpus=("cortex-m3", "cortex-m4f"),
            emulated=True,
            clock_hz=25_000_000,
        ),
        "stm32f407": Board(
            name="stm32f407",
            summary="STM32F407 (STM32F4DISCOVERY), Cortex-M4F at 168 MHz: built, not run "
            "(QEMU has no model of it)",
            cpus=("cortex-m4f",),
            emulated=False,
            clock_hz=168_000_000,
        ),
    }
)


def cpu_of(target: Target) -> str | None:
    """TACET_CPU of a Cortex-M target (None for the others)."""
    return dict(target.definitions).get("TACET_CPU") if target.port == "cortex-m" else None


def target_for_board(board: Board) -> Target:
    """The target a board is built as when no target is named: the one of its first CPU."""
    return next(t for t in TARGETS.values() if cpu_of(t) == board.cpus[0])


def check_board(target: Target, name: str) -> Board:
    """The board ``name`` for ``target``, or a TacetError saying why it cannot be."""
    board = BOARDS.get(name)
    if board is None:
        raise TacetError(f"unknown board {name!r} (boards: {', '.join(BOARDS)})")
    cpu = cpu_of(target)
    if cpu is None:
        raise TacetError(
            f"--board {name}: boards are for the Cortex-M targets, not {target.name} "
            f"(e.g. --target {target_for_board(board).name} --board {name})"
        )
    if cpu not in board.cpus:
        fits = [t.name for t in TARGETS.values() if cpu_of(t) in board.cpus]
        raise TacetError(
            f"--board {name}: the board's CPU is {' or '.join(board.cpus)}, target "
            f"{target.name} is {cpu} (use --target {' or '.join(fits)})"
        )
    return board
