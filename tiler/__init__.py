"""tiler: finds tiling opportunities in GPU kernel programs and writes tiled CUDA.

`tiler.compile(program, **options)` (tiler/api.py) is the Python entry
point; `tiler` on the command line is tiler/cli/.
"""

from .version import __version__

__all__ = ["__version__", "compile"]


def compile(program, **options):  # noqa: A001 - the verb users expect, as in re.compile
    """Compile a program (a path or its text): see tiler.api.compile."""
    from .api import compile as _compile

    return _compile(program, **options)


def __getattr__(name):  # UserError, PlainError and Compiled without importing the compiler up front
    if name in ("UserError", "PlainError"):
        from . import errors
        return getattr(errors, name)
    if name == "Compiled":
        from .api import Compiled
        return Compiled
    raise AttributeError(f"module 'tiler' has no attribute {name!r}")
