# SPDX-License-Identifier: MIT
"""``tacet misra``: MISRA C:2012 findings on kernel/, counted by rule (cppcheck's misra addon).

The addon runs without the rule texts (MISRA sells them; cppcheck does not ship them), so it
reports rule numbers only; the one-line topics printed here are Tacet's own summaries. The
kernel is analysed in its default configuration on the Cortex-M port (the `cortex-m3`
configuration of ``tacet lint``): the findings counted are those in kernel/ and include/
(the portable kernel and its API); those in the port's headers, which the kernel includes,
are counted apart. docs/misra.md discusses the table this prints.
"""

import json
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from tacet.core.errors import TacetError
from tacet.project.lint import (
    CONFIGURATIONS,
    TEMPLATE,
    Configuration,
    Finding,
    parse_findings,
)

CONFIGURATION = next(c for c in CONFIGURATIONS if c.name == "cortex-m3")
SOURCES = "kernel/*.c"
COUNTED = ("kernel/", "include/")
RULE_ID = re.compile(r"misra-c2012-(\d+)\.(\d+)$")

# Category (MISRA C:2012 with its amendments) and a summary in Tacet's words, for the rules
# the addon reports on Tacet today; a rule not listed prints with "?".
RULES: dict[str, tuple[str, str]] = {
    "1.4": ("required", "emergent language features (C11: _Noreturn, _Static_assert ...)"),
    "2.3": ("advisory", "a type declared and never used"),
    "2.4": ("advisory", "a tag declared and never used"),
    "2.5": ("advisory", "a macro defined and never used"),
    "2.7": ("advisory", "a function parameter never used"),
    "5.5": ("required", "an identifier that is also a macro's name"),
    "5.7": ("required", "a tag name used twice"),
    "5.9": ("advisory", "a name with internal linkage used in two files"),
    "8.7": ("advisory", "an external name used in one file only (could be static)"),
    "8.9": ("advisory", "an object used by one function, defined outside it"),
    "8.10": ("required", "an inline function that is not static"),
    "10.1": ("required", "an operand of an inappropriate essential type"),
    "10.3": ("required", "a value assigned to a narrower or different essential type"),
    "10.4": ("required", "operands of different essential type categories (unsigned != 0)"),
    "10.8": ("required", "a composite expression cast to a wider or different type"),
    "11.3": ("required", "a cast between pointers to different object types"),
    "11.4": ("advisory", "a conversion between a pointer and an integer"),
    "11.5": ("advisory", "a conversion from void * to a pointer to an object"),
    "11.6": ("required", "a cast between void * and an arithmetic type"),
    "11.8": ("required", "a cast that removes const or volatile"),
    "12.1": ("advisory", "operator precedence left to the reader (no parentheses)"),
    "12.3": ("advisory", "the comma operator"),
    "13.3": ("advisory", "++ or -- beside another side effect"),
    "13.4": ("advisory", "the result of an assignment used"),
    "13.5": ("required", "a right operand of && or || with a side effect"),
    "14.2": ("required", "a for loop that is not well-formed (one counter, no other effects)"),
    "14.4": ("required", "a controlling expression that is not essentially Boolean"),
    "15.4": ("advisory", "more than one break out of a loop"),
    "15.5": ("advisory", "more than one exit from a function"),
    "15.6": ("required", "a body that is not a compound statement (no braces)"),
    "15.7": ("required", "if ... else if without a final else"),
    "17.7": ("required", "a function's return value ignored"),
    "17.8": ("advisory", "a function parameter modified"),
    "18.4": ("advisory", "pointer arithmetic with +, -, += or -="),
    "19.2": ("advisory", "a union"),
    "20.1": ("advisory", "an #include after code"),
    "20.7": ("required", "a macro parameter not in parentheses where it expands"),
    "20.10": ("advisory", "the # or ## operator"),
    "21.15": ("required", "memcpy/memcmp between pointers to different types"),
}


def rule_texts() -> str:
    """A rule-texts file for the addon, in the layout it reads, holding Tacet's summaries
    (RULES). Not for the summaries' sake: without a text every finding has the same message,
    and cppcheck prints one finding per line and message, so a second rule's finding on a line
    would be lost. With one text given, a rule without one names its number in its message."""
    lines = ["Appendix A Summary of guidelines"]
    for rule, (category, topic) in sorted(RULES.items(), key=lambda item: rule_key(item[0])):
        lines += [f"Rule {rule} {category.capitalize()}", topic[0].upper() + topic[1:]]
    return "\n".join(lines) + "\n"


