# SPDX-License-Identifier: MIT
"""The demo's traced run, end to end: examples/producer_consumer (built against a TC_POWER=1
kernel with the LPC2148 table) run with `tacet run --trace` on the sim port and qemu-m3, as
`make demo` runs it. The file holds a dump per kernel run, each named after its case, and
none lost an event; the energy the report computes from each dump alone, per thread, in the
switch path and in all, equals what the program printed from tc_energy_thread() and
tc_energy_report() for that case; and the HTML report shows it in its Energy section, and
the threads' CPU share on its first screen, in a real browser."""

import re
import shutil
from pathlib import Path

import pytest
from conftest import REPO, run_traced
from test_trace_report import chart_legend

from tacet.trace import report as trace_report
from tacet.trace.analysis import analyze
from tacet.trace.format import decode_runs

needs_qemu = pytest.mark.skipif(
    not (shutil.which("qemu-system-arm") and shutil.which("arm-none-eabi-gcc")),
    reason="needs qemu-system-arm and arm-none-eabi-gcc",
)
TARGETS = [pytest.param("sim", id="sim"), pytest.param("qemu-m3", id="qemu-m3", marks=needs_qemu)]
# The program prints microjoules with 2 decimals (4 per switch): the report must agree to that.
HALF_CENT = 0.005 + 1e-9
ARTEFACTS = REPO / "build" / "trace-report"


def traced_run(target: str, tmp_path: Path) -> tuple[str, list[dict]]:
    dump = tmp_path / "run.tctrace"
    stdout = run_traced("examples/producer_consumer", target, dump)
    return stdout, [analyze(t, str(dump)) for t in decode_runs(dump.read_bytes(), str(dump))]


def printed(stdout: str, label: str, case: int) -> float:
    """The figure of case ``case`` (1 or 2) in the row ``label`` of the program's table."""
    row = re.search(
        rf"^{re.escape(label)}\s+([0-9.]+)(?: \(\s*[0-9.]+%\))?\s+([0-9.]+)", stdout, re.M
    )
    assert row, f"no row {label!r} in:\n{stdout}"
    return float(row[case])


@pytest.fixture(scope="module", params=TARGETS)
def runs(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, list[dict]]:
    return traced_run(request.param, tmp_path_factory.mktemp(request.param))


@pytest.fixture(params=[1, 2], ids=["case1", "case2"])
def run(request: pytest.FixtureRequest, runs: tuple[str, list[dict]]) -> tuple[str, dict, int]:
    stdout, analyses = runs
    return stdout, analyses[request.param - 1], request.param


def test_a_dump_per_case_and_nothing_lost(runs: tuple[str, list[dict]]) -> None:
    stdout, analyses = runs
    assert [(a["source"]["run"], a["source"]["runs"]) for a in analyses] == [(1, 2), (2, 2)]
    assert [a["source"]["label"] for a in analyses] == [
        "case 1: threshold 4",
        "case 2: threshold 1",
    ]
    for case, analysis in enumerate(analyses, 1):
        assert analysis["events"]["lost"] == 0 and analysis["events"]["cut"] == 0
        assert analysis["events"]["notes"] == []
        # Every switch the program counted in its measured rounds is in the trace (the trace
        # holds the warm-up round and the start and end too).
        counted = int(printed(stdout, "Context switches", case))
        assert counted <= analysis["summary"]["switches"] <= counted + 40
    # The threshold at work: case 2's consumers are held off by D's threshold, case 1's not.
    held = [sum(t["held"] for t in a["summary"]["threads"]) for a in analyses]
    assert held[0] == 0 and held[1] >= 3000  # each consumer, each round


def test_the_report_computes_what_the_program_printed(run: tuple[str, dict, int]) -> None:
    stdout, analysis, case = run
    energy = analysis["energy"]
    assert energy is not None and energy["status"] == "whole", analysis["events"]["notes"]
    contexts = {c["name"]: c for c in energy["contexts"]}
    assert set(contexts) == {"A", "B", "C", "D"}
    for name in contexts:
        want = printed(stdout, f"  thread {name} (uJ)", case)
        assert abs(contexts[name]["joules"] * 1e6 - want) <= HALF_CENT, name
    assert abs(energy["total"]["joules"] * 1e6 - printed(stdout, "Energy (uJ)", case)) <= HALF_CENT
    switching = printed(stdout, "  in context switches", case)
    assert abs(energy["switching"]["joules"] * 1e6 - switching) <= HALF_CENT
    per_switch = printed(stdout, "  per switch (uJ)", case)
    assert abs(energy["joules_per_switch"] * 1e6 - per_switch) <= 0.00005 + 1e-12
    # One point (the LPC2148's top, 60 MHz) in this experiment, and no idle to speak of.
    assert [p["hz"] for p in energy["points"] if p["cycles"]] == [60_000_000]
    assert energy["modelled"] == (
        "qemu" in analysis["source"]["cpu"] or analysis["source"]["port"] == "cortex-m"
    )
    # The same switches as the schedule: every switch of the run is in the dump.
    assert energy["context_switches"] == analysis["summary"]["switches"]


def test_the_report_shows_it(run: tuple[str, dict, int], tmp_path: Path) -> None:
    _, analysis, case = run
    path = tmp_path / "report.html"
    trace_report.write_html(analysis, path)
    text = path.read_text(encoding="utf-8")
    assert '<section id="energy">' in text and 'href="#energy"' in text
    share = 100 * analysis["energy"]["switching"]["share"]
    assert f'<span id="switching-share">{share:.1f} %</span>' in text
    if trace_report.find_chromium() is None:
        pytest.skip("chromium or chromedriver is not installed (make deps installs both)")
    driver = trace_report.open_chromium(1280, 800)
    try:
        # The first screen, as a laptop shows it: the CPU share per thread, with no zooming.
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False},
        )
        driver.get(path.resolve().as_uri())
        chart = driver.find_element("id", "ov-svg")
        assert chart.location["y"] + chart.size["height"] < 800
        assert len(chart.find_elements("css selector", "path.share")) >= 4
        legend = driver.find_element("id", "ov-legend").text
        assert legend == chart_legend(analysis)
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 1280
        target = "qemu-m3" if analysis["source"]["port"] == "cortex-m" else "sim"
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        assert driver.save_screenshot(str(ARTEFACTS / f"demo-{target}-case{case}.png"))
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
