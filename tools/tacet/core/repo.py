# SPDX-License-Identifier: MIT
"""Finding the Tacet source tree the commands act on, and a project of one's own."""

import re
from pathlib import Path

from tacet.core.errors import TacetError

# The tree these tools came with (tools/tacet/core/repo.py, or the same layout under an
# installed share/tacet/): its schema/, power/, VERSION and headers are the ones they read.
HOME = Path(__file__).resolve().parents[3]


def is_repo_root(path: Path) -> bool:
    """A Tacet tree has a top-level CMakeLists.txt next to the kernel/ directory."""
    return (path / "CMakeLists.txt").is_file() and (path / "kernel").is_dir()


# A top-level CMakeLists.txt names its project; Tacet's own subdirectories (examples/ ...) do not.
PROJECT_CALL = re.compile(r"^\s*project\s*\(", re.IGNORECASE | re.MULTILINE)


def calls_project(directory: Path) -> bool:
    """``directory`` holds a CMakeLists.txt that calls project(): the top of a CMake project."""
    try:
        text = (directory / "CMakeLists.txt").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return PROJECT_CALL.search(text) is not None


def find_project(start: Path) -> Path | None:
    """The project of one's own (``tacet new``) that ``start`` lies in: the nearest directory at
    or above ``start`` whose CMakeLists.txt calls project(). None when that is a Tacet tree
    (an application of the tree, such as examples/hello) or when there is none."""
    start = start.resolve()
    for candidate in (start, *start.parents):
        if calls_project(candidate):
            return None if is_repo_root(candidate) else candidate
    return None


def find_repo(start: Path, override: Path | None = None) -> Path:
    """Return the repository root: ``override`` if given (checked), else the nearest
    directory at or above ``start`` that looks like a Tacet tree."""
    if override is not None:
        root = override.expanduser().resolve()
        if not is_repo_root(root):
            raise TacetError(
                f"--repo {override}: not a Tacet source tree "
                f"(expected CMakeLists.txt and kernel/ in {root})"
            )
        return root
    start = start.resolve()
    for candidate in (start, *start.parents):
        if is_repo_root(candidate):
            return candidate
    raise TacetError(
        f"no Tacet source tree at or above {start} "
        "(looked for CMakeLists.txt next to kernel/); run inside the repository or pass --repo"
    )


def resolve_app(app: str, repo: Path, cwd: Path) -> Path:
    """Return the application directory named by ``app``: a path relative to the current
    directory or to the repository root, which must be a directory inside the repository."""
    given = Path(app).expanduser()
    candidates = [given] if given.is_absolute() else [cwd / given, repo / given]
    for candidate in candidates:
        if candidate.exists():
            directory = candidate.resolve()
            break
    else:
        looked = " and ".join(str(c) for c in dict.fromkeys(candidates))
        raise TacetError(f"application {app}: no such directory (looked for {looked})")
    if not directory.is_dir():
        raise TacetError(f"application {app}: {directory} is not a directory")
    if not directory.is_relative_to(repo) or directory == repo:
        raise TacetError(
            f"application {app}: {directory} is not an application directory inside {repo}"
        )
    return directory


def find_repo_of(path: Path) -> Path | None:
    """The Tacet tree holding ``path``, if any."""
    for candidate in path.resolve().parents:
        if is_repo_root(candidate):
            return candidate
    return None
