"""How commands show what they found: the width of text output, and
matplotlib for the drawings of --plot.
"""
from __future__ import annotations

import sys

from ..errors import PlainError


def _width() -> int | None:
    """Output width: the terminal's, or COLUMNS, else 120 (piped output)."""
    import os

    if sys.stdout.isatty():
        return None
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 0 else 120


def _matplotlib():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlainError("--plot needs matplotlib", "pip install matplotlib (or tiler's [plot] extra)") from None
    return plt
