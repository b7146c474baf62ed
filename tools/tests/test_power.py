# SPDX-License-Identifier: MIT
"""Board power tables (tacet.power.tables), the energy model (tacet.power.energy) and the C
generated from them: every board file loads and says what its seed says; every bad table is refused
with FILE:LINE: FIELD; the model matches hand-computed values; the header compiles and holds
the table's very values; a description's board.power installs the table.
"""

import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import (
    REPO,
    assert_error,
    line_of,
    needs_cmake,
    run_checked,
    run_config,
    run_tacet,
)

from tacet.app import description as appdesc
from tacet.core.errors import TacetError
from tacet.core.yamldoc import DescriptionError
from tacet.power import energy
from tacet.power import tables as power

BOARDS = ("lpc2148", "s3c2440", "mps2-an385", "mps2-an386", "virt-rv32", "sim")

GOOD = """\
name: board
description: a test board
source: hand-made
points:
  - {name: slow, hz: 10000000, millivolt: 1000}
  - {name: fast, hz: 20000000, millivolt: 2000}
c_eff_farad: 1.0e-9
p_static_watt: 0.5
policies:
  - {name: lazy, high: fast, normal: slow, low: slow, idle: slow}
notes: for the tests
"""


def write(tmp_path: Path, text: str, name: str = "board.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def errors(tmp_path: Path, text: str, name: str = "board.yaml") -> list[str]:
    with pytest.raises(DescriptionError) as info:
        power.load(write(tmp_path, text, name), name)
    return info.value.errors


# ---- the board files ---------------------------------------------------------------------


@pytest.mark.parametrize("board", BOARDS)
def test_every_board_file_loads(board: str) -> None:
    table = power.load(power.locate(board, REPO))
    assert table.name == board
    assert table.display == f"power/{board}.yaml"
    assert 1 <= len(table.points) <= power.max_points()
    assert table.source and table.notes
    assert table.placeholder == (board.startswith(("mps2", "virt")) or board == "sim")


def test_every_file_in_power_is_a_board_tested_here() -> None:
    assert sorted(power.available()) == sorted(BOARDS)


def test_lpc2148_is_seed_000_table_1() -> None:
    table = power.load(power.locate("lpc2148", REPO))
    mhz_volts = [(p.hz / 1e6, p.volts) for p in table.points]
    assert mhz_volts == [(12, 2.9), (24, 3.0), (36, 3.1), (48, 3.2), (60, 3.3)]
    # The datasheet's 40 mA at 3.3 V and 60 MHz, less 40 uA, as C_eff * V * f.
    assert table.c_eff_farad * 3.3 * 60e6 == pytest.approx(0.040 - 40e-6, rel=1e-3)
    assert table.p_static_watt == pytest.approx(3.3 * 40e-6)


def test_s3c2440_is_seed_004() -> None:
    table = power.load(power.locate("s3c2440", REPO))
    assert [p.hz for p in table.points] == [96_000_000, 266_000_000, 399_000_000]
    assert {p.millivolt for p in table.points} == {1300}  # Ahn et al. scaled the frequency only
    mhz = {
        row.name: [table.points[i].hz // 1_000_000 for i in row.points] for row in table.policies
    }
    assert mhz == {  # Ahn et al., table 1: Task+, Task, Task-, Idle
        "default": [399, 399, 399, 399],
        "idle_scaling": [399, 399, 399, 96],
        "ls399": [399, 399, 266, 96],
        "ls266": [399, 266, 96, 96],
        "ls96": [399, 96, 96, 96],
    }
    # Table 2 (5 V supply): Default runs at 399 MHz, LS96 at 96 MHz for WAV (display off)
    # and PushPush (the profile, display on).
    for profile, default_amps, ls96_amps in ((None, 0.239, 0.194), ("pushpush", 0.348, 0.244)):
        top = energy.power_watts(table, 2, profile)
        bottom = energy.power_watts(table, 0, profile)
        assert top == pytest.approx(5 * default_amps, rel=1e-3)
        assert bottom == pytest.approx(5 * ls96_amps, rel=1e-3)


def _define(header: Path, name: str) -> int:
    found = re.search(rf"#define\s+{name}\s+(\d+)u?\b", header.read_text())
    assert found, f"{name} in {header}"
    return int(found.group(1))


def test_placeholders_run_at_their_ports_clock() -> None:
    """The highest point of each placeholder is the clock its port runs at, so installing
    the table changes no timing until a point changes."""
    sim_hz = _define(REPO / "ports/sim/include/tacet_port.h", "TC_SIM_CPU_HZ")
    mps2_hz = _define(
        REPO / "ports/cortex-m/boards/mps2/include/tacet_board.h", "TC_BOARD_CYCLES_HZ"
    )
    for board, hz in (("sim", sim_hz), ("mps2-an385", mps2_hz), ("mps2-an386", mps2_hz)):
        assert power.load(power.locate(board, REPO)).points[-1].hz == hz


def test_max_points_is_the_kernels() -> None:
    assert power.max_points() == _define(REPO / "include/tacet/config.h", "TC_POWER_POINTS")


# ---- bad tables ----------------------------------------------------------------------------


def _points(n: int) -> str:
    return "".join(
        f"  - {{name: p{i}, hz: {(i + 1) * 1000000}, millivolt: {1000 + i}}}\n" for i in range(n)
    )


BAD = [
    # (id, text, marker, field, words)
    (
        "unsorted points",
        GOOD.replace("hz: 20000000", "hz: 5000000"),
        "name: fast",
        "points[1].hz",
        "5000000 Hz is not above the previous point's ('slow', 10000000 Hz)",
    ),
    (
        "two points at one frequency",
        GOOD.replace("hz: 20000000", "hz: 10000000"),
        "name: fast",
        "points[1].hz",
        "strictly increasing frequency",
    ),
    (
        "voltage going down",
        GOOD.replace("millivolt: 2000", "millivolt: 900"),
        "name: fast",
        "points[1].millivolt",
        "900 mV is below the previous point's ('slow', 1000 mV)",
    ),
    (
        "zero voltage",
        GOOD.replace("millivolt: 1000", "millivolt: 0"),
        "name: slow",
        "points[0].millivolt",
        "0 is below the minimum, 1",
    ),
    (
        "zero frequency",
        GOOD.replace("hz: 10000000", "hz: 0"),
        "name: slow",
        "points[0].hz",
        "0 is below the minimum, 1",
    ),
    (
        "frequency beyond 32 bits",
        GOOD.replace("hz: 20000000", "hz: 5000000000"),
        "name: fast",
        "points[1].hz",
        "above the maximum, 4294967295",
    ),
    (
        "too many points",
        GOOD.split("points:\n", maxsplit=1)[0]
        + "points:\n"
        + _points(9)
        + GOOD.split("millivolt: 2000}\n")[1],
        "points:",
        "points",
        "9 points: the kernel takes at most 8 (TC_POWER_POINTS",
    ),
    (
        "no points",
        GOOD.replace(
            "points:\n  - {name: slow, hz: 10000000, millivolt: 1000}\n"
            "  - {name: fast, hz: 20000000, millivolt: 2000}\n",
            "points: []\n",
        ).replace(
            "policies:\n  - {name: lazy, high: fast, normal: slow, low: slow, idle: slow}\n", ""
        ),
        "points:",
        "points",
        "must not be empty",
    ),
    (
        "unknown point in a policy row",
        GOOD.replace("low: slow", "low: slo"),
        "name: lazy",
        "policies[0].low",
        "unknown point 'slo' (did you mean 'slow'?) (points: slow, fast)",
    ),
    (
        "a missing field",
        GOOD.replace("p_static_watt: 0.5\n", ""),
        "name: board",
        "p_static_watt",
        "missing (required)",
    ),
    (
        "a missing class in a row",
        GOOD.replace(", idle: slow}", "}"),
        "name: lazy",
        "policies[0].idle",
        "missing (required)",
    ),
    (
        "a key twice",
        GOOD + "c_eff_farad: 2.0e-9\n",
        "c_eff_farad: 2.0e-9",
        "c_eff_farad",
        "key given twice in one mapping (first at line 7)",
    ),
    (
        "an unknown field",
        GOOD + "c_eff: 1.0e-9\n",
        "c_eff: 1.0e-9",
        "c_eff",
        "unknown field 'c_eff' (did you mean 'c_eff_farad'?",
    ),
    (
        "C_eff zero",
        GOOD.replace("c_eff_farad: 1.0e-9", "c_eff_farad: 0"),
        "c_eff_farad",
        "c_eff_farad",
        "0 must be more than 0",
    ),
    (
        "static power negative",
        GOOD.replace("p_static_watt: 0.5", "p_static_watt: -0.5"),
        "p_static_watt",
        "p_static_watt",
        "-0.5 is below the minimum, 0",
    ),
    (
        "C_eff infinite",
        GOOD.replace("c_eff_farad: 1.0e-9", "c_eff_farad: .inf"),
        "c_eff_farad",
        "c_eff_farad",
        "inf is not a finite number",
    ),
    (
        "an exponent YAML reads as text",
        GOOD.replace("c_eff_farad: 1.0e-9", "c_eff_farad: 1e-9"),
        "c_eff_farad",
        "c_eff_farad",
        "expected a number, got '1e-9' (YAML reads a number with an exponent as text",
    ),
    (
        "a point twice",
        GOOD.replace("name: fast", "name: slow").replace("high: fast", "high: slow"),
        "hz: 20000000",
        "points[1].name",
        "point 'slow' given twice",
    ),
    (
        "a row twice",
        GOOD.replace(
            "idle: slow}\n",
            "idle: slow}\n  - {name: lazy, high: fast, normal: fast, low: fast, idle: fast}\n",
        ),
        "idle: fast}",
        "policies[1].name",
        "policy row 'lazy' given twice",
    ),
    (
        "a row whose C name is the points array",
        GOOD.replace("name: lazy", "name: points"),
        "name: points",
        "policies[0].name",
        "the C name TC_POWER_BOARD_POINTS is also that of name (line 1)",
    ),
    (
        "a name that is not the file's",
        GOOD.replace("name: board", "name: other"),
        "name: other",
        "name",
        "'other' is not the file's name, 'board'",
    ),
    (
        "a name C cannot use",
        GOOD.replace("name: slow", "name: Slow").replace("normal: slow", "normal: Slow"),
        "name: Slow",
        "points[0].name",
        "expected a name of lower-case letters, digits and _",
    ),
]


@pytest.mark.parametrize(
    ("text", "marker", "field", "words"), [c[1:] for c in BAD], ids=[c[0] for c in BAD]
)
def test_bad_table(tmp_path: Path, text: str, marker: str, field: str, words: str) -> None:
    assert_error(errors(tmp_path, text), f"board.yaml:{line_of(text, marker)}", field, words)


def test_good_table_is_good(tmp_path: Path) -> None:
    """The base of the bad cases is itself good: each case fails for its own reason."""
    table = power.load(write(tmp_path, GOOD), "board.yaml")
    assert [p.name for p in table.points] == ["slow", "fast"]
    assert table.policies[0].points == (1, 0, 0, 0)


def test_not_yaml_and_not_a_mapping(tmp_path: Path) -> None:
    (syntax,) = errors(tmp_path, "points: [")
    assert syntax.startswith("board.yaml:1: YAML syntax: expected the node content")
    assert errors(tmp_path, "- 1\n")[0].startswith(
        "board.yaml:1: (top level): expected a mapping with name, description"
    )
    assert errors(tmp_path, "")[0].startswith("board.yaml:1: (top level): the file is empty")


def test_locate(tmp_path: Path) -> None:
    assert power.locate("s3c2440", tmp_path) == REPO / "power" / "s3c2440.yaml"
    path = write(tmp_path, GOOD)
    assert power.locate("board.yaml", tmp_path) == path
    with pytest.raises(TacetError, match=r"no power table 's3c244' \(did you mean 's3c2440'\?\)"):
        power.locate("s3c244", tmp_path)
    with pytest.raises(TacetError, match="is not a file"):
        power.locate("nowhere/board.yaml", tmp_path)


# ---- the energy model ------------------------------------------------------------------


def test_energy_at_one_point_by_hand(tmp_path: Path) -> None:
    table = power.load(write(tmp_path, GOOD), "board.yaml")
    # 1000 cycles at 20 MHz and 2 V: C V^2 N = 1e-9 * 4 * 1000 = 4e-6 J; they take 50 us,
    # and 0.5 W of static power over 50 us is 25e-6 J.
    e = energy.energy(table, [0, 1000])
    assert e.cycles == (0, 1000)
    assert e.total_cycles == 1000
    assert e.seconds == pytest.approx(50e-6, rel=1e-12)
    assert e.dynamic_joules == pytest.approx(4e-6, rel=1e-12)
    assert e.static_joules == pytest.approx(25e-6, rel=1e-12)
    assert e.joules == pytest.approx(29e-6, rel=1e-12)


def test_energy_over_points_by_hand(tmp_path: Path) -> None:
    table = power.load(write(tmp_path, GOOD), "board.yaml")
    # 3000 cycles at 10 MHz / 1 V: 3e-6 J dynamic, 300 us; 500 at 20 MHz / 2 V: 2e-6 J, 25 us.
    e = energy.energy(table, [3000, 500])
    assert e.seconds == pytest.approx(325e-6, rel=1e-12)
    assert e.dynamic_joules == pytest.approx(5e-6, rel=1e-12)
    assert e.static_joules == pytest.approx(162.5e-6, rel=1e-12)
    # The kernel's arrays have TC_POWER_POINTS entries: zeros past the table are fine.
    assert energy.energy(table, [3000, 500, 0, 0]) == e
    assert energy.energy(table, [3000]).total_cycles == 3000
    with pytest.raises(ValueError, match="has 2 points"):
        energy.energy(table, [3000, 500, 1])


def test_energy_lpc2148_by_hand() -> None:
    """Pillai and Isha's 263-cycle switch at 60 MHz / 3.3 V: 2.018e-10 * 3.3^2 * 263 J dynamic."""
    table = power.load(power.locate("lpc2148", REPO))
    e = energy.energy(table, [0, 0, 0, 0, 263])
    assert e.dynamic_joules == pytest.approx(5.7796e-7, rel=1e-4)
    assert e.static_joules == pytest.approx(1.32e-4 * 263 / 60e6, rel=1e-12)
    # The same cycles at 12 MHz / 2.9 V cost less dynamic energy and more static.
    slow = energy.energy(table, [263])
    assert slow.dynamic_joules == pytest.approx(2.018e-10 * 2.9**2 * 263, rel=1e-12)
    assert slow.static_joules == pytest.approx(1.32e-4 * 263 / 12e6, rel=1e-12)


def test_report_is_the_sum_of_its_parts(tmp_path: Path) -> None:
    table = power.load(write(tmp_path, GOOD), "board.yaml")
    r = energy.report(
        table, threads=[3000, 500], hisrs=[10], idle=[1000, 0], switching=[0, 40],
        context_switches=4,
    )  # fmt: skip
    assert r.total.cycles == (4010, 540)
    parts = (r.threads, r.hisrs, r.idle, r.switching)
    assert r.total.joules == pytest.approx(sum(p.joules for p in parts), rel=1e-12)
    assert r.total.seconds == pytest.approx(sum(p.seconds for p in parts), rel=1e-12)
    # 40 cycles at 20 MHz / 2 V: 1.6e-7 J dynamic, 2 us of 0.5 W static: 1e-6 J.
    assert r.switching.joules == pytest.approx(1.16e-6, rel=1e-12)
    assert r.joules_per_switch == pytest.approx(0.29e-6, rel=1e-12)
    assert energy.report(table, threads=[1]).joules_per_switch == 0.0


def test_profiles() -> None:
    table = power.load(power.locate("s3c2440", REPO))
    wav = energy.energy(table, [96_000_000])
    game = energy.energy(table, [96_000_000], profile="pushpush")
    assert game.static_joules == pytest.approx(1.055, rel=1e-12)  # one second at 96 MHz
    assert game.joules > wav.joules
    with pytest.raises(TacetError, match="no profile 'tetris' \\(profiles: pushpush\\)"):
        energy.energy(table, [1], profile="tetris")


# ---- the C header --------------------------------------------------------------------------

COMPILERS = [c for c in ("gcc", "clang") if shutil.which(c)]
WARNINGS = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-Wshadow", "-Wstrict-prototypes"]
WARNINGS += ["-Wmissing-prototypes"]
INCLUDES = [f"-I{REPO / 'include'}", f"-I{REPO / 'ports' / 'sim' / 'include'}"]

PRINT = """\
#include <stdio.h>
#include "tacet_power_{lower}.h"

int main(void)
{{
  printf("%.17g %.17g\\n", {p}_C_EFF, {p}_P_STATIC);
  for (unsigned i = 0; i < {p}_COUNT; i++) {{
    printf("%lu %lu\\n", (unsigned long){p}_POINTS[i].freq_hz,
           (unsigned long){p}_POINTS[i].millivolt);
  }}
  return 0;
}}
"""


def run_power(*argv: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return run_tacet("power", *argv, cwd=cwd)


@pytest.mark.skipif(not COMPILERS, reason="needs gcc or clang")
@pytest.mark.parametrize("compiler", COMPILERS)
@pytest.mark.parametrize("board", BOARDS)
def test_header_compiles_and_holds_the_table(tmp_path: Path, compiler: str, board: str) -> None:
    table = power.load(power.locate(board, REPO))
    lower = table.c_name.lower()
    result = run_power(board, "--header", str(tmp_path / f"tacet_power_{lower}.h"))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    source = tmp_path / "main.c"
    source.write_text(PRINT.format(lower=lower, p=f"TC_POWER_{table.c_name}"))
    exe = tmp_path / "main"
    command = [compiler, *WARNINGS, *INCLUDES, f"-I{tmp_path}", str(source), "-o", str(exe)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    lines = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    first, *points = lines.splitlines()
    assert [float(x) for x in first.split()] == [table.c_eff_farad, table.p_static_watt]
    assert points == [f"{p.hz} {p.millivolt}" for p in table.points]


@pytest.mark.skipif(not COMPILERS, reason="needs gcc or clang")
def test_header_refuses_a_kernel_with_too_few_points(tmp_path: Path) -> None:
    assert run_power("lpc2148", "--header", str(tmp_path / "t.h")).returncode == 0
    (tmp_path / "main.c").write_text('#include "t.h"\n')
    command = [COMPILERS[0], *WARNINGS, *INCLUDES, "-fsyntax-only", "-DTC_POWER_POINTS=4"]
    result = subprocess.run(
        [*command, str(tmp_path / "main.c")], capture_output=True, text=True, check=False
    )
    assert result.returncode != 0
    assert "power/lpc2148.yaml: 5 points need TC_POWER_POINTS >= 5" in result.stderr


def test_header_rows_and_profiles() -> None:
    table = power.load(power.locate("s3c2440", REPO))
    text = power.header(table, "power/s3c2440.yaml")
    assert "#define TC_POWER_S3C2440_POINT_F266 1u" in text
    assert "TC_POWER_S3C2440_LS266[TC_LOAD_CLASSES] = {2u, 1u, 0u, 0u};" in text
    assert "#define TC_POWER_S3C2440_PUSHPUSH_P_STATIC 1.055 /* watts */" in text
    assert text.startswith("/* Generated by `tacet power` from power/s3c2440.yaml\n")
    assert f"(sha256 {table.sha256})" in text


def test_c_double_reads_back() -> None:
    for value in (2.018e-10, 0.0, 1.0, 0.8987, 1e-10, 123456789.0, 1.5e300):
        assert float(power.c_double(value)) == value
    assert power.c_double(1.0) == "1.0"
    assert power.c_double(0) == "0.0"


# ---- tacet power ---------------------------------------------------------------------------


def test_tacet_power_prints_the_table() -> None:
    result = run_power("s3c2440")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "power/s3c2440.yaml" in out
    assert "C_eff 4.394e-10 F, static power 898.7 mW" in out
    # 399 MHz: 4.394e-10 * 1.3^2 * 399e6 = 296.3 mW dynamic, 1195 mW with the static power.
    assert re.search(r"f399\s+│\s+399\s+│\s+1\.3\s+│\s+296\.3\s+│\s+1195\s", out), out
    assert "policy ls96: Task+ f399, Task f96, Task- f96, idle f96" in out
    result = run_power("s3c2440", "--profile", "pushpush")
    assert "static power 1055 mW, profile pushpush" in result.stdout


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["lpc214"], "tacet: error: no power table 'lpc214' (did you mean 'lpc2148'?)"),
        (["s3c2440", "--profile", "x"], "has no profile 'x' (profiles: pushpush)"),
    ],
)
def test_tacet_power_errors(argv: list[str], message: str) -> None:
    result = run_power(*argv)
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_tacet_power_bad_table(tmp_path: Path) -> None:
    write(tmp_path, GOOD.replace("low: slow", "low: slo"))
    result = run_power("board.yaml", cwd=tmp_path)
    assert result.returncode != 0
    assert result.stderr.startswith("tacet: error: board.yaml:10: policies[0].low: unknown point")
    result = run_power(str(tmp_path / "board.yaml"), cwd=REPO)
    assert f"error: {tmp_path / 'board.yaml'}:10: policies[0].low:" in result.stderr
    assert "Traceback" not in result.stderr


# ---- board.power in a system description ---------------------------------------------------

APP = """\
board: {clock_hz: 60000000, power: lpc2148}
targets: [sim]
threads:
  - {name: a, entry: a_main, priority: 1, stack: 8192, period: {ms: 10},
     wcet: {us: 100, at: f12}}
"""


def test_board_power_gives_the_points(tmp_path: Path) -> None:
    app = appdesc.load(write(tmp_path, APP, "app.yaml"), "app.yaml")
    assert app.board.power is not None and app.board.power.name == "lpc2148"
    assert [p.name for p in app.board.operating_points] == ["f12", "f24", "f36", "f48", "f60"]
    assert app.board.operating_points[0].volts == 2.9
    assert app.threads[0].wcet == 1200  # 100 us at 12 MHz (f12): the same cycles at any clock


def test_board_power_by_path(tmp_path: Path) -> None:
    (tmp_path / "boards").mkdir()
    write(tmp_path / "boards", GOOD)
    text = APP.replace("power: lpc2148", "power: boards/board.yaml").replace("at: f12", "at: slow")
    app = appdesc.load(write(tmp_path, text, "app.yaml"), "app.yaml")
    assert app.board.power is not None and app.board.power.name == "board"


BOARD_POWER_CASES = [
    (
        APP.replace("power: lpc2148", "power: lpc214"),
        "no power table 'lpc214' (did you mean 'lpc2148'?)",
    ),
    (
        APP.replace("power: lpc2148}", "power: lpc2148, operating_points: []}"),
        "give the operating points either inline (operating_points) or by a power table",
    ),
    (
        APP.replace("power: lpc2148", "power: bad.yaml"),
        "the table has an error: ",  # and the table's own location, below
    ),
    (APP.replace("power: lpc2148", "power: 3"), "expected a string, got 3"),
]


@pytest.mark.parametrize(("text", "words"), BOARD_POWER_CASES)
def test_board_power_errors(tmp_path: Path, text: str, words: str) -> None:
    write(
        tmp_path,
        GOOD.replace("name: board", "name: bad").replace("low: slow", "low: x"),
        "bad.yaml",
    )
    with pytest.raises(DescriptionError) as info:
        appdesc.load(write(tmp_path, text, "app.yaml"), "app.yaml")
    found = [e for e in info.value.errors if e.startswith("app.yaml:1: board.power: ")]
    assert any(words in e for e in found), info.value.errors
    if "bad.yaml" in text:
        # The table named as the description's own name would reach it.
        assert (
            "app.yaml:1: board.power: the table has an error: bad.yaml:10: policies[0].low: "
            "unknown point 'x'" in "\n".join(found)
        )


def generate(tmp_path: Path, text: str) -> Path:
    out = tmp_path / "out"
    result = run_config(str(write(tmp_path, text, "app.yaml")), "-o", str(out), "-q", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return out


def test_generated_code_installs_the_table(tmp_path: Path) -> None:
    out = generate(tmp_path, APP)
    summary = run_config("app.yaml", "--check", cwd=tmp_path).stdout
    assert "; power table power/lpc2148.yaml (5 points)" in summary
    source = (out / "tacet_app.c").read_text()
    assert "tc_power_init(tacet_app_power_points, 5u, 2.018e-10, 0.000132);" in source
    # Installed before anything is created: tc_power_init is refused once something runs.
    assert source.index("tc_power_init(") < source.index("tc_thread_create(")
    assert "  {60000000u, 3300u}, /* f60: 60 MHz, 3.3 V */\n" in source
    header = (out / "tacet_app.h").read_text()
    assert '#define TACET_APP_POWER_TABLE "power/lpc2148.yaml"' in header
    assert "#define TACET_APP_POINT_f60 4u" in header
    table = power.load(power.locate("lpc2148", REPO))
    assert f"board.power table power/lpc2148.yaml (sha256 {table.sha256})" in source
    # Without board.power there is no table and no call.
    plain = generate(tmp_path, APP.replace(", power: lpc2148", "").replace(", at: f12", ""))
    assert "tc_power" not in (plain / "tacet_app.c").read_text()


@pytest.mark.skipif(not COMPILERS, reason="needs gcc or clang")
@pytest.mark.parametrize("compiler", COMPILERS)
@pytest.mark.parametrize("flags", [[], ["-DTC_POWER=1", "-DTC_STATS=1"]])
def test_generated_code_compiles(tmp_path: Path, compiler: str, flags: list[str]) -> None:
    out = generate(tmp_path, APP)
    command = [compiler, *WARNINGS, *INCLUDES, *flags, str(out / "tacet_app.c")]
    result = subprocess.run(
        [*command, "-fsyntax-only"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    # The call is compiled with TC_POWER on, and only then.
    result = subprocess.run([*command, "-E"], capture_output=True, text=True, check=True)
    assert ("tc_power_init(tacet_app_power_points" in result.stdout) == bool(flags)


def test_depfile_names_the_table(tmp_path: Path) -> None:
    out = generate(tmp_path, APP)
    result = run_config("app.yaml", "-o", str(out), "-q", "--depfile", "app.d", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    target, deps = (tmp_path / "app.d").read_text().split(": ")
    assert target == str((out / "tacet_app.c").resolve())
    assert deps.split() == [
        str((tmp_path / "app.yaml").resolve()),
        str(REPO / "power/lpc2148.yaml"),
    ]


PROJECT = """\
cmake_minimum_required(VERSION 3.20)
project(power_project C)
set(TACET_BUILD_TESTS OFF)
set(TACET_BUILD_EXAMPLES OFF)
add_subdirectory({repo} tacet)
add_executable(main main.c)
target_link_libraries(main PRIVATE tacet::kernel)
tacet_add_app(main app.yaml)
tacet_power_table(main board.yaml)
"""

MAIN = """\
#include <stdio.h>
#include "tacet_app.h"
#include "tacet_power_board.h"

void a_main(void *arg) { (void)arg; }

int main(void)
{
  printf("%lu %lu\\n", (unsigned long)TC_POWER_BOARD_POINTS[1].freq_hz,
         (unsigned long)TACET_APP_POINT_fast);
  return 0;
}
"""


@needs_cmake
def test_cmake_follows_the_table(tmp_path: Path) -> None:
    """tacet_power_table generates the header at build time, and an edit of the table
    regenerates both it and the tacet_app.c of a description that names it."""
    (tmp_path / "CMakeLists.txt").write_text(PROJECT.format(repo=REPO.as_posix()))
    (tmp_path / "main.c").write_text(MAIN)
    table = write(tmp_path, GOOD)
    text = APP.replace("power: lpc2148", "power: board.yaml").replace("at: f12", "at: slow")
    write(tmp_path, text, "app.yaml")
    build = tmp_path / "build"

    run = run_checked
    run("cmake", "-S", str(tmp_path), "-B", str(build), "-G", "Ninja",
        f"-DTACET_PYTHON={sys.executable}")  # fmt: skip
    first = run("cmake", "--build", str(build))
    assert "tacet power board.yaml" in first and "tacet config" in first
    assert run(str(build / "main")) == "20000000 1\n"
    assert "no work to do" in run("cmake", "--build", str(build))
    table.write_text(GOOD.replace("hz: 20000000", "hz: 30000000"))
    again = run("cmake", "--build", str(build))
    assert "tacet power board.yaml" in again and "tacet config" in again
    assert run(str(build / "main")) == "30000000 1\n"
    app_c = next(build.glob("tacet_apps/*/tacet_app.c")).read_text()
    assert "{30000000u, 2000u}" in app_c
