# SPDX-License-Identifier: MIT
"""The Tacet tree and the projects built with it: CMake build trees (cmake), a target's
build setup (setup), building and running an application (build, run), the kernel's footprint
(footprint), cppcheck and MISRA (lint, misra), the proof of the scheduler with Frama-C
(prove), and new projects of one's own (new, with its
template in templates/new/).

Imports tacet.app (a description's names), tacet.trace.format (counting dumps) and tacet.core.
"""
