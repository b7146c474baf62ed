# SPDX-License-Identifier: MIT
"""The target table: CMake options, build directories and how programs are started."""

import dataclasses
import json
from pathlib import Path

import pytest

from tacet.core.errors import TacetError
from tacet.core.targets import TARGETS, get_target

REPO = Path("/src/tacet")


def test_the_six_targets() -> None:
    assert list(TARGETS) == ["sim", "qemu-m3", "qemu-m4", "qemu-rv32", "qemu-rv32f", "qemu-fe310"]
    for name, target in TARGETS.items():
        assert target.name == name
        assert target.build_dir(REPO) == REPO / "build" / name


def test_sim_configure_and_run() -> None:
    sim = get_target("sim")
    build_dir = sim.build_dir(REPO)
    assert sim.configure_command(REPO, build_dir) == [
        "cmake", "-S", "/src/tacet", "-B", "/src/tacet/build/sim", "-G", "Ninja",
        "-DTACET_PORT=sim",
    ]  # fmt: skip
    assert not sim.emulated
    assert sim.compiler is None
    assert sim.run_timeout is None
    program = build_dir / "examples" / "hello"
    assert sim.run_command(program) == [str(program)]


@pytest.mark.parametrize(
    ("name", "cpu", "machine", "qemu_cpu"),
    [
        ("qemu-m3", "cortex-m3", "mps2-an385", "cortex-m3"),
        ("qemu-m4", "cortex-m4f", "mps2-an386", "cortex-m4"),
    ],
)
def test_qemu_configure_and_run(name: str, cpu: str, machine: str, qemu_cpu: str) -> None:
    target = get_target(name)
    build_dir = target.build_dir(REPO)
    assert target.configure_command(REPO, build_dir) == [
        "cmake", "-S", "/src/tacet", "-B", f"/src/tacet/build/{name}", "-G", "Ninja",
        "-DTACET_PORT=cortex-m", f"-DTACET_CPU={cpu}",
        "-DCMAKE_TOOLCHAIN_FILE=/src/tacet/cmake/arm-none-eabi.cmake",
    ]  # fmt: skip
    assert target.compiler == "arm-none-eabi-gcc"
    assert target.emulated
    assert target.run_timeout is not None and target.run_timeout > 0
    elf = build_dir / "examples" / "hello"
    assert target.run_command(elf) == [
        "qemu-system-arm", "-M", machine, "-cpu", qemu_cpu, "-nographic",
        "-icount", "shift=5", "-semihosting-config", "enable=on,target=native",
        "-kernel", str(elf),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "cpu", "qemu_cpu"),
    [("qemu-rv32", "rv32imac", "rv32,f=off,d=off"), ("qemu-rv32f", "rv32imafc", "rv32,f=on,d=off")],
)
def test_riscv_configure_and_run(name: str, cpu: str, qemu_cpu: str) -> None:
    """QEMU's virt machine without firmware, its real-time clock on virtual time, one
    instruction per nanosecond (mcycle counts instructions: ports/riscv)."""
    target = get_target(name)
    build_dir = target.build_dir(REPO)
    assert target.configure_command(REPO, build_dir) == [
        "cmake", "-S", "/src/tacet", "-B", f"/src/tacet/build/{name}", "-G", "Ninja",
        "-DTACET_PORT=riscv", f"-DTACET_CPU={cpu}",
        "-DCMAKE_TOOLCHAIN_FILE=/src/tacet/cmake/riscv32-unknown-elf.cmake",
    ]  # fmt: skip
    assert target.compiler == "riscv64-unknown-elf-gcc"
    assert target.fpu == (cpu == "rv32imafc")
    elf = build_dir / "examples" / "threads"
    assert target.run_command(elf) == [
        "qemu-system-riscv32", "-M", "virt", "-cpu", qemu_cpu, "-bios", "none", "-rtc",
        "clock=vm", "-nographic", "-icount", "shift=0", "-semihosting-config",
        "enable=on,target=native", "-kernel", str(elf),
    ]  # fmt: skip


def test_fe310_configure_and_run() -> None:
    """The FE310 board of the RISC-V port: its preset names the board, QEMU's sifive_e runs it
    as the HiFive1 Rev B with the machine's own E31 core, at one instruction per nanosecond;
    no firmware option (the machine loads none) and no FPU."""
    target = get_target("qemu-fe310")
    build_dir = target.build_dir(REPO)
    assert build_dir == REPO / "build" / "qemu-fe310"
    assert target.configure_command(REPO, build_dir) == [
        "cmake", "-S", "/src/tacet", "-B", "/src/tacet/build/qemu-fe310", "-G", "Ninja",
        "-DTACET_PORT=riscv", "-DTACET_CPU=rv32imac", "-DTACET_RV_BOARD=fe310",
        "-DCMAKE_TOOLCHAIN_FILE=/src/tacet/cmake/riscv32-unknown-elf.cmake",
    ]  # fmt: skip
    assert target.port == "riscv"
    assert target.compiler == "riscv64-unknown-elf-gcc"
    assert not target.fpu
    assert target.emulated
    assert target.run_timeout is not None and target.run_timeout > 0
    elf = build_dir / "examples" / "threads"
    assert target.run_command(elf) == [
        "qemu-system-riscv32", "-M", "sifive_e,revb=true", "-cpu", "sifive-e31", "-nographic",
        "-icount", "shift=0", "-semihosting-config", "enable=on,target=native",
        "-kernel", str(elf),
    ]  # fmt: skip


def test_fe310_matches_its_preset_and_board() -> None:
    """The target's definitions are those of the repository's preset of the same name, and its
    QEMU command line is the board's (board.cmake), so that `tacet run` and ctest agree."""
    root = Path(__file__).resolve().parents[2]
    presets = json.loads((root / "CMakePresets.json").read_text(encoding="utf-8"))
    by_name = {p["name"]: p for p in presets["configurePresets"]}
    preset = by_name["qemu-fe310"]
    variables = dict(by_name[preset["inherits"]]["cacheVariables"], **preset["cacheVariables"])
    assert variables == dict(get_target("qemu-fe310").definitions)
    board = (root / "ports" / "riscv" / "boards" / "fe310" / "board.cmake").read_text("utf-8")
    run = get_target("qemu-fe310").run_command(Path("P"))
    assert " ".join(run[1:5]) in " ".join(board.split())


def test_unknown_target_names_the_known_ones() -> None:
    with pytest.raises(
        TacetError,
        match=r"unknown target 'm0'.*sim, qemu-m3, qemu-m4, qemu-rv32, qemu-rv32f, qemu-fe310",
    ):
        get_target("m0")


def test_table_is_read_only() -> None:
    with pytest.raises(TypeError):
        TARGETS["x"] = TARGETS["sim"]  # type: ignore[index]


def test_a_tree_with_presets_is_configured_by_the_targets_preset(tmp_path: Path) -> None:
    (tmp_path / "CMakePresets.json").write_text("{}\n")
    target = dataclasses.replace(
        get_target("qemu-m3"), extra_definitions=(("TACET_DEFINITIONS", "TC_TRACE=1"),)
    )
    build_dir = tmp_path / "build" / "qemu-m3-trace"
    assert target.configure_command(tmp_path, build_dir) == [
        "cmake", "--preset", "qemu-m3", "-S", str(tmp_path), "-B", str(build_dir),
        "-DTACET_DEFINITIONS=TC_TRACE=1",
    ]  # fmt: skip
