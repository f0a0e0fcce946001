"""`tiler compile`: a program's CUDA, its header and launch description, or
one stage's result (--emit).
"""
from __future__ import annotations

from pathlib import Path

import click

from ..analyse.options import CLI_NAMES, check_size_names
from ..errors import PlainError
from ..pipeline import EMITS, STAGE_NAMES, STAGES, STDIN, read_program
from ..report.warnings import warnings_of
from ..source import Source
from .arguments import PROGRAM, WERROR, _exclusive, plan_options, tuned_options, tuning_options, warned
from .files import _write, _write_together
from .guard import guarded


@click.command("compile")
@PROGRAM
@click.option("-o", "--output", default="-", show_default=True, metavar="OUT.cu",
              help="Where to write the CUDA ('-': standard output); OUT.h (the host launcher's header) and "
                   "OUT.launch.json are written beside it. "
                   "With --emit, where the stage's result goes.")
@plan_options
@tuning_options
@click.option("--arch", default="sm_90", show_default=True, help="GPU architecture, for --nvcc and the launch file.")
@click.option("--name", "symbol", default=None, metavar="NAME",
              help="The name in the generated symbols (tiler_NAME_launch, tiler_NAME_tiled, ...) instead of the "
                   "program file's (a program read from - is `stdin`).")
@click.option("--emit", type=click.Choice(EMITS), default=None,
              help="Print one stage's result instead: " + ", ".join(f"{s.emit} ({s.name})" for s in STAGES)
                   + ", launch (the launch description) or header (the host launcher's C header).")
@click.option("--stop-after", type=click.Choice(STAGE_NAMES), default=None,
              help="Run the stages up to this one, print nothing, and exit (0 when they succeed).")
@click.option("--nvcc", "use_nvcc", is_flag=True,
              help="Also compile the CUDA with nvcc and print ptxas's report (registers, spills, shared memory).")
@WERROR
@guarded
def compile_cmd(program, output, arch, emit, stop_after, use_nvcc, symbol, werror, **plan):
    """Compile PROG.fut to a CUDA kernel (tiled as `tiler explain` shows) and
    describe how to launch it."""
    import json

    from .. import target
    from ..pipeline import run_all, symbol_name
    from ..render import launch

    symbol = symbol_name(symbol)

    _exclusive(("--stop-after", stop_after), ("--emit", emit), ("--nvcc", use_nvcc), ("-o", output != "-"))
    _exclusive(("--emit", emit), ("--nvcc", use_nvcc))
    options, applied = tuned_options(program, plan)
    target.check_arch(arch)
    _check_output(output, program, emit)
    text, name = read_program(program)
    if stop_after:
        values = run_all(text, name, options, until=stop_after, stem=symbol)
        if "analyse" in values:  # (the stages before it have no warnings)
            warned(warnings_of(values["analyse"], applied), Source(text, name), werror)
        return
    values = run_all(text, name, options, stem=symbol)
    check_size_names(values["check"].kernel, options, CLI_NAMES)
    warned(warnings_of(values["analyse"], applied), Source(text, name), werror)
    describe = dict(launch(values["verify"]), arch=arch)
    if emit:
        shown = _emitted(emit, values, describe, Source(text, name))
        if output == "-":
            click.echo(shown, nl=False)
        else:
            _write(output, shown)
        return
    cuda = values["render"]
    if output == "-":
        click.echo(cuda, nl=False)
    else:
        from ..render import header

        stem = str(Path(output).with_suffix(""))
        _write_together({output: cuda, stem + ".launch.json": json.dumps(describe, indent=2) + "\n",
                         stem + ".h": header(values["verify"])})
    if use_nvcc:
        from ..runtime.nvcc import compile_report
        click.echo(compile_report(cuda, arch, values["verify"].functions), err=True)


def _emitted(emit: str, values: dict, describe: dict, source: Source) -> str:
    import json

    from ..report.dump import dump
    from ..report.explain import explain_data
    from ..syntax import pretty

    if emit == "launch":
        return json.dumps(describe, indent=2) + "\n"
    if emit == "header":
        from ..render import header
        return header(values["verify"])
    stage = next(s for s in STAGES if s.emit == emit)
    value = values[stage.name]
    if stage.name == "parse":
        return pretty(value)
    if stage.name == "analyse":
        return json.dumps(explain_data(value, source, versions=values["versions"]), indent=2) + "\n"
    if stage.name == "versions":
        from ..report.versions import versions_text
        return versions_text(value)
    if stage.name == "render":
        return value
    return dump(value)


HEADER_SUFFIXES = (".h", ".hpp", ".cuh")


def _check_output(output: str, program: str, emit: str | None) -> None:
    """Refuse an -o that would destroy or lose work: the program itself, or a
    header name for the kernels (which then went nowhere)."""
    if output == "-":
        return
    if program != STDIN and Path(output).resolve() == Path(program).resolve():
        raise PlainError(f"-o {output} would write over the program", "name the CUDA file, e.g. -o kernel.cu")
    if emit is None and Path(output).suffix in HEADER_SUFFIXES:
        stem = Path(output).with_suffix("")
        raise PlainError(f"-o {output}: -o names the CUDA file; the header is written beside it as {stem}.h",
                         f"write -o {stem}.cu (or --emit header -o {output} for the header alone)")
