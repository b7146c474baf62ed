# SPDX-License-Identifier: MIT
"""tools/deps.sh (make deps, make doctor) against fake tools: a check fails when its tool
cannot do its job even though it is on PATH, the failure names its Debian packages, one
apt-get installs the packages of the failing checks and nothing else, and the venv is made
again when it was made from another interpreter."""

import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, write

DEPS = REPO / "tools" / "deps.sh"
# What deps.sh itself runs besides the tools it checks; linked from the real system.
UTILITIES = ("cat", "chmod", "cp", "find", "grep", "head", "mkdir", "mktemp", "realpath", "rm",
             "sed", "sort", "timeout", "touch", "tr")  # fmt: skip

# A C compiler: a version, newlib's macro, or an "executable" at -o that prints tacet. It
# fails like gcc-aarch64-linux-gnu without libc6-dev-arm64-cross while $BROKEN names it and
# the file $FIXED (what the fake apt-get makes) does not exist.
COMPILER = r"""
name=${0##*/}
case "$1" in
  -dumpversion|-dumpfullversion) echo 12.2.0; exit 0;;
  -E) echo '#define _NEWLIB_VERSION "3.3.0"'; exit 0;;
esac
if [ "$name" = "$BROKEN" ] && [ ! -e "$FIXED" ]; then
  echo "/usr/bin/ld: cannot find Scrt1.o: No such file or directory" >&2; exit 1
fi
out=; prev=; for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
printf '#!/bin/sh\necho tacet\n' >"$out"; chmod +x "$out"
"""
FAKES = {
    "gcc": COMPILER,
    "clang": COMPILER,
    "arm-none-eabi-gcc": COMPILER,
    "riscv64-unknown-elf-gcc": COMPILER,
    "aarch64-linux-gnu-gcc": COMPILER,
    "qemu-aarch64": '[ "$1" = -version ] && { echo "qemu-aarch64 version 7.2.22"; exit 0; }\n'
                    'exec "$3"',
    "qemu-system-arm": '[ "$1" = --version ] && echo "QEMU emulator version 7.2.22 (Debian)"\n'
                       "cat >/dev/null",
    "qemu-system-riscv32": '[ "$1" = --version ] && echo "QEMU emulator version 7.2.22 (Debian)"\n'
                           "cat >/dev/null",
    "cmake": '[ "$1" = --version ] && echo "cmake version 3.25.1"; exit 0',
    "ninja": '[ "$1" = --version ] && { echo 1.11.1; exit 0; }; cp in.txt out.txt',
    "cppcheck": '[ "$1" = --version ] && echo "Cppcheck 2.10"; exit 0',
    "chromium": '[ "$1" = --version ] && { echo "Chromium 120.0.1 built on Debian"; exit 0; }\n'
                'echo "<p>tacet-ok</p>"',
    "chromedriver": 'echo "ChromeDriver 120.0.1 (0123abc)"',
    "git": '[ "$1" = --version ] && echo "git version 2.39.5"; exit 0',
    "id": 'echo "${UID_SHOWN:-0}"',
    "apt-get": 'echo "$*" >>"$APT_LOG"\n'
               '[ "$1" = -q ] && [ "$2" = install ] && touch "${APT_MAKES:-$FIXED}"; exit 0',
}  # fmt: skip
# The distribution's python3: the versions the checks ask for, and a venv with pip.
PYTHON = r"""
case "$*" in
  *python_version*) echo "${PY_VERSION:-3.11.2}";;
  *cert_store_stats*) echo 144;;
  "-m venv venv") mkdir -p venv/bin && cp "$0" venv/bin/python;;
  "-m pip --version") echo "pip 23.0.1 from somewhere (python 3.11)";;
esac
"""


class Machine:
    """A repository root and a PATH holding only the fake tools and the utilities."""

    def __init__(self, root: Path) -> None:
        self.root = root / "repo"
        self.bin = root / "bin"
        self.apt_log = root / "apt.log"
        self.fixed = root / "installed"
        self.python = root / "usr-bin" / "python3"
        write(self.root / "tools" / "pyproject.toml", 'requires-python = ">=3.11.2"\n')
        for util in UTILITIES:
            real = shutil.which(util)
            assert real, f"{util} is not on this machine"
            (self.bin / util).parent.mkdir(parents=True, exist_ok=True)
            (self.bin / util).symlink_to(real)
        for name, script in FAKES.items():
            self.fake(self.bin / name, script)
        self.fake(self.python, PYTHON)
        self.env = {"PATH": str(self.bin), "PYTHON": str(self.python), "VENV": ".venv",
                    "APT_LOG": str(self.apt_log), "FIXED": str(self.fixed),
                    "TMPDIR": str(root)}  # fmt: skip

    @staticmethod
    def fake(path: Path, script: str) -> None:
        write(path, f"#!/bin/sh\n{script}\n")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)

    def make_venv(self, made_from: Path) -> None:
        self.fake(self.root / ".venv" / "bin" / "python", "exit 0")
        config = f"home = {made_from.parent}\nversion = 3.11.2\nexecutable = {made_from}\n"
        write(self.root / ".venv" / "pyvenv.cfg", config)

    def run(self, mode: str, **env: str) -> subprocess.CompletedProcess[str]:
        bash = shutil.which("bash")
        assert bash
        return subprocess.run([bash, str(DEPS), mode], cwd=self.root, env=self.env | env,
                              capture_output=True, text=True, timeout=120, check=False)  # fmt: skip

    def apt_calls(self) -> list[str]:
        return self.apt_log.read_text().splitlines() if self.apt_log.exists() else []


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return Machine(tmp_path)


