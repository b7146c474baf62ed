# SPDX-License-Identifier: MIT
"""Configuring and building a target's CMake build tree.

Executables are looked up through CMake's file API (a codemodel-v2 query written before
configuring), so the path of a program comes from CMake itself rather than a guess.
"""

import json
from pathlib import Path

from tacet.errors import TacetError
from tacet.host import Output, require_tool, run_step
from tacet.targets import Target

FILE_API_CLIENT = "client-tacet"


def check_prerequisites(target: Target, repo: Path) -> None:
    """Fail early, with what to do, when something the target's build needs is missing."""
    needed_by = f"target {target.name}"
    require_tool("cmake", needed_by)
    require_tool("ninja", needed_by)
    port_file = repo / "ports" / target.port / "port.cmake"
    if not port_file.is_file():
        raise TacetError(
            f"target {target.name}: no such port {target.port!r} in {repo} "
            f"({port_file.relative_to(repo)} is missing)"
        )
    if target.toolchain_file is not None and not (repo / target.toolchain_file).is_file():
        raise TacetError(
            f"target {target.name}: toolchain file {target.toolchain_file} is missing in {repo}"
        )
    if target.compiler is not None:
        require_tool(target.compiler, needed_by)


def configure(target: Target, repo: Path, build_dir: Path, output: Output = "stderr") -> None:
    """Configure (or refresh) ``build_dir`` for ``target``."""
    check_prerequisites(target, repo)
    query = build_dir / ".cmake" / "api" / "v1" / "query" / FILE_API_CLIENT / "codemodel-v2"
    query.parent.mkdir(parents=True, exist_ok=True)
    query.touch()
    run_step(
        target.configure_command(repo, build_dir),
        f"configuring {build_dir} for target {target.name}",
        output=output,
    )


def build(
    build_dir: Path, what: str, cmake_target: str | None = None, output: Output = "stderr"
) -> None:
    """Build one CMake target (or everything) in a configured ``build_dir``."""
    command = ["cmake", "--build", str(build_dir)]
    if cmake_target is not None:
        command += ["--target", cmake_target]
    run_step(command, f"build of {what} in {build_dir}", output=output)


def _read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def executables(build_dir: Path) -> dict[str, Path]:
    """Map each executable target of a configured build tree to the path of its program."""
    return artifacts(build_dir, "EXECUTABLE")


def artifacts(build_dir: Path, kind: str) -> dict[str, Path]:
    """Map each target of type ``kind`` (CMake's: EXECUTABLE, SHARED_LIBRARY ...) of a
    configured build tree to the path of what it builds."""
    reply = build_dir / ".cmake" / "api" / "v1" / "reply"
    indexes = sorted(reply.glob("index-*.json"))
    if not indexes:
        raise TacetError(f"CMake wrote no file-API reply in {reply}; reconfigure {build_dir}")
    try:
        index = _read_json(indexes[-1])
        codemodel_file = index["reply"][FILE_API_CLIENT]["codemodel-v2"]["jsonFile"]
        codemodel = _read_json(reply / codemodel_file)
        programs: dict[str, Path] = {}
        for entry in codemodel["configurations"][0]["targets"]:
            detail = _read_json(reply / entry["jsonFile"])
            if detail.get("type") != kind or not detail.get("artifacts"):
                continue
            artifact = Path(detail["artifacts"][0]["path"])
            programs[entry["name"]] = artifact if artifact.is_absolute() else build_dir / artifact
    except (OSError, ValueError, KeyError, IndexError, TypeError) as error:
        raise TacetError(f"cannot read CMake's file-API reply in {reply}: {error}") from None
    return programs


def program_for(target: Target, app_dir: Path, repo: Path, build_dir: Path) -> tuple[str, Path]:
    """The CMake target name of an application directory (its basename) and its program."""
    name = app_dir.name
    programs = executables(build_dir)
    # examples/CMakeLists.txt builds an example marked with a file <port>-only for that port only.
    ports = sorted(marker.name.removesuffix("-only") for marker in app_dir.glob("*-only"))
    if name not in programs and ports and target.port not in ports:
        raise TacetError(
            f"application {app_dir.relative_to(repo)} is built only for port "
            f"{' and '.join(ports)}, not {target.port} (target {target.name})"
        )
    if name not in programs:
        tests_dir = build_dir / "tests"
        apps = sorted(n for n, path in programs.items() if not path.is_relative_to(tests_dir))
        known = ", ".join(apps) if apps else "none"
        raise TacetError(
            f"application {app_dir.relative_to(repo)}: no CMake executable target named "
            f"{name!r} in {build_dir} (applications there: {known})"
        )
    return name, programs[name]
