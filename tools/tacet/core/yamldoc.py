# SPDX-License-Identifier: MIT
"""A YAML document read with the line of every value and checked against a JSON Schema.

What the system description (tacet.app.description) and the board power tables
(tacet.power.tables) share: the file is composed to nodes (PyYAML) rather than loaded, so that
each value keeps the line it came from, and a key given twice in one mapping -- which a plain
load silently resolves to the last one -- is an error. Then the data is checked against a JSON
Schema (draft 2020-12), each failure worded for a person writing YAML. Every error is one
line, ``FILE:LINE: FIELD: what is wrong`` (``FILE: what is wrong`` when there is no line); all
the errors of one phase are reported at once, sorted by line (``raise_errors``).

``read`` does all of it for one file and returns the ``Source``: the data, the line of each
value and the errors so far. The caller adds the errors of its own rules (``Source.error``)
and calls ``raise_errors``.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tacet.core.errors import TacetError

if TYPE_CHECKING:
    import yaml
    from jsonschema.exceptions import ValidationError

MAX_ERRORS = 30

Path_ = tuple[str | int, ...]
Message = tuple[Path_, str]


class DescriptionError(TacetError):
    """A description that cannot be used. ``errors`` holds one line per problem, each
    ``FILE:LINE: FIELD: what is wrong`` (or ``FILE: what is wrong`` when there is no line);
    ``message`` is those lines joined."""

    def __init__(self, errors: Sequence[str]) -> None:
        shown = list(errors[:MAX_ERRORS])
        if len(errors) > MAX_ERRORS:
            shown.append(f"... and {len(errors) - MAX_ERRORS} more errors")
        super().__init__("\n".join(shown))
        self.errors = list(errors)


@dataclass(frozen=True)
class Checked:
    """What every checked description keeps of the file it was read from."""

    path: Path
    display: str  # the file as messages name it
    sha256: str  # of the file's bytes


# ---- reading YAML with its lines -----------------------------------------------------------


@dataclass
class Source:
    """The document as plain data, and where each value came from."""

    display: str
    data: Any = None
    lines: dict[Path_, int] = field(default_factory=dict)
    errors: list[tuple[int, str]] = field(default_factory=list)

    def line(self, path: Path_) -> int:
        """The line of ``path``, or of its nearest ancestor that exists."""
        while path not in self.lines and path:
            path = path[:-1]
        return self.lines.get(path, 1)

    def error(self, path: Path_, message: str, line: int | None = None) -> None:
        where = self.line(path) if line is None else line
        self.errors.append((where, f"{self.display}:{where}: {field_name(path)}: {message}"))


def field_name(path: Path_) -> str:
    """``threads[2].threshold`` for ("threads", 2, "threshold")."""
    if not path:
        return "(top level)"
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def compose(text: str, source: Source, expected: str) -> None:
    """Parse ``text`` into ``source.data`` and ``source.lines``; ``expected`` says what the
    top level should be, for the message about an empty file."""
    import yaml  # noqa: PLC0415  (imported where needed: `tacet` runs without it otherwise)

    loader = yaml.SafeLoader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            source.errors.append(
                (1, f"{source.display}:1: (top level): the file is empty; expected {expected}")
            )
            return
        source.lines[()] = root.start_mark.line + 1
        source.data = _to_data(root, (), loader, source, set())
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark is not None else 1
        column = f" (column {mark.column + 1})" if mark is not None else ""
        what = error.problem or error.context or "not valid YAML"
        source.errors.append((line, f"{source.display}:{line}: YAML syntax: {what}{column}"))
    except yaml.YAMLError as error:
        source.errors.append((1, f"{source.display}: not valid YAML: {error}"))
    finally:
        loader.dispose()


def _to_data(
    node: yaml.Node, path: Path_, loader: yaml.SafeLoader, source: Source, open_nodes: set[int]
) -> object:
    import yaml  # noqa: PLC0415

    if id(node) in open_nodes:
        line = node.start_mark.line + 1
        source.error(path, "an alias refers to a node that contains it (recursive)", line)
        return None
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_object(node)
    open_nodes = open_nodes | {id(node)}
    if isinstance(node, yaml.SequenceNode):
        items = []
        for i, item in enumerate(node.value):
            source.lines[(*path, i)] = item.start_mark.line + 1
            items.append(_to_data(item, (*path, i), loader, source, open_nodes))
        return items
    assert isinstance(node, yaml.MappingNode)
    seen: dict[str, int] = {}
    for key_node, _ in node.value:
        if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
            line = key_node.start_mark.line + 1
            if key_node.value in seen:
                source.error(
                    (*path, key_node.value),
                    f"key given twice in one mapping (first at line {seen[key_node.value]})",
                    line,
                )
            seen.setdefault(key_node.value, line)
    loader.flatten_mapping(node)  # YAML merge keys (<<: *anchor)
    mapping: dict[str, Any] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            source.error(path, "a key must be a plain name", key_node.start_mark.line + 1)
            continue
        # The key's text as written: `on:` or `1:` stay strings (YAML would make a boolean or
        # an integer of them, which JSON keys cannot be).
        key = str(key_node.value)
        source.lines[(*path, key)] = key_node.start_mark.line + 1
        mapping[key] = _to_data(value_node, (*path, key), loader, source, open_nodes)
    return mapping


# ---- the schema ----------------------------------------------------------------------------


def load_schema(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise TacetError(f"cannot read the schema {path}: {error}") from None


_TYPE_NAMES = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "object": "a mapping",
    "array": "a list",
    "null": "nothing",
}


def show(value: object) -> str:
    """A value as a message shows it."""
    if value is None or isinstance(value, bool):
        return {None: "nothing (null)", True: "true", False: "false"}[value]
    if isinstance(value, dict | list):
        return "a mapping" if isinstance(value, dict) else "a list"
    if isinstance(value, str):
        return repr(value)
    return str(value) if isinstance(value, int | float) else f"{type(value).__name__} {value!s}"


def closest(name: str, known: Sequence[str]) -> str | None:
    """The known name ``name`` most likely misspells: one it abbreviates, else the closest."""
    starts = [k for k in known if k.startswith(name)]
    if len(starts) == 1:
        return starts[0]
    close = difflib.get_close_matches(name, list(known), n=1)
    return close[0] if close else None


def suggest(name: str, known: Sequence[str]) -> str:
    """`` (did you mean 'x'?)`` when ``name`` looks like a misspelt ``x``, else nothing."""
    close = closest(name, known)
    return f" (did you mean {close!r}?)" if close else ""


def _unknown_fields(path: Path_, instance: dict[str, Any], sub: dict[str, Any]) -> list[Message]:
    known = sorted(sub.get("properties", {}))
    messages = []
    for name in sorted(set(instance) - set(known)):
        close = closest(name, known)
        hint = f"did you mean {close!r}? " if close else ""
        messages.append(
            ((*path, name), f"unknown field {name!r} ({hint}fields here: {', '.join(known)})")
        )
    return messages


def _missing_companions(
    path: Path_, instance: dict[str, Any], needed: dict[str, list[str]], why: str | None
) -> list[Message]:
    """dependentRequired; the schema's ``x-companions`` says why the fields go together."""
    return [
        ((*path, name), f"needs {other} too" + (f" ({why})" if why else ""))
        for name, others in needed.items()
        for other in others
        if name in instance and other not in instance
    ]


