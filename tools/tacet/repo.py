# SPDX-License-Identifier: MIT
"""Finding the Tacet source tree the commands act on."""

from pathlib import Path

from tacet.errors import TacetError


def is_repo_root(path: Path) -> bool:
    """A Tacet tree has a top-level CMakeLists.txt next to the kernel/ directory."""
    return (path / "CMakeLists.txt").is_file() and (path / "kernel").is_dir()


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
