# SPDX-License-Identifier: MIT
"""Shared foundations: the one error type (errors), YAML read with lines and checked by a
schema (yamldoc), finding the Tacet tree and a project of one's own (repo), the targets and
boards (targets), and running host programs with clear failures (host).

Imports nothing else of tacet: every other package may import it.
"""
