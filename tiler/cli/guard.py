"""The error boundary every command runs behind (`guarded`): a mistake in
the user's program or options is printed as a located message with exit
code 1; anything else is an internal compiler error (exit code 3), never a
bare traceback.
"""
from __future__ import annotations

import errno
import functools
import os
import sys

import click

from ..deep import call_deep
from ..errors import CompilerBug, PlainError, UserError, colored
from ..tree import no_cycle_collection

EXIT_USER, EXIT_BUG = 1, 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE: what a Unix tool whose reader went away exits with
# a write to standard output or error that cannot go on: the output, not tiler, is the problem
OUTPUT_ERRORS = frozenset({errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO, errno.EPIPE, errno.EBADF})


def guarded(fn=None, *, deep: bool = True):
    """Run a command (on a deep stack, unless it drives the GPU: pycuda's
    objects belong to the thread that made them) and turn every failure into
    a message."""
    if fn is None:
        return lambda f: guarded(f, deep=deep)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            if not deep:
                return fn(*args, **kwargs)
            # a command on the deep stack works on a program's trees, which hold no cycles: with the cycle
            # collector on, the few allocations after the pipeline (the header, say) made it walk every tree
            # of every stage again, 0.8 s of a 1 MB expression's 3.7
            with no_cycle_collection():
                result = call_deep(fn, *args, **kwargs)
            _flush()  # (a full or closed output fails here, inside the boundary, not at exit)
            return result
        except BrokenPipeError:
            closed_pipe()
        except OSError as exc:
            if exc.errno not in OUTPUT_ERRORS:
                _err(CompilerBug(f"{type(exc).__name__}: {exc}").render(), code=EXIT_BUG)
            output_failed(exc)
        except (UserError, PlainError) as exc:
            _err(_rendered(exc))
        except RecursionError:  # outside the stages (which locate it): the interpreter, say
            _err("error: the program is nested too deeply for tiler to follow",
                 "  hint: split deep expressions with `let`")
        except CompilerBug as exc:
            _err(exc.render(), code=EXIT_BUG)
        except (KeyboardInterrupt, click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except Exception as exc:  # noqa: BLE001 - the boundary that keeps tracebacks from users
            _err(CompilerBug(f"{type(exc).__name__}: {exc}").render(), code=EXIT_BUG)

    return wrapper


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        stream.flush()


def closed_pipe() -> None:
    """The reader of standard output went away (`tiler docs | head -1`):
    exit quietly, as a Unix tool does, with nothing more written there."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # (what is still buffered goes nowhere)
    except OSError:
        pass
    sys.exit(EXIT_CLOSED_PIPE)


def output_failed(exc: OSError) -> None:
    """Standard output cannot be written (a full disk, /dev/full): one line, exit 1."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        click.echo(f"error: cannot write the output: {exc.strerror or exc}", err=True)
    except OSError:
        pass
    sys.exit(EXIT_USER)


def _rendered(exc: UserError | PlainError) -> str:
    try:
        return exc.render()
    except Exception as bug:  # noqa: BLE001 - a message that cannot be shown is still not a traceback
        return f"error: {exc}\n" + CompilerBug(f"rendering the message: {type(bug).__name__}: {bug}").render()


def _err(*lines: str, code: int = EXIT_USER):
    click.echo("\n".join(lines), err=True, color=colored() or None)
    sys.exit(code)
