# SPDX-License-Identifier: MIT
"""Schedulability analysis of fixed-priority preemption-threshold scheduling: response
times, blocking, priority and threshold assignment (rta), the timing every description and task
set shares (workload), random task sets as the literature draws them (taskgen), and how long the
analysis takes on a large set (bench, `python -m tacet.analysis.bench`).

Imports only tacet.core.
"""
