# SPDX-License-Identifier: MIT
"""Board power tables and the energy model: power/NAME.yaml read, checked and written as the C
header tc_power_init() takes (tables), what tc_energy_report() computes, as a closed form
(energy), and what ``tacet power`` prints of a table (summary).

Imports only tacet.core.
"""
