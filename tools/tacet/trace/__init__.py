# SPDX-License-Identifier: MIT
"""Kernel traces: a dump decoded (format), what it says about the schedule (analysis), the
Trace Event Format export for Perfetto (perfetto), the HTML report (report, with its script and
style sheet in templates/report/), and the summary `tacet trace` prints (summary).

Imports tacet.power (the energy of a run) and tacet.core.
"""
