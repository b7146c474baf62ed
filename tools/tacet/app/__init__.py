# SPDX-License-Identifier: MIT
"""The system description: app.yaml read into a checked model (description), the C start-up
code generated from it (generate), what ``tacet config`` prints of it (summary), and its
schedulability as ``tacet analyze`` shows it (schedulability).

Imports tacet.analysis, tacet.power and tacet.core.
"""