def _alternatives(error: ValidationError, expected: str | None) -> list[Message]:
    """anyOf / oneOf: when the value has the shape of exactly one alternative (no type
    mismatch at its top), what is wrong inside that one; else what the alternatives are."""
    branches: dict[object, list[ValidationError]] = {}
    for suberror in error.context or ():
        branches.setdefault(suberror.schema_path[0], []).append(suberror)
    viable = [
        errors
        for errors in branches.values()
        if not any(e.validator in ("type", "const") and not e.relative_path for e in errors)
    ]
    if len(viable) == 1:
        return [message for suberror in viable[0] for message in _schema_messages(suberror)]
    path = tuple(error.absolute_path)
    return [(path, f"expected {expected or 'another form'}, got {show(error.instance)}")]


def _duplicate(items: list[object]) -> str:
    seen: list[object] = []
    for item in items:
        if item in seen:
            return show(item)
        seen.append(item)
    return "an item"


def _number_hint(types: list[str], instance: object) -> str:
    """YAML 1.1 (PyYAML) reads 2e-10 or 1.5e3 as text: a number with an exponent needs a
    decimal point and a signed exponent (2.0e-10, 1.5e+3)."""
    if "number" not in types or not isinstance(instance, str):
        return ""
    if not re.fullmatch(r"[-+]?[0-9]*\.?[0-9]+[eE][-+]?[0-9]+", instance.strip()):
        return ""
    return (
        " (YAML reads a number with an exponent as text unless it has a decimal point and a "
        "signed exponent: 2.0e-10, 1.5e+3)"
    )


