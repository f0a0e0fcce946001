"""`tiler docs`: the documents that ship with the package."""
from __future__ import annotations

import click

from ..errors import PlainError
from .guard import guarded


@click.command("docs")
@click.argument("topic", required=False)
@click.option("--path", "show_path", is_flag=True, help="Print the document's path instead of its text.")
@guarded(deep=False)
def docs_cmd(topic, show_path):
    """Show one of tiler's documents (TOPIC: `language` is the input
    language's reference; `examples/mm_host.cu` a host program calling a
    generated kernel), or list them; they ship with the package."""
    from ..resources import docs_dir

    found = {p.stem: p for p in sorted(docs_dir().glob("*.md"))}
    # the examples (a host program calling a generated kernel), by their path under docs/
    found |= {f"examples/{p.name}": p for p in sorted((docs_dir() / "examples").glob("*")) if p.is_file()}
    if topic is None:
        for name, p in found.items():
            click.echo(f"{name:20} {_heading(p)}")
        return
    if topic not in found:
        raise PlainError(f"no document `{topic}`", f"tiler's documents: {', '.join(found)}")
    click.echo(str(found[topic]) if show_path else found[topic].read_text())


def _heading(p) -> str:
    """A document's first heading, or an example's first comment line."""
    lines = p.read_text().splitlines()
    if p.suffix == ".md":
        return next((line.lstrip("# ").strip() for line in lines if line.startswith("#")), "")
    return next((line.lstrip("/ ").strip() for line in lines if line.startswith("//")), "")
