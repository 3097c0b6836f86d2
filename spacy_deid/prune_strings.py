"""Remove a fine-tuned pipeline's strings that its source pipeline did not have.

spaCy's string store keeps every word a pipeline tokenized while it was
trained, and `nlp.to_disk` writes them to `vocab/strings.json`. A pipeline
fine-tuned on a site's notes therefore carries words of those notes (names
among them) in a plain file. Inference never needs those strings: spaCy
hashes text as it reads it, and the trained weights hold hashes, not
strings. `prune_strings` rewrites `vocab/strings.json` to the strings the
source pipeline had plus the labels of the fine-tuned components.
"""
from pathlib import Path
from typing import Iterable, Set, Tuple, Union

import spacy
import srsly

STRINGS_FILE = Path("vocab") / "strings.json"


class PruneError(ValueError):
    """A pipeline folder whose strings cannot be pruned (names the folder, never strings)."""


def component_labels(nlp) -> Set[str]:
    """The labels of every component that has them (NER entity types, ...)."""
    found: Set[str] = set()
    for _, pipe in nlp.pipeline:
        labels: Iterable[str] = getattr(pipe, "labels", None) or ()
        found.update(str(label) for label in labels)
    return found


def prune_strings(model_dir: Union[str, Path], source: Union[str, Path]) -> Tuple[int, int]:
    """Rewrite MODEL_DIR/vocab/strings.json without the strings SOURCE (a
    pipeline folder or installed package) lacks; returns (kept, removed)."""
    model_dir = Path(model_dir)
    strings_path = model_dir / STRINGS_FILE
    if not strings_path.is_file():
        raise PruneError(f"{model_dir}: not a saved pipeline (no {STRINGS_FILE})")
    keep = set(spacy.load(source).vocab.strings)
    keep |= component_labels(spacy.load(model_dir))
    strings = srsly.read_json(strings_path)
    if not isinstance(strings, list):
        raise PruneError(f"{strings_path}: expected a list of strings")
    kept = [s for s in strings if s in keep]
    srsly.write_json(strings_path, kept)
    return len(kept), len(strings) - len(kept)
