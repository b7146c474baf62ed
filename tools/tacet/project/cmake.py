# SPDX-License-Identifier: MIT
"""Configuring and building a target's CMake build tree: the Tacet tree's, or a project's of
its own (``tacet new``).

Executables are looked up through CMake's file API (a codemodel-v2 query written before
configuring), so the path of a program comes from CMake itself rather than a guess.
"""

import json
import os
import sys
from pathlib import Path

from tacet.core.errors import TacetError
from tacet.core.host import Output, require_tool, run_step
from tacet.core.repo import is_repo_root
from tacet.core.targets import Target

# A project's CMake files (tacet new) that may name presets.
PRESET_FILES = ("CMakePresets.json", "CMakeUserPresets.json")

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


def _query(build_dir: Path) -> None:
    query = build_dir / ".cmake" / "api" / "v1" / "query" / FILE_API_CLIENT / "codemodel-v2"
    query.parent.mkdir(parents=True, exist_ok=True)
    query.touch()


def configure(target: Target, repo: Path, build_dir: Path, output: Output = "stderr") -> None:
    """Configure (or refresh) ``build_dir`` for ``target``."""
    check_prerequisites(target, repo)
    _query(build_dir)
    run_step(
        target.configure_command(repo, build_dir),
        f"configuring {build_dir} for target {target.name}",
        output=output,
    )


def presets(project: Path) -> set[str]:
    """The names of the configure presets a project's preset files define."""
    names: set[str] = set()
    for file in PRESET_FILES:
        path = project / file
        if not path.is_file():
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            names |= {p["name"] for p in data.get("configurePresets", [])}
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as error:
            raise TacetError(f"{path}: not a CMake presets file ({error})") from None
    return names


def toolchain_of(tacet_dir: Path, target: Target) -> Path | None:
    """The toolchain file of ``target`` in a Tacet source tree or installed prefix."""
    if target.toolchain_file is None:
        return None
    name = Path(target.toolchain_file).name
    if is_repo_root(tacet_dir):
        return tacet_dir / target.toolchain_file
    return tacet_dir / "share" / "tacet" / "cmake" / name


def project_configure_command(
    target: Target, project: Path, build_dir: Path, tacet_dir: Path | None
) -> list[str]:
    """The configure command of a project of one's own: its preset of the target's name when
    it has one (what `cmake --preset` does), else the target's options spelt out. A Tacet
    given (``--repo``) becomes TACET_DIR, which a project of ``tacet new`` takes first."""
    extra = [f"-D{key}={value}" for key, value in target.extra_definitions]
    if tacet_dir is not None:
        extra.append(f"-DTACET_DIR={tacet_dir}")
    if target.name in presets(project):
        return ["cmake", "--preset", target.name, "-S", str(project), "-B", str(build_dir), *extra]
    command = ["cmake", "-S", str(project), "-B", str(build_dir), "-G", "Ninja"]
    command += [f"-D{key}={value}" for key, value in target.definitions]
    toolchain = None if tacet_dir is None else toolchain_of(tacet_dir, target)
    if toolchain is not None:
        command.append(f"-DCMAKE_TOOLCHAIN_FILE={toolchain}")
    return command + extra


def configure_project(
    target: Target,
    project: Path,
    build_dir: Path,
    tacet_dir: Path | None,
    output: Output = "stderr",
) -> None:
    """Configure (or refresh) a project's ``build_dir`` for ``target``. The generator of
    tacet_add_app runs in this tool's Python, which has what it needs, unless TACET_PYTHON
    names another (the environment variable, or the cache variable of an earlier configure):
    it becomes the build's TACET_PYTHON, so that CMake alone later uses it too."""
    needed_by = f"target {target.name}"
    require_tool("cmake", needed_by)
    require_tool("ninja", needed_by)
    if target.compiler is not None:
        require_tool(target.compiler, needed_by)
    _query(build_dir)
    command = project_configure_command(target, project, build_dir, tacet_dir)
    if not os.environ.get("TACET_PYTHON") and not cached(build_dir, "TACET_PYTHON"):
        command.append(f"-DTACET_PYTHON={sys.executable}")
    run_step(command, f"configuring {build_dir} for target {target.name}", output=output)


def cached(build_dir: Path, name: str) -> str:
    """The value of a variable in a build tree's CMakeCache.txt ("" when it has none)."""
    try:
        text = (build_dir / "CMakeCache.txt").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    for line in text.splitlines():
        key, _, value = line.partition("=")
        if key.split(":")[0] == name:
            return value
    return ""


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


def project_name(build_dir: Path) -> str | None:
    """The name of the top-level project() of a configured build tree."""
    reply = build_dir / ".cmake" / "api" / "v1" / "reply"
    indexes = sorted(reply.glob("index-*.json"))
    try:
        index = _read_json(indexes[-1])
        codemodel_file = index["reply"][FILE_API_CLIENT]["codemodel-v2"]["jsonFile"]
        codemodel = _read_json(reply / codemodel_file)
        return codemodel["configurations"][0]["projects"][0]["name"]
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None


def project_program(project: Path, build_dir: Path) -> tuple[str, Path]:
    """The program of a project of one's own: its executable named like its project(), or
    its only executable."""
    programs = executables(build_dir)
    name = project_name(build_dir)
    if name in programs:
        return name, programs[name]  # type: ignore[index]
    if len(programs) == 1:
        return next(iter(programs.items()))
    known = ", ".join(sorted(programs)) or "none"
    raise TacetError(
        f"project {project}: no executable named like its project ({name}) and not exactly "
        f"one executable (executables: {known})"
    )
