"""`tiler explain`: what was tiled, how and why (or why not)."""
from __future__ import annotations

import json

import click

from .. import target
from ..analyse.options import CLI_NAMES, check_size_names
from ..errors import PlainError, UserError
from ..pipeline import read_program
from ..report.warnings import warnings_of
from ..source import Source
from .arguments import PROGRAM, WERROR, _exclusive, plan_options, tuned_options, tuning_options, warned
from .display import _width
from .guard import guarded


@click.command("explain")
@PROGRAM
@plan_options
@tuning_options
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@click.option("--variance", "show_variance", is_flag=True, help="Also print the variance of every name.")
@click.option("--show-transformed", is_flag=True,
              help="Print the program rewritten in the design note's tiled notation; for a register tile, then "
                   "the kernel after strip-mining and after sequentialising; and a fissioned fold's pairs' kernel.")
@click.option("--show-rewrites", is_flag=True,
              help="Print the register-tiled kernel's body for one point a thread and after each rewrite that "
                   "makes it compute the thread's points (strip-mine, interchange, sequentialise), as CUDA.")
@click.option("--candidates", is_flag=True, help="Also list every candidate schedule with its cost, best first.")
@click.option("--nvcc", "use_nvcc", is_flag=True,
              help="Also compile the CUDA with nvcc and give ptxas's registers, spills and shared memory for each "
                   "version.")
@click.option("--arch", default="sm_90", show_default=True,
              help="GPU architecture: the plan keeps to its limits (shared memory, cp.async, the matrix units), and "
                   "--nvcc builds for it.")
@WERROR
@guarded
def explain_cmd(program, as_json, show_variance, show_transformed, show_rewrites, candidates, use_nvcc, arch, werror,
                **plan):
    """Show PROG.fut's parallel dimensions, every streamSeq input, what it is
    invariant to, and what was tiled, how and why (or why not)."""
    try:
        _explain(program, as_json, show_variance, show_transformed, show_rewrites, candidates, use_nvcc, arch, werror,
                 plan)
    except (UserError, PlainError) as exc:
        if as_json:  # a tool reading the JSON gets the errors as data (and a person the text, on stderr)
            click.echo(json.dumps({"file": program, "errors": error_records(exc)}, indent=2))
        raise


def error_records(exc: UserError | PlainError) -> list[dict]:
    """A user error as data: each message, its hint and where it is."""
    if isinstance(exc, PlainError):
        return [{"severity": "error", "message": exc.message, "hint": exc.hint or None}]
    return [{"severity": "error", "message": d.message, "hint": d.hint or None, "file": d.span.file,
             "line": d.span.line, "column": d.span.col, "end_line": d.span.end_line, "end_column": d.span.end_col}
            for d in exc.diagnostics]


def _explain(program, as_json, show_variance, show_transformed, show_rewrites, candidates, use_nvcc, arch, werror,
             plan):

    from ..pipeline import run_all
    from ..report.explain import explain_data
    from ..report.explain_text import render_text
    from ..tree import no_cycle_collection
    from ..tune.tuning import describe

    _exclusive(("--json", as_json), ("--show-transformed", show_transformed))
    _exclusive(("--candidates", candidates), ("--show-transformed", show_transformed))
    _exclusive(("--nvcc", use_nvcc), ("--show-transformed", show_transformed))
    for flag, given in (("--json", as_json), ("--show-transformed", show_transformed), ("--candidates", candidates),
                        ("--nvcc", use_nvcc), ("--variance", show_variance)):
        _exclusive((flag, given), ("--show-rewrites", show_rewrites))
    options, applied = tuned_options(program, plan)
    target.check_arch(arch)
    text, name = read_program(program)
    values = run_all(text, name, options, until="render" if use_nvcc else "verify",
                     device=target.device_for_arch(arch))
    check_size_names(values["check"].kernel, options, CLI_NAMES)
    analysis = values["analyse"]
    with no_cycle_collection():  # (the records hold no cycles: a program of 20,000 lets, 0.39 -> 0.1 s)
        data = explain_data(analysis, Source(text, name), values["verify"], applied, values["versions"])
    if use_nvcc:
        from ..report.explain import with_ptxas
        from ..runtime.nvcc import module_reports

        with_ptxas(data, values["verify"], module_reports(values["render"], arch), arch)
    data["tuning"] = describe(applied)
    if show_transformed:
        from ..pipeline import shown_synchronous
        from ..report.transformed import show_transformed as transformed

        shown = shown_synchronous(values)
        click.echo(transformed(values["parse"], analysis, shown, values["versions"].fission), nl=False)
    elif show_rewrites:
        from ..report.rewrites import show_rewrites as rewrites

        click.echo(rewrites(values["verify"], analysis.block.register is not None), nl=False)
    elif as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        width = _width()
        from rich.console import Console
        click.echo(render_text(data, show_variance, width or Console().width, candidates), nl=False)
    if werror:  # listed above in the output asked for; as errors on stderr too, then exit 1
        warned(warnings_of(analysis, applied), Source(text, name), werror)

