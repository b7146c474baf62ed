# SPDX-License-Identifier: MIT
"""MkDocs hooks of the documentation site (mkdocs.yml, ``hooks:``): the API reference, its
links from the hand-written pages, and search from the file system.

The reference's pages are generated from include/tacet/*.h and from each port's extras
(ports/*/include/tacet/*.h) by tacet.docsite.apiref at every build, in memory: nothing generated
lands in docs/. Its section of the navigation is added here too, one page per header, so that
a new header needs no edit of mkdocs.yml. A public function without a comment stops the build
with a message that names it.

In the hand-written pages (docs/*.md), a public name in backticks -- `tc_sem_give()`,
`tc_status`, `TC_WAIT_FOREVER` -- becomes a link to its entry in the reference (ApiLinks), as
the reference's own pages link the names in their prose. Code blocks, headings and text
already in a link are left as written. MkDocs then checks every such link like any other:
--strict fails on an anchor that is not there.

The site opened from the file system (file://, as `make docs` leaves it) searches too: the
theme's offline plugin writes the search index as a script, and docsite_file.js starts the
search worker, which a browser will not load from a file: URL, from its source. The offline
plugin's own answer to the worker, a script fetched from a CDN, is dropped: the site needs
no network.
"""

import json
import posixpath
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from tacet.core.errors import TacetError
from tacet.docsite.apiref import Header, read_reference, render_header, render_index, targets

NAV_TITLE = "API reference"
API_DIR = "api/"
# Where the site's own copy of docsite_file.js goes, the search worker's source written in.
FILE_SCRIPT = "assets/javascripts/tacet-file.js"
WORKER_PLACEHOLDER = "__SEARCH_WORKER_SOURCE__"
WORKER = "assets/javascripts/workers/search.*.min.js"  # the theme's search worker
# Elements whose code is not linked: code blocks, headings, and links already.
NOT_LINKED = {"pre", "a", "h1", "h2", "h3", "h4", "h5", "h6"}


class ApiLinks(Extension):
    """Links the code spans of a page that are exactly a public name (`tc_sem_give`, or
    `tc_sem_give()`) to the name's entry. `known` maps a name to its entry, as a path under
    the site's docs with its anchor ("api/sem.md#tc_sem_give"); `page` is the path of the
    page being rendered ("index.md"), whose links are relative to it. MkDocs makes a Markdown
    converter per page, and the hook sets `page` before each."""

    def __init__(self, known: Mapping[str, str], page: str | None = "index.md") -> None:
        super().__init__()
        self.known = known
        self.page = page  # None: link nothing

    def extendMarkdown(self, md: Markdown) -> None:
        if self.page is not None:
            # After the inline patterns (20) made the code spans; before MkDocs checks links (0).
            linker = _Linker(md, self.known, self.page)
            md.treeprocessors.register(linker, "tacet_api_links", 10)


class _Linker(Treeprocessor):
    def __init__(self, md: Markdown, known: Mapping[str, str], page: str) -> None:
        super().__init__(md)
        self.known = known
        self.base = posixpath.dirname(page)

    def run(self, root: ET.Element) -> None:
        self._link(root)

    def _link(self, parent: ET.Element) -> None:
        for index, child in enumerate(list(parent)):
            if child.tag in NOT_LINKED:
                continue
            if child.tag == "code" and len(child) == 0 and child.text:
                target = self.known.get(child.text.removesuffix("()"))
                if target:
                    path, _, anchor = target.partition("#")
                    href = posixpath.relpath(path, self.base or ".") + "#" + anchor
                    link = ET.Element("a", {"href": href})
                    link.tail, child.tail = child.tail, None
                    parent.remove(child)
                    link.append(child)
                    parent.insert(index, link)
                continue
            self._link(child)


def _headers(config: MkDocsConfig) -> list[Header]:
    root = Path(config.config_file_path).resolve().parent
    ports = sorted(root.glob("ports/*/include/tacet"))
    try:
        return read_reference(root / "include" / "tacet", ports)
    except TacetError as e:
        raise PluginError(f"API reference: {e}") from None


def _api_links(config: MkDocsConfig) -> ApiLinks:
    found = [e for e in config.markdown_extensions if isinstance(e, ApiLinks)]
    if len(found) != 1:
        raise PluginError("tools/tacet/docsite/hooks.py: on_config did not run")
    return found[0]


@event_priority(-50)  # after the theme's offline plugin, whose polyfill it replaces
def on_config(config: MkDocsConfig, **_: Any) -> MkDocsConfig:  # noqa: ANN401 (MkDocs' API)
    headers = _headers(config)
    section = [{"Index": f"{API_DIR}index.md"}]
    section += [{h.name: f"{API_DIR}{h.stem}.md"} for h in headers]
    config.nav = [*(config.nav or []), {NAV_TITLE: section}]
    known = {name: f"{API_DIR}{stem}.md#{at}" for name, (stem, at) in targets(headers).items()}
    config.markdown_extensions.append(ApiLinks(known))
    polyfills = [p for p in config.extra.get("polyfills", []) if "iframe-worker" not in str(p)]
    config.extra["polyfills"] = [*polyfills, FILE_SCRIPT]
    return config


def on_files(files: Files, config: MkDocsConfig, **_: Any) -> Files:  # noqa: ANN401
    headers = _headers(config)
    known = targets(headers)
    files.append(File.generated(config, f"{API_DIR}index.md", content=render_index(headers)))
    for h in headers:
        content = render_header(h, known)
        files.append(File.generated(config, f"{API_DIR}{h.stem}.md", content=content))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, **_: Any) -> str:  # noqa: ANN401
    # The reference's pages link their names themselves (tacet.docsite.apiref), all but an entry's
    # own, which this could not tell apart.
    uri = page.file.src_uri
    _api_links(config).page = None if uri.startswith(API_DIR) else uri
    return markdown


def on_post_build(config: MkDocsConfig, **_: Any) -> None:  # noqa: ANN401
    # The theme's worker, as the theme ships it (a site built --dirty may hold older ones).
    workers = [w for d in config.theme.dirs for w in sorted(Path(d).glob(WORKER))]
    if not workers:
        raise PluginError(f"the theme has no search worker ({WORKER})")
    script = (Path(__file__).parent / "file.js").read_text(encoding="utf-8")
    source = json.dumps(workers[0].read_text(encoding="utf-8"))
    target = Path(config.site_dir) / FILE_SCRIPT
    target.write_text(script.replace(WORKER_PLACEHOLDER, source), encoding="utf-8")
