# SPDX-License-Identifier: MIT
"""MISRA C:2012 Dir 4.5 as tacet misra checks it (tacet.project.misra_names): which names are
typographically ambiguous, and which are visible together."""

from __future__ import annotations

from pathlib import Path

import pytest

from tacet.project.misra_names import ambiguous, canonical, findings, scopes

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("count", "Count"),  # case
        ("tc_lock", "tc__lock"),  # underscores
        ("id_1", "id_l"),  # 1 and l
        ("BIT_I", "BIT_1"),
        ("x0", "xO"),
        ("S1", "51"),
        ("Z2", "z2"),
        ("ZERO_2", "ZERO_Z"),
        ("b8", "bB"),
        ("turn", "tum"),  # rn and m
    ],
)
def test_names_that_look_alike_share_a_form(a: str, b: str) -> None:
    assert canonical(a) == canonical(b)
    assert ambiguous([a, b, "other"]) == [tuple(sorted((a, b)))]


@pytest.mark.parametrize(("a", "b"), [("L", "i"), ("h", "n"), ("count", "counts"), ("a1", "a2")])
def test_distinct_names_are_not_ambiguous(a: str, b: str) -> None:
    assert canonical(a) != canonical(b) and ambiguous([a, b]) == []


SOURCE = """\
/* Flags and flags in a comment are no names; "FLAGS" in a string neither. */
#define LIMIT 4
#define SWAP(T, t) do { T tmp_ = t; (void)tmp_; } while (0)
struct node { int next; int Next_; };
typedef struct node node_t;
int limit_of(int Limit);
static int total;
int sum(const struct node *n, int Total)
{
  return n->next + Total + total;
}
enum { RED, GREEN };
"""


def test_scopes_leave_out_members_prototype_parameters_and_macro_parameters() -> None:
    file_scope, inner = scopes(SOURCE)
    assert {"LIMIT", "SWAP", "node_t", "limit_of", "total", "sum", "RED", "GREEN"} <= file_scope
    assert not {"Flags", "flags", "FLAGS", "next", "Next_", "Limit", "T", "t", "tmp_"} & file_scope
    assert not {"n", "Total"} & file_scope  # the function's own scope
    assert {"T", "t", "tmp_"} in [names & {"T", "t", "tmp_"} for names in inner]
    assert any({"n", "Total", "total"} <= names for names in inner)
    assert all("next" not in names and "node" not in names for names in inner)  # member, tag


def test_a_finding_per_group_at_its_odd_name(tmp_path: Path) -> None:
    (tmp_path / "kernel").mkdir()
    (tmp_path / "kernel" / "a.h").write_text(
        "#ifndef A_H\n#define A_H\nvoid tc_hook(int x);\n#define TC_HOOK(x) tc_hook(x)\n#endif\n"
    )
    (tmp_path / "kernel" / "a.c").write_text(SOURCE)
    found = findings(tmp_path, ["kernel/*.c"], ["kernel/*.h"])
    messages = {(f.file, f.line, f.message) for f in found}
    assert messages == {
        ("kernel/a.h", 4, "TC_HOOK is typographically ambiguous with tc_hook"),
        ("kernel/a.c", 7, "total is typographically ambiguous with Total"),
        ("kernel/a.c", 3, "T is typographically ambiguous with t"),
    }
    assert {f.id for f in found} == {"misra-c2012-dir-4.5"}


def test_names_in_different_functions_do_not_meet(tmp_path: Path) -> None:
    (tmp_path / "kernel").mkdir()
    (tmp_path / "kernel" / "a.c").write_text(
        "int f(int Value) { return Value; }\nint g(int value) { return value; }\n"
    )
    assert findings(tmp_path, ["kernel/*.c"], ["kernel/*.h"]) == []


def test_the_kernel_has_only_the_groups_its_record_permits() -> None:
    found = findings(REPO, ["kernel/*.c"], ["kernel/*.h", "include/tacet/*.h"])
    odd = {f.message.split()[0] for f in found}
    assert odd and all(n.startswith(("TC_TRACE_", "TC_POWER_", "tc__isr_")) for n in odd), odd
