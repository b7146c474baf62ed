# SPDX-License-Identifier: MIT
"""The documentation site's checks (mkdocs.yml, make docs): a small site built with the real
configuration fails on what make test must catch; the hand-written pages link the reference;
and the real site, opened from the file system as `make docs` leaves it, searches in a real
browser. (Not with --quiet: MkDocs 1.6 then no longer counts the warnings that --strict turns
into a failure.)"""

import functools
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from conftest import REPO, console_errors, open_page, requested, write

MKDOCS = Path(sys.executable).with_name("mkdocs")
pytestmark = pytest.mark.skipif(not MKDOCS.exists(), reason="mkdocs not installed (make deps)")

HEADER = """\
/* Widgets. */
/* Make one. */
int tc_widget_make(void);

#define TC_WIDGET_MAX 4 /* at most */
"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A copy of the real configuration over two pages and one header."""
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text())
    config["nav"] = [{"Home": "index.md"}, {"Other": "other.md"}, {"Porting": "porting.md"}]
    config["hooks"] = [str(REPO / "tools" / "tacet" / "docsite" / "hooks.py")]
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


def test_the_pages_link_the_reference(site: Path) -> None:
    write(
        site / "docs" / "index.md",
        """\
# Home

Call `tc_widget_make()` up to `TC_WIDGET_MAX` times; `tc_widget_lost` is no entry.

## About `tc_widget_make`

```c
tc_widget_make();
```
""",
    )
    result = build(site)
    assert result.returncode == 0, result.stderr
    page = (site / "build" / "docs" / "site" / "index.html").read_text()
    assert '<a href="api/widget.html#tc_widget_make"><code>tc_widget_make()</code></a>' in page
    assert '<a href="api/widget.html#TC_WIDGET_MAX"><code>TC_WIDGET_MAX</code></a>' in page
    assert "<code>tc_widget_lost</code>" in page
    # Once: not in the heading, not in the code block.
    assert page.count('href="api/widget.html#tc_widget_make"') == 1


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
    line = HEADER.count("\n") + 2
    assert f"widget.h:{line}: tc_widget_lost" in result.stderr


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


# --- the linker of the hand-written pages ---------------------------------------------------

KNOWN = {"tc_sem_give": "api/sem.md#tc_sem_give", "TC_NO_WAIT": "api/types.md#TC_NO_WAIT"}


def linked(text: str, page: str | None = "index.md") -> str:
    """`text` as HTML, through the linker of tacet.docsite.hooks (as if on `page`) and the site's
    other Markdown extensions that make code."""
    markdown = pytest.importorskip("markdown")
    docsite = pytest.importorskip("tacet.docsite.hooks")
    extensions = [docsite.ApiLinks(KNOWN, page), "tables", "admonition", "pymdownx.superfences"]
    return markdown.Markdown(extensions=extensions).convert(text)


def test_a_public_name_in_backticks_links_to_its_entry() -> None:
    html = linked("Call `tc_sem_give()` or `tc_sem_give`, with `TC_NO_WAIT`.")
    assert html.count('<a href="api/sem.md#tc_sem_give"><code>tc_sem_give') == 2
    assert '<a href="api/types.md#TC_NO_WAIT"><code>TC_NO_WAIT</code></a>' in html
    # In a table's cell and in an admonition too.
    assert "<a href" in linked("| a |\n|---|\n| `tc_sem_give` |\n")
    assert "<a href" in linked("!!! note\n    See `tc_sem_give()`.\n")
    # Relative to the page.
    assert 'href="../api/sem.md#tc_sem_give"' in linked("`tc_sem_give`", page="guide/x.md")


def test_what_is_not_a_public_name_in_backticks_stays_as_written() -> None:
    for text in (
        "`tc_sem_take()` is no entry here",
        "`tc_sem_give(s)` is a call, not a name",
        "tc_sem_give without backticks",
        "```c\ntc_sem_give(s);\n```",  # a code block
        "    tc_sem_give\n",  # an indented one
        "## The `tc_sem_give` call",  # a heading
        "[`tc_sem_give`](elsewhere.md) already links",
    ):
        assert "api/sem.md" not in linked(text), text
    assert linked("`tc_sem_give`", page=None) == "<p><code>tc_sem_give</code></p>"


def test_the_site_searches_offline_with_nothing_fetched_from_the_network() -> None:
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text())
    # The theme's offline plugin writes the index as a script; the hook starts the worker.
    assert "offline" in config["plugins"] and "search" in config["plugins"]
    # Instant navigation loads pages with fetch(), which file:// does not allow.
    assert "navigation.instant" not in config["theme"].get("features", [])
    assert config["theme"]["font"] is False
    assert config["use_directory_urls"] is False


# --- the real site in a browser -------------------------------------------------------------


@pytest.fixture(scope="module")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's site, built as make docs builds it, into a directory of its own."""
    site = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [str(MKDOCS), "build", "--strict", "--site-dir", str(site)],
        cwd=REPO,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return site


@pytest.fixture(scope="module")
def served(real_site: Path) -> Iterator[str]:
    """The real site over HTTP, from a server on this machine: its base URL."""

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=real_site))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    thread.join()
    server.server_close()


def test_the_reference_and_the_pages_link_across_pages(real_site: Path) -> None:
    sem = (real_site / "api" / "sem.html").read_text()
    assert 'href="types.html#TC_CALLER_ERROR"' in sem
    assert 'href="types.html#TC_WAIT_FOREVER"' in sem
    assert 'id="TC_CALLER_ERROR"' in (real_site / "api" / "types.html").read_text()
    services = (real_site / "services.html").read_text()
    assert '<a href="api/sem.html#tc_sem_give"><code>tc_sem_give</code></a>' in services


def search(driver: object, query: str) -> list[str]:
    """Type `query` into the site's search; the result links, once some are shown."""
    from selenium.webdriver.support.ui import WebDriverWait  # noqa: PLC0415

    wait = WebDriverWait(driver, 30)
    box = wait.until(lambda d: d.find_element("css selector", "input.md-search__input"))
    wait.until(lambda _: box.is_displayed())  # hidden while the search cannot run
    box.click()
    box.send_keys(query)
    results = "li.md-search-result__item > a"
    wait.until(lambda d: d.find_elements("css selector", results))
    return [a.get_attribute("href") for a in driver.find_elements("css selector", results)]


@pytest.mark.parametrize("how", ["file", "http"])
def test_search_finds_and_leads_to_the_page(
    browser: object, real_site: Path, served: str, how: str
) -> None:
    start = real_site / "index.html" if how == "file" else served + "index.html"
    for query, expected, title in (
        ("tc_sem_give", "api/sem.html#tc_sem_give", "sem.h"),
        ("threshold", "kernel.html#preemption-threshold", None),
    ):
        url = open_page(browser, start)
        base = url.removesuffix("index.html")
        hrefs = search(browser, query)
        assert base + expected in hrefs, hrefs
        result = f'li.md-search-result__item > a[href$="{expected}"]'
        browser.find_element("css selector", result).click()
        assert browser.current_url == base + expected
        anchor = expected.partition("#")[2]
        assert browser.find_element("id", anchor).is_displayed()
        if title:
            assert browser.find_element("tag name", "h1").text == title
        assert console_errors(browser) == []
        # Nothing from the network: the site's own files, and what the page made itself.
        for fetched in requested(browser):
            scheme = urlsplit(fetched).scheme
            assert scheme in ("file", "blob", "data") or fetched.startswith(served), fetched
