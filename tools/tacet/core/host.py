# SPDX-License-Identifier: MIT
"""Host programs: finding them and running them with clear failures."""

import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal

from tacet.core.errors import TacetError
from tacet.core.targets import INSTALL_HINTS

# Where a step's output goes: our stdout, our stderr (keeping stdout for results such as
# a path), or held back and shown on stderr only if the step fails.
Output = Literal["stdout", "stderr", "on-failure"]


def require_tool(name: str, needed_by: str) -> str:
    """Return the path of host program ``name`` or fail saying who needs it and how to get it."""
    path = shutil.which(name)
    if path is None:
        hint = INSTALL_HINTS.get(name)
        suffix = f" ({hint})" if hint else ""
        raise TacetError(f"{needed_by} needs {name}, which is not on PATH{suffix}")
    return path


class StepFailed(TacetError):
    """A step that ran and failed; ``output`` is what it printed when it was held back
    (``on-failure``), else empty."""

    def __init__(self, message: str, output: str) -> None:
        super().__init__(message)
        self.output = output


def run_step(
    command: Sequence[str],
    what: str,
    cwd: Path | None = None,
    output: Output = "stderr",
    env: Mapping[str, str] | None = None,
) -> None:
    """Run one step of a build or test; on failure raise a StepFailed naming ``what``."""
    # File descriptor 2 rather than sys.stderr: the child needs a real descriptor.
    stdout = {"stdout": None, "stderr": 2, "on-failure": subprocess.PIPE}[output]
    stderr = subprocess.STDOUT if output == "on-failure" else None
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        result = subprocess.run(
            command,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            env=env,
            stdout=stdout,
            stderr=stderr,
            text=True,
            errors="replace",
            check=False,
        )
    except OSError as error:
        raise TacetError(f"{what}: cannot run {command[0]}: {error.strerror}") from None
    if result.returncode != 0:
        if output == "on-failure":
            sys.stderr.write(result.stdout)
            sys.stderr.flush()
        raise StepFailed(
            f"{what} failed (exit status {result.returncode})",
            result.stdout if output == "on-failure" else "",
        )


def exit_status(returncode: int) -> int:
    """Map a subprocess return code to a shell-style exit status (signal N -> 128 + N)."""
    return 128 - returncode if returncode < 0 else returncode
