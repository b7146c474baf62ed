# SPDX-License-Identifier: MIT
"""Shared fixtures: small Tacet-shaped trees and fake host programs on PATH."""

import json
import os
import shutil
import stat
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def write(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def make_tree(root: Path, ports: tuple[str, ...] = ("sim",)) -> Path:
    """An empty-but-recognisable Tacet tree: CMakeLists.txt, kernel/, ports, examples/hello."""
    write(root / "CMakeLists.txt", "# fake\n")
    (root / "kernel").mkdir(parents=True)
    for port in ports:
        write(root / "ports" / port / "port.cmake")
    (root / "examples" / "hello").mkdir(parents=True)
    return root


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return make_tree(tmp_path / "repo")


class FakeBin:
    """A directory of fake host programs that is the whole of PATH."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def add(self, name: str, script: str = "exit 0") -> Path:
        path = write(self.directory / name, f"#!/bin/sh\n{script}\n")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
        return path


@pytest.fixture
def fake_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeBin:
    directory = tmp_path / "bin"
    directory.mkdir()
    monkeypatch.setenv("PATH", str(directory))
    return FakeBin(directory)


def have_native_toolchain() -> bool:
    return all(shutil.which(tool) for tool in ("cmake", "ninja", "cc"))


needs_cmake = pytest.mark.skipif(
    not have_native_toolchain(), reason="needs cmake, ninja and a C compiler on PATH"
)


HAVE_ARM = all(shutil.which(tool) for tool in ("arm-none-eabi-gcc", "qemu-system-arm"))
needs_arm = pytest.mark.skipif(not HAVE_ARM, reason="needs arm-none-eabi-gcc and qemu-system-arm")
HAVE_RISCV = all(shutil.which(tool) for tool in ("riscv64-unknown-elf-gcc", "qemu-system-riscv32"))
needs_riscv = pytest.mark.skipif(
    not HAVE_RISCV, reason="needs riscv64-unknown-elf-gcc and qemu-system-riscv32"
)


def run_ok(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    """Run a command that must succeed; its standard output."""
    result = subprocess.run(
        [str(c) for c in command], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert result.returncode == 0, f"{command}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def install_kernel(preset: str, build: Path, prefix: Path, *options: str) -> None:
    """Configure the kernel alone by ``preset``, build it and install it into ``prefix``."""
    run_ok("cmake", "--preset", preset, "-S", REPO, "-B", build,
           "-DTACET_BUILD_TESTS=OFF", "-DTACET_BUILD_EXAMPLES=OFF", *options)  # fmt: skip
    run_ok("cmake", "--build", build, "-j2")
    run_ok("cmake", "--install", build, "--prefix", prefix)


@pytest.fixture(scope="session")
def installed_prefix(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A prefix holding the installed sim kernel, the sim kernel with the trace compiled in
    (configuration sim-trace) and, with the Arm tools, the Cortex-M3 kernel: cmake --install
    of builds configured by their presets (docs/using-tacet.md). Moved after installing:
    every path in the package is relative to it."""
    if not have_native_toolchain():
        pytest.skip("needs cmake, ninja and a C compiler on PATH")
    root = tmp_path_factory.mktemp("package")
    prefix = root / "prefix"
    install_kernel("sim", root / "build-sim", prefix)
    traced = ("-DTACET_DEFINITIONS=TC_TRACE=1", "-DTACET_INSTALL_CONFIG=sim-trace")
    install_kernel("sim", root / "build-sim-trace", prefix, *traced)
    if HAVE_ARM:
        install_kernel("qemu-m3", root / "build-qemu-m3", prefix)
    moved = root / "moved"
    prefix.rename(moved)
    return moved


def tool_env() -> dict[str, str]:
    """Environment for running ``python -m tacet`` from this source tree."""
    env = dict(os.environ)
    tools = str(REPO / "tools")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (tools, env.get("PYTHONPATH")) if p)
    return env


