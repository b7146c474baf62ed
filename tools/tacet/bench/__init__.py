# SPDX-License-Identifier: MIT
"""The benchmark suite: what the programs print, checked (format), the results document
(results) and its statistics (stats), the Markdown report and plots (report), and running the
suite on a target and comparing two runs (suite).

Imports tacet.project and tacet.core.
"""
