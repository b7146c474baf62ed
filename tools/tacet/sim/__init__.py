# SPDX-License-Identifier: MIT
"""The simulator: the engine (simulator/engine.h) in process (engine), task sets in cycles
(taskset), a description simulated against its analysis (simulate), sweeps over random task
sets (sweep), the cross-check of simulator and analysis (crosscheck), the register-file
experiment (regfiles) and switch costs from measured runs (switchcost).

Imports tacet.app, tacet.analysis, tacet.bench (measured results), tacet.project (building
the engine) and tacet.core.
"""
