# SPDX-License-Identifier: MIT
"""The documentation site's checks (mkdocs.yml, make docs): a small site built with the real
configuration fails on what make test must catch. (Not with --quiet: MkDocs 1.6 then no
longer counts the warnings that --strict turns into a failure.)"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO, write

MKDOCS = Path(sys.executable).with_name("mkdocs")
pytestmark = pytest.mark.skipif(not MKDOCS.exists(), reason="mkdocs not installed (make deps)")

HEADER = """\
/* Widgets. */
/* Make one. */
int tc_widget_make(void);
"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A copy of the real configuration over two pages and one header."""
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text())
    config["nav"] = [{"Home": "index.md"}, {"Other": "other.md"}, {"Porting": "porting.md"}]
    config["hooks"] = [str(REPO / "tools" / "tacet" / "docsite.py")]
    write(tmp_path / "mkdocs.yml", yaml.safe_dump(config))
    write(tmp_path / "docs" / "index.md", "# Home\n\nSee [the other](other.md#there).\n")
    write(tmp_path / "docs" / "other.md", "# Other\n\n## There\n\n[API](api/widget.md)\n")
    write(tmp_path / "docs" / "porting.md", "# Porting\n")  # the reference's index links it
    write(tmp_path / "include" / "tacet" / "widget.h", HEADER)
    return tmp_path


def build(site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(MKDOCS), "build", "--strict"],
        cwd=site,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_sound_site_builds_with_its_reference(site: Path) -> None:
    result = build(site)
    assert result.returncode == 0, result.stderr
    page = (site / "build" / "docs" / "site" / "api" / "widget.html").read_text()
    assert 'id="tc_widget_make"' in page
    assert "Make one." in page


def test_a_broken_link_fails(site: Path) -> None:
    write(site / "docs" / "index.md", "# Home\n\n[gone](missing.md) [src](../kernel/sched.c)\n")
    result = build(site)
    assert result.returncode != 0
    assert "missing.md" in result.stderr
    assert "../kernel/sched.c" in result.stderr


def test_a_broken_anchor_fails(site: Path) -> None:
    write(site / "docs" / "index.md", "# Home\n\n[the other](other.md#nowhere)\n")
    result = build(site)
    assert result.returncode != 0
    assert "nowhere" in result.stderr


def test_a_page_missing_from_the_navigation_fails(site: Path) -> None:
    write(site / "docs" / "stray.md", "# Stray\n")
    result = build(site)
    assert result.returncode != 0
    assert "stray.md" in result.stderr


def test_an_undocumented_function_fails_by_name(site: Path) -> None:
    write(site / "include" / "tacet" / "widget.h", HEADER + "\nvoid tc_widget_lost(void);\n")
    result = build(site)
    assert result.returncode != 0
    assert "widget.h:5: tc_widget_lost" in result.stderr


def test_the_real_site_has_every_page_in_its_navigation() -> None:
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text())

    def paths(nav: object) -> set[str]:
        if isinstance(nav, str):
            return {nav}
        if isinstance(nav, list):
            return set().union(*(paths(x) for x in nav))
        if isinstance(nav, dict):
            return set().union(*(paths(x) for x in nav.values()))
        return set()

    listed = paths(config["nav"])
    pages = {p.relative_to(REPO / "docs").as_posix() for p in (REPO / "docs").rglob("*.md")}
    assert pages - listed == set(), "pages not in mkdocs.yml's nav"
    assert listed - pages == set(), "nav entries without a page"
