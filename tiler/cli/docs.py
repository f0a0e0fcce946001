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
    language's reference), or list them; they ship with the package."""
    from ..resources import docs_dir

    found = {p.stem: p for p in sorted(docs_dir().glob("*.md"))}
    if topic is None:
        for name, p in found.items():
            heading = next((line.lstrip("# ").strip() for line in p.read_text().splitlines() if line.startswith("#")),
                           "")
            click.echo(f"{name:16} {heading}")
        return
    if topic not in found:
        raise PlainError(f"no document `{topic}`", f"tiler's documents: {', '.join(found)}")
    click.echo(str(found[topic]) if show_path else found[topic].read_text())
