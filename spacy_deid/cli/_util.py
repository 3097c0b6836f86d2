"""Helpers shared by the command modules."""
from pathlib import Path
from typing import Optional

import typer
from spacy.language import Language
from wasabi import color, msg

from ..corpus.problems import CorpusFormatError


def fail_on_corpus_error(error: Exception) -> "typer.Exit":
    """Print a corpus error (file, tag, problem; never note text) and exit 1."""
    # Printed whole: wasabi would wrap a long file path across lines.
    print(color(f"\u2718 {error}", fg="red"))
    return typer.Exit(code=1)


def load_tokenizer_pipeline(base: Optional[str]) -> Language:
    """The pipeline whose tokenizer converts text: a name/path, a .cfg, or the default."""
    import spacy

    from ..corpus.docs import default_tokenizer_nlp

    if base is None:
        return default_tokenizer_nlp()
    if base.endswith(".cfg"):
        config = spacy.util.load_config(Path(base))
        return spacy.util.load_model_from_config(config, auto_fill=True, validate=True)
    return spacy.load(base, exclude=[], disable=[])


def corpus_path_or_default(value: str, if_empty: Optional[Path]) -> Path:
    """A corpus path argument; an empty one (a project var left empty) means `if_empty`."""
    if value.strip():
        path = Path(value)
    elif if_empty is not None:
        path = if_empty
        msg.info(f"No corpus path given: using {path}")
    else:
        msg.fail("the corpus path is empty (and no --if-empty corpus was given)", exits=1)
    if not path.exists():
        msg.fail(f"corpus path does not exist: {path}", exits=1)
    return path


IF_EMPTY_HELP = "Corpus to use when the path is an empty string (as the project's data vars are by default)"


def warn_lines(summary: str) -> None:
    """A multi-line summary as a warning, its lines kept (wasabi would re-wrap them)."""
    first, *rest = summary.splitlines()
    msg.warn(first)
    for line in rest:
        print(line)


CORPUS_ERRORS = (CorpusFormatError, FileNotFoundError)
