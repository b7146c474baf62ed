# SPDX-License-Identifier: MIT
"""``tacet new``: a project that lives on its own, outside the Tacet tree (docs/using-tacet.md).

The files it writes (no path of this machine in what is committed, a name that is a C
identifier, the board's preset), then -- with real CMake, compilers and QEMU, every project
in a temporary directory -- each way the project finds Tacet: the source tree (TACET_DIR: the
default tacet-local.cmake names, or the environment variable), an installed package
(find_package, conftest.installed_prefix) and FetchContent; built and run from the project's
directory with ``tacet run`` (traced, and the trace decoded) and with plain CMake presets, on
sim and qemu-m3. A thread added to app.yaml runs once main.c has its entry function, and
fails the link naming it until then; a stack fits Cortex-M and not sim; the STM32F407 board
builds and is not run. A project of ``--api cmsis-rtos2`` calls CMSIS-RTOS2 alone and runs on
sim (traced) and, from the installed package, on qemu-m3.
"""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, needs_arm, needs_cmake, needs_riscv, run_ok, tool_env

from tacet.core.targets import BOARDS, DEFAULT_BOARD
from tacet.project.build import missing_functions

VERSION = (REPO / "VERSION").read_text().strip()
NEW_OK = re.compile(r"(\w+): 5 of 5 jobs on the (sim|cortex-m|riscv) port, kernel invariants hold")
NEW_OS2_OK = re.compile(r"(\w+): 5 of 5 jobs on Tacet V[\d.]+ through CMSIS-RTOS2, 0 late")
# What a committed file of the project may not hold: where this machine keeps things.
MACHINE_PATHS = (str(REPO), "/tmp/", "/home/", "/root")
LOGGER = """
void logger_main(void *arg)
{
  (void)arg;
  printf("logger ran at tick %" PRIu32 "\\n", tc_tick_get());
}
"""


