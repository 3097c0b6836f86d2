"""`spacy-deid convert`: a corpus folder or file to a `.spacy` DocBin."""
from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from ..corpus.docbin import convert_corpus
from ..corpus.docs import EXPAND, MISALIGNED_POLICIES
from ..corpus.formats import AUTO, FORMATS
from ..review.export import ExportError, unpacked
from ._app import app
from ._util import (
    CORPUS_ERRORS,
    IF_EMPTY_HELP,
    corpus_path_or_default,
    fail_on_corpus_error,
    load_tokenizer_pipeline,
    warn_lines,
)


@app.command("convert")
def convert_cli(
    input_arg: str = typer.Argument(..., metavar="INPUT_PATH", help="Corpus file or folder"),
    output_path: Path = typer.Argument(..., help="Output .spacy file"),
    format: str = typer.Option(AUTO, "--format", "-f", help=f"One of {', '.join(FORMATS)}"),
    base: Optional[str] = typer.Option(
        None,
        "--base",
        "-b",
        help="Pipeline (name or path) or .cfg whose tokenizer to use; "
        "default: the package's tokenizer, as in its training configs",
    ),
    misaligned: str = typer.Option(
        EXPAND,
        "--misaligned",
        "-m",
        help=f"Mentions that start or end inside a token: {', '.join(MISALIGNED_POLICIES)}",
    ),
    lenient: bool = typer.Option(
        False, "--lenient", help="Skip and count bad tags instead of stopping at the first"
    ),
    if_empty: Optional[Path] = typer.Option(None, "--if-empty", help=IF_EMPTY_HELP),
) -> None:
    """Convert an annotated corpus (i2b2 2014/2006 XML, PhysioNet, annotated JSONL; a .zip
    of them, such as the review page's export) to a DocBin."""
    input_path = corpus_path_or_default(input_arg, if_empty)
    if format not in FORMATS:
        msg.fail(f"--format must be one of {', '.join(FORMATS)}", exits=1)
    if misaligned not in MISALIGNED_POLICIES:
        msg.fail(f"--misaligned must be one of {', '.join(MISALIGNED_POLICIES)}", exits=1)
    nlp = load_tokenizer_pipeline(base)
    try:
        # A .zip (the review page's export) is read as the folder of files it holds.
        with unpacked(input_path) as corpus_path:
            n_notes, n_mentions, problems, alignment = convert_corpus(
                corpus_path,
                output_path,
                # The tokenizer alone: nlp.make_doc refuses notes over max_length,
                # a limit for the parser/NER's memory, not for tokenizing.
                nlp.tokenizer,
                format=format,
                lenient=lenient,
                misaligned=misaligned,
            )
    except CORPUS_ERRORS as error:
        raise fail_on_corpus_error(error)
    except (ExportError, ValueError) as error:
        msg.fail(str(error), exits=1)
    msg.good(f"Wrote {n_notes} notes with {n_mentions} PHI mentions to {output_path}")
    if problems.total:
        warn_lines(problems.summary())
    if alignment.misaligned:
        warn_lines(alignment.summary())
