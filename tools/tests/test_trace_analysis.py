# SPDX-License-Identifier: MIT
"""The trace analysis on synthetic traces whose answers are known by construction: a
High/Medium/Low mutex story told three ways (plain: one unbounded inversion; priority
inheritance: the same inversion bounded; a preemption threshold on Low: bounded too), plus
yields, CPU load, the ready queue and user events."""

import json

import pytest
from trace_synth import Scenario, SynthObject, Thread

from tacet.trace.analysis import analyze
from tacet.trace.format import OBJ, SVC, decode

H, M, L, MX = 0x1000, 0x2000, 0x3000, 0x5000
FOREVER = 0xFFFFFFFF


def story(variant: str) -> Scenario:
    """L holds MX; H preempts L and waits on MX; M becomes ready while H waits."""
    low_threshold = 3 if variant == "threshold" else 10
    sc = Scenario(
        [Thread(H, "High", 1), Thread(M, "Medium", 5), Thread(L, "Low", 10, low_threshold)]
    )
    sc.add_object(MX, "mutex", "mx")
    sc.running = L
    sc.service("MUTEX_LOCK", MX, FOREVER)  # t=1000
    sc.at(1100).emit(SVC["THREAD_RESUME"], H, irq=11)
    sc.emit(5, 1, irq=11)  # ISR_ENTER
    sc.ready(H, irq=11)
    sc.at(1110).emit(6, 0, irq=11)  # ISR_EXIT
    sc.switch(H)  # L preempted by H
    sc.at(1200).block(MX)
    if variant == "inherit":
        sc.set_priority(L, 1)
    sc.switch(L, "pending", MX)
    sc.at(1300).isr(0)
    sc.ready(M, irq=11)
    if variant == "plain":
        sc.at(1310).switch(M)  # L preempted by M: the unbounded inversion
        sc.at(1800).block(0, 10, "sleeping")
        sc.switch(L, "sleeping")
        sc.at(1900)
    else:
        sc.at(1400)  # M is held off: by inheritance or by Low's threshold
    release = sc.now
    sc.ready(H, MX, 0)
    if variant == "inherit":
        sc.set_priority(L, 10)
    sc.service("MUTEX_UNLOCK", MX)
    sc.switch(H)  # L preempted by H
    sc.at(release + 50).service("MUTEX_LOCK", MX, FOREVER)
    sc.service("MUTEX_UNLOCK", MX)
    sc.block(0, 5, "sleeping")
    sc.at(release + 100)
    if variant == "plain":
        sc.switch(L, "sleeping")
    else:
        sc.switch(M, "sleeping")
        sc.at(release + 400).block(0, 10, "sleeping")
        sc.switch(L, "sleeping")
    sc.at(sc.now + 100).switch(0, "suspended")
    sc.at(2500).isr(10)
    return sc


def analysis_of(sc: Scenario, **options: object) -> dict:
    trace = decode(sc.encode(**options).data, "story.tctrace")
    result = analyze(trace, "story.tctrace")
    json.dumps(result)  # serialisable
    return result


def slices_of(result: dict, ctx: int) -> list[tuple[float, float, str]]:
    return [
        (s["start_us"], s["end_us"], s["state"])
        for s in result["slices"]
        if s["ctx"] == f"0x{ctx:x}"
    ]


def thread(result: dict, ctx: int) -> dict:
    return next(t for t in result["summary"]["threads"] if t["ctx"] == f"0x{ctx:x}")


