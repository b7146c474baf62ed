# SPDX-License-Identifier: MIT
"""The HTML trace report (tacet.trace_report): its content, its bad-input errors, and the page
itself in a real headless browser (Debian's chromium driven by Selenium through chromedriver):
a lane per context, the inversion tables, zoom, tooltips, no console error, no request."""

from __future__ import annotations

import copy
import json
import re
import struct
from pathlib import Path

import pytest
from conftest import REPO, assert_clean, open_page
from test_trace_energy import clocked
from trace_fixture import CONTEXTS, HIGH, make_analysis

from tacet import trace_report
from tacet.errors import TacetError
from tacet.trace_analysis import analyze
from tacet.tracefmt import decode

ARTEFACTS = REPO / "build" / "trace-report"


@pytest.fixture(scope="module")
def analysis() -> dict:
    return make_analysis()


@pytest.fixture
def report(analysis: dict, tmp_path: Path) -> Path:
    path = tmp_path / "report.html"
    trace_report.write_html(analysis, path)
    return path


def timeline_data(text: str) -> dict:
    match = re.search(r'<script type="application/json" id="tl-data">(.*?)</script>', text, re.S)
    assert match, "the timeline's data is missing"
    return json.loads(match[1])


# --- the file -----------------------------------------------------------------------------------


def test_the_file_names_no_external_resource(report: Path) -> None:
    text = report.read_text(encoding="utf-8")
    assert not re.search(r"(?i)https?:|ftp:|wss?:", text)
    assert not re.search(r"(?i)\bsrc\s*=", text)  # no script, image or frame loaded
    assert not re.search(r"(?i)<link\b", text)
    assert not re.search(r"(?i)@import|@font-face", text)
    assert not re.search(r"(?i)data:", text)  # no image inlined as a URL either
    assert set(re.findall(r"url\(([^)]*)\)", text)) <= {
        m for m in re.findall(r"url\((#[^)]*)\)", text)
    }
    # Every chart's ids are its own: one document, no clash.
    ids = re.findall(r'\bid="([^"]+)"', text)
    assert len(ids) == len(set(ids))


def test_the_file_holds_every_section(report: Path, analysis: dict) -> None:
    text = report.read_text(encoding="utf-8")
    for section in ("summary", "timeline", "inversions", "cpu", "preemptions", "histograms"):
        assert f'<section id="{section}">' in text
    assert '<section id="energy">' not in text  # no energy in this analysis
    for chart in ("cpu-chart", "switch-chart", "matrix-chart", "hist-chart"):
        assert re.search(rf'<div class="chart" id="{chart}"><svg\b', text), chart
    data = timeline_data(text)
    assert [lane["name"] for lane in data["lanes"]] == [c["name"] for c in CONTEXTS]
    # Every slice is in the timeline's data, at its place.
    assert sum(len(lane["s"]) for lane in data["lanes"]) == 6 * len(analysis["slices"])
    high = next(lane for lane in data["lanes"] if lane["id"] == HIGH)
    first = next(s for s in analysis["slices"] if s["ctx"] == HIGH)
    assert high["s"][:2] == [first["start_us"], first["end_us"] - first["start_us"]]
    assert len(data["inv"]) == 2


def test_lost_events_and_notes_are_shown(analysis: dict, tmp_path: Path) -> None:
    lossy = copy.deepcopy(analysis)
    path = tmp_path / "r.html"
    trace_report.write_html(lossy, path)
    assert 'class="warn' not in path.read_text(encoding="utf-8")
    lossy["events"].update(lost=1234, wrapped=True, notes=["the first event is anchored <late>"])
    trace_report.write_html(lossy, path)
    text = path.read_text(encoding="utf-8")
    assert "1,234 events lost (the ring wrapped)" in text
    assert "<li>the first event is anchored &lt;late&gt;</li>" in text


def test_names_are_escaped(analysis: dict, tmp_path: Path) -> None:
    hostile = copy.deepcopy(analysis)
    hostile["contexts"][1]["name"] = "</script><b>x&y"
    hostile["summary"]["threads"][1]["name"] = "</script><b>x&y"
    hostile["slices"][0]["object"] = "</script>"
    path = tmp_path / "r.html"
    trace_report.write_html(hostile, path)
    text = path.read_text(encoding="utf-8")
    assert "</script><b>" not in text
    assert "&lt;/script&gt;&lt;b&gt;x&amp;y" in text
    assert timeline_data(text)["lanes"][1]["name"] == "</script><b>x&y"


