"""`spacy-deid finetune-config`: the training config of the fine-tune transfer strategy."""
from pathlib import Path

import typer
from spacy.util import load_config
from wasabi import msg

from ..transfer import finetune_config
from . import app


@app.command("finetune-config")
def finetune_config_cli(
    base_config: Path = typer.Argument(..., help="The config the source pipeline was trained with",
                                       exists=True, dir_okay=False),
    source: Path = typer.Argument(..., help="The pipeline trained on the external corpus",
                                  exists=True, file_okay=False),
    output: Path = typer.Argument(..., help="Where to write the fine-tune config"),
) -> None:
    """Write a config that goes on training SOURCE's components on new data."""
    config = finetune_config(load_config(base_config), source)
    output.parent.mkdir(parents=True, exist_ok=True)
    config.to_disk(output)
    msg.good(f"Fine-tune config written to {output} (components sourced from {source})")