@pytest.mark.parametrize(("ptr_size", "endian"), [(4, "little"), (8, "big")])
def test_plain_story_slices_and_summary(ptr_size: int, endian: str) -> None:
    r = analysis_of(story("plain"), ptr_size=ptr_size, endian=endian)
    assert r["schema"] == 2
    assert r["span"] == {"start_us": 1000.0, "end_us": 2510.0}
    assert slices_of(r, L) == [
        (1000, 1110, "running"),
        (1110, 1200, "preempted"),
        (1200, 1310, "running"),
        (1310, 1800, "preempted"),
        (1800, 1900, "running"),
        (1900, 2000, "preempted"),
        (2000, 2100, "running"),
        (2100, 2510, "suspended"),
    ]
    assert slices_of(r, H) == [
        (1100, 1110, "ready"),
        (1110, 1200, "running"),
        (1200, 1900, "blocked"),
        (1900, 2000, "running"),
        (2000, 2510, "sleeping"),
    ]
    assert slices_of(r, 0) == [(2100, 2510, "running")]
    blocked = next(s for s in r["slices"] if s["state"] == "blocked")
    assert blocked["object"] == "mx"
    assert [c["name"] for c in r["contexts"]] == ["High", "Medium", "Low", "idle"]
    s = r["summary"]
    assert (s["switches"], s["preemptions"], s["interrupts"]) == (7, 3, 3)
    assert s["duration_us"] == 1510
    assert [thread(r, t)["run_us"] for t in (H, M, L)] == [190, 490, 420]
    assert thread(r, M)["share"] == pytest.approx(490 / 1510, abs=1e-6)
    assert [thread(r, t)["switches_in"] for t in (H, M, L)] == [2, 1, 3]
    assert [thread(r, t)["preempted"] for t in (H, M, L)] == [0, 0, 3]
    assert r["response_times"] == {"0x1000": [100, 100], "0x2000": [500]}
    assert thread(r, H)["response_us"] == {
        "count": 2,
        "min": 100,
        "avg": 100,
        "max": 100,
        "p99": 100,
    }
    assert thread(r, L)["response_us"] is None
    assert r["blocking_times"] == {"0x1000": [700]}
    ids = r["preemptions"]["ctx"]
    counts = r["preemptions"]["counts"]
    assert counts[ids.index("0x3000")][ids.index("0x1000")] == 2
    assert counts[ids.index("0x3000")][ids.index("0x2000")] == 1
    assert sum(map(sum, counts)) == 3
    assert r["counters"]["switches"][-1] == [2100, 7]
    assert r["counters"]["ready_queue"] == [
        [1000, 0],
        [1100, 1],
        [1200, 0],
        [1300, 1],
        [1800, 0],
        [1900, 1],
        [2000, 0],
    ]
    assert r["isr_slices"][0] == {"start_us": 1100, "end_us": 1110, "irq": 11}
    assert {(k["from"], k["irq"], k["to"], k["t_us"], k["run_us"]) for k in r["wakeups"]} == {
        ("0x3000", 11, "0x1000", 1100, 1110),
        ("0x3000", 11, "0x2000", 1300, 1310),
        ("0x3000", 0, "0x1000", 1900, 1900),
    }


def test_plain_story_has_one_unbounded_inversion() -> None:
    r = analysis_of(story("plain"))
    assert r["inversions"] == [
        {
            "start_us": 1200,
            "end_us": 1900,
            "high": "0x1000",
            "low": "0x3000",
            "medium": "0x2000",
            "object": "mx",
            "bounded": False,
            "inherited": False,
            "medium_run_us": 490,
            "finished": True,
        }
    ]


def test_inheritance_bounds_the_same_inversion() -> None:
    r = analysis_of(story("inherit"))
    [inv] = r["inversions"]
    assert (inv["start_us"], inv["end_us"], inv["medium"]) == (1200, 1400, "0x2000")
    assert inv["bounded"] and inv["inherited"]
    assert inv["medium_run_us"] == 0
    low_run = [s for s in r["slices"] if s["ctx"] == "0x3000" and s["state"] == "running"]
    assert low_run[1]["priority"] == 1  # ran at H's priority while H waited


def test_threshold_bounds_it_without_inheritance() -> None:
    r = analysis_of(story("threshold"))
    [inv] = r["inversions"]
    assert inv["bounded"] and not inv["inherited"]


def test_no_inversion_when_no_medium_thread_is_involved() -> None:
    sc = story("plain")
    # The same story without Medium's wake-up: H just waits for L's critical section.
    sc.events = [e for e in sc.events if not (e.args[0] == M or e.ctx == M)]
    r = analysis_of(sc)
    assert r["inversions"] == []


