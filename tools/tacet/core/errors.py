# SPDX-License-Identifier: MIT
"""The one exception type a subcommand raises for bad input or a failed step."""


class TacetError(Exception):
    """A failure the user can act on; ``tacet.cli.main`` prints it as one line.

    ``status`` is the process exit status to use (non-zero).
    """

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
