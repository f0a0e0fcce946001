"""`tiler compile`: a program's CUDA, its header and launch description, or
one stage's result (--emit).
"""
from __future__ import annotations

from pathlib import Path

import click

from ..analyse.options import CLI_NAMES, check_size_names
from ..errors import PlainError
from ..pipeline import EMITS, STAGE_NAMES, STAGES, read_program
from ..report.warnings import warnings_of
from ..source import Source
from .arguments import PROGRAM, WERROR, _exclusive, plan_options, tuned_options, tuning_options, warned
from .files import _write, _write_together, refuse_overwriting
from .guard import guarded


@click.command("compile")
@PROGRAM
@click.option("-o", "--output", default="-", show_default=True, metavar="OUT.cu",
              help="Where to write the CUDA ('-': standard output); OUT.h (the host launcher's header) and "
                   "OUT.launch.json are written beside it. "
                   "With --emit, where the stage's result goes.")
@plan_options
@tuning_options
@click.option("--arch", default="sm_90", show_default=True,
              help="GPU architecture: the plan keeps to its limits (shared memory, cp.async, the matrix units), and "
                   "--nvcc and the launch file name it.")
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
        values = run_all(text, name, options, until=stop_after, stem=symbol, device=target.device_for_arch(arch))
        if "analyse" in values:  # (the stages before it have no warnings)
            warned(warnings_of(values["analyse"], applied), Source(text, name), werror)
        return
    values = run_all(text, name, options, stem=symbol, device=target.device_for_arch(arch))
    check_size_names(values["check"].kernel, options, CLI_NAMES)
    warned(warnings_of(values["analyse"], applied), Source(text, name), werror)
    describe = dict(launch(values["verify"]), arch=arch)
    if emit:
        shown = _emitted(emit, values, describe, Source(text, name, symbol or ""))
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

        files = {output: cuda}
        launch_file, header_file = _companions(output)
        if _plain(output):  # (beside a device, /dev/null, there is nowhere to write them)
            files |= {launch_file: json.dumps(describe, indent=2) + "\n", header_file: header(values["verify"])}
        _write_together(files)
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
        return versions_text(value, source.stem)
    if stage.name == "render":
        return value
    return dump(value)


HEADER_SUFFIXES = (".h", ".hpp", ".cuh")


def _companions(output: str) -> tuple[str, str]:
    """The launch description and the header written beside the CUDA."""
    stem = str(Path(output).with_suffix(""))
    return stem + ".launch.json", stem + ".h"


def _plain(output: str) -> bool:
    """-o names a file (new or plain), not a device or a pipe."""
    path = Path(output)
    return not path.exists() or path.is_file()


def _check_output(output: str, program: str, emit: str | None) -> None:
    """Refuse an -o that would destroy or lose work: one of the files it
    writes (the CUDA, and beside it the header and the launch description)
    being the program or its tuning file, or a header name for the kernels
    (which then went nowhere)."""
    if output == "-":
        return
    from ..pipeline import program_file
    from ..tune.tuning import tuning_path

    source = program_file(program)
    reads = {source: "the program", tuning_path(str(source)) if source else None: "the program's tuning file"}
    refuse_overwriting([output] + (list(_companions(output)) if emit is None else []), reads)
    if emit is None and Path(output).suffix in HEADER_SUFFIXES:
        stem = Path(output).with_suffix("")
        raise PlainError(f"-o {output}: -o names the CUDA file; the header is written beside it as {stem}.h",
                         f"write -o {stem}.cu (or --emit header -o {output} for the header alone)")