def test_yield_is_not_a_preemption() -> None:
    a, b = 0x100, 0x200
    sc = Scenario([Thread(a, "A", 4), Thread(b, "B", 4)])
    sc.running = a
    sc.service("THREAD_YIELD")
    sc.yield_()
    sc.at(1010).switch(b)
    sc.at(1020).switch(a)  # preempted (no yield before it)
    sc.at(1030).yield_(2)
    sc.switch(b)
    sc.at(1040).service("THREAD_SLEEP", 0, 3)
    r = analysis_of(sc)
    assert r["summary"]["preemptions"] == 1
    assert [x[2] for x in slices_of(r, a)] == ["running", "ready", "running", "ready"]
    assert [x[2] for x in slices_of(r, b)][:2] == ["running", "preempted"]


def test_cpu_load_counts_idle_and_interrupts() -> None:
    sc = story("plain")
    r = analysis_of(sc)
    load = r["counters"]["cpu_load"]
    assert len(load) == 100
    width = 1510 / 100
    idle = sum((1 - v) * width for _, v in load)
    assert idle == pytest.approx(410 - 10, abs=1e-3)  # idle from 2100, an ISR in it
    assert load[0] == [1000, 1.0]
    assert load[80][1] == 0.0  # 2208..2223: idle
    assert load[-1][1] == pytest.approx(10 / width, abs=1e-5)  # the ISR at 2500..2510


def test_user_events_and_hisr_context() -> None:
    a, hisr = 0x100, 0x900
    sc = Scenario([Thread(a, "A", 4)])
    sc.add_object(hisr, "hisr", "rx-hisr")
    sc.prio[hisr] = (0, 0)
    sc.running = a
    sc.user(4100, 7, 8)
    sc.at(1005).switch(hisr)
    sc.emit(7, hisr)  # HISR_RUN
    sc.at(1008).switch(a)
    sc.at(1010).user(4096, 1, 2)
    r = analysis_of(sc)
    assert r["user_events"] == [
        {"t_us": 1000, "ctx": "0x100", "id": 4100, "a": 7, "b": 8},
        {"t_us": 1010, "ctx": "0x100", "id": 4096, "a": 1, "b": 2},
    ]
    kinds = {c["name"]: c["kind"] for c in r["contexts"]}
    assert kinds == {"rx-hisr": "hisr", "A": "thread", "idle": "idle"}
    assert slices_of(r, hisr) == [(1005, 1008, "running")]


def test_empty_and_wrapped_traces() -> None:
    sc = story("plain")
    r = analysis_of(sc, slots=10)
    assert r["events"]["wrapped"] and r["events"]["lost"] > 0
    assert r["events"]["kept"] == 10
    assert any("wrapped" in n for n in r["events"]["notes"])
    # Low's lock fell out of the ring; the hand-over names the owner.
    r = analysis_of(sc, slots=20)
    assert r["events"]["lost"] == 5
    [inv] = r["inversions"]
    assert (inv["high"], inv["low"], inv["medium"], inv["bounded"]) == (
        "0x1000",
        "0x3000",
        "0x2000",
        False,
    )
    empty = analyze(decode(Scenario([]).encode(auto_time=False).data), "e")
    assert empty["slices"] == [] and empty["summary"]["switches"] == 0


def test_objects_named_as_they_were_when_reused() -> None:
    a, b, addr = 0x100, 0x200, 0x700
    sc = Scenario([Thread(a, "A", 4), Thread(b, "B", 5)])
    sc.running = a
    sc.block(addr)
    sc.switch(b, "pending", addr)
    sc.at(1010).ready(a, addr, 4)  # TC_DELETED: the semaphore went away
    sc.switch(a)
    sc.at(1020).block(addr)  # a queue now lives at the same address
    sc.switch(b, "pending", addr)
    sc.at(1030).ready(a, addr, 0)
    sc.switch(a)
    reuse_seq = 1 + 5  # the TIME event, then the first five events
    sc.objects.append(SynthObject(addr, OBJ["semaphore"], "old-sem", deleted=True))
    sc.objects.append(SynthObject(addr, OBJ["queue"], "new-queue", created=reuse_seq))
    r = analysis_of(sc)
    blocked = [s["object"] for s in r["slices"] if s["state"] == "blocked"]
    assert blocked == ["old-sem", "new-queue"]


# --- the threshold at work, the scheduler lock, the event list ------------------------------

