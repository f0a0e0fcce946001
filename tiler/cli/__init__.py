"""The `tiler` command line.

Every command runs behind one error boundary (`guarded`): a mistake in the
user's program or options is printed as a located message with exit code 1;
anything else is an internal compiler error (exit code 3), never a bare
traceback.

This module holds the command group and the console script; each command
is in a module of its own (`run` holds check and run, `bench` holds bench
and corpus), and what they share is in `arguments`, `guard`, `files` and
`display`.
"""
from __future__ import annotations

import os
import sys

import click

from ..errors import set_color
from ..version import __version__
from .arguments import refuse_repeats
from .bench import bench_cmd, corpus_cmd
from .compile import compile_cmd
from .docs import docs_cmd
from .explain import explain_cmd
from .fuzz import fuzz_cmd
from .guard import EXIT_BUG, EXIT_INTERRUPTED, EXIT_USER, OUTPUT_ERRORS, closed_pipe, output_failed
from .run import check_cmd, run_cmd
from .tune import tune_cmd

__all__ = ["main", "entry", "EXIT_USER", "EXIT_BUG", "EXIT_INTERRUPTED"]


class _Commands(click.Group):
    def resolve_command(self, ctx, args):
        """The command, once its options are known to be given once each."""
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None:
            refuse_repeats(command, rest)
        return name, command, rest


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tiler")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Colour the diagnostics (auto: where standard error is a terminal and NO_COLOR is not set).")
def main(color):
    """tiler: finds tiling opportunities in GPU kernel programs and writes tiled CUDA.

    A program is a kernel in tiler's input language (`tiler docs language`): a host
    prelude and a nest of 1 to 3 maps whose body streams over arrays with
    streamSeq. Every command that takes PROG.fut reads standard input for `-`."""
    set_color(color == "always" or (color == "auto" and sys.stderr.isatty() and not os.environ.get("NO_COLOR")))


for command in (docs_cmd, check_cmd, run_cmd, explain_cmd, compile_cmd, tune_cmd, bench_cmd, corpus_cmd, fuzz_cmd):
    main.add_command(command)


def entry() -> None:
    """The console script: like `main`, but a usage mistake (an unknown
    option or value) exits with 1, as every user error does."""
    try:
        code = main.main(standalone_mode=False)
        sys.stdout.flush()
    except click.exceptions.NoArgsIsHelpError as exc:  # `tiler` alone: show the help
        _shown(exc.ctx.get_help())
        sys.exit(0)
    except BrokenPipeError:  # --help, --version: their reader went away
        closed_pipe()
    except OSError as exc:
        if exc.errno not in OUTPUT_ERRORS:
            raise
        output_failed(exc)
    except click.UsageError as exc:
        exc.show()
        sys.exit(EXIT_USER)
    except click.Abort:  # Ctrl-C (click turns the KeyboardInterrupt into this): the shell's code for SIGINT
        click.echo("interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(code if isinstance(code, int) else 0)


def _shown(text: str) -> None:
    try:
        click.echo(text)
        sys.stdout.flush()
    except BrokenPipeError:
        closed_pipe()
    except OSError as exc:
        if exc.errno not in OUTPUT_ERRORS:
            raise
        output_failed(exc)
