"""`deid_release`: a pipeline component that writes a Doc's released text to
`doc._.released_text`, for users who want it from `nlp(text)` directly.

    nlp.add_pipe("deid_release", last=True, config={"deidentifier": {
        "@misc": "spacy-deid.Deidentifier.v1", "operator": "surrogate", "seed": "a secret"}})

The operators come from the config. The mapping lives in the component for
the life of the process and is never saved with the pipeline (it is PHI);
`component.deidentifier.mapping.to_disk(...)` saves it on purpose. With
several processes each worker has its own mapping: for batches, use
`spacy-deid deidentify`, which releases every Doc in one process.

A `Pipe` with nothing to save (`SettingsOnlyPipe`): `nlp.to_disk` writes an
empty folder for it, and the Deidentifier is rebuilt from the config on load.
"""
from spacy.language import Language
from spacy.tokens import Doc

from ..extensions import install_extensions
from ..pipeline.lifecycle import SettingsOnlyPipe
from .release import Deidentifier

DEFAULT_CONFIG = {"deidentifier": {"@misc": "spacy-deid.Deidentifier.v1"}}


@Language.factory(
    "deid_release",
    default_config=DEFAULT_CONFIG,
    assigns=["doc._.released_text"],
    requires=["doc.ents"],
)
def make_release(nlp: Language, name: str, deidentifier: Deidentifier) -> "ReleaseComponent":
    """Create a `deid_release` (its Deidentifier comes from the config block)."""
    return ReleaseComponent(nlp.vocab, name, deidentifier=deidentifier)


class ReleaseComponent(SettingsOnlyPipe):
    """Sets `doc._.released_text` from `doc.ents` (patient: `doc._.patient_id`)."""

    def __init__(self, vocab, name: str = "deid_release", *, deidentifier: Deidentifier) -> None:
        install_extensions()
        self.vocab = vocab
        self.name = name
        self.deidentifier = deidentifier

    def __call__(self, doc: Doc) -> Doc:
        doc._.released_text = self.deidentifier.release_doc(doc).text
        return doc