def test_a_large_trace_stays_small(tmp_path: Path) -> None:
    big = make_analysis(periods=5000)
    assert len(big["slices"]) > 50_000
    path = tmp_path / "big.html"
    trace_report.write_html(big, path)
    size = path.stat().st_size
    # The slices are compact JSON, the long counter series an envelope: ~30 bytes a slice.
    assert size < 40 * len(big["slices"]), size
    assert size < 3_000_000


def empty_analysis() -> dict:
    return {
        "schema": 1,
        "source": {},
        "span": {"start_us": 5.0, "end_us": 5.0},
        "events": {"recorded": 0, "kept": 0, "lost": 0, "wrapped": False},
        "contexts": [],
        "slices": [],
        "counters": {"switches": [], "cpu_load": [], "ready_queue": []},
        "summary": {
            "switches": 0,
            "preemptions": 0,
            "interrupts": 0,
            "duration_us": 0.0,
            "threads": [],
        },
        "preemptions": {"ctx": [], "counts": []},
        "response_times": {},
        "blocking_times": {},
        "inversions": [],
        "user_events": [],
    }


@pytest.mark.parametrize("minimal", [False, True])
def test_empty_and_degenerate_input(tmp_path: Path, minimal: bool) -> None:
    analysis = {"schema": 1} if minimal else empty_analysis()
    path = tmp_path / "empty.html"
    trace_report.write_html(analysis, path)
    text = path.read_text(encoding="utf-8")
    assert "No threads in this trace." in text
    assert 'id="no-inversions"' in text
    assert timeline_data(text)["lanes"] == []


def test_one_context_a_zero_length_slice(analysis: dict, tmp_path: Path) -> None:
    one = empty_analysis()
    one["contexts"] = [analysis["contexts"][1]]
    one["slices"] = [{"ctx": HIGH, "start_us": 5.0, "end_us": 5.0, "state": "running"}]
    one["response_times"] = {HIGH: [3.0, 3.0]}  # every value equal: a histogram still
    path = tmp_path / "one.html"
    trace_report.write_html(one, path)
    assert 'id="hist-chart"' in path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda a: a.update(schema=2), "analysis: schema: expected 1, got 2"),
        (lambda a: a["slices"][3].update(state="napping"), "analysis: slices[3].state"),
        (lambda a: a["slices"][7].update(start_us="soon"), "analysis: slices[7].start_us"),
        (lambda a: a["slices"][2].update(end_us=-1.0), "analysis: slices[2]: end_us -1.0"),
        (lambda a: a.update(contexts={}), "analysis: contexts: expected a list"),
        (lambda a: a["inversions"][1].pop("end_us"), "analysis: inversions[1].end_us"),
        (lambda a: a["preemptions"]["counts"].pop(), "analysis: preemptions.counts: expected"),
        (lambda a: a["counters"]["cpu_load"].append([1.0]), "analysis: counters.cpu_load[100]"),
    ],
)
def test_bad_input_is_a_clear_error(
    analysis: dict, tmp_path: Path, change: object, message: str
) -> None:
    broken = copy.deepcopy(analysis)
    change(broken)  # type: ignore[operator]
    with pytest.raises(TacetError) as caught:
        trace_report.write_html(broken, tmp_path / "r.html")
    assert caught.value.message.startswith(message), caught.value.message


def energy_analysis() -> dict:
    """A trace with an energy snapshot and two changes of the operating point."""
    return analyze(decode(clocked(True).encode(energy=True).data, "e.tctrace"), "e.tctrace")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda e: e["total"].update(joules="x"), "analysis: energy.total.joules: expected"),
        (lambda e: e["contexts"][0].pop("cycles"), "analysis: energy.contexts[0].cycles"),
        (lambda e: e.update(contexts={}), "analysis: energy.contexts: expected a list"),
        (lambda e: e["point_series"].append([1.0]), "analysis: energy.point_series[3]"),
        (lambda e: e["points"][1].update(watts=None), "analysis: energy.points[1]: expected"),
    ],
)
def test_bad_energy_input_is_a_clear_error(tmp_path: Path, change: object, message: str) -> None:
    broken = energy_analysis()
    change(broken["energy"])  # type: ignore[operator]
    with pytest.raises(TacetError) as caught:
        trace_report.write_html(broken, tmp_path / "r.html")
    assert caught.value.message.startswith(message), caught.value.message