D, A, QA = 0x4000, 0xA000, 0x5000


def producer_consumer(threshold: int, lock: bool = False) -> Scenario:
    """D (priority 4, `threshold`) sends a message to queue "A", which thread "A" (priority 1)
    waits on; then D yields. With threshold 4 A preempts D at once; with 1 (A's priority) A
    is held off by D's threshold until D yields; with the scheduler lock held by D, A is held
    off by the lock until D releases it."""
    sc = Scenario([Thread(D, "D", 4, threshold), Thread(A, "A", 1)])
    sc.add_object(QA, "queue", "A")
    sc.running = A
    sc.service("QUEUE_RECEIVE", QA, 0, FOREVER, 0)
    sc.block(QA)
    sc.switch(D, "pending", QA)  # t=1000: A waits on its queue, D runs
    if lock:
        sc.at(1050).emit(16, 1)  # LOCK, nesting 1
    sc.at(1100).ready(A, QA, 0)
    if threshold > 1 and not lock:
        sc.switch(A)  # D preempted
        sc.at(1150).service("QUEUE_RECEIVE", QA, 0, FOREVER, 0)
        sc.block(QA)
        sc.switch(D, "pending", QA)
        sc.service("QUEUE_SEND", QA, FOREVER)
    else:
        sc.service("QUEUE_SEND", QA, FOREVER)
        sc.at(1200)
        if lock:
            sc.emit(16, 0)  # LOCK, released: A preempts
            sc.switch(A)
        else:
            sc.yield_()
            sc.switch(A)  # D yields to A
        sc.at(1250).service("QUEUE_RECEIVE", QA, 0, FOREVER, 0)
        sc.block(QA)
        sc.switch(D, "pending", QA)
    sc.at(1300).switch(0, "suspended")
    return sc


def test_a_thread_held_off_by_the_running_threads_threshold() -> None:
    r = analysis_of(producer_consumer(1))
    assert slices_of(r, A)[1:3] == [(1100, 1200, "held"), (1200, 1250, "running")]
    held = next(s for s in r["slices"] if s["state"] == "held")
    assert held["held_by"] == f"0x{D:x}" and held["priority"] == 1
    assert thread(r, A)["held"] == 1 and thread(r, A)["held_us"] == 100
    assert thread(r, D)["held"] == 0 and r["summary"]["preemptions"] == 0
    ready = next(e for e in r["event_log"] if e["event"] == "READY")
    assert ready["text"] == (
        "A ready (its wait on queue A ended: TC_OK); held off by D's preemption threshold 1"
    )


def test_a_threshold_above_the_priority_lets_it_preempt() -> None:
    r = analysis_of(producer_consumer(4))
    states = [state for _, _, state in slices_of(r, A)]
    assert "held" not in states and "deferred" not in states
    assert slices_of(r, D)[1] == (1100, 1150, "preempted")
    assert r["summary"]["preemptions"] == 1


def test_a_lower_priority_thread_waits_ready_not_held() -> None:
    # Medium (5) made ready while Low runs at the priority it inherited from High (1): lower
    # priority than the running thread, plain "ready"; with Low's own threshold 3 instead,
    # Medium (more urgent than Low's 10) is held off by that threshold.
    inherit = analysis_of(story("inherit"))
    assert slices_of(inherit, M)[0] == (1300, 1500, "ready")  # then behind High, ready too
    threshold = analysis_of(story("threshold"))
    assert slices_of(threshold, M)[:2] == [(1300, 1400, "held"), (1400, 1500, "ready")]
    held = next(s for s in threshold["slices"] if s["state"] == "held")
    assert held["held_by"] == f"0x{L:x}"
    # And a preemption about to happen (made ready in an interrupt handler) is not held off.
    plain = analysis_of(story("plain"))
    assert (1300, 1310, "ready") in slices_of(plain, M)


def test_a_thread_held_off_by_the_scheduler_lock() -> None:
    r = analysis_of(producer_consumer(4, lock=True))
    assert slices_of(r, A)[1] == (1100, 1200, "deferred")
    deferred = next(s for s in r["slices"] if s["state"] == "deferred")
    assert deferred["held_by"] == f"0x{D:x}"
    assert thread(r, A)["deferred_us"] == 100 and thread(r, A)["held"] == 0
    texts = [e["text"] for e in r["event_log"]]
    assert "D takes the scheduler lock (nesting 1)" in texts
    assert "D releases the scheduler lock" in texts
    assert any(t.endswith("held off by D's scheduler lock") for t in texts)


