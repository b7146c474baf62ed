# SPDX-License-Identifier: MIT
"""MkDocs hooks of the documentation site (mkdocs.yml, ``hooks:``): the API reference.

The reference's pages are generated from include/tacet/*.h and from each port's extras
(ports/*/include/tacet/*.h) by tacet.apiref at every build, in
memory: nothing generated lands in docs/. Its section of the navigation is added here too, one
page per header, so that a new header needs no edit of mkdocs.yml. A public function without
a comment stops the build with a message that names it.
"""

from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from tacet.apiref import pages
from tacet.errors import TacetError

NAV_TITLE = "API reference"


def _pages(config: MkDocsConfig) -> dict[str, str]:
    root = Path(config.config_file_path).resolve().parent
    ports = sorted(root.glob("ports/*/include/tacet"))
    try:
        return pages(root / "include" / "tacet", ports)
    except TacetError as e:
        raise PluginError(f"API reference: {e}") from None


def on_config(config: MkDocsConfig, **_: Any) -> MkDocsConfig:  # noqa: ANN401 (MkDocs' API)
    generated = _pages(config)
    section = [{"Index": "api/index.md"}]
    section += [
        {path.removeprefix("api/").removesuffix(".md") + ".h": path}
        for path in generated
        if path != "api/index.md"
    ]
    config.nav = [*(config.nav or []), {NAV_TITLE: section}]
    return config


def on_files(files: Files, config: MkDocsConfig, **_: Any) -> Files:  # noqa: ANN401
    for path, content in _pages(config).items():
        files.append(File.generated(config, path, content=content))
    return files
