# SPDX-License-Identifier: MIT
"""Allow ``python -m tacet``."""

import sys

from tacet.cli import main

sys.exit(main())
