# SPDX-License-Identifier: MIT
"""The decoder against the kernel: tests/trace_known run with `tacet run --trace` on the sim
port, qemu-m3, qemu-m4 and qemu-rv32, its dump decoded, and every event the program makes
happen found with its fields (tests/trace_known/trace_known.c says what it does)."""

import itertools
import shutil
from pathlib import Path

import pytest
from conftest import run_traced

from tacet.trace.format import EV, SVC, Trace, decode

KNOWN = 20
TC_OK, TC_NO_INSTANCE = 0, 2
TC_PENDING, TC_COMPLETED = 4, 5

needs_qemu = pytest.mark.skipif(
    not (shutil.which("qemu-system-arm") and shutil.which("arm-none-eabi-gcc")),
    reason="needs qemu-system-arm and arm-none-eabi-gcc",
)

needs_riscv = pytest.mark.skipif(
    not (shutil.which("qemu-system-riscv32") and shutil.which("riscv64-unknown-elf-gcc")),
    reason="needs qemu-system-riscv32 and riscv64-unknown-elf-gcc",
)

TARGETS = [
    pytest.param("sim", 8, "sim", "host", id="sim"),
    pytest.param("qemu-rv32", 4, "riscv", "rv32imac", id="qemu-rv32", marks=needs_riscv),
    pytest.param("qemu-m3", 4, "cortex-m", "cortex-m3", id="qemu-m3", marks=needs_qemu),
    pytest.param("qemu-m4", 4, "cortex-m", "cortex-m4f", id="qemu-m4", marks=needs_qemu),
]


def traced_run(target: str, tmp_path: Path) -> Trace:
    dump = tmp_path / "known.tctrace"
    stdout = run_traced("tests/trace_known", target, dump)
    assert f"{KNOWN} of {KNOWN} messages received" in stdout
    return decode(dump.read_bytes(), str(dump))


@pytest.mark.parametrize(("target", "ptr_size", "port", "cpu"), TARGETS)
def test_every_known_event_is_decoded(
    target: str, ptr_size: int, port: str, cpu: str, tmp_path: Path
) -> None:
    trace = traced_run(target, tmp_path)
    h = trace.header
    assert (h.ptr_size, h.port, h.cpu) == (ptr_size, port, cpu)
    assert trace.lost == 0 and trace.time_anchored and trace.notes == []
    names = {o.name: o for o in trace.objects}
    assert {"known.q", "known.sem", "consumer", "producer"} <= set(names)
    assert names["producer"].type_name == "thread" and names["producer"].extra == 10
    assert names["known.sem"].deleted and not names["known.q"].deleted
    producer, consumer = names["producer"].address, names["consumer"].address
    q, sem = names["known.q"].address, names["known.sem"].address
    events = trace.events
    assert events[0].id == EV["TIME"] and events[1].id == EV["ENABLE"]
    assert events[-1].id == EV["TIME"]  # the one tc_trace_disable() records
    assert [e.seq for e in events] == list(range(len(events)))
    assert all(a.time <= b.time for a, b in itertools.pairwise(events))

    # The user events, in order, from the producer at its priority and threshold.
    users = [e for e in events if e.id >= 4096]
    assert [(e.id, e.args[0], e.args[1]) for e in users] == [
        (4096 + i, i * 3, ~i & 0xFFFFFFFF) for i in range(KNOWN)
    ]
    assert all((e.ctx, e.priority, e.threshold, e.irq) == (producer, 10, 8, 0) for e in users)

    # Each send: the consumer made ready by the producer, the switch to it (the producer
    # preempted, state ready), the consumer's receive returning TC_OK, the switch back (the
    # consumer pending on the queue again, or, after the last message, completed), the send
    # returning.
    sends = [i for i, e in enumerate(events) if e.id == SVC["QUEUE_SEND"]]
    assert len(sends) == KNOWN
    for n, i in enumerate(sends):
        e = events[i]
        assert (e.ctx, e.args[0], e.args[3]) == (producer, q, TC_OK)
        window = events[events.index(users[n]) : i]
        ready = [x for x in window if x.id == EV["READY"]]
        assert len(ready) == 1
        assert (ready[0].ctx, ready[0].args[0], ready[0].args[1], ready[0].args[2]) == (
            producer, consumer, q, TC_OK,
        )  # fmt: skip
        assert ready[0].args[3] == 5 | 5 << 16
        switches = [x for x in window if x.id == EV["SWITCH"]]
        last = n == KNOWN - 1
        # Each an event of the context switched in, naming the one switched out.
        assert [(x.ctx, x.args[0], x.args[1], x.args[2]) for x in switches] == [
            (consumer, producer, 0, 0),
            (producer, consumer, TC_COMPLETED, 0) if last else (producer, consumer, TC_PENDING, q),
        ]
        assert [(x.priority, x.threshold, x.args[3]) for x in switches] == [(5, 5, 0), (10, 8, 0)]
        blocks = [(x.ctx, x.args[0], x.args[2]) for x in window if x.id == EV["BLOCK"]]
        assert blocks == ([] if last else [(consumer, q, TC_PENDING)])
        received = [x for x in window if x.id == SVC["QUEUE_RECEIVE"]]
        assert [(x.ctx, x.args[0], x.args[3]) for x in received] == [(consumer, q, TC_OK)]

    # The semaphore's four calls, with their statuses.
    sem_calls = [(e.id, e.args[3]) for e in events if e.args[0] == sem and e.id >= 0x100]
    assert sem_calls == [
        (SVC["SEM_CREATE"], TC_OK), (SVC["SEM_TAKE"], TC_NO_INSTANCE), (SVC["SEM_GIVE"], TC_OK),
        (SVC["SEM_TAKE"], TC_OK), (SVC["SEM_DELETE"], TC_OK),
    ]  # fmt: skip