def test_the_command_reports_bad_input_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert trace_report.main([str(bad), "--html", str(tmp_path / "r.html")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"trace_report: {bad}: not JSON") and err.count("\n") == 1
    assert trace_report.main([str(tmp_path / "absent.json"), "--html", "x.html"]) == 1
    assert "cannot read" in capsys.readouterr().err
    dump = tmp_path / "run.tctrace"
    dump.write_bytes(b"\x00\x01garbage")
    assert trace_report.main([str(dump), "--html", str(tmp_path / "r.html")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"trace_report: {dump}") and err.count("\n") == 1, err
    with pytest.raises(SystemExit):  # a report as input only makes a screenshot
        trace_report.main([str(tmp_path / "r.html"), "--html", str(tmp_path / "s.html")])


# --- the page in a browser ------------------------------------------------------------------


def view(driver: object) -> tuple[float, float]:
    svg = driver.find_element("id", "tl-svg")
    return float(svg.get_attribute("data-v0")), float(svg.get_attribute("data-v1"))


def test_a_lane_per_context_and_the_inversion_tables(browser: object, report: Path) -> None:
    url = open_page(browser, report)
    labels = browser.find_elements("css selector", "#tl-svg text.lane-label")
    assert [label.text for label in labels] == [
        c["name"] + ("" if c["priority"] is None else f" ({c['priority']})") for c in CONTEXTS
    ]
    assert {label.get_attribute("data-ctx") for label in labels} == {c["id"] for c in CONTEXTS}
    # Every lane holds slices, drawn at full view.
    lanes = {s.get_attribute("data-l") for s in browser.find_elements("css selector", ".slice")}
    assert lanes == {str(n) for n in range(len(CONTEXTS))}
    unbounded = browser.find_elements("css selector", "#inversions-unbounded tbody tr.inversion")
    bounded = browser.find_elements("css selector", "#inversions-bounded tbody tr.inversion")
    assert len(unbounded) == 1 and len(bounded) == 1
    assert unbounded[0].text.split()[-4:] == ["High", "Medium", "Low", "shared_mutex"]
    assert browser.find_element("id", "summary-table").find_elements("css selector", "tbody tr")
    assert len(browser.find_elements("css selector", "#cpu-chart svg path")) > 3
    assert_clean(browser, url)


def test_clicking_an_inversion_zooms_the_timeline_to_it(
    browser: object, report: Path, analysis: dict
) -> None:
    url = open_page(browser, report)
    whole = view(browser)
    assert whole == (0.0, analysis["span"]["end_us"])
    for k, inversion in enumerate(analysis["inversions"]):
        browser.find_element("css selector", f'tr.inversion[data-k="{k}"]').click()
        v0, v1 = view(browser)
        assert v0 <= inversion["start_us"] < inversion["end_us"] <= v1
        assert v1 - v0 < (whole[1] - whole[0]) / 20
        highlight = browser.find_element("id", "tl-highlight")
        assert highlight.size["width"] > 100  # the interval fills a good part of the view
        roles = browser.find_elements("css selector", "#tl-svg tspan.role")
        assert sorted(r.text for r in roles) == ["H", "L", "M"]
        assert "selected" in browser.find_element(
            "css selector", f'tr.inversion[data-k="{k}"]'
        ).get_attribute("class")
    browser.find_element("id", "tl-reset").click()
    assert view(browser) == whole
    assert browser.find_elements("id", "tl-highlight") == []
    assert_clean(browser, url)


def test_the_energy_section(browser: object, tmp_path: Path) -> None:
    analysis = energy_analysis()
    path = tmp_path / "energy.html"
    trace_report.write_html(analysis, path)
    url = open_page(browser, path)
    browser.find_element("css selector", 'nav a[href="#energy"]').click()
    section = browser.find_element("id", "energy")
    assert section.is_displayed() and section.find_element("tag name", "h2").text == "Energy"
    rows = browser.find_elements("css selector", "#energy-table tbody tr")
    assert [r.find_element("tag name", "th").text for r in rows] == [
        "Low", "idle", "context switches", "total"
    ]  # fmt: skip
    totals = browser.find_element("id", "energy-totals").text
    assert "Points used" in totals and "1 MHz" in totals and "2 MHz" in totals
    share = 100 * analysis["energy"]["switching"]["share"]
    assert browser.find_element("id", "switching-share").text == f"{share:.1f} %"
    # The operating point over time, drawn from the two POWER events.
    assert browser.find_element("id", "point-chart").find_elements("css selector", "svg path")
    assert len(browser.find_elements("css selector", "#energy-points tbody tr")) == 2
    assert_clean(browser, url)


def test_a_tooltip_per_slice(browser: object, report: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains  # noqa: PLC0415

    url = open_page(browser, report)
    tooltip = browser.find_element("id", "tooltip")
    assert not tooltip.is_displayed()
    browser.find_element("css selector", 'tr.inversion[data-k="0"]').click()
    high = [c["id"] for c in CONTEXTS].index(HIGH)
    slices = browser.find_elements("css selector", f'#tl-svg rect.slice.s-blocked[data-l="{high}"]')
    widest = max(slices, key=lambda s: s.size["width"])
    ActionChains(browser).move_to_element(widest).perform()
    assert tooltip.is_displayed()
    lines = tooltip.text.splitlines()
    assert lines[0] == "High (thread)"
    assert lines[1:2] == ["state: blocked"]
    assert lines[2].startswith("start: ") and lines[3].startswith("duration: ")
    assert lines[4] in ("object: shared_mutex", "object: sem_tick")
    ActionChains(browser).move_to_element(browser.find_element("id", "tl-range")).perform()
    assert not tooltip.is_displayed()
    assert_clean(browser, url)


def test_zoom_by_buttons_wheel_and_drag(browser: object, report: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains  # noqa: PLC0415
    from selenium.webdriver.common.actions.wheel_input import ScrollOrigin  # noqa: PLC0415

    url = open_page(browser, report)
    w0, w1 = view(browser)
    browser.find_element("id", "tl-in").click()
    v0, v1 = view(browser)
    assert v1 - v0 == pytest.approx((w1 - w0) / 2)
    browser.find_element("id", "tl-out").click()
    assert view(browser) == pytest.approx((w0, w1))
    svg = browser.find_element("id", "tl-svg")
    ActionChains(browser).scroll_from_origin(ScrollOrigin.from_element(svg), 0, -300).perform()
    z0, z1 = view(browser)
    assert z1 - z0 < w1 - w0
    ActionChains(browser).click_and_hold(svg).move_by_offset(-200, 0).release().perform()
    p0, p1 = view(browser)
    assert p0 > z0 and p1 - p0 == pytest.approx(z1 - z0)
    assert_clean(browser, url)


def test_a_large_trace_draws_what_is_on_screen(browser: object, tmp_path: Path) -> None:
    big = make_analysis(periods=5000)
    path = tmp_path / "big.html"
    trace_report.write_html(big, path)
    url = open_page(browser, path)
    count = browser.execute_script("return document.querySelectorAll('#tl-svg .slice').length")
    # Slices narrower than a pixel merge: at most a few per pixel column and lane.
    assert 0 < count < 3 * 1280 * len(CONTEXTS)
    mixed = browser.find_elements("css selector", "#tl-svg rect.s-mixed")
    assert mixed
    assert_clean(browser, url)


@pytest.mark.parametrize("minimal", [False, True])
def test_an_empty_report_opens_cleanly(browser: object, tmp_path: Path, minimal: bool) -> None:
    path = tmp_path / "empty.html"
    trace_report.write_html({"schema": 1} if minimal else empty_analysis(), path)
    url = open_page(browser, path)
    assert browser.find_elements("css selector", "#tl-svg text.lane-label") == []
    assert "No contexts in this trace." in browser.find_element("id", "tl-svg").text
    browser.find_element("id", "tl-in").click()
    assert_clean(browser, url)


def test_the_screenshot_command(analysis: dict, tmp_path: Path) -> None:
    """What docs/trace-report.md tells to run for the README's picture; its PNG is kept under
    build/trace-report/ as the test's artefact."""
    if trace_report.find_chromium() is None:
        pytest.skip("chromium or chromedriver is not installed (make deps installs both)")
    source = tmp_path / "analysis.json"
    source.write_text(json.dumps(analysis))
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    png = ARTEFACTS / "report.png"
    png.unlink(missing_ok=True)
    html = ARTEFACTS / "report.html"
    argv = [str(source), "--html", str(html), "--screenshot", str(png), "--inversion", "0"]
    assert trace_report.main(argv) == 0
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", head[16:24])
    assert width == 1280 and height > 2000  # the whole page, not the first screen
    # The same from the report already written, narrower.
    again = tmp_path / "again.png"
    assert trace_report.main([str(html), "--screenshot", str(again), "--width", "900"]) == 0
    assert struct.unpack(">I", again.read_bytes()[16:20]) == (900,)
