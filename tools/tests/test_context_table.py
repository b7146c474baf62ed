# SPDX-License-Identifier: MIT
"""The calling-context table of docs/services.md and the rows of tests/test_context.c are one
table: same services, same cells. The C test checks every cell against the kernel; this test
keeps the documentation from drifting away from it, and every status-returning function of the
public headers in it."""

import re

from conftest import REPO

CONTEXTS = ["thread", "startup", "LISR", "HISR", "timer callback", "scheduler locked"]
MARKS = {"✓": "y", "—": "-"}


def doc_table() -> dict[str, str]:
    text = (REPO / "docs" / "services.md").read_text()
    section = text.split("## Calling contexts", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert header == ["Service", *CONTEXTS], header
    table: dict[str, str] = {}
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        name = cells[0].strip("`")
        assert len(cells) == 1 + len(CONTEXTS), f"services.md: {name} has {len(cells)} cells"
        assert name not in table, f"docs/services.md: row {name} twice"
        table[name] = "".join(MARKS[cell] for cell in cells[1:])
    return table


def c_rows() -> dict[str, str]:
    text = (REPO / "tests" / "test_context.c").read_text()
    rows = re.findall(r'ROW\("([^"]+)", \w+, "([y-]{6})", TC_\w+\)', text)
    assert len(rows) == text.count("    ROW("), "a ROW(...) line the pattern does not read"
    return dict(rows)


def test_documentation_and_test_have_the_same_cells() -> None:
    doc, test = doc_table(), c_rows()
    assert sorted(doc) == sorted(test)
    for name, cells in doc.items():
        assert cells == test[name], f"{name}: documented {cells}, tested {test[name]}"


def test_every_public_service_is_in_the_table() -> None:
    declared = set()
    for header in (REPO / "include" / "tacet").glob("*.h"):
        # power.h's services exist only in a kernel built with TC_POWER=1, which test_context
        # does not use: tests/test_power.c checks their calling contexts (docs/energy.md).
        if header.name == "power.h":
            continue
        declared |= set(re.findall(r"^tc_status (tc_\w+)\(", header.read_text(), re.MULTILINE))
    tabled = {name.split("(")[0] for name in doc_table()}
    assert declared - tabled == set(), "public services missing from the calling-context table"
    assert tabled - declared == set(), "rows naming no public service"