def rule_key(rule: str) -> tuple[int, int]:
    major, minor = rule.split(".")
    return int(major), int(minor)


def misra_findings(repo: Path, config: Configuration, cppcheck: str) -> list[Finding]:
    sources = sorted(str(p.relative_to(repo)) for p in repo.glob(SOURCES))
    if not sources:
        raise TacetError(f"misra: no C sources ({SOURCES}) in {repo}")
    # The addon reads cppcheck's dump files: they go to a fresh directory, not the tree (and
    # nothing is reused from an earlier run).
    with tempfile.TemporaryDirectory(prefix="tacet-misra-") as build_dir:
        addon = Path(build_dir) / "misra.json"
        texts = Path(build_dir) / "rule-texts.txt"
        texts.write_text(rule_texts())
        addon.write_text(json.dumps({"script": "misra", "args": [f"--rule-texts={texts}"]}))
        command = [
            cppcheck,
            "--std=c11",
            f"--addon={addon}",
            f"--cppcheck-build-dir={build_dir}",
            f"--template={TEMPLATE}",
            *(f"-I{d}" for d in config.port.includes),
            *(f"-D{d}" for d in config.defines),
            *sources,
        ]
        result = subprocess.run(command, cwd=repo, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise TacetError(
            f"misra: cppcheck failed (status {result.returncode}): {result.stderr.strip()[-500:]}"
        )
    found = [f for f in parse_findings(result.stderr) if RULE_ID.match(f.id)]
    if not found and "misra" not in result.stdout + result.stderr:
        raise TacetError("misra: cppcheck printed no MISRA result; is its misra addon installed?")
    return sorted(set(found))


def rule_of(finding: Finding) -> str:
    match = RULE_ID.match(finding.id)
    if match is None:
        raise ValueError(finding.id)
    return f"{match.group(1)}.{match.group(2)}"


def table(findings: Sequence[Finding]) -> list[str]:
    """The counted findings by rule, as a Markdown table, with totals per category."""
    counted = [f for f in findings if f.file.startswith(COUNTED)]
    by_rule = Counter(rule_of(f) for f in counted)
    lines = ["| Rule | Category | Count | What it flags |", "|---|---|--:|---|"]
    by_category: Counter[str] = Counter()
    for rule in sorted(by_rule, key=rule_key):
        category, topic = RULES.get(rule, ("?", "(not summarised here: see the rule's text)"))
        by_category[category] += by_rule[rule]
        lines.append(f"| {rule} | {category} | {by_rule[rule]} | {topic} |")
    per_category = ", ".join(f"{c} {n}" for c, n in sorted(by_category.items()))
    lines.append(f"| all | | {len(counted)} | {len(by_rule)} rules; {per_category} |")
    return lines


def addon_script(cppcheck: str) -> Path:
    """The misra addon's script beside the cppcheck program (Debian: /usr/lib/<triplet>/...)."""
    program = Path(shutil.which(cppcheck) or cppcheck).resolve()
    prefix = program.parent.parent
    candidates = [
        program.parent / "addons" / "misra.py",
        *sorted(prefix.glob("lib/*/cppcheck/addons/misra.py")),
        prefix / "lib" / "cppcheck" / "addons" / "misra.py",
        prefix / "share" / "cppcheck" / "addons" / "misra.py",
    ]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise TacetError(f"misra: cannot find the misra addon (misra.py) of {program}")


def checked_rules(cppcheck: str) -> tuple[set[str], set[str]]:
    """The rules the addon checks itself (its misra_N_M functions) and those it takes from
    cppcheck's own checks (its getCppcheckRules list), read from the addon's script, so that
    the compliance summary follows the installed version."""
    script = addon_script(cppcheck).read_text(encoding="utf-8")
    own = {f"{a}.{b}" for a, b in re.findall(r"^\s*def misra_(\d+)_(\d+)\(", script, re.MULTILINE)}
    listed = re.search(r"def getCppcheckRules\(\):(.*?)\]", script, re.DOTALL)
    from_cppcheck = set(re.findall(r"'(\d+\.\d+)'", listed.group(1))) if listed else set()
    if not own:
        raise TacetError(f"misra: no rule checks found in {addon_script(cppcheck)}")
    return own, from_cppcheck - own