# Messages for one keyword's failure: (keyword, format of value, instance, expected).
_SIMPLE: dict[str, str] = {
    "minimum": "{instance} is below the minimum, {value}",
    "exclusiveMinimum": "{instance} must be more than {value}",
    "maximum": "{instance} is above the maximum, {value}",
    "maxLength": "{instance} is longer than {value} characters",
}


def _schema_messages(error: ValidationError) -> list[Message]:
    """(path, message) for one jsonschema error, worded for a person writing YAML."""
    path: Path_ = tuple(error.absolute_path)
    kind, value, instance = error.validator, error.validator_value, error.instance
    sub = error.schema if isinstance(error.schema, dict) else {}
    expected = sub.get("x-expected")
    if kind == "required":
        return [((*path, name), "missing (required)") for name in value if name not in instance]
    if kind == "additionalProperties":
        return _unknown_fields(path, instance, sub)
    if kind == "dependentRequired":
        return _missing_companions(path, instance, value, sub.get("x-companions"))
    if kind in ("anyOf", "oneOf"):
        return _alternatives(error, expected)
    if kind in _SIMPLE:
        text = _SIMPLE[kind].format(instance=show(instance), value=value)
    elif kind == "type":
        names = value if isinstance(value, list) else [value]
        wanted = " or ".join(_TYPE_NAMES.get(name, name) for name in names)
        text = f"expected {wanted}, got {show(instance)}" + _number_hint(names, instance)
    elif kind in ("enum", "const", "pattern"):
        choices = value if kind == "enum" else [value]
        wanted = expected or ", ".join(show(v) for v in choices)
        text = f"expected {wanted}, got {show(instance)}"
    elif kind == "minItems":
        text = "must not be empty" if value == 1 else f"needs at least {value} items"
    elif kind == "uniqueItems":
        text = f"lists {_duplicate(instance)} more than once"
    elif kind in ("minProperties", "maxProperties"):
        text = f"expected {expected or 'exactly one field'}, got {len(instance)} fields"
    else:
        text = error.message
    return [(path, text)]


def check_schema(source: Source, schema: dict[str, Any]) -> None:
    """Record every way ``source.data`` fails ``schema``."""
    import jsonschema  # noqa: PLC0415

    validator = jsonschema.Draft202012Validator(schema)
    for error in validator.iter_errors(source.data):
        for path, message in _schema_messages(error):
            source.error(path, message)


# ---- one file, start to end ----------------------------------------------------------------


def raise_errors(source: Source) -> None:
    """Raise DescriptionError with the errors so far, in line order (each once), if any."""
    if source.errors:
        source.errors.sort(key=lambda e: e[0])
        raise DescriptionError(list(dict.fromkeys(message for _, message in source.errors)))


def read(
    path: Path, display: str, schema: dict[str, Any], kind: str, expected: str
) -> tuple[Source, bytes]:
    """Read the file at ``path`` (named ``display`` in messages), compose it and check it
    against ``schema``. ``kind`` names what the file is (``a description``), ``expected`` what
    its top level should be (``a mapping with at least board and threads``). Returns the
    source, valid against the schema, and the file's bytes; raises DescriptionError otherwise
    (a file that cannot be read, is not UTF-8, is empty, is not YAML or not a mapping gives
    one line saying so)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise DescriptionError([f"{display}: cannot read: {error.strerror or error}"]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DescriptionError(
            [f"{display}: not UTF-8 text (byte 0x{raw[error.start]:02x} at offset {error.start})"]
        ) from None
    try:
        import jsonschema  # noqa: F401, PLC0415
        import yaml  # noqa: F401, PLC0415
    except ImportError as error:
        raise TacetError(
            f"reading {display} needs the Python package {error.name} (make deps installs it)"
        ) from None
    source = Source(display)
    try:
        compose(text, source, expected)
    except RecursionError:
        raise DescriptionError([f"{display}: nested too deeply to be {kind}"]) from None
    if source.data is None:  # a syntax error, an empty file
        raise_errors(source)
    if not isinstance(source.data, dict):
        raise DescriptionError(
            [
                f"{display}:{source.line(())}: (top level): expected {expected}, got "
                f"{show(source.data)}"
            ]
        )
    check_schema(source, schema)
    raise_errors(source)
    return source, raw