def env_for(**changes: str | None) -> dict[str, str]:
    """The environment of the tool and of CMake: this tree's tacet, no TACET_DIR or
    TACET_PYTHON from outside the test, then ``changes`` (None removes)."""
    env = tool_env()
    for key in ("TACET_DIR", "TACET_PYTHON", "CMAKE_PREFIX_PATH"):
        env.pop(key, None)
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def tacet(
    *argv: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tacet", *argv], cwd=cwd, env=env or env_for(),
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip


def flat(text: str) -> str:
    """``text`` with its line breaks (rich wraps at the terminal's width) as spaces."""
    return " ".join(text.split())


def new(where: Path, name: str, *argv: str) -> Path:
    result = tacet("new", name, *argv, cwd=where)
    assert result.returncode == 0, result.stderr
    return where / name


def add_thread(project: Path, stack: int, entry: bool) -> None:
    """A second thread, logger, in app.yaml; its entry function in main.c when ``entry``."""
    yaml = project / "app.yaml"
    text = yaml.read_text()
    thread = f"  - {{name: logger, entry: logger_main, priority: 2, stack: {stack}}}\n\n"
    yaml.write_text(text.replace("semaphores:", thread + "semaphores:", 1))
    if entry:
        with (project / "main.c").open("a") as main:
            main.write(LOGGER)


def committed_files(project: Path) -> list[Path]:
    """What `git add .` would take: everything but build/ and tacet-local.cmake (.gitignore)."""
    ignored = {"build", "tacet-local.cmake"}
    return [
        p
        for p in project.rglob("*")
        if p.is_file() and p.relative_to(project).parts[0] not in ignored
    ]


# ---- the files ---------------------------------------------------------------------------


def test_the_files_and_nothing_of_this_machine_in_what_is_committed(tmp_path: Path) -> None:
    project = new(tmp_path, "blinky")
    assert sorted(str(p.relative_to(project)) for p in project.rglob("*") if p.is_file()) == [
        ".gitignore", "CMakeLists.txt", "CMakePresets.json", "README.md", "app.yaml",
        "cmake/tacet_import.cmake", "main.c", "tacet-local.cmake",
    ]  # fmt: skip
    for path in committed_files(project):
        text = path.read_text()
        if path.suffix != ".json":  # JSON has no comments
            assert "SPDX-License-Identifier: MIT" in text.splitlines()[0], path
        for machine in (*MACHINE_PATHS, str(tmp_path)):
            assert machine not in text, f"{path} holds {machine}"
    # This machine's Tacet is the default the git-ignored file names: the tree it came from.
    assert (
        f'set(TACET_LOCAL_DIR "{REPO.as_posix()}")' in (project / "tacet-local.cmake").read_text()
    )
    ignored = (project / ".gitignore").read_text().splitlines()
    assert "/tacet-local.cmake" in ignored and "/build/" in ignored
    # The program is built from app.yaml, whose functions main.c defines.
    cmakelists = (project / "CMakeLists.txt").read_text()
    assert "project(blinky C)" in cmakelists
    assert "tacet_add_app(blinky app.yaml)" in cmakelists
    main = (project / "main.c").read_text()
    assert '#include "tacet_app.h"' in main and "tacet_app_create()" in main
    for function in ("void worker_main(void *arg)", "void release_worker(void *arg)"):
        assert function in main
    presets = json.loads((project / "CMakePresets.json").read_text())
    assert [p["name"] for p in presets["configurePresets"]] == [
        "base", "sim", "qemu-m3", "qemu-m4", "qemu-rv32", "qemu-rv32f", "qemu-fe310",
    ]  # fmt: skip
    assert all("toolchainFile" not in p for p in presets["configurePresets"])


def test_no_local_file_when_asked(tmp_path: Path) -> None:
    result = tacet("new", "app", "--no-local", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "app" / "tacet-local.cmake").exists()
    assert "no tacet-local.cmake" in result.stdout


@pytest.mark.parametrize(
    ("directory", "name"), [("my-app", "my_app"), ("2048", "app_2048"), ("a.b c", "a_b_c")]
)
def test_a_directory_name_becomes_an_identifier(tmp_path: Path, directory: str, name: str) -> None:
    result = tacet("new", directory, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    project = tmp_path / directory  # the directory keeps its name
    assert f"project({name} C)" in (project / "CMakeLists.txt").read_text()
    assert f"name: {name}\n" in (project / "app.yaml").read_text()
    assert f"the project and its program are called {name}: the directory's name, " in (
        result.stdout
    )


def test_a_directory_name_that_is_already_taken(tmp_path: Path) -> None:
    result = tacet("new", "run", cwd=tmp_path)
    assert result.returncode == 1
    assert "'run' is a name CMake, C or the project already uses" in result.stderr
    assert not (tmp_path / "run").exists()


def test_new_refuses_a_directory_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "main.c").write_text("mine\n")
    result = tacet("new", "app", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip().startswith("tacet: error: ")
    assert "not empty (main.c)" in result.stderr
    assert (tmp_path / "app" / "main.c").read_text() == "mine\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--name", "my app"], "--name: 'my app' is not a project name"),
        (["--name", "tacet_x"], "names beginning with tc_, tct_ or tacet_ belong to Tacet"),
        (["--prefix", "nowhere"], "--prefix nowhere: no Tacet package there"),
        (["--board", "stm32f407", "--target", "sim"], "boards are for the Cortex-M targets"),
        (["--board", "stm32f407", "--target", "qemu-m3"], "the board's CPU is cortex-m4f"),
    ],
)
def test_new_bad_arguments(tmp_path: Path, argv: list[str], message: str) -> None:
    result = tacet("new", "app", *argv, cwd=tmp_path)
    assert result.returncode == 1
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "app").exists()


def test_the_board_s_preset_and_clock(tmp_path: Path) -> None:
    project = new(tmp_path, "disco", "--board", "stm32f407")
    presets = json.loads((project / "CMakePresets.json").read_text())
    board = next(p for p in presets["configurePresets"] if p["name"] == "stm32f407")
    assert board["cacheVariables"] == {
        "TACET_PORT": "cortex-m",
        "TACET_CPU": "cortex-m4f",
        "TACET_CM_BOARD": "stm32f407",
    }
    # Built, not run: no test preset.
    assert "stm32f407" in [p["name"] for p in presets["buildPresets"]]
    assert "stm32f407" not in [p["name"] for p in presets["testPresets"]]
    yaml = (project / "app.yaml").read_text()
    assert "name: stm32f407\n" in yaml and "clock_hz: 168000000\n" in yaml
    assert "targets: [qemu-m4, sim, qemu-m3, qemu-rv32, qemu-rv32f, qemu-fe310]" in yaml
    readme = (project / "README.md").read_text()
    assert "tacet build --target qemu-m4 --board stm32f407" in readme


