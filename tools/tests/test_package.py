# SPDX-License-Identifier: MIT
"""Tacet in a project of one's own (docs/using-tacet.md), with real CMake, compilers and QEMU.

One install prefix (conftest.installed_prefix) holds the sim and the Cortex-M3 kernels (cmake
--install of builds configured by their presets); tests/consumer/ is built against it with
find_package on sim (run) and on Cortex-M3 (with the installed toolchain file, run under
QEMU), and against the source tree with FetchContent and add_subdirectory (sim); each way its
second program, consumer_os2, links tacet::cmsis_os2 and calls CMSIS-RTOS2 alone. The version
is the same everywhere. (test_new_project.py builds the projects ``tacet new`` writes each of
these ways.)
"""

import json
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from conftest import HAVE_ARM, REPO, needs_arm, needs_cmake, run_ok

import tacet
from tacet.core.targets import TARGETS

pytestmark = needs_cmake

CONSUMER = REPO / "tests" / "consumer"
CONSUMER_OK = re.compile(
    r"consumer on the (sim|cortex-m) port: 3 of 3 hand-overs, kernel invariants hold"
)
CONSUMER_OS2_OK = re.compile(r"consumer_os2 on Tacet V[\d.]+: 3 of 3 hand-overs\n")
run = run_ok


@pytest.fixture(scope="module")
def prefix(installed_prefix: Path) -> Path:
    return installed_prefix


def build_consumer(build: Path, *options: str) -> Path:
    run("cmake", "-S", CONSUMER, "-B", build, "-G", "Ninja", *options)
    run("cmake", "--build", build, "-j2")
    return build / "consumer"


def test_the_package_layout(prefix: Path) -> None:
    package = prefix / "lib" / "cmake" / "Tacet"
    assert (package / "TacetConfig.cmake").is_file()
    assert (prefix / "include" / "tacet" / "tacet.h").is_file()
    assert (prefix / "lib" / "tacet" / "sim" / "libtacet_kernel.a").is_file()
    assert (prefix / "lib" / "tacet" / "sim" / "include" / "tacet_port.h").is_file()
    # CMSIS-RTOS2: its headers once, its library beside each kernel.
    assert (prefix / "include" / "tacet" / "cmsis-rtos2" / "cmsis_os2.h").is_file()
    assert (prefix / "include" / "tacet" / "cmsis-rtos2" / "tacet_os2.h").is_file()
    assert (prefix / "lib" / "tacet" / "sim" / "libtacet_cmsis_os2.a").is_file()
    assert (prefix / "share" / "tacet" / "cmake" / "arm-none-eabi.cmake").is_file()
    # The licence travels with the package (where Debian and CMake projects put it).
    assert (prefix / "share" / "doc" / "tacet" / "LICENSE").read_text() == (
        REPO / "LICENSE"
    ).read_text()
    if HAVE_ARM:
        ld = prefix / "lib" / "tacet" / "cortex-m3" / "ld"
        assert sorted(p.name for p in ld.iterdir()) == ["cortex-m.ld", "mps2-an385.ld"]
    for exported in package.glob("*/*.cmake"):
        assert "/build-" not in exported.read_text(), f"{exported} names the build tree"


def test_find_package_sim(prefix: Path, tmp_path: Path) -> None:
    program = build_consumer(tmp_path, f"-DCMAKE_PREFIX_PATH={prefix}", "-DTACET_COMPONENT=sim")
    match = CONSUMER_OK.search(run(program))
    assert match and match[1] == "sim"
    assert CONSUMER_OS2_OK.search(run(tmp_path / "consumer_os2"))