def test_a_threshold_change_releases_a_held_thread() -> None:
    sc = Scenario([Thread(D, "D", 4, 1), Thread(A, "A", 1)])
    sc.add_object(QA, "queue", "A")
    sc.running = D
    sc.ready(A, QA, 0)  # t=1000: held off by D's threshold 1
    sc.service("QUEUE_SEND", QA, FOREVER)
    sc.at(1150).set_priority(D, 4, 4)  # D lowers its threshold: its next event says so
    sc.service("THREAD_THRESHOLD_CHANGE", D, 4, 1)
    sc.switch(A)  # and A preempts
    sc.at(1200).switch(0, "suspended")
    r = analysis_of(sc)
    assert slices_of(r, A) == [(1000, 1150, "held"), (1150, 1200, "running")]
    assert slices_of(r, D)[1] == (1150, 1200, "preempted")


def test_the_event_list_names_kinds_and_services() -> None:
    r = analysis_of(producer_consumer(1))
    log = r["event_log"]
    assert all(e["event"] != "TIME" for e in log)
    assert [e["t_us"] for e in log] == sorted(e["t_us"] for e in log)
    send = next(e for e in log if e["event"] == "tc_queue_send")
    assert send["text"] == "tc_queue_send(queue A, timeout forever) \u2192 TC_OK"
    assert (send["ctx"], send["object"], send["object_kind"], send["status"]) == (
        f"0x{D:x}", "A", "queue", "TC_OK",
    )  # fmt: skip
    switch = next(e for e in log if e["event"] == "SWITCH")
    assert switch["text"] == "switch: A \u2192 D (A waits on queue A)"
    block = next(e for e in log if e["event"] == "BLOCK")
    assert block["text"] == "A waits on queue A (forever)"
    # A slice waiting on the queue says it is a queue, not the thread of the same name.
    blocked = next(s for s in r["slices"] if s["state"] == "blocked")
    assert (blocked["object"], blocked["object_kind"]) == ("A", "queue")


def test_cpu_share_per_thread_over_time() -> None:
    r = analysis_of(story("plain"))
    share = r["counters"]["cpu_share"]
    width = share["width_us"]
    assert len(share["share"][0]) == len(share["isr"]) == 200
    assert width == pytest.approx(1510 / 200)
    totals = {
        ctx: sum(v * width for v in row)
        for ctx, row in zip(share["ctx"], share["share"], strict=True)
    }
    isr = sum(v * width for v in share["isr"])
    assert isr == pytest.approx(20, abs=1e-3)  # two handlers of 10 us (at 1100 and 2500)
    runs = {t["ctx"]: t["run_us"] for t in r["summary"]["threads"]}
    # Each thread's running time less the handlers that ran on it: Low took the first.
    assert totals["0x3000"] == pytest.approx(runs["0x3000"] - 10, abs=1e-2)
    assert totals["0x1000"] == pytest.approx(runs["0x1000"], abs=1e-2)
    assert totals["0x0"] == pytest.approx(410 - 10, abs=1e-2)
    for k in range(200):  # every bin adds up to the whole bin
        assert sum(row[k] for row in share["share"]) + share["isr"][k] == pytest.approx(1, abs=2e-3)
    rate = r["counters"]["switch_rate"]
    assert sum(rate["switches"]) == r["summary"]["switches"]
    assert sum(rate["preemptions"]) == r["summary"]["preemptions"]


def test_the_run_and_its_name() -> None:
    sc = producer_consumer(1)
    sc.objects.append(SynthObject(0, OBJ["label"], "case 2: threshold 1"))
    r = analysis_of(sc)
    assert (r["source"]["run"], r["source"]["runs"], r["source"]["label"]) == (
        1, 1, "case 2: threshold 1",
    )  # fmt: skip
    assert r["source"]["clock_rates"] == [[1000, 1_000_000]]
