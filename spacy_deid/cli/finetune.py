"""`spacy-deid finetune-config`: the training config of the fine-tune transfer strategy;
`spacy-deid finetune-mix`: a site's corrected notes mixed with generated notes, the
training data of the `fine-tune-site` workflow (docs/review.md);
`spacy-deid keep-source`: a fine-tuned pipeline that also takes its source NER's
proposals of the kinds the site's corrections show it gets right;
`spacy-deid prune-strings`: a fine-tuned pipeline without the words of the site's notes
in its string store."""
from pathlib import Path
from typing import List, Optional

import typer
from spacy.util import load_config
from wasabi import msg

from ..corpus.docbin import notes_to_docbin
from ..corpus.formats import read_corpus
from ..pipeline.source_proposals import DEFAULT_MIN_PRECISION
from ..prune_strings import PruneError, prune_strings
from ..review.export import ExportError, unpacked
from ..transfer import check_learn_rate, finetune_config, mixed_notes, phi_windows, site_copies
from ._app import app
from ._util import CORPUS_ERRORS, check_pipeline_source, fail_on_corpus_error, load_tokenizer_pipeline

# Whole notes by default; fine-tune-site passes its own share (site_phi_free_share).
DEFAULT_PHI_FREE_SHARE = 1.0


def read_site_notes(site: Path) -> list:
    """The site's corrected notes (a review export or a corpus); exit 1 naming the
    file when they cannot be read or there are none."""
    try:
        with unpacked(site) as site_path:
            notes = list(read_corpus(site_path))
    except CORPUS_ERRORS as error:
        raise fail_on_corpus_error(error)
    except (ExportError, ValueError) as error:
        msg.fail(str(error), exits=1)
    if not notes:
        msg.fail(f"{site}: no notes", exits=1)
    return notes


@app.command("finetune-config")
def finetune_config_cli(
    base_config: Path = typer.Argument(..., help="The config the source pipeline was trained with",
                                       exists=True, dir_okay=False),
    source: str = typer.Argument(..., help="The pipeline to go on training: a folder, or the "
                                 "name of an installed pipeline package (e.g. en_deid_psych)"),
    output: Path = typer.Argument(..., help="Where to write the fine-tune config"),
    learn_rate: Optional[float] = typer.Option(
        None, "--learn-rate", help="The optimizer's rate (default: the base config's); "
        "fine-tune-site passes 0.0002, a fifth of configs/cpu.cfg's (docs/review.md)"),
) -> None:
    """Write a config that goes on training SOURCE's components on new data."""
    check_pipeline_source(source)
    try:
        check_learn_rate(learn_rate)
    except ValueError as error:
        msg.fail(f"--learn-rate: {error}", exits=1)
    config = finetune_config(load_config(base_config), source, learn_rate=learn_rate)
    output.parent.mkdir(parents=True, exist_ok=True)
    config.to_disk(output)
    msg.good(f"Fine-tune config written to {output} (components sourced from {source})")


