# SPDX-License-Identifier: MIT
"""The energy of a traced run, end to end: examples/producer_consumer (built against a
TC_POWER=1 kernel with the LPC2148 table) run with `tacet run --trace` on the sim port and
qemu-m3, as `make demo` runs it; the energy the report computes from the dump alone, per
thread, in the switch path and in all, equals what the program printed from
tc_energy_thread() and tc_energy_report() for the run the dump holds (its last, case 2); and
the HTML report shows it in its Energy section, in a real browser."""

import re
import shutil
from pathlib import Path

import pytest
from conftest import run_traced

from tacet import trace_report
from tacet.trace_analysis import analyze
from tacet.tracefmt import decode

needs_qemu = pytest.mark.skipif(
    not (shutil.which("qemu-system-arm") and shutil.which("arm-none-eabi-gcc")),
    reason="needs qemu-system-arm and arm-none-eabi-gcc",
)
TARGETS = [pytest.param("sim", id="sim"), pytest.param("qemu-m3", id="qemu-m3", marks=needs_qemu)]
# The program prints microjoules with 2 decimals (4 per switch): the report must agree to that.
HALF_CENT = 0.005 + 1e-9


def traced_run(target: str, tmp_path: Path) -> tuple[str, dict]:
    dump = tmp_path / "run.tctrace"
    stdout = run_traced("examples/producer_consumer", target, dump)
    return stdout, analyze(decode(dump.read_bytes(), str(dump)), str(dump))


def printed(stdout: str, label: str) -> float:
    """Case 2's figure of the row `label` (the dump holds the program's last kernel run)."""
    row = re.search(
        rf"^{re.escape(label)}\s+([0-9.]+)(?: \(\s*[0-9.]+%\))?\s+([0-9.]+)", stdout, re.M
    )
    assert row, f"no row {label!r} in:\n{stdout}"
    return float(row[2])


@pytest.fixture(scope="module", params=TARGETS)
def run(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, dict]:
    return traced_run(request.param, tmp_path_factory.mktemp(request.param))


def test_the_report_computes_what_the_program_printed(run: tuple[str, dict]) -> None:
    stdout, analysis = run
    energy = analysis["energy"]
    assert energy is not None and energy["status"] == "whole", analysis["events"]["notes"]
    contexts = {c["name"]: c for c in energy["contexts"]}
    assert set(contexts) == {"A", "B", "C", "D"}
    for name in contexts:
        want = printed(stdout, f"  thread {name} (uJ)")
        assert abs(contexts[name]["joules"] * 1e6 - want) <= HALF_CENT, name
    assert abs(energy["total"]["joules"] * 1e6 - printed(stdout, "Energy (uJ)")) <= HALF_CENT
    switching = printed(stdout, "  in context switches")
    assert abs(energy["switching"]["joules"] * 1e6 - switching) <= HALF_CENT
    per_switch = printed(stdout, "  per switch (uJ)")
    assert abs(energy["joules_per_switch"] * 1e6 - per_switch) <= 0.00005 + 1e-12
    # One point (the LPC2148's top, 60 MHz) in this experiment, and no idle to speak of.
    assert [p["hz"] for p in energy["points"] if p["cycles"]] == [60_000_000]
    assert energy["modelled"] == (
        "qemu" in analysis["source"]["cpu"] or analysis["source"]["port"] == "cortex-m"
    )
    # The same switches as the schedule: every switch of case 2's run is in the dump.
    if not analysis["events"]["lost"]:
        assert energy["context_switches"] == analysis["summary"]["switches"]


def test_the_report_shows_it(run: tuple[str, dict], tmp_path: Path) -> None:
    _, analysis = run
    path = tmp_path / "report.html"
    trace_report.write_html(analysis, path)
    text = path.read_text(encoding="utf-8")
    assert '<section id="energy">' in text and 'href="#energy"' in text
    share = 100 * analysis["energy"]["switching"]["share"]
    assert f'<span id="switching-share">{share:.1f} %</span>' in text
    if trace_report.find_chromium() is None:
        pytest.skip("chromium or chromedriver is not installed (make deps installs both)")
    driver = trace_report.open_chromium(1280, 900)
    try:
        driver.get(path.resolve().as_uri())
        section = driver.find_element("id", "energy")
        driver.execute_script("arguments[0].scrollIntoView()", section)
        assert section.is_displayed()
        assert section.find_element("tag name", "h2").text == "Energy"
        rows = driver.find_elements("css selector", "#energy-table tbody tr")
        names = [r.find_element("tag name", "th").text for r in rows]
        assert names[:4] == [c["name"] for c in analysis["energy"]["contexts"]]
        assert names[-2:] == ["context switches", "total"]
        d = next(r for r in rows if r.find_element("tag name", "th").text == "D")
        cells = [c.text for c in d.find_elements("tag name", "td")]
        d_uj = next(c for c in analysis["energy"]["contexts"] if c["name"] == "D")["joules"] * 1e6
        assert cells[4] == f"{d_uj:,.2f}"
        bar = d.find_element("css selector", ".bar")
        assert bar.size["width"] > 0
        assert driver.find_element("id", "switching-share").text == f"{share:.1f} %"
        assert len(driver.find_elements("css selector", "#energy-chart svg path")) > 3
        console = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
        assert console == []
    finally:
        driver.quit()
