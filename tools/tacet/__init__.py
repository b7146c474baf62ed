# SPDX-License-Identifier: MIT
"""Host tools for the Tacet real-time kernel (the ``tacet`` command line)."""

from pathlib import Path

# The version is written once, in the repository's VERSION file, which CMake's project() reads
# too; the tools run from the repository (an editable install, make deps).
__version__ = (Path(__file__).resolve().parents[2] / "VERSION").read_text(encoding="utf-8").strip()