def run_tacet(command: str, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m tacet COMMAND ARGV`` from this source tree, in ``cwd``, output captured."""
    return subprocess.run(
        [sys.executable, "-m", "tacet", command, *argv],
        cwd=cwd,
        env=tool_env(),
        capture_output=True,
        text=True,
        check=False,
    )


def run_traced(app: str, target: str, dump: Path) -> str:
    """``tacet run --target TARGET --trace DUMP APP`` in this tree, as `make demo` runs it (the
    application built with the trace compiled in); its standard output. Fails the test when
    the program fails."""
    run = subprocess.run(
        [sys.executable, "-m", "tacet", "run", "--target", target, "--trace", str(dump), app],
        cwd=REPO, env=dict(os.environ), stdin=subprocess.DEVNULL, capture_output=True,
        text=True, timeout=900, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def run_config(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m tacet config ARGV`` from this source tree, in ``cwd``, output captured."""
    return run_tacet("config", *argv, cwd=cwd)


def run_checked(*command: str) -> str:
    """Run a program; its standard output, after asserting it succeeded."""
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def line_of(text: str, marker: str) -> int:
    """The line of (dedented) ``text`` that holds ``marker``, which must be on exactly one."""
    lines = [i + 1 for i, line in enumerate(textwrap.dedent(text).splitlines()) if marker in line]
    assert len(lines) == 1, f"marker {marker!r} must be on exactly one line"
    return lines[0]


def assert_error(found: list[str], where: str, field: str, words: str) -> None:
    """Among the error lines ``found``, one at ``where`` (``FILE:LINE``) about ``field`` says
    ``words``."""
    prefix = f"{where}: {field}: "
    matching = [e for e in found if e.startswith(prefix)]
    assert matching, f"no error starting {prefix!r} in {found}"
    assert any(words in e for e in matching), f"{words!r} not in {matching}"


def cli_run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``tacet ARGV`` in process: its exit status, standard output and standard error."""
    from tacet import cli  # noqa: PLC0415  (the tests of fake trees import no tool)

    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def write_yaml(tmp_path: Path, text: str) -> Path:
    """``text`` (dedented) as ``tmp_path/app.yaml``."""
    return write(tmp_path / "app.yaml", textwrap.dedent(text))


@pytest.fixture
def short_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every response-time bound of tacet.analysis.rta.analyze one cycle too small: a wrong
    analysis that the simulator's checks must catch."""
    from tacet.analysis import rta as analysis  # noqa: PLC0415

    real = analysis.analyze

    def one_cycle_short(*a: object, **kw: object) -> analysis.Result:
        result = real(*a, **kw)  # type: ignore[arg-type]
        for t in result.tasks:
            t.response = None if t.response is None else t.response - 1
        return result

    monkeypatch.setattr(analysis, "analyze", one_cycle_short)


# --- pages in a real browser -----------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's chromium, headless, driven by Selenium through chromedriver
    (tacet.trace.report.open_chromium: its console and network logs recorded); one per test
    module. Skips where chromium or chromedriver is missing."""
    from tacet.trace import report as trace_report  # noqa: PLC0415  (the tests of fake trees import no tool)

    if trace_report.find_chromium() is None:
        pytest.skip("chromium or chromedriver is not installed (make deps installs both)")
    driver = trace_report.open_chromium(1280, 900)
    yield driver
    driver.quit()


def open_page(driver: object, page: Path | str) -> str:
    """Load a file (by its file: URL) or a URL, after dropping what earlier pages logged;
    the URL."""
    url = page.resolve().as_uri() if isinstance(page, Path) else page
    driver.get_log("browser")
    driver.get_log("performance")
    driver.get(url)
    return url


def console_errors(driver: object) -> list[dict]:
    """The console's messages of level error or above since the log was last read."""
    return [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]


def requested(driver: object) -> set[str]:
    """The URLs asked for (WebSockets too) since the network log was last read."""
    urls = set()
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.add(message["params"]["request"]["url"])
        elif message["method"] == "Network.webSocketCreated":
            urls.add(message["params"]["url"])
    return urls


def assert_clean(driver: object, url: str) -> None:
    """No console message of level error or above, and no request but the page itself."""
    errors = console_errors(driver)
    assert errors == [], errors
    urls = requested(driver)
    assert urls == {url}, urls