def test_the_boards_table_agrees_with_the_boards() -> None:
    boards = REPO / "ports" / "cortex-m" / "boards"
    assert sorted(BOARDS) == sorted(p.name for p in boards.iterdir() if p.is_dir())
    assert DEFAULT_BOARD == "mps2"
    for board in BOARDS.values():
        cmake = (boards / board.name / "board.cmake").read_text()
        header = (boards / board.name / "include" / "tacet_board.h").read_text()
        assert ("CMAKE_CROSSCOMPILING_EMULATOR" in cmake) == board.emulated, board.name
        clock = re.search(r"#define TC_BOARD_CPU_HZ\s+(\d+)u", header)
        assert clock and int(clock[1]) == board.clock_hz, board.name
        for cpu in ("cortex-m3", "cortex-m4f"):
            assert (f'"{cpu}"' in cmake) == (cpu in board.cpus), (board.name, cpu)


def test_a_failed_link_names_the_description_s_functions(tmp_path: Path) -> None:
    project = new(tmp_path, "app")
    add_thread(project, 16384, entry=False)
    output = (
        "/usr/bin/ld: tacet_app.c.o: in function `tacet_app_create':\n"
        "tacet_app.c:(.text+0x153): undefined reference to `logger_main'\n"
    )
    hint = missing_functions(output, project / "app.yaml")
    assert hint == (
        "app.yaml names functions that no source of the program defines: thread logger's "
        "entry, void logger_main(void *arg) (tacet_app.h declares them: write them, e.g. in "
        "main.c)"
    )
    # GCC's typographic quotes, LLD's wording; a function of no description says nothing.
    assert missing_functions("undefined reference to \u2018logger_main\u2019", project / "app.yaml")
    assert missing_functions("undefined symbol: logger_main", project / "app.yaml")
    assert missing_functions("undefined reference to `printf'", project / "app.yaml") is None
    assert missing_functions(output, project / "nothing.yaml") is None


# ---- built and run -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def from_the_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project outside the tree whose tacet-local.cmake names this tree."""
    return new(tmp_path_factory.mktemp("outside"), "my-app")


@needs_cmake
def test_run_and_trace_on_sim_from_the_project_s_directory(
    from_the_tree: Path, tmp_path: Path
) -> None:
    project = from_the_tree
    result = tacet("run", "--target", "sim", cwd=project)
    assert result.returncode == 0, result.stderr
    match = NEW_OK.search(result.stdout)
    assert match and match.groups() == ("my_app", "sim")
    built = tacet("build", cwd=project)
    assert built.returncode == 0, built.stderr
    assert built.stdout.strip() == str(project / "build" / "sim" / "my_app")
    tested = tacet("test", cwd=project)
    assert tested.returncode == 0, tested.stderr
    assert "100% tests passed, 0 tests failed out of 1" in tested.stdout
    trace = tmp_path / "out.tctrace"
    result = tacet("run", "--trace", str(trace), cwd=project)
    assert result.returncode == 0, result.stderr
    assert (project / "build" / "sim-trace").is_dir()
    decoded = tacet("trace", str(trace), cwd=project)
    assert decoded.returncode == 0, decoded.stderr
    assert "port sim, cpu host" in flat(decoded.stdout) and "│ worker │" in decoded.stdout
    # The description is one tacet config and tacet analyze accept.
    analyze = tacet("analyze", "app.yaml", cwd=project)
    assert analyze.returncode == 0, analyze.stderr
    assert "schedulable" in analyze.stdout


@needs_cmake
def test_plain_cmake_presets_on_sim(from_the_tree: Path) -> None:
    project = from_the_tree
    configured = run_ok("cmake", "--preset", "sim", cwd=project, env=env_for())
    assert f"-- Tacet {VERSION}: the source tree {REPO} (TACET_LOCAL_DIR in " in configured
    output = run_ok("cmake", "--build", "--preset", "sim", "--target", "run", cwd=project)
    assert NEW_OK.search(output)
    assert "100% tests passed" in run_ok("ctest", "--preset", "sim", cwd=project)