def test_all_working_checks_pass_and_install_nothing(machine: Machine) -> None:
    machine.make_venv(machine.python)
    assert machine.run("check").returncode == 0
    result = machine.run("install")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""
    assert machine.apt_calls() == []


def test_a_cross_compiler_that_cannot_link_fails_its_check(machine: Machine) -> None:
    machine.make_venv(machine.python)
    result = machine.run("check", BROKEN="aarch64-linux-gnu-gcc")
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    [cross] = [line for line in lines if line.split()[0] == "aarch64-linux-gnu-gcc"]
    assert "cannot find Scrt1.o" in cross
    assert "libc6-dev-arm64-cross" in cross
    # qemu-aarch64 runs a program the cross compiler built: it cannot either.
    assert any(line.split()[0] == "qemu-aarch64" for line in lines)
    assert not any(line.split()[0] == "gcc" for line in lines)


def test_install_installs_the_failing_checks_packages_with_one_apt_get(machine: Machine) -> None:
    machine.make_venv(machine.python)
    result = machine.run("install", BROKEN="arm-none-eabi-gcc")
    assert result.returncode == 0, result.stdout + result.stderr
    assert machine.apt_calls() == [
        "-q update",
        "-q install -y --no-install-recommends gcc-arm-none-eabi libnewlib-arm-none-eabi",
    ]


def test_install_fails_when_the_packages_do_not_fix_the_tool(machine: Machine) -> None:
    machine.make_venv(machine.python)
    result = machine.run("install", BROKEN="clang", APT_MAKES=str(machine.root / "unrelated"))
    assert result.returncode == 1
    assert "still not working" in result.stderr
    assert "clang: cannot find Scrt1.o" in result.stderr
    assert len(machine.apt_calls()) == 2


def test_install_as_another_user_only_says_what_to_install(machine: Machine) -> None:
    machine.make_venv(machine.python)
    (machine.bin / "cppcheck").unlink()
    result = machine.run("install", UID_SHOWN="1000")
    assert result.returncode == 1
    assert "apt-get install --no-install-recommends cppcheck" in result.stderr
    assert machine.apt_calls() == []


def test_python_older_than_requires_python_fails(machine: Machine) -> None:
    machine.make_venv(machine.python)
    result = machine.run("check", PY_VERSION="3.11.1")
    assert result.returncode == 1
    assert "requires >= 3.11.2" in result.stderr


def test_venv_made_from_another_python_is_not_current(machine: Machine, tmp_path: Path) -> None:
    other = tmp_path / "pyenv" / "python3.11"
    machine.fake(other, "exit 0")
    machine.make_venv(other)
    assert machine.run("venv-current").returncode == 1
    machine.make_venv(machine.python)
    assert machine.run("venv-current").returncode == 0
    (machine.root / ".venv" / "bin" / "python").unlink()
    assert machine.run("venv-current").returncode == 1


def test_without_a_venv_python3_venv_is_checked_by_making_one(machine: Machine) -> None:
    result = machine.run("check")
    assert result.returncode == 0, result.stderr
    machine.python.write_text('#!/bin/sh\ncase "$*" in *venv*) exit 1;; esac\necho 144\n')
    result = machine.run("check")
    assert "python3-venv" in result.stderr


def test_doctor_prints_each_tool_and_fails_on_one_that_does_not_work(machine: Machine) -> None:
    machine.make_venv(machine.python)
    result = machine.run("doctor", BROKEN="gcc")
    assert result.returncode != 0
    rows = {line.split()[0]: line for line in result.stdout.splitlines()[1:]}
    assert "fails: gcc: cannot find Scrt1.o" in rows["gcc"]
    assert rows["gcc"].split()[1] == "12.2.0"
    assert rows["chromium"].split()[1:] == ["120.0.1", "works"]
    assert rows["arm-none-eabi-gcc"].split()[1:4] == ["12.2.0,", "newlib", "3.3.0"]
    assert "works (made from" in rows[".venv"]


def test_chromedriver_of_another_major_version_fails(machine: Machine) -> None:
    machine.fake(machine.bin / "chromedriver", 'echo "ChromeDriver 119.0.1 (0123abc)"')
    machine.make_venv(machine.python)
    result = machine.run("check")
    assert "not the same major version" in result.stderr
