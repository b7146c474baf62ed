# SPDX-License-Identifier: MIT
"""The HTML trace report (tacet.trace.report): its content, its bad-input errors, and the page
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
from trace_synth import SynthEvent, producer_consumer

from tacet.core.errors import TacetError
from tacet.trace import report as trace_report
from tacet.trace.analysis import analyze
from tacet.trace.format import EV, NO_POINT, POWER_CLOCK, decode

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
    sections = ("overview", "timeline", "events", "summary", "inversions", "cpu", "preemptions",
                "histograms")  # fmt: skip
    for section in sections:
        assert f'<section id="{section}">' in text
    assert '<section id="energy">' not in text  # no energy in this analysis
    for chart in ("cpu-chart", "switch-chart", "matrix-chart", "hist-chart"):
        assert re.search(rf'<div class="chart" id="{chart}"><svg\b', text), chart
    data = timeline_data(text)
    assert [lane["name"] for lane in data["lanes"]] == [c["name"] for c in CONTEXTS]
    # Every slice is in the timeline's data, at its place (7 numbers each).
    assert sum(len(lane["s"]) for lane in data["lanes"]) == 7 * len(analysis["slices"])
    high = next(lane for lane in data["lanes"] if lane["id"] == HIGH)
    first = next(s for s in analysis["slices"] if s["ctx"] == HIGH)
    assert high["s"][:2] == [first["start_us"], first["end_us"] - first["start_us"]]
    assert len(data["inv"]) == 2


def test_lost_events_and_notes_are_shown(analysis: dict, tmp_path: Path) -> None:
    lossy = copy.deepcopy(analysis)
    path = tmp_path / "r.html"
    trace_report.write_html(lossy, path)
    assert 'class="warn' not in path.read_text(encoding="utf-8")
    lossy["events"].update(
        recorded=5000, lost=1234, wrapped=True, notes=["the first event is anchored <late>"]
    )
    trace_report.write_html(lossy, path)
    text = path.read_text(encoding="utf-8")
    # Said first, with what to do about it.
    assert '<div class="warn" id="lost">1,234 of 5,000 events lost (the ring wrapped' in text
    assert "--trace-size 8M" in text and "--trace-mode stop" in text
    assert "<li>the first event is anchored &lt;late&gt;</li>" in text
    lossy["events"].update(lost=0, cut=17, wrapped=False, notes=[])
    trace_report.write_html(lossy, path)
    assert "The dump is cut short: 17 events are missing" in path.read_text(encoding="utf-8")


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
        (lambda a: a.update(schema=3), "analysis: schema: expected 1 or 2, got 3"),
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


def offset_of(driver: object, svg_id: str, t_us: float, y: float) -> tuple[int, int]:
    """Where time ``t_us`` (from the trace's start) at height ``y`` of an SVG is, from its
    centre (as Selenium's actions count)."""
    svg = driver.find_element("id", svg_id)
    left, width = (float(v) for v in svg.get_attribute("data-plot").split()[:2])
    if svg_id == "tl-svg":
        v0, v1 = view(driver)
    else:
        v0, v1 = 0.0, float(driver.find_element("id", "tl-svg").get_attribute("data-dur"))
    x = left + (t_us - v0) / (v1 - v0) * width
    size = svg.size
    return int(x - size["width"] / 2), int(y - size["height"] / 2)


def point_at(driver: object, svg_id: str, t_us: float, y: float) -> None:
    """Move the mouse to time ``t_us`` at height ``y`` of an SVG."""
    from selenium.webdriver.common.action_chains import ActionChains  # noqa: PLC0415

    svg = driver.find_element("id", svg_id)
    ActionChains(driver).move_to_element_with_offset(svg, *offset_of(driver, svg_id, t_us, y))\
        .perform()  # fmt: skip


def zoom_onto(driver: object, a: float, b: float, row: int) -> None:
    """Show [a, b] large in the timeline: drag across the overview around it, then turn the
    wheel at its middle until it fills a third of the view."""
    from selenium.webdriver.common.action_chains import ActionChains  # noqa: PLC0415
    from selenium.webdriver.common.actions.wheel_input import ScrollOrigin  # noqa: PLC0415

    ov = driver.find_element("id", "ov-svg")
    dur = float(driver.find_element("id", "tl-svg").get_attribute("data-dur"))
    margin = max(3 * (b - a), dur / 100)
    (x0, _), (x1, _) = (offset_of(driver, "ov-svg", t, 40) for t in (a - margin, b + margin))
    ActionChains(driver).move_to_element_with_offset(ov, x0, 0).click_and_hold()\
        .move_to_element_with_offset(ov, x1, 0).release().perform()  # fmt: skip
    svg = driver.find_element("id", "tl-svg")
    for _ in range(60):
        v0, v1 = view(driver)
        if v1 - v0 <= 3 * (b - a):
            break
        dx, dy = offset_of(driver, "tl-svg", (a + b) / 2, row_y(driver, row))
        ActionChains(driver).scroll_from_origin(ScrollOrigin.from_element(svg, dx, dy), 0, -100)\
            .perform()  # fmt: skip
    v0, v1 = view(driver)
    assert v0 <= a and b <= v1 and v1 - v0 <= 3 * (b - a), (v0, v1, a, b)


def row_y(driver: object, row: int, within: float = 0.75) -> float:
    """The height in the timeline of a row (0: the first), ``within`` it (0 top, 1 bottom)."""
    _, _, top, lane_h = driver.find_element("id", "tl-svg").get_attribute("data-plot").split()
    return float(top) + (row + within) * float(lane_h)


def tooltip_lines(driver: object) -> list[str]:
    tip = driver.find_element("id", "tooltip")
    assert tip.is_displayed()
    return tip.text.splitlines()


def test_a_lane_per_context_and_the_inversion_tables(browser: object, report: Path) -> None:
    url = open_page(browser, report)
    labels = browser.find_elements("css selector", "#tl-svg text.lane-label")
    assert [label.text for label in labels] == [
        c["name"] + (" (HISR)" if c["kind"] == "hisr" else "" if c["priority"] is None
                     else f" ({c['priority']})")
        for c in CONTEXTS
    ]  # fmt: skip
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
    # An analysis of schema 1 has no CPU share nor event list: said so, nothing breaks.
    assert "No CPU share in this trace" in browser.find_element("id", "ov-svg").text
    assert browser.find_element("id", "ev-list").text == "no events"
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


def test_a_tooltip_per_slice(browser: object, report: Path, analysis: dict) -> None:
    from selenium.webdriver.common.action_chains import ActionChains  # noqa: PLC0415

    url = open_page(browser, report)
    tooltip = browser.find_element("id", "tooltip")
    assert not tooltip.is_displayed()
    browser.find_element("css selector", 'tr.inversion[data-k="0"]').click()
    high = [c["id"] for c in CONTEXTS].index(HIGH)
    v0, v1 = view(browser)
    t0 = analysis["span"]["start_us"]
    blocked = max(
        (s for s in analysis["slices"] if s["ctx"] == HIGH and s["state"] == "blocked"
         and v0 <= s["start_us"] - t0 and s["end_us"] - t0 <= v1),
        key=lambda s: s["end_us"] - s["start_us"],
    )  # fmt: skip
    middle = (blocked["start_us"] + blocked["end_us"]) / 2 - t0
    point_at(browser, "tl-svg", middle, row_y(browser, high))
    lines = tooltip_lines(browser)
    assert lines[0] == "High (thread, priority 2, threshold 2)"
    assert lines[1] == f"state: blocked on {blocked['object']}"
    assert lines[2].startswith("start: ") and ", duration: " in lines[2]
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
    # A lane is a path per state, its slices summed per pixel column: a handful of elements
    # whatever the trace's length.
    count = browser.execute_script("return document.querySelectorAll('#tl-svg .slice').length")
    assert 0 < count <= len(CONTEXTS) * len(trace_report.STATES)
    assert browser.find_elements("css selector", "#tl-svg path.slice.s-running")
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

    def size(path: Path) -> tuple[int, int]:
        head = path.read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        return struct.unpack(">II", head[16:24])

    assert size(png) == (1280, 800)  # the first screen, what a reader sees on opening it
    # The same from the report already written: the whole page, narrower.
    again = tmp_path / "again.png"
    argv = [str(html), "--screenshot", str(again), "--width", "900", "--full"]
    assert trace_report.main(argv) == 0
    width, height = size(again)
    assert width == 900 and height > 2000
    # A dump of several runs: the one asked for.
    two = tmp_path / "two.tctrace"
    two.write_bytes(producer_consumer(5, 4).encode().data + producer_consumer(5, 1).encode().data)
    out = tmp_path / "two.html"
    assert trace_report.main([str(two), "--html", str(out), "--run", "1"]) == 0
    assert '"held"' in out.read_text(encoding="utf-8")  # the state table, at least
    assert trace_report.main([str(two), "--html", str(out), "--run", "3"]) == 1
    # A stretch of the timeline, scrolled to: the picture of the threshold at work.
    held = tmp_path / "held.png"
    argv = [str(out), "--screenshot", str(held), "--view", "1000:4000", "--at", "timeline"]
    assert trace_report.main(argv) == 0 and size(held) == (1280, 800)
    assert trace_report.main([str(out), "--screenshot", str(held), "--at", "nowhere"]) == 1
    with pytest.raises(SystemExit):
        trace_report.main([str(out), "--screenshot", str(held), "--view", "5:2"])


# --- the demo's report: the producer/consumer, its first screen, the threshold at work ---------


def demo_like(threshold: int, rounds: int = 300) -> dict:
    """The analysis of a trace like the demo's (examples/producer_consumer): D sends three
    messages to each of the queues A, B, C its consumers of the same names wait on."""
    data = producer_consumer(rounds, threshold).encode().data
    return analyze(decode(data, "run.tctrace"), "run.tctrace")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    analysis = demo_like(1)
    path = tmp_path_factory.mktemp("demo") / "report.html"
    trace_report.write_html(analysis, path)
    return analysis, path


def chart_legend(analysis: dict) -> str:
    """The CPU-share chart's legend: each context's share of the span as drawn (the mean of
    its bins, the interrupt handlers apart), then the handlers'; it differs from the threads'
    run-time shares only by the handlers' time."""
    share = analysis["counters"]["cpu_share"]
    names = {c["id"]: c["name"] for c in analysis["contexts"]}
    keys = [
        f"{names[c]} {100 * sum(r) / len(r):.1f} %"
        for c, r in zip(share["ctx"], share["share"], strict=True)
    ]
    keys.append(f"interrupts {100 * sum(share['isr']) / len(share['isr']):.1f} %")
    for t in analysis["summary"]["threads"]:
        drawn = sum(
            next(r for c, r in zip(share["ctx"], share["share"], strict=True) if c == t["ctx"])
        )
        assert (
            abs(drawn / len(share["isr"]) - t["share"])
            <= sum(share["isr"]) / len(share["isr"]) + 1e-3
        )
    return " ".join(keys)


def first_screen(driver: object) -> None:
    """The window's inside exactly 1280 x 800, as a laptop shows the page."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False},
    )


def test_the_first_screen_shows_the_cpu_share(browser: object, demo: tuple[dict, Path]) -> None:
    analysis, path = demo
    first_screen(browser)
    try:
        url = open_page(browser, path)
        # No horizontal scroll: neither the page nor any box in it is wider than the window.
        wide = browser.execute_script(
            "var out = []; document.querySelectorAll('*').forEach(function (e) {"
            "  if (e instanceof HTMLElement && e.scrollWidth > e.clientWidth + 1"
            "      && getComputedStyle(e).overflowX !== 'hidden'"
            "      && e.clientWidth > 0) out.push(e.tagName + '#' + e.id + ' ' + e.scrollWidth);"
            "}); return [document.documentElement.scrollWidth, window.innerWidth, out];"
        )
        assert wide[0] <= wide[1] == 1280 and wide[2] == [], wide
        top = browser.execute_script("return window.scrollY")
        assert top == 0

        def bottom(css: str) -> float:
            return browser.execute_script(
                "return document.querySelector(arguments[0]).getBoundingClientRect().bottom", css
            )

        # Above the fold: the CPU share per thread, the switches, and the lanes.
        assert bottom("#ov-svg") < 800 and bottom("#tl-svg") < 800
        shares = browser.find_elements("css selector", "#ov-svg path.share")
        assert len(shares) >= 4  # A, B, C, D (and the interrupts)
        legend = browser.find_element("id", "ov-legend").text
        assert legend == chart_legend(analysis)
        assert browser.find_elements("css selector", "#ov-svg path.rate")
        labels = [e.text for e in browser.find_elements("css selector", "#tl-svg .lane-label")]
        assert labels == ["interrupts", "A (1)", "B (2)", "C (3)", "D (4)", "idle"]
        # The event list is on the page, its items drawn.
        assert browser.find_elements("css selector", "#ev-list .ev-row")
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(ARTEFACTS / "first-screen.png"))
        assert_clean(browser, url)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def held_slice(analysis: dict, name: str) -> dict:
    """A stretch in the middle of the trace where thread ``name`` was held off."""
    ids = {c["name"]: c["id"] for c in analysis["contexts"]}
    held = [s for s in analysis["slices"] if s["ctx"] == ids[name] and s["state"] == "held"]
    return held[len(held) // 2]


def test_the_threshold_at_work(browser: object, demo: tuple[dict, Path]) -> None:
    """A held off by D's threshold: a state of its own, named in the lane and the tooltip."""
    analysis, path = demo
    url = open_page(browser, path)
    held = held_slice(analysis, "A")
    t0 = analysis["span"]["start_us"]
    a, b = held["start_us"] - t0, held["end_us"] - t0
    lane_a = 1  # under the interrupts
    zoom_onto(browser, a, b, lane_a)
    assert browser.find_element("id", "ov-window").size["width"] > 0
    labels = [e.text for e in browser.find_elements("css selector", "#tl-svg .held-label")]
    assert "held by D's threshold" in labels
    point_at(browser, "tl-svg", (a + b) / 2, row_y(browser, lane_a))
    lines = tooltip_lines(browser)
    assert lines[0] == "A (thread, priority 1, threshold 1)"
    assert lines[1].startswith("held off by D's preemption threshold (D at priority 4, threshold")
    assert "ready, more urgent than the running thread, but not above its threshold" in lines[1]
    # Preemption with the threshold at D's priority: nothing is held off.
    assert not any(s["state"] == "held" for s in demo_like(4, rounds=20)["slices"])
    assert_clean(browser, url)


def test_a_tooltip_names_the_kind_of_object(browser: object, demo: tuple[dict, Path]) -> None:
    analysis, path = demo
    url = open_page(browser, path)
    t0 = analysis["span"]["start_us"]
    ids = {c["name"]: c["id"] for c in analysis["contexts"]}
    blocked = [s for s in analysis["slices"] if s["ctx"] == ids["A"] and s["state"] == "blocked"]
    blocked = blocked[len(blocked) // 2]
    a, b = blocked["start_us"] - t0, blocked["end_us"] - t0
    zoom_onto(browser, a, b, 1)
    point_at(browser, "tl-svg", (a + b) / 2, row_y(browser, 1))
    lines = tooltip_lines(browser)
    assert lines[0] == "A (thread, priority 1, threshold 1)"
    assert lines[1] == "state: blocked on queue A"  # the queue, not the thread of that name
    assert_clean(browser, url)


def test_the_event_list(browser: object, demo: tuple[dict, Path]) -> None:
    analysis, path = demo
    url = open_page(browser, path)
    total = len(analysis["event_log"])
    count = browser.find_element("id", "ev-count")
    assert count.text == f"{total:,} of {total:,} events"
    # Only the items in its scroll window are drawn.
    assert len(browser.find_elements("css selector", "#ev-list .ev-row")) < 40
    box = browser.find_element("id", "ev-filter")
    box.send_keys("queue B")
    names = {c["id"]: c["name"].lower() for c in analysis["contexts"]}
    want = sum(
        1 for e in analysis["event_log"]
        if any("queue b" in x for x in (e["text"].lower(), e["event"].lower(), names[e["ctx"]]))
    )  # fmt: skip
    assert count.text == f"{want:,} of {total:,} events"
    rows = browser.find_elements("css selector", "#ev-list .ev-row")
    assert rows and all("queue B" in r.text for r in rows)
    box.clear()
    from selenium.webdriver.support.ui import Select  # noqa: PLC0415

    Select(browser.find_element("id", "ev-kind")).select_by_value("switch")
    rows = browser.find_elements("css selector", "#ev-list .ev-row")
    assert rows and all(r.find_elements("css selector", "span")[2].text == "SWITCH" for r in rows)
    switches = analysis["summary"]["switches"]
    assert count.text == f"{switches:,} of {total:,} events"
    # Clicking an event marks it in the timeline; zoomed in, the list follows the view.
    rows[3].click()
    assert browser.find_element("id", "tl-cursor")
    for _ in range(6):
        browser.find_element("id", "tl-in").click()
    shown = int(count.text.split()[0].replace(",", ""))
    assert 0 < shown < switches and "(in the timeline's view)" in count.text
    browser.find_element("id", "ev-window").click()
    assert count.text == f"{switches:,} of {total:,} events"
    Select(browser.find_element("id", "ev-kind")).select_by_value("")
    assert_clean(browser, url)


def test_a_trace_with_lost_events_says_so_first(browser: object, tmp_path: Path) -> None:
    data = producer_consumer(60, 1).encode(slots=500).data
    analysis = analyze(decode(data, "lossy.tctrace"), "lossy.tctrace")
    path = tmp_path / "lossy.html"
    trace_report.write_html(analysis, path)
    first_screen(browser)
    try:
        url = open_page(browser, path)
        lost = browser.find_element("id", "lost")
        assert lost.is_displayed() and lost.location["y"] < 200
        assert f"{analysis['events']['lost']:,} of" in lost.text and "--trace-size" in lost.text
        assert_clean(browser, url)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_clock_is_the_one_the_run_ran_at(tmp_path: Path) -> None:
    """The sim port's clock follows the operating point: the demo's header says 100 MHz (the
    rate when tracing began), its power table sets 60 MHz at once, and its times count at 60."""
    sc = producer_consumer(3, 1)
    first = sc.events[0].time
    sc.events.insert(0, SynthEvent(first, EV["POWER"], 0x2000_4000,
                                   (4, 60_000_000, 3300, POWER_CLOCK | NO_POINT << 8)))  # fmt: skip
    trace = decode(sc.encode(clock_hz=100_000_000, energy=False).data, "demo.tctrace")
    analysis = analyze(trace, "demo.tctrace")
    assert analysis["source"]["clock_hz"] == 100_000_000
    assert analysis["source"]["clock_rates"] == [[analysis["span"]["start_us"], 60_000_000]]
    assert "60 MHz over the whole span" in analysis["source"]["clock_note"]
    path = tmp_path / "clock.html"
    trace_report.write_html(analysis, path)
    meta = re.search(r'<p class="meta">(.*?)</p>', path.read_text(encoding="utf-8"))[1]
    assert "clock 60 MHz (the operating point&#x27;s)" in meta and "100 MHz</span>" not in meta
    # Two rates over the span: both said.
    two = analyze(decode(clocked(True).encode(energy=True).data, "c"), "c")
    trace_report.write_html(two, path)
    meta = re.search(r'<p class="meta">(.*?)</p>', path.read_text(encoding="utf-8"))[1]
    assert "clock 1 MHz to 2 MHz (follows the operating point)" in meta
    # QEMU: a unit is an instruction, said there.
    qemu = analyze(decode(sc.encode(port="cortex-m", cpu="cortex-m3").data, "q"), "q")
    trace_report.write_html(qemu, path)
    assert "(QEMU -icount: a unit is one instruction)" in path.read_text(encoding="utf-8")
