"""Transfer learning: the fine-tune strategy's training config.

The NeuroNER transfer study found two strategies best when an external
annotated corpus (e.g. i2b2 2014) sits beside the target one (e.g. N-GRID
2016): *concurrent* (train on both together; needs only a folder holding
both .spacy files) and *fine-tune* (train on the external corpus, then go on
training that pipeline on the target corpus). For fine-tuning, every trained
component of the base config is sourced from the external pipeline instead
of being built by its factory; spaCy then resumes their training rather than
initializing them afresh, keeping the learned weights, labels, rules and
dictionaries. The [training], [corpora] and [initialize] blocks stay those of
the base config.

For a site's own corrected notes (the review page's export), `mixed_notes`
mixes them with generated notes (rehearsal) for the `fine-tune-site`
workflow (docs/review.md).
"""
import random
from pathlib import Path
from typing import List, Optional, Sequence, Tuple, TypeVar, Union

from thinc.api import Config

T = TypeVar("T")


def finetune_config(base: Config, source: Union[str, Path]) -> Config:
    """`base` with each pipeline component sourced from the pipeline `source`."""
    config = Config(base).copy()
    pipeline = config["nlp"]["pipeline"]
    missing = [name for name in pipeline if name not in config["components"]]
    if missing:
        raise ValueError(f"the base config lists {', '.join(missing)} but has no block for them")
    for name in pipeline:
        config["components"][name] = {"source": str(source)}
    return config


def mixed_notes(
    site: Sequence[T], generated: Sequence[T], repeat: Optional[int] = None, seed: int = 0
) -> Tuple[List[T], int]:
    """A site's corrected notes mixed with generated notes, shuffled, and the copies made.

    Fine-tuning on a few site notes alone would forget what the generated
    notes taught (rehearsal keeps it); the site notes are repeated (`repeat`,
    default about as many site notes as generated ones) so they still weigh.
    """
    copies = repeat if repeat is not None else max(1, round(len(generated) / max(1, len(site))))
    notes = [note for note in site for _ in range(copies)] + list(generated)
    random.Random(seed).shuffle(notes)
    return notes, copies