@app.command("finetune-mix")
def finetune_mix_cli(
    site: Path = typer.Argument(..., help="The site's corrected notes: a review export (.zip) "
                                "or .jsonl, or a corpus folder/file (i2b2 2014 XML, JSONL, ...)"),
    generated: Path = typer.Argument(..., help="Generated notes to mix in (spacy-deid synth)"),
    output: Path = typer.Argument(..., help="The training DocBin to write (.spacy)"),
    repeat: Optional[int] = typer.Option(
        None, "--repeat", min=1,
        help="Copies of each site note (default: about as many site notes as generated ones)",
    ),
    base: Optional[str] = typer.Option(
        None, "--base", "-b", help="Pipeline or .cfg whose tokenizer to use (as in convert)"
    ),
    phi_free_share: float = typer.Option(
        DEFAULT_PHI_FREE_SHARE, "--phi-free-share", min=0.0, max=1.0,
        help="Train on the site notes' lines: every line with PHI and this share of the "
        "lines without (1: whole notes). Real notes mostly hold no PHI; all of it teaches "
        "the NER to fire less",
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the PHI-free lines kept and the shuffle"),
) -> None:
    """Write one DocBin of the site's notes (repeated) and generated notes, shuffled."""
    if output.suffix != ".spacy":
        msg.fail(f"{output}: the output must end in .spacy", exits=1)
    nlp = load_tokenizer_pipeline(base)
    site_notes = read_site_notes(site)
    try:
        generated_notes = list(read_corpus(generated))
    except CORPUS_ERRORS as error:
        raise fail_on_corpus_error(error)
    except ValueError as error:
        msg.fail(str(error), exits=1)
    # Copies as for the whole notes: a PHI line weighs as it would in its note.
    copies = site_copies(site_notes, generated_notes, repeat)
    windows = phi_windows(site_notes, phi_free_share, seed=seed)
    notes, copies = mixed_notes(windows, generated_notes, copies, seed=seed)
    output.parent.mkdir(parents=True, exist_ok=True)
    notes_to_docbin(notes, nlp.tokenizer).to_disk(output)
    parts = "" if phi_free_share == 1.0 else f" ({len(windows)} lines: all with PHI, " \
        f"{phi_free_share:.0%} of the others)"
    msg.good(
        f"Wrote {output}: {len(site_notes)} site notes{parts} x {copies} and "
        f"{len(generated_notes)} generated notes"
    )


@app.command("keep-source")
def keep_source_cli(
    model: Path = typer.Argument(..., help="The fine-tuned pipeline folder (rewritten in place)",
                                 exists=True, file_okay=False),
    source: str = typer.Argument(..., help="The pipeline it was fine-tuned from: a folder, or the "
                                 "name of an installed pipeline package (e.g. en_deid_psych)"),
    site: Path = typer.Argument(..., help="The site's corrected notes it was fine-tuned on: a "
                                "review export (.zip) or .jsonl, or a corpus folder/file"),
    min_precision: float = typer.Option(
        DEFAULT_MIN_PRECISION, "--min-precision", min=0.0, max=1.0,
        help="Take a label from the source when at least this share of the words the source "
        "releases with it in the site's notes are PHI",
    ),
    labels: Optional[List[str]] = typer.Option(
        None, "--label", help="Take these labels instead of choosing them (repeat the option)"),
) -> None:
    """Add SOURCE's NER to MODEL: its entities of the labels it gets right in the
    site's notes are kept where MODEL's own NER finds none (a fine-tuned NER forgets)."""
    import spacy

    from ..pipeline.source_proposals import add_source_proposals, label_precision, trusted_labels

    check_pipeline_source(source)
    site_notes = read_site_notes(site)
    source_nlp = spacy.load(source)
    if labels:
        chosen = list(dict.fromkeys(labels))
    else:
        counts = label_precision(source_nlp, site_notes)
        chosen = trusted_labels(counts, min_precision)
        for label, (hits, total) in counts.items():
            mark = "taken" if label in chosen else "left"
            msg.text(f"{label}: {hits} of {total} words PHI in the site's notes ({mark})")
    nlp = spacy.load(model)
    try:
        add_source_proposals(nlp, source_nlp, chosen)
    except ValueError as error:
        msg.fail(f"{model}: {error}", exits=1)
    nlp.to_disk(model)
    msg.good(f"{model}: the source's proposals of {', '.join(chosen) or 'no label'} are kept "
             f"({len(site_notes)} site notes)")


@app.command("prune-strings")
def prune_strings_cli(
    model: Path = typer.Argument(..., help="The fine-tuned pipeline folder (rewritten in place)",
                                 exists=True, file_okay=False),
    source: str = typer.Argument(..., help="The pipeline it was fine-tuned from: a folder, or the "
                                 "name of an installed pipeline package (e.g. en_deid_psych)"),
) -> None:
    """Drop the strings (words of the training notes) that SOURCE did not have."""
    check_pipeline_source(source)
    try:
        kept, removed = prune_strings(model, source)
    except PruneError as error:
        msg.fail(str(error), exits=1)
    msg.good(f"{model}: {removed} strings removed from its vocabulary, {kept} kept")
