"""Serialization for the components that hold no data of their own.

`deid_ontonotes`, `deid_ner_scores` and `deid_release` take everything they
need from their settings (the config) and the Doc: they save nothing (the
release mapping is PHI and is never saved with a pipeline). They still follow
the lifecycle of the components with data (spacy/pipeline/span_ruler.py:
`initialize`, and the serialization methods of `serialize.SavedParts` with
no parts), so that every one of the nine saves, loads and copies the same
way. A pipeline saved before they had these methods has no folder for them;
loading it reads nothing, as now.
"""
from typing import Dict

from spacy.pipeline import Pipe

from .serialize import Part, SavedParts


class SettingsOnlyPipe(SavedParts, Pipe):
    """A `Pipe` whose state is its settings: nothing to initialize or save."""

    def initialize(self, get_examples=None, *, nlp=None) -> None:
        return None

    def saved_parts(self) -> Dict[str, Part]:
        return {}
