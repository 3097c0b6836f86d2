"""Serialization for the components that hold no data of their own.

`deid_ontonotes`, `deid_ner_scores` and `deid_release` take everything they
need from their settings (the config) and the Doc: they save nothing (the
release mapping is PHI and is never saved with a pipeline). They still follow
the lifecycle of the components with data (spacy/pipeline/span_ruler.py:
`initialize`, `to_disk`/`from_disk`, `to_bytes`/`from_bytes` through
`spacy.util`'s serializer dicts, `exclude` honoured), so that every one of the
nine saves, loads and copies the same way. A pipeline saved before they had
these methods has no folder for them; loading it reads nothing, as now.
"""
from pathlib import Path
from typing import Iterable, Union

from spacy import util
from spacy.pipeline import Pipe


class SettingsOnlyPipe(Pipe):
    """A `Pipe` whose state is its settings: nothing to initialize or save."""

    def initialize(self, get_examples=None, *, nlp=None) -> None:
        return None

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        return util.to_bytes({}, exclude)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()):
        util.from_bytes(bytes_data, {}, exclude)
        return self

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        util.to_disk(util.ensure_path(path), {}, exclude)

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()):
        util.from_disk(util.ensure_path(path), {}, exclude)
        return self