@needs_arm
def test_find_package_cortex_m3_under_qemu(prefix: Path, tmp_path: Path) -> None:
    toolchain = prefix / "share" / "tacet" / "cmake" / "arm-none-eabi.cmake"
    program = build_consumer(
        tmp_path, f"-DCMAKE_PREFIX_PATH={prefix}", "-DTACET_COMPONENT=cortex-m3",
        f"-DCMAKE_TOOLCHAIN_FILE={toolchain}", "-DTACET_CPU=cortex-m3",
    )  # fmt: skip
    # The command line of tacet run --target qemu-m3: -icount shift=5, semihosting.
    command = TARGETS["qemu-m3"].run_command(program)
    assert command[command.index("-icount") + 1] == "shift=5"
    match = CONSUMER_OK.search(run(*command))
    assert match and match[1] == "cortex-m"
    command = TARGETS["qemu-m3"].run_command(tmp_path / "consumer_os2")
    assert CONSUMER_OS2_OK.search(run(*command))
    # The tests the consumer registers run it under the emulator the package names.
    assert "100% tests passed, 0 tests failed out of 2" in run("ctest", "--test-dir", tmp_path)


def test_find_package_names_what_is_installed(prefix: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        ["cmake", "-S", CONSUMER, "-B", tmp_path, "-G", "Ninja", f"-DCMAKE_PREFIX_PATH={prefix}",
         "-DTACET_COMPONENT=cortex-m7"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode != 0
    message = " ".join(result.stderr.split())
    assert f"no configuration cortex-m7 in {prefix} (installed:" in message
    assert "sim" in message.split("(installed:")[1]


@pytest.mark.parametrize("via", ["fetchcontent", "subdirectory"])
def test_from_the_source_tree_sim(via: str, tmp_path: Path) -> None:
    program = build_consumer(tmp_path, f"-DTACET_VIA={via}", f"-DTACET_SOURCE_DIR={REPO}")
    match = CONSUMER_OK.search(run(program))
    assert match and match[1] == "sim"
    assert CONSUMER_OS2_OK.search(run(tmp_path / "consumer_os2"))


def test_version_is_the_same_everywhere(prefix: Path) -> None:
    version = (REPO / "VERSION").read_text().strip()
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    assert tacet.__version__ == version
    assert metadata.version("tacet") == version, "reinstall the tools: make deps"
    printed = subprocess.run(
        [sys.executable, "-m", "tacet", "--version"], capture_output=True, text=True, check=True
    ).stdout
    assert printed.strip() == f"tacet {version}"
    # CMake's project version, as the installed package reports it to find_package.
    version_file = (prefix / "lib" / "cmake" / "Tacet" / "TacetConfigVersion.cmake").read_text()
    assert f'set(PACKAGE_VERSION "{version}")' in version_file
    changelog = (REPO / "CHANGELOG.md").read_text()
    assert f"## [{version}]" in changelog


def test_presets_match_the_targets() -> None:
    listed = run("cmake", "--list-presets=all", cwd=REPO)
    for name in ("sim", "sim-release", "qemu-m3", "qemu-m4", "lean", "coverage", "sim-asan"):
        assert f'"{name}"' in listed
    presets = {
        p["name"]: p
        for p in json.loads((REPO / "CMakePresets.json").read_text())["configurePresets"]
    }

    def resolved(name: str) -> dict:
        preset = presets[name]
        merged = resolved(preset["inherits"]) if "inherits" in preset else {}
        merged |= {k: v for k, v in preset.items() if k != "cacheVariables"}
        merged["cacheVariables"] = merged.get("cacheVariables", {}) | preset.get(
            "cacheVariables", {}
        )
        return merged

    for target in TARGETS.values():
        preset = resolved(target.name)
        assert preset["binaryDir"] == "${sourceDir}/build/${presetName}"
        for key, value in target.definitions:
            assert preset["cacheVariables"][key] == value, (target.name, key)
        toolchain = preset.get("toolchainFile")
        expected = f"${{sourceDir}}/{target.toolchain_file}" if target.toolchain_file else None
        assert toolchain == expected, target.name
        command = target.configure_command(REPO, Path("/tmp/b"))
        assert command[:3] == ["cmake", "--preset", target.name]