@needs_cmake
def test_a_thread_added_to_app_yaml(tmp_path: Path) -> None:
    project = new(tmp_path, "grow")
    add_thread(project, 16384, entry=False)
    # No entry function yet: the link fails naming it, with tacet run and with CMake alone.
    result = tacet("run", cwd=project)
    assert result.returncode == 1
    assert "undefined reference to `logger_main'" in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("tacet: error: build of grow for target sim")
    assert "thread logger's entry, void logger_main(void *arg)" in last
    build = subprocess.run(
        ["cmake", "--build", "--preset", "sim"], cwd=project, capture_output=True, text=True,
        check=False,
    )  # fmt: skip
    assert build.returncode != 0 and "undefined reference to `logger_main'" in build.stdout
    # Written: the thread runs, created by the generated code.
    with (project / "main.c").open("a") as main:
        main.write(LOGGER)
    result = tacet("run", cwd=project)
    assert result.returncode == 0, result.stderr
    assert "logger ran at tick 0" in result.stdout
    assert NEW_OK.search(result.stdout)


@needs_cmake
@needs_riscv
def test_qemu_rv32_project(tmp_path: Path) -> None:
    """A project for RISC-V: tacet run (traced, decoded), then CMake alone with its preset's
    test under QEMU."""
    project = tmp_path / "rv"
    result = tacet("new", "rv", "--target", "qemu-rv32", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    add_thread(project, 512, entry=True)
    trace = tmp_path / "rv.tctrace"
    result = tacet("run", "--target", "qemu-rv32", "--trace", str(trace), cwd=project)
    assert result.returncode == 0, result.stderr
    match = NEW_OK.search(result.stdout)
    assert match and match.groups() == ("rv", "riscv")
    assert "logger ran" in result.stdout
    decoded = tacet("trace", str(trace), cwd=project)
    assert decoded.returncode == 0, decoded.stderr
    assert "port riscv, cpu rv32imac" in flat(decoded.stdout)
    configured = run_ok("cmake", "--preset", "qemu-rv32", cwd=project)
    assert "riscv port, rv32imac" in configured
    run_ok("cmake", "--build", "--preset", "qemu-rv32", cwd=project)
    assert "100% tests passed" in run_ok("ctest", "--preset", "qemu-rv32", cwd=project)


@needs_cmake
@needs_arm
def test_qemu_m3_with_tacet_dir_and_a_cortex_m_stack(tmp_path: Path) -> None:
    """TACET_DIR from the environment, no tacet-local.cmake; a 4096-byte stack runs on the
    Cortex-M3 and stops the sim build naming the thread, the size and the sim minimum."""
    project = tmp_path / "m3"
    result = tacet("new", "m3", "--no-local", "--target", "qemu-m3", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    add_thread(project, 4096, entry=True)
    env = env_for(TACET_DIR=str(REPO))
    trace = tmp_path / "m3.tctrace"
    result = tacet("run", "--target", "qemu-m3", "--trace", str(trace), cwd=project, env=env)
    assert result.returncode == 0, result.stderr
    match = NEW_OK.search(result.stdout)
    assert match and match.groups() == ("m3", "cortex-m")
    assert "logger ran" in result.stdout
    decoded = tacet("trace", str(trace), cwd=project)
    assert decoded.returncode == 0, decoded.stderr
    assert "port cortex-m, cpu cortex-m3" in flat(decoded.stdout)
    assert "│ logger │" in decoded.stdout
    # The same with CMake alone (the preset's tests under QEMU too).
    configured = run_ok("cmake", "--preset", "qemu-m3", cwd=project, env=env)
    assert "(the environment variable TACET_DIR); cortex-m port, cortex-m3, board mps2" in (
        configured
    )
    output = run_ok("cmake", "--build", "--preset", "qemu-m3", "--target", "run", cwd=project)
    assert NEW_OK.search(output)
    assert "100% tests passed" in run_ok("ctest", "--preset", "qemu-m3", cwd=project)
    # On sim the stack is too small: the build stops, naming it.
    result = tacet("run", "--target", "sim", cwd=project, env=env)
    assert result.returncode == 1
    assert (
        "threads[1].stack: thread 'logger': 4096 bytes is below the minimum of target sim: 8192 "
        "(TC_PORT_STACK_MIN, ports/sim/include/tacet_port.h), the target this build is for"
    ) in result.stderr
    assert "Traceback" not in result.stderr


@needs_cmake
def test_find_package_sim_and_the_traced_configuration(
    installed_prefix: Path, tmp_path: Path
) -> None:
    # The package carries tacet_add_app and its generator, laid out as in the tree.
    share = installed_prefix / "share" / "tacet"
    assert (installed_prefix / "lib" / "cmake" / "Tacet" / "TacetApp.cmake").is_file()
    for path in (
        "tools/tacet/cli/config.py",
        "schema/tacet-app.schema.json",
        "VERSION",
        "ports/sim/include/tacet_port.h",
        "ports/cortex-m/include/tacet_port.h",
    ):
        assert (share / path).is_file(), path
    project = new(tmp_path, "pkg", "--no-local")
    env = env_for(TACET_PYTHON=sys.executable)
    configured = run_ok(
        "cmake", "--preset", "sim", f"-DCMAKE_PREFIX_PATH={installed_prefix}", cwd=project,
        env=env,
    )  # fmt: skip
    assert f"the package {installed_prefix} (find_package); sim port" in configured
    output = run_ok("cmake", "--build", "--preset", "sim", "--target", "run", cwd=project)
    assert NEW_OK.search(output)
    # tacet run --trace selects the installed kernel with the trace (sim-trace).
    trace = tmp_path / "pkg.tctrace"
    result = tacet(
        "run", "--trace", str(trace), cwd=project,
        env=env_for(CMAKE_PREFIX_PATH=str(installed_prefix)),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    decoded = tacet("trace", str(trace), cwd=project)
    assert decoded.returncode == 0, decoded.stderr
    assert "port sim, cpu host" in flat(decoded.stdout)


@needs_cmake
@needs_arm
def test_the_package_on_qemu_m3_from_tacet_new_prefix(
    installed_prefix: Path, tmp_path: Path
) -> None:
    project = new(tmp_path, "blinky", "--target", "qemu-m3", "--prefix", str(installed_prefix))
    local = (project / "tacet-local.cmake").read_text()
    assert f'set(TACET_LOCAL_DIR "{installed_prefix.as_posix()}")' in local
    result = tacet("run", "--target", "qemu-m3", cwd=project)
    assert result.returncode == 0, result.stderr
    match = NEW_OK.search(result.stdout)
    assert match and match.groups() == ("blinky", "cortex-m")
    # A kernel option the installed kernel was not built with is refused, saying what to do.
    result = tacet("run", "--target", "qemu-m3", "--trace", str(tmp_path / "t"), cwd=project)
    assert result.returncode == 1
    message = "has no configuration cortex-m3-trace (installed: cortex-m3, sim, sim-trace)"
    assert message in flat(result.stderr)


@needs_cmake
def test_fetchcontent(tmp_path: Path) -> None:
    """TACET_GIT_REPOSITORY and TACET_GIT_TAG, with CMake's override of the download for a
    local copy (this tree): fetched before project(), added after it."""
    project = new(tmp_path, "fetched", "--no-local")
    configured = run_ok(
        "cmake", "--preset", "sim", "-DTACET_GIT_REPOSITORY=https://example.invalid/tacet.git",
        "-DTACET_GIT_TAG=v0", f"-DFETCHCONTENT_SOURCE_DIR_TACET={REPO}", cwd=project,
        env=env_for(TACET_PYTHON=sys.executable),
    )  # fmt: skip
    assert "(FetchContent of https://example.invalid/tacet.git at v0); sim port" in configured
    output = run_ok("cmake", "--build", "--preset", "sim", "--target", "run", cwd=project)
    assert NEW_OK.search(output)


@needs_cmake
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ([], "Tacet not found. Give it one of three ways:"),
        (["-DTACET_DIR=/nonexistent"], "TACET_DIR is /nonexistent: neither a Tacet source tree"),
        (["-DTACET_GIT_REPOSITORY=https://example.invalid/t.git"], "set TACET_GIT_TAG too"),
    ],
)
def test_tacet_not_found(tmp_path: Path, options: list[str], message: str) -> None:
    project = new(tmp_path, "lost", "--no-local")
    result = subprocess.run(
        ["cmake", "--preset", "sim", *options], cwd=project, env=env_for(),
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode != 0
    assert message in flat(result.stderr)


@needs_cmake
@pytest.mark.skipif(shutil.which("arm-none-eabi-gcc") is None, reason="needs arm-none-eabi-gcc")
def test_the_stm32f407_board_builds_and_is_not_run(tmp_path: Path) -> None:
    project = new(tmp_path, "disco", "--board", "stm32f407")
    result = tacet("build", "--board", "stm32f407", cwd=project)
    assert result.returncode == 0, result.stderr
    elf = Path(result.stdout.strip())
    assert elf == project / "build" / "qemu-m4-stm32f407" / "disco"
    header = run_ok("arm-none-eabi-readelf", "-h", elf)
    assert "ARM" in header and "EXEC" in header
    result = tacet("run", "--board", "stm32f407", cwd=project)
    assert result.returncode == 1
    assert "board stm32f407: QEMU has no model of it" in result.stderr


# ---- --api cmsis-rtos2 ----------------------------------------------------------------------


def test_a_cmsis_rtos2_project_s_files(tmp_path: Path) -> None:
    project = new(tmp_path, "os2", "--api", "cmsis-rtos2")
    assert sorted(str(p.relative_to(project)) for p in project.rglob("*") if p.is_file()) == [
        ".gitignore", "CMakeLists.txt", "CMakePresets.json", "README.md",
        "cmake/tacet_import.cmake", "main.c", "tacet-local.cmake",
    ]  # fmt: skip
    for path in committed_files(project):
        text = path.read_text()
        if path.suffix != ".json":
            assert "SPDX-License-Identifier: MIT" in text.splitlines()[0], path
        assert not re.search(r"@[A-Z_]+@", text), f"{path}: a placeholder left"
    cmakelists = (project / "CMakeLists.txt").read_text()
    assert "written by `tacet new --api cmsis-rtos2`" in cmakelists
    assert "target_link_libraries(os2 PRIVATE tacet::cmsis_os2)" in cmakelists
    assert "tacet_add_app" not in cmakelists and "tacet::kernel" not in cmakelists
    # main.c is CMSIS-RTOS2 alone: no header, type or function of Tacet's own.
    main = (project / "main.c").read_text()
    assert re.findall(r'#include [<"](.+)[>"]', main) == ["inttypes.h", "stdio.h", "cmsis_os2.h"]
    code = re.sub(r"/\*.*?\*/", "", main, flags=re.S)
    assert not re.search(r"\b(tc|TC|tacet)_\w+", code)
    readme = (project / "README.md").read_text()
    assert "`tacet new --api cmsis-rtos2`" in readme and "app.yaml" not in readme
    # The default API's project is as before.
    default = new(tmp_path, "native")
    assert "written by `tacet new` (" in (default / "CMakeLists.txt").read_text()
    assert "tacet_add_app(native app.yaml)" in (default / "CMakeLists.txt").read_text()


def test_an_unknown_api_is_refused(tmp_path: Path) -> None:
    result = tacet("new", "app", "--api", "posix", cwd=tmp_path)
    assert result.returncode == 2
    assert "invalid choice: 'posix'" in result.stderr
    assert not (tmp_path / "app").exists()


@needs_cmake
def test_a_cmsis_rtos2_project_on_sim_traced(tmp_path: Path) -> None:
    project = new(tmp_path, "os2", "--api", "cmsis-rtos2")
    result = tacet("run", "--target", "sim", cwd=project)
    assert result.returncode == 0, result.stderr
    match = NEW_OS2_OK.search(result.stdout)
    assert match and match[1] == "os2"
    trace = tmp_path / "os2.tctrace"
    result = tacet("run", "--trace", str(trace), cwd=project)
    assert result.returncode == 0, result.stderr
    decoded = tacet("trace", str(trace), cwd=project)
    assert decoded.returncode == 0, decoded.stderr
    # The CMSIS thread is Tacet's, under the name main.c gave it; the timer's callback runs
    # in Tacet's timers' HISR.
    assert "│ worker │" in decoded.stdout and "│ timers │" in decoded.stdout


@needs_cmake
@needs_arm
def test_a_cmsis_rtos2_project_on_qemu_m3_from_the_package(
    installed_prefix: Path, tmp_path: Path
) -> None:
    project = new(tmp_path, "os2m3", "--api", "cmsis-rtos2", "--target", "qemu-m3",
                  "--prefix", str(installed_prefix))  # fmt: skip
    result = tacet("run", "--target", "qemu-m3", cwd=project)
    assert result.returncode == 0, result.stderr
    match = NEW_OS2_OK.search(result.stdout)
    assert match and match[1] == "os2m3"
    configured = run_ok("cmake", "--preset", "qemu-m3", cwd=project, env=env_for())
    assert f"the package {installed_prefix}" in configured
    run_ok("cmake", "--build", "--preset", "qemu-m3", cwd=project)
    assert "100% tests passed" in run_ok("ctest", "--preset", "qemu-m3", cwd=project)
