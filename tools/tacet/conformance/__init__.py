# SPDX-License-Identifier: MIT
"""The kernel against its reference model: the scenarios' text form (scenario), the
executable model (model), and random scenarios run on the kernel's interpreter, compared and
shrunk (check).

Imports tacet.project and tacet.core.
"""
