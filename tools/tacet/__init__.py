"""Host tools for the Tacet real-time kernel (the ``tacet`` command line)."""

__version__ = "0.1.0"
