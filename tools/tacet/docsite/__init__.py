# SPDX-License-Identifier: MIT
"""The documentation site: the API reference read from the public headers (apiref) and the
MkDocs hooks that put it on the site (hooks, with file.js for search from the file system).

Imports only tacet.core.
"""
