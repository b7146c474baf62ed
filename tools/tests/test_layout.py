# SPDX-License-Identifier: MIT
"""The host tool's layout (docs/architecture.md): packages by capability whose imports run one
way -- commands, capabilities, foundations -- as the import-linter contract in pyproject.toml
states, and no import circle between any two modules."""

import ast
import graphlib
import sys
import textwrap
from pathlib import Path

import pytest

grimp = pytest.importorskip("grimp")
importlinter_cli = pytest.importorskip("importlinter.cli")

TOOLS = Path(__file__).resolve().parents[1]
PACKAGE = TOOLS / "tacet"


def circles(package: str) -> list[str]:
    """An import circle among the modules of ``package`` (as ``a -> b -> a``), or none. Every
    import counts, those made inside a function or under TYPE_CHECKING too: a circle hidden
    that way is still two modules that cannot be understood one without the other."""
    graph = grimp.build_graph(package, cache_dir=None)
    sorter = graphlib.TopologicalSorter(
        {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    )
    try:
        sorter.prepare()
    except graphlib.CycleError as error:
        return [" -> ".join(error.args[1])]
    return []


def lint(config: Path) -> int:
    return importlinter_cli.lint_imports(config_filename=str(config), no_cache=True, no_logo=True)


def test_the_layers_hold() -> None:
    assert lint(TOOLS / "pyproject.toml") == 0


def test_no_module_imports_itself_round_about() -> None:
    assert circles("tacet") == []


def test_every_package_says_what_it_owns_and_may_import() -> None:
    packages = sorted(p.parent for p in PACKAGE.glob("*/__init__.py"))
    assert len(packages) >= 10
    for init in (p / "__init__.py" for p in packages):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc, f"{init.relative_to(TOOLS)} has no docstring"
        assert "import" in doc.lower(), f"{init.relative_to(TOOLS)} does not say what it imports"
    # Only the entry points lie at the top; everything else is in a package.
    assert sorted(p.name for p in PACKAGE.glob("*.py")) == ["__init__.py", "__main__.py"]


# ---- the checks catch what they are for ----------------------------------------------------


def fake_package(root: Path, modules: dict[str, str]) -> None:
    for name, text in modules.items():
        path = root / "fake" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


@pytest.fixture
def on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [m for m in sys.modules if m == "fake" or m.startswith("fake.")]:
        del sys.modules[name]


LAYERS = """
[tool.importlinter]
root_packages = ["fake"]

[[tool.importlinter.contracts]]
name = "layers"
type = "layers"
containers = ["fake"]
layers = ["top", "low"]
"""


def test_an_import_against_the_layers_fails(on_path: Path) -> None:
    fake_package(
        on_path,
        {
            "__init__.py": "",
            "top/__init__.py": "",
            "top/cmd.py": "from fake.low import base\n",
            "low/__init__.py": "",
            "low/base.py": "",
        },
    )
    config = on_path / "pyproject.toml"
    config.write_text(LAYERS, encoding="utf-8")
    assert lint(config) == 0
    (on_path / "fake" / "low" / "base.py").write_text("from fake.top import cmd\n")
    assert lint(config) == 1


def test_a_circle_is_found_even_inside_a_function(on_path: Path) -> None:
    fake_package(
        on_path,
        {
            "__init__.py": "",
            "a.py": "from fake import b\n",
            "b.py": "def late():\n    from fake import c\n",
            "c.py": "",
        },
    )
    assert circles("fake") == []
    (on_path / "fake" / "c.py").write_text("from fake import a\n")
    found = circles("fake")
    assert len(found) == 1
    assert set(found[0].split(" -> ")) == {"fake.a", "fake.b", "fake.c"}
