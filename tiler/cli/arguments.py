"""What several commands take alike: the program argument (and the checked
program it names), NAME=VALUE pairs, the plan options and tuning file that
explain and compile share, and options that exclude each other.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

from ..analyse.options import CLI_NAMES
from ..errors import PlainError, colored
from ..pipeline import STDIN, read_program
from ..source import Source
from .guard import EXIT_USER


def _program_path(ctx, param, value: str) -> str:
    """A program path the commands can go on with (`-`: standard input): an
    empty one, or one the system refuses to look at (too long, say), is a
    usage mistake here rather than an error deep inside a command."""
    if value == "":
        raise click.BadParameter("the path is empty: name a .fut file, or - for standard input")
    if value != STDIN:
        try:
            Path(value).stat()
        except FileNotFoundError:
            pass  # the command says what is missing (a shipped benchmark's name is found by some)
        except (OSError, ValueError) as exc:
            raise click.BadParameter(f"cannot look at it: {getattr(exc, 'strerror', None) or exc}") from None
    return value


PROGRAM = click.argument("program", metavar="PROG.fut", callback=_program_path)


def checked(path: str):
    return checked_with_source(path)[0]


def checked_with_source(path: str):
    from ..pipeline import run_to

    text, name = read_program(path)
    return run_to("check", text, name), Source(text, name)


def pairs(options, what: str, convert=str) -> dict:
    out = {}
    for item in options:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise PlainError(f"{what} expects NAME=VALUE, got `{item}`")
        key = name.strip()
        if key in out:  # a conflict is refused, never settled silently by the last one
            raise PlainError(f"{what} {key} is given twice", f"give {what} {key}=... once")
        try:
            out[key] = convert(value.strip())
        except ValueError:
            raise PlainError(f"{what} {name}: `{value}` is not valid") from None
    return out


def plan_options(fn):
    """Every plan option (analyse.options.OPTIONS), shared by explain and
    compile, so that explain shows exactly what compile will do."""
    from ..analyse.options import OPTIONS, Takes

    for name, o in reversed(OPTIONS.items()):  # click lists the last decorator applied first
        if o.takes is Takes.FLAG:
            fn = click.option(o.flag, name, is_flag=True, help=o.help)(fn)
        elif o.takes is Takes.EITHER:
            fn = click.option(f"{o.flag}/--no-{o.flag[2:]}", name, default=None, help=o.help)(fn)
        else:  # a table is repeatable NAME=N; a whole number is an int; a tile is text
            fn = click.option(*filter(None, (o.short, o.flag)), name, multiple=o.takes is Takes.TABLE,
                              metavar=o.metavar, default=None, type=int if o.takes is Takes.WHOLE else None,
                              help=o.help)(fn)
    return fn


WERROR = click.option("--werror", "-Werror", "werror", is_flag=True,
                      help="Treat warnings as errors: print them as errors and exit 1 (compile then writes nothing).")


def warned(warnings, source, werror: bool) -> None:
    """The warnings on stderr, `file:line:col: warning: ...` with the source
    line; under --werror as errors, and exit 1."""
    for w in warnings:
        click.echo(w.render(source, "error" if werror else "warning"), err=True, color=colored() or None)
    if werror and warnings:
        click.echo(f"{len(warnings)} warning{'s' if len(warnings) > 1 else ''} treated as errors (--werror)", err=True)
        sys.exit(EXIT_USER)


def tuning_options(fn):
    """--tuning and --no-tuning: explain and compile read the same file."""
    fn = click.option("--no-tuning", is_flag=True, help="Ignore PROG.tuning.")(fn)
    fn = click.option("--tuning", "tuning_file", metavar="FILE",
                      help="Read tuned plan parameters from FILE instead of PROG.tuning beside the program.")(fn)
    return fn


def tuned_options(program: str, plan: dict):
    """The plan options, with the program's tuning applied where the command
    line left them at their defaults."""
    from ..tune.tuning import for_program

    tuning_file, no_tuning = plan.pop("tuning_file"), plan.pop("no_tuning")
    if tuning_file and no_tuning:
        raise PlainError("--tuning and --no-tuning contradict each other", "give one of them")
    return for_program(program, options_from(**plan), tuning_file, no_tuning)


def options_of_flags(flags: list[str]):
    """The plan options a list of command-line flags gives (`--tile 16
    --no-vector`), parsed as `tiler explain` parses its own."""
    from ..analyse.options import OPTIONS

    @click.command("explain")
    @plan_options
    def parse(**plan):  # (the plan options alone, as every command parses them)
        pass

    try:
        refuse_repeats(parse, flags)
        ctx = parse.make_context("explain", list(flags))
    except click.ClickException as exc:
        raise PlainError(f"{' '.join(flags)}: {exc.format_message()}") from None
    return options_from(**{k: v for k, v in ctx.params.items() if k in OPTIONS})


def options_from(**given):
    """The plan options from the command line's values (NAME=N pairs for a table)."""
    from ..analyse.options import OPTIONS, Takes, make_options

    given = {k: pairs(v, OPTIONS[k].flag, int) if OPTIONS[k].takes is Takes.TABLE else v for k, v in given.items()}
    return make_options(CLI_NAMES, **given)


def _exclusive(first, *others) -> None:
    """Refuse `first` (flag, value) given together with any of `others`: a
    conflict is an error, never settled silently by one of them."""
    flag, value = first
    clash = [f for f, v in others if v]
    if value and clash:
        raise PlainError(f"{flag} and {clash[0]} cannot be used together", "give one of them")


def refuse_repeats(command: click.Command, args: list[str]) -> None:
    """A usage error where an option that holds one value is given twice
    with different values (`--tile 16 --tile 32`, `--emit cuda --emit
    header`, `-o a.cu -ob.cu`) or a flag both ways (`--transpose
    --no-transpose`): click would keep the last, silently."""
    by_name = {name: p for p in command.params if isinstance(p, click.Option) and not p.multiple and not p.count
               for name in (*p.opts, *p.secondary_opts)}
    seen: dict[str, list[tuple[str, str]]] = {}  # option -> (as written, its value)
    tokens = iter(args)
    for token in tokens:
        if token == "--":
            break
        found = _option_in(token, by_name)
        if found is None:
            continue
        name, p, attached = found
        if p.is_flag:
            value = "off" if name in p.secondary_opts else "on"  # --werror and -Werror: one flag, two spellings
        else:
            value = attached if attached is not None else next(tokens, "")
        given = seen.setdefault(p.name, [])
        if any(v == value for _, v in given):
            continue  # the same again changes nothing
        given.append((name if p.is_flag else value, value))
        if len(given) > 1:
            (first, _), (second, _) = given[:2]
            what = (f"{first} and {second} contradict each other: give one of them" if p.is_flag else
                    f"{p.opts[0]} is given twice, as {first} and {second}: give it once")
            raise click.UsageError(what)


def _option_in(token: str, by_name: dict):
    """(the option's name, the option, a value written into the token or
    None) where `token` gives one: `--tile`, `--tile=16`, `-o`, `-oout.cu`."""
    if token in by_name:
        return token, by_name[token], None
    if token.startswith("--") and "=" in token:
        name, _, value = token.partition("=")
        return (name, by_name[name], value) if name in by_name else None
    if len(token) > 2 and token[0] == "-" and token[1] != "-" and token[:2] in by_name and not by_name[token[:2]].is_flag:
        return token[:2], by_name[token[:2]], token[2:]
    return None
