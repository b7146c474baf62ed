# SPDX-License-Identifier: MIT
"""The system description (tacet.app.description): every error names the file, the line and the
field, and a good description becomes the model and the tasks the analysis takes.

Each error case is a small description; the line an error must name is the line of a marker
text in it (so that the cases stay readable), the field is spelled as the message spells it.
"""

import json
import textwrap
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest
from conftest import REPO, assert_error, line_of, run_config

from tacet.analysis import rta as analysis
from tacet.app import description as appdesc
from tacet.app.description import DescriptionError

# Targets [qemu-m3]: stacks of 1024 bytes are enough (TC_PORT_STACK_MIN 256).
BASE = """\
board: {clock_hz: 1000000}
targets: [qemu-m3]
threads:
  - {name: a, entry: a_main, priority: 1, stack: 1024}
"""


def write(tmp_path: Path, text: str, name: str = "app.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def load(tmp_path: Path, text: str) -> appdesc.App:
    return appdesc.load(write(tmp_path, text), "app.yaml")


def errors(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(DescriptionError) as info:
        load(tmp_path, text)
    assert info.value.message == "\n".join(info.value.errors)
    return info.value.errors


def expect(tmp_path: Path, text: str, marker: str, field: str, words: str) -> None:
    """The description fails with an error on the marker's line, about ``field``, that
    says ``words``."""
    assert_error(errors(tmp_path, text), f"app.yaml:{line_of(text, marker)}", field, words)


def test_base_is_good(tmp_path: Path) -> None:
    app = load(tmp_path, BASE)
    assert [t.name for t in app.threads] == ["a"]
    assert app.threads[0].threshold == 1  # not given: the priority


# ---- schema errors -----------------------------------------------------------------------

SCHEMA_CASES = [
    # (id, description, marker, field, words)
    (
        "unknown top-level field",
        BASE + "semaphore: []\n",
        "semaphore:",
        "semaphore",
        "unknown field 'semaphore' (did you mean 'semaphores'?",
    ),
    (
        "unknown thread field",
        BASE + "  - {name: b, entry: b_main, priority: 2, stack: 1024, prio: 3}\n",
        "prio: 3",
        "threads[1].prio",
        "unknown field 'prio' (did you mean 'priority'?",
    ),
    (
        "missing board",
        "threads:\n  - {name: a, entry: a_main, priority: 1, stack: 1024}\n",
        "threads:",
        "board",
        "missing (required)",
    ),
    (
        "missing entry",
        "board: {clock_hz: 1}\ntargets: [qemu-m3]\nthreads:\n  - name: a\n    priority: 1\n"
        "    stack: 1024\n",
        "- name: a",
        "threads[0].entry",
        "missing (required)",
    ),
    (
        "wrong type",
        "board: {clock_hz: fast}\n"
        "threads:\n  - {name: a, entry: a_main, priority: 1, stack: 9000}\n",
        "clock_hz",
        "board.clock_hz",
        "expected an integer, got 'fast'",
    ),
    ("bad policy", BASE + "policy: edf\n", "policy", "policy", "expected one of rm, dm, audsley"),
    (
        "bad priority word",
        BASE + "  - {name: b, entry: b_main, priority: autoo, stack: 1024}\n",
        "autoo",
        "threads[1].priority",
        "expected an integer 0..1023 or \"auto\", got 'autoo'",
    ),
    (
        "priority above the schema's range",
        BASE + "  - {name: b, entry: b_main, priority: 2000, stack: 1024}\n",
        "2000",
        "threads[1].priority",
        "2000 is above the maximum, 1023",
    ),
    (
        "below a minimum",
        BASE + "  - {name: b, entry: b_main, priority: 2, stack: 0}\n",
        "stack: 0",
        "threads[1].stack",
        "0 is below the minimum, 1",
    ),
    (
        "volts not positive",
        "board:\n  clock_hz: 1\n  operating_points:\n    - {name: p, hz: 1, volts: 0}\n"
        "threads: [{name: a, entry: a_main, priority: 1, stack: 9000}]\n",
        "volts",
        "board.operating_points[0].volts",
        "0 must be more than 0",
    ),
    (
        "name not an identifier",
        BASE + "  - {name: 2b, entry: b_main, priority: 2, stack: 1024}\n",
        "2b",
        "threads[1].name",
        "expected a C identifier",
    ),
    (
        "name too long",
        BASE + f"  - {{name: {'n' * 64}, entry: b_main, priority: 2, stack: 1024}}\n",
        "nnnn",
        "threads[1].name",
        "is longer than 63 characters",
    ),
    (
        "no threads",
        "board: {clock_hz: 1}\nthreads: []\n",
        "threads",
        "threads",
        "must not be empty",
    ),
    (
        "threads missing a value",
        "board: {clock_hz: 1}\nthreads:\n",
        "threads",
        "threads",
        "expected a list, got nothing (null)",
    ),
    (
        "a target twice",
        "board: {clock_hz: 1}\ntargets: [sim, sim]\n"
        "threads: [{name: a, entry: a_main, priority: 1, stack: 9000}]\n",
        "targets",
        "targets",
        "lists 'sim' more than once",
    ),
    (
        "unknown target",
        "board: {clock_hz: 1}\ntargets: [qemu-m7]\n"
        "threads: [{name: a, entry: a_main, priority: 1, stack: 9000}]\n",
        "targets",
        "targets[0]",
        "expected one of sim, qemu-m3, qemu-m4, qemu-rv32, qemu-rv32f, qemu-fe310, got 'qemu-m7'",
    ),
    (
        "two units in one time",
        BASE + "  - {name: b, entry: b_main, priority: 2, stack: 1024, period: {us: 5, ms: 3},"
        " wcet: 1}\n",
        "period",
        "threads[1].period",
        "got 2 fields",
    ),
    (
        "an unknown unit",
        BASE + "  - {name: b, entry: b_main, priority: 2, stack: 1024, period: {s: 1}, wcet: 1}\n",
        "period",
        "threads[1].period.s",
        "unknown field 's'",
    ),
    (
        "a negative time",
        BASE + "  - {name: b, entry: b_main, priority: 2, stack: 1024,\n"
        "     period: {us: -1}, wcet: 1}\n",
        "period",
        "threads[1].period.us",
        "-1 is below the minimum, 0",
    ),
    (
        "wcet without period",
        BASE + "  - {name: b, entry: b_main, priority: 2, stack: 1024, wcet: 10}\n",
        "wcet",
        "threads[1].wcet",
        "needs period too",
    ),
    (
        "jitter without period",
        BASE + "  - {name: b, entry: b_main, priority: 2, stack: 1024, jitter: 10}\n",
        "jitter",
        "threads[1].jitter",
        "needs period too",
    ),
    (
        "wcet in cycles and time",
        BASE + "  - {name: b, entry: b_main, priority: 2, stack: 1024, period: 100,"
        " wcet: {us: 5, cycles: 3}}\n",
        "wcet",
        "threads[1].wcet",
        "expected exactly one of {cycles: N}, {us: N, at: POINT}, {ms: N, at: POINT}, got a "
        "mapping",
    ),
    (
        "operating point not a name",
        BASE + "  - {name: b, entry: b_main, priority: 2, stack: 1024, period: 100,"
        " wcet: {us: 5, at: 3}}\n",
        "wcet",
        "threads[1].wcet.at",
        "expected a string, got 3",
    ),
    (
        "priorities not a kernel option",
        BASE + "kernel: {priorities: 100}\n",
        "kernel",
        "kernel.priorities",
        "expected one of 32, 64, 256, 1024 (TC_PRIORITIES), got 100",
    ),
    (
        "HISR priority",
        BASE + "hisrs: [{name: h, function: h_fn, priority: 3, stack: 1024}]\n",
        "hisrs",
        "hisrs[0].priority",
        "3 is above the maximum, 2",
    ),
    (
        "byte pool too small",
        BASE + "byte_pools: [{name: y, size: 32}]\n",
        "byte_pools",
        "byte_pools[0].size",
        "32 is below the minimum, 64",
    ),
    (
        "a key twice",
        "board: {clock_hz: 1}\ntargets: [qemu-m3]\nthreads:\n  - name: a\n    entry: a_main\n"
        "    priority: 1\n    stack: 1024\n    priority: 2\n",
        "priority: 2",
        "threads[0].priority",
        "key given twice in one mapping (first at line 6)",
    ),
]


@pytest.mark.parametrize(
    ("text", "marker", "field", "words"),
    [case[1:] for case in SCHEMA_CASES],
    ids=[case[0] for case in SCHEMA_CASES],
)
def test_schema_errors(tmp_path: Path, text: str, marker: str, field: str, words: str) -> None:
    expect(tmp_path, text, marker, field, words)


def test_every_schema_error_at_once_sorted_by_line(tmp_path: Path) -> None:
    text = (
        "board: {clock_hz: 1, speed: 2}\nthreads:\n"
        "  - {name: a, entry: a_main, priority: x, stack: 9000}\n  - {name: b}\n"
    )
    found = errors(tmp_path, text)
    assert [e.split(":")[1] for e in found] == ["1", "3", "4", "4", "4"]
    assert found[0].startswith("app.yaml:1: board.speed: unknown field")


# ---- reading the file --------------------------------------------------------------------


def test_syntax_error(tmp_path: Path) -> None:
    found = errors(tmp_path, "board:\n  clock_hz: 1\nthreads: [a, b\n")
    assert len(found) == 1
    assert found[0].startswith("app.yaml:4: YAML syntax: ")


def test_indentation_error(tmp_path: Path) -> None:
    found = errors(tmp_path, "board:\n  clock_hz: 1\n bad: 2\n")
    assert found[0].startswith("app.yaml:3: YAML syntax: ")
    assert "column" in found[0]


def test_empty_file(tmp_path: Path) -> None:
    assert errors(tmp_path, "") == [
        "app.yaml:1: (top level): the file is empty; expected a mapping with at least board "
        "and threads"
    ]
    assert errors(tmp_path, "# only a comment\n")[0].startswith("app.yaml:1: (top level): the file")


def test_not_a_mapping(tmp_path: Path) -> None:
    assert errors(tmp_path, "\n- board\n- threads\n") == [
        "app.yaml:2: (top level): expected a mapping with at least board and threads, got a list"
    ]
    assert errors(tmp_path, "null\n")[0].endswith("got nothing (null)")


def test_two_documents(tmp_path: Path) -> None:
    found = errors(tmp_path, BASE + "---\n" + BASE)
    assert found[0].startswith("app.yaml:5: YAML syntax: ")


def test_recursive_alias(tmp_path: Path) -> None:
    text = BASE + "semaphores: &loop [*loop]\n"
    found = errors(tmp_path, text)
    assert found[0].startswith(f"app.yaml:{line_of(text, '&loop')}: semaphores[0]: ")
    assert "recursive" in found[0]


def test_nested_too_deeply(tmp_path: Path) -> None:
    assert errors(tmp_path, "a: " + "[" * 1500 + "]" * 1500 + "\n") == [
        "app.yaml: nested too deeply to be a description"
    ]


def test_merge_keys_work(tmp_path: Path) -> None:
    text = BASE + "  - {<<: {entry: b_main, priority: 2, stack: 1024}, name: b}\n"
    assert [t.entry for t in load(tmp_path, text).threads] == ["a_main", "b_main"]


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DescriptionError) as info:
        appdesc.load(tmp_path / "nope.yaml", "nope.yaml")
    assert info.value.errors == ["nope.yaml: cannot read: No such file or directory"]


def test_a_directory(tmp_path: Path) -> None:
    with pytest.raises(DescriptionError) as info:
        appdesc.load(tmp_path, "dir")
    assert info.value.errors == ["dir: cannot read: Is a directory"]


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "app.yaml"
    path.write_bytes(b"board: {clock_hz: 1}\nname: caf\xe9\n")
    with pytest.raises(DescriptionError) as info:
        appdesc.load(path, "app.yaml")
    assert info.value.errors == ["app.yaml: not UTF-8 text (byte 0xe9 at offset 30)"]


def test_the_path_as_given_by_default(tmp_path: Path) -> None:
    path = write(tmp_path, "board: {clock_hz: x}\nthreads: []\n")
    with pytest.raises(DescriptionError) as info:
        appdesc.load(path)
    assert info.value.errors[0].startswith(f"{path}:1: board.clock_hz: ")


# ---- the rules beyond the schema ---------------------------------------------------------

TIMED = "period: {ms: 10}, wcet: {us: 100}"
PASSIVE = [
    ("semaphores", "semaphore", "{name: x}"),
    ("mutexes", "mutex", "{name: x}"),
    ("event_groups", "event group", "{name: x}"),
    ("queues", "queue", "{name: x, message_words: 1, capacity: 1}"),
    ("message_ports", "message port", "{name: x, capacity: 1}"),
    ("block_pools", "block pool", "{name: x, block_size: 8, blocks: 1}"),
    ("byte_pools", "byte pool", "{name: x, size: 64}"),
]

RULE_CASES = [
    (
        "duplicate name across kinds",
        BASE + "semaphores: [{name: a}]\n",
        "semaphores",
        "semaphores[0].name",
        "duplicate name 'a': already the thread 'a' at line 4",
    ),
    (
        "duplicate thread name",
        BASE + "  - {name: a, entry: b_main, priority: 2, stack: 1024}\n",
        "b_main",
        "threads[1].name",
        "duplicate name 'a'",
    ),
    (
        "a function named like an object",
        BASE + "  - {name: b, entry: a, priority: 2, stack: 1024}\n",
        "entry: a,",
        "threads[1].entry",
        "function 'a' has the name of the thread 'a' (line 4)",
    ),
    (
        "a function with two signatures",
        BASE + "hisrs: [{name: h, function: a_main, priority: 0, stack: 1024}]\n",
        "hisrs",
        "hisrs[0].function",
        "function 'a_main' is void (void) here but void (void *) as the thread 'a''s entry",
    ),
    (
        "a C keyword",
        BASE + "  - {name: int, entry: b_main, priority: 2, stack: 1024}\n",
        "int",
        "threads[1].name",
        "'int' is a C keyword",
    ),
    (
        "the kernel's prefix",
        BASE + "  - {name: tc_mine, entry: b_main, priority: 2, stack: 1024}\n",
        "tc_mine",
        "threads[1].name",
        "names beginning with tc_, tct_ or tacet_ belong to Tacet",
    ),
    (
        "main as an entry",
        BASE + "  - {name: b, entry: main, priority: 2, stack: 1024}\n",
        "entry: main",
        "threads[1].entry",
        "'main' is a C keyword or a name C programs already use",
    ),
    (
        "threshold weaker than priority",
        BASE + "  - {name: b, entry: b_main, priority: 2, threshold: 5, stack: 1024}\n",
        "threshold: 5",
        "threads[1].threshold",
        "threshold 5 is weaker than the priority 2",
    ),
]


def test_priority_out_of_range(tmp_path: Path) -> None:
    text = (
        "board: {clock_hz: 1}\nkernel: {priorities: 32}\ntargets: [qemu-m3]\nthreads:\n"
        "  - {name: a, entry: a_main, priority: 32, threshold: 40, stack: 1024}\n"
    )
    expect(
        tmp_path,
        text,
        "priority: 32",
        "threads[0].priority",
        "priority 32 is out of range: kernel.priorities is 32 (0..31)",
    )
    expect(tmp_path, text, "priority: 32", "threads[0].threshold", "threshold 40 is out of range")
    # The default range: 256 levels.
    text = BASE + "  - {name: b, entry: b_main, priority: 256, stack: 1024}\n"
    expect(tmp_path, text, "256", "threads[1].priority", "kernel.priorities is 256 (0..255)")
    assert load(tmp_path, text.replace("256", "255")).threads[1].priority == 255


@pytest.mark.parametrize(
    ("text", "marker", "field", "words"),
    [case[1:] for case in RULE_CASES],
    ids=[case[0] for case in RULE_CASES],
)
def test_rules(tmp_path: Path, text: str, marker: str, field: str, words: str) -> None:
    expect(tmp_path, text, marker, field, words)


SIM_HEADER = "ports/sim/include/tacet_port.h"
CM_HEADER = "ports/cortex-m/include/tacet_port.h"


def stack_text(targets: str, stack: int) -> str:
    return (
        f"board: {{clock_hz: 1}}\ntargets: {targets}\nthreads:\n"
        f"  - {{name: a, entry: a_main, priority: 1, stack: {stack}}}\n"
        f"hisrs: [{{name: h, function: h_fn, priority: 0, stack: {stack}}}]\n"
    )


def test_stack_below_the_minimum_of_the_only_target(tmp_path: Path) -> None:
    text = stack_text("[qemu-m3]", 255)
    words = (
        f"255 bytes is below the minimum of target qemu-m3: 256 (TC_PORT_STACK_MIN, {CM_HEADER})"
    )
    expect(tmp_path, text, "a_main", "threads[0].stack", "thread 'a': " + words)
    expect(tmp_path, text, "hisrs", "hisrs[0].stack", "HISR 'h': " + words)
    assert load(tmp_path, stack_text("[qemu-m3]", 256)).warnings == ()


def test_stack_below_the_minimum_of_every_target(tmp_path: Path) -> None:
    text = stack_text("[qemu-m3, qemu-m4]", 255)
    words = (
        "255 bytes is below the minimum of every target of the description "
        "(qemu-m3 256, qemu-m4 384; TC_PORT_STACK_MIN"
    )
    expect(tmp_path, text, "a_main", "threads[0].stack", words)


@pytest.mark.parametrize(
    ("targets", "stack", "refused"),
    [
        # A Cortex-M stack in a description for sim too: a warning (the sim build refuses it).
        ("[sim, qemu-m3]", 4096, [("sim", 8192, SIM_HEADER)]),
        ("[qemu-m3, qemu-m4]", 300, [("qemu-m4", 384, CM_HEADER)]),
        # No targets given: all three.
        ("[sim, qemu-m3, qemu-m4]", 300, [("sim", 8192, SIM_HEADER), ("qemu-m4", 384, CM_HEADER)]),
    ],
)
def test_stack_below_the_minimum_of_some_targets_is_a_warning(
    tmp_path: Path, targets: str, stack: int, refused: list[tuple[str, int, str]]
) -> None:
    text = stack_text(targets, stack)
    app = load(tmp_path, text)
    expected = []
    objects = (("thread 'a'", "threads[0]", "a_main"), ("HISR 'h'", "hisrs[0]", "hisrs"))
    for what, field, marker in objects:
        line = line_of(text, marker)
        expected += [
            f"app.yaml:{line}: {field}.stack: {what}: {stack} bytes is below the minimum of "
            f"target {target}: {least} (TC_PORT_STACK_MIN, {header}); a build for {target} "
            "refuses it"
            for target, least, header in refused
        ]
    assert sorted(app.warnings) == sorted(expected)
    assert list(app.warnings) == sorted(app.warnings, key=lambda w: int(w.split(":")[1]))
    # Checked for a build: the build's target alone decides.
    for target, least, header in refused:
        words = (
            f"{stack} bytes is below the minimum of target {target}: {least} "
            f"(TC_PORT_STACK_MIN, {header}), the target this build is for"
        )
        with pytest.raises(DescriptionError) as info:
            appdesc.load(write(tmp_path, text), "app.yaml", target=target)
        assert_error(info.value.errors, f"app.yaml:{line_of(text, 'a_main')}", "threads[0].stack",
                     "thread 'a': " + words)  # fmt: skip
        assert_error(info.value.errors, f"app.yaml:{line_of(text, 'hisrs')}", "hisrs[0].stack",
                     "HISR 'h': " + words)  # fmt: skip
    listed = targets.strip("[]").split(", ")
    fits = [t for t in listed if t not in {target for target, _, _ in refused}]
    assert fits
    for target in fits:
        app = appdesc.load(write(tmp_path, text), "app.yaml", target=target)
        assert app.warnings == ()


def test_a_build_for_a_target_the_description_does_not_list(tmp_path: Path) -> None:
    text = stack_text("[qemu-m3, qemu-m4]", 4096)
    with pytest.raises(DescriptionError) as info:
        appdesc.load(write(tmp_path, text), "app.yaml", target="sim")
    assert_error(
        info.value.errors,
        f"app.yaml:{line_of(text, 'targets')}",
        "targets",
        "this build is for target sim, which the description does not list (qemu-m3, qemu-m4): "
        "add it to targets",
    )


def test_stack_minimum_defaults_to_every_target(tmp_path: Path) -> None:
    text = "board: {clock_hz: 1}\nthreads: [{name: a, entry: a_main, priority: 1, stack: 8191}]\n"
    app = load(tmp_path, text)
    assert len(app.warnings) == 1
    assert "minimum of target sim: 8192" in app.warnings[0]
    assert app.targets == ("sim", "qemu-m3", "qemu-m4", "qemu-rv32", "qemu-rv32f")


def test_config_prints_the_warnings_and_checks_for_its_target(tmp_path: Path) -> None:
    path = write(tmp_path, stack_text("[sim, qemu-m3]", 4096))
    result = run_config(str(path), "--check", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "tacet: warning: " in result.stderr and "a build for sim refuses it" in result.stderr
    result = run_config(str(path), "--check", "--target", "qemu-m3", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    result = run_config(str(path), "--check", "--target", "sim", cwd=tmp_path)
    assert result.returncode == 1
    assert "thread 'a': 4096 bytes is below the minimum of target sim: 8192" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_minima_come_from_the_port_headers() -> None:
    minima = appdesc.port_stack_minimum()
    assert {name: value for name, (value, _) in minima.items()} == {
        "sim": 8192,
        "qemu-m3": 256,
        "qemu-m4": 384,
        "qemu-rv32": 256,
        "qemu-rv32f": 512,
        "qemu-fe310": 256,
    }


def test_total_utilisation_over_one(tmp_path: Path) -> None:
    text = (
        "board: {clock_hz: 1000000}\ntargets: [qemu-m3]\nthreads:\n"
        "  - {name: a, entry: a_main, priority: 1, stack: 1024, period: 1000, wcet: 600}\n"
        "  - {name: b, entry: b_main, priority: 2, stack: 1024, period: {ms: 2}, wcet: {us: 900}}\n"
    )
    expect(
        tmp_path,
        text,
        "threads:",
        "threads",
        "total utilisation 1.050 is over 1 (wcet / period: a 0.600, b 0.450)",
    )
    assert load(tmp_path, text.replace("600", "550")).utilisation() == pytest.approx(1.0)


@pytest.mark.parametrize(("key", "word", "entry"), PASSIVE, ids=[p[0] for p in PASSIVE])
def test_an_object_no_one_uses(tmp_path: Path, key: str, word: str, entry: str) -> None:
    text = BASE + f"{key}: [{entry}]\n"
    expect(
        tmp_path,
        text,
        f"{key}:",
        f"{key}[0].name",
        f"{word} 'x' is used by no thread, timer or HISR",
    )
    # Used by a thread, a timer or an HISR, it is fine.
    load(tmp_path, text.replace("stack: 1024}", "stack: 1024, uses: [x]}"))
    load(tmp_path, text + "timers: [{name: t, callback: t_fn, period: 1, uses: [x]}]\n")
    load(
        tmp_path, text + "hisrs: [{name: h, function: h_fn, priority: 0, stack: 512, uses: [x]}]\n"
    )


def test_a_locked_mutex_is_used(tmp_path: Path) -> None:
    text = BASE + (
        f"  - {{name: b, entry: b_main, priority: 2, stack: 1024, {TIMED}, "
        "locks: [{mutex: m, length: 5}]}\nmutexes: [{name: m}]\n"
    )
    app = load(tmp_path, text)
    assert app.threads[1].locks == (appdesc.Lock("m", 5),)


def test_uses_an_unknown_object(tmp_path: Path) -> None:
    text = BASE + "  - {name: b, entry: b_main, priority: 2, stack: 1024, uses: [a, semm]}\n"
    text += "semaphores: [{name: sem}]\n"
    expect(
        tmp_path, text, "semm", "threads[1].uses[1]", "unknown object 'semm' (did you mean 'sem'?)"
    )


@pytest.mark.parametrize(
    ("lock", "field", "words"),
    [
        ("{mutex: sem, length: 5}", "mutex", "'sem' is not a mutex of the description"),
        ("{mutex: mx, length: 5}", "mutex", "'mx' is not a mutex of the description (did you"),
        ("{mutex: m, length: {us: 101}}", "length", "101 cycles is longer than the wcet, 100"),
    ],
)
def test_locks(tmp_path: Path, lock: str, field: str, words: str) -> None:
    text = BASE + (
        f"  - {{name: b, entry: b_main, priority: 2, stack: 1024, {TIMED}, uses: [sem],\n"
        f"     locks: [{lock}]}}\nmutexes: [{{name: m}}]\nsemaphores: [{{name: sem}}]\n"
    )
    expect(tmp_path, text, "locks", f"threads[1].locks[0].{field}", words)


def test_a_mutex_locked_twice_in_a_list(tmp_path: Path) -> None:
    text = BASE + (
        f"  - {{name: b, entry: b_main, priority: 2, stack: 1024, {TIMED},\n"
        "     locks: [{mutex: m, length: 5}, {mutex: m, length: 6}]}\nmutexes: [{name: m}]\n"
    )
    expect(tmp_path, text, "locks", "threads[1].locks[1].mutex", "mutex 'm' listed twice")


def test_unknown_operating_point(tmp_path: Path) -> None:
    text = (
        "board:\n  clock_hz: 1000000\n  operating_points: [{name: fast, hz: 2000000}]\n"
        "targets: [qemu-m3]\nthreads:\n"
        "  - {name: a, entry: a_main, priority: 1, stack: 1024, period: 100,\n"
        "     wcet: {us: 1, at: fasst}}\n"
    )
    expect(
        tmp_path,
        text,
        "fasst",
        "threads[0].wcet.at",
        "unknown operating point 'fasst' (did you mean 'fast'?) (known: fast)",
    )
    text = BASE + "  - {name: b, entry: b_main, priority: 2, stack: 1024, period: 100,\n"
    text += "     wcet: 1, locks: [{mutex: m, length: {us: 1, at: slow}}]}\nmutexes: [{name: m}]\n"
    expect(
        tmp_path,
        text,
        "slow",
        "threads[1].locks[0].length.at",
        "(known: none: board.operating_points is empty)",
    )


def test_operating_point_twice(tmp_path: Path) -> None:
    text = (
        "board:\n  clock_hz: 1\n  operating_points:\n    - {name: p, hz: 1}\n"
        "    - {name: p, hz: 2}\ntargets: [qemu-m3]\n"
        "threads: [{name: a, entry: a_main, priority: 1, stack: 1024}]\n"
    )
    expect(tmp_path, text, "hz: 2", "board.operating_points[1].name", "'p' given twice")


def test_wcet_over_the_deadline(tmp_path: Path) -> None:
    text = BASE + (
        "  - {name: b, entry: b_main, priority: 2, stack: 1024, period: {ms: 10},\n"
        "     deadline: {ms: 1}, wcet: {us: 1001}}\n"
    )
    expect(
        tmp_path,
        text,
        "deadline",
        "threads[1].wcet",
        "wcet 1001 cycles exceeds the deadline, 1000 cycles: no job can meet it",
    )


def test_a_period_of_no_cycles(tmp_path: Path) -> None:
    text = BASE + "  - {name: b, entry: b_main, priority: 2, stack: 1024, period: {us: 0.5},\n"
    text += "     wcet: 0}\n"
    expect(
        tmp_path, text, "period", "threads[1].period", "period is 0 cycles; it must be at least 1"
    )
    expect(tmp_path, text, "wcet", "threads[1].wcet", "wcet is 0 cycles")


@pytest.mark.parametrize("key", ["priority", "threshold"])
def test_auto_needs_a_period(tmp_path: Path, key: str) -> None:
    values = {"priority": 3, "threshold": 2} | {key: "auto"}
    text = BASE + (
        f"  - {{name: b, entry: b_main, priority: {values['priority']}, "
        f"threshold: {values['threshold']}, stack: 1024}}\n"
    )
    expect(
        tmp_path, text, "b_main", f"threads[1].{key}", "auto needs a periodic or sporadic thread"
    )


def test_semaphore_above_its_max(tmp_path: Path) -> None:
    text = BASE.replace("stack: 1024}", "stack: 1024, uses: [s]}")
    text += "semaphores:\n  - {name: s, initial: 3, max: 2}\n"
    expect(tmp_path, text, "initial", "semaphores[0].initial", "initial count 3 is above max, 2")


def test_one_shot_timer_without_initial(tmp_path: Path) -> None:
    text = BASE + "timers:\n  - {name: t, callback: t_fn}\n"
    expect(tmp_path, text, "t_fn", "timers[0]", "a one-shot timer (period 0, the default) needs")


def test_every_rule_at_once_sorted_by_line(tmp_path: Path) -> None:
    text = BASE + (
        "  - {name: b, entry: b_main, priority: 2, threshold: 3, stack: 1024}\n"
        "semaphores: [{name: b}, {name: spare}]\n"
    )
    found = errors(tmp_path, text)
    assert [e.split(": ")[1] for e in found] == [
        "threads[1].threshold",
        "semaphores[0].name",
        "semaphores[1].name",
    ]


def test_errors_are_capped() -> None:
    error = DescriptionError([f"e{i}" for i in range(40)])
    assert error.message.splitlines()[-1] == "... and 10 more errors"
    assert len(error.errors) == 40


# ---- the model and the tasks -------------------------------------------------------------


def test_tasks_in_cycles(tmp_path: Path) -> None:
    text = """\
    board:
      clock_hz: 25000000
      operating_points:
        - {name: slow, hz: 8000000, volts: 0.9}
    kernel: {tick_hz: 100}
    targets: [qemu-m3]
    threads:
      - name: a
        entry: a_main
        priority: auto
        threshold: auto
        stack: 1024
        release: sporadic
        period: {ticks: 2}
        deadline: {us: 0.03}
        wcet: {us: 0.1, at: slow}
        offset: {ms: 1}
        jitter: {us: 0.01}
        locks: [{mutex: m, length: {cycles: 1}}]
      - {name: b, entry: b_main, priority: 5, stack: 1024, period: 1000, wcet: 10}
      - {name: c, entry: c_main, priority: 9, stack: 1024}
    mutexes: [{name: m, inherit: false}]
    """
    app = load(tmp_path, text.replace("0.03}", "0.04}"))
    a, b, c = app.threads
    assert a.sporadic and not b.sporadic and not c.timed
    assert a.period == 500000  # 2 ticks at 100 Hz
    assert a.period_ticks == 2
    assert b.period_ticks is None  # 1000 cycles are 0.004 ticks
    # Work rounds up, deadlines and periods down: 0.1 us at 8 MHz is 0.8 cycles -> 1; 0.03 us
    # at 25 MHz is 0.75 -> 0, an error; 0.04 us is 1 cycle.
    assert Fraction(3, 100) * 25 < 1
    expect(tmp_path, text, "deadline", "threads[0].deadline", "deadline is 0 cycles")
    tasks = app.tasks()
    assert [t.name for t in tasks] == ["a", "b"]
    assert tasks[0] == analysis.Task(
        name="a",
        period=500000,
        wcet=1,
        deadline=1,
        priority=None,
        threshold=None,
        jitter=1,  # 0.25 cycles, up
        offset=25000,
        stack=1024,
        critical_sections=(analysis.CriticalSection("m", 1, inherit=False),),
    )
    assert tasks[1].priority == 5 and tasks[1].threshold == 5 and tasks[1].deadline == 1000
    assert app.tick_hz == 100 and app.tick_hz_given
    assert app.policy == "dm" and app.target == "qemu-m3"


def test_a_deadline_that_rounds_to_nothing(tmp_path: Path) -> None:
    text = BASE + "  - {name: b, entry: b_main, priority: 2, stack: 1024, period: 10,\n"
    text += "     deadline: {us: 0.5}, wcet: 1}\n"
    expect(tmp_path, text, "deadline", "threads[1].deadline", "deadline is 0 cycles")


# ---- the schema file ---------------------------------------------------------------------


def test_the_schema_is_valid_and_describes_every_property() -> None:
    schema = json.loads((REPO / "schema" / "tacet-app.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    defs = schema["$defs"]

    def described(node: dict) -> bool:
        if "description" in node:
            return True
        ref = node.get("$ref", "")
        return ref.startswith("#/$defs/") and "description" in defs[ref.split("/")[-1]]

    def walk(node: object, where: str) -> None:
        if isinstance(node, dict):
            for name, sub in node.get("properties", {}).items():
                assert described(sub), f"{where}.{name} has no description"
            for key, sub in node.items():
                walk(sub, f"{where}.{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{where}[{i}]")

    walk(schema, "schema")


DESCRIPTIONS = [*sorted(REPO.glob("examples/*/app.yaml")), REPO / "tests" / "test_app.yaml"]


@pytest.mark.parametrize("path", DESCRIPTIONS, ids=[str(p.relative_to(REPO)) for p in DESCRIPTIONS])
def test_the_repository_descriptions_are_good(path: Path) -> None:
    """Each names the schema for editors (the YAML language server) and passes the checks."""
    first = path.read_text().splitlines()[0]
    relative = Path(first.split("$schema=")[1])
    assert first.startswith("# yaml-language-server: $schema=")
    assert (path.parent / relative).resolve() == REPO / "schema" / "tacet-app.schema.json"
    appdesc.load(path)


# ---- tacet config on bad input: one line per error, no traceback -------------------------


@pytest.mark.parametrize(
    ("content", "first_line"),
    [
        (None, "tacet: error: app.yaml: cannot read: No such file or directory"),
        ("", "tacet: error: app.yaml:1: (top level): the file is empty"),
        ("a: [\n", "tacet: error: app.yaml:2: YAML syntax: "),
        ("[1]\n", "tacet: error: app.yaml:1: (top level): expected a mapping"),
        (BASE + "extra: 1\n", "tacet: error: app.yaml:5: extra: unknown field 'extra'"),
        (BASE.replace("priority: 1", "priority: 1, threshold: 2"), "tacet: error: app.yaml:4: "),
    ],
)
def test_config_reports_without_a_traceback(
    tmp_path: Path, content: str | None, first_line: str
) -> None:
    if content is not None:
        write(tmp_path, content)
    result = run_config("app.yaml", "--check", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith(first_line), result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "tacet_app.c").exists()
