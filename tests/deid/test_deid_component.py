"""The `deid_release` component: released text on the Doc, settings from the
config, and a saved pipeline that holds no mapping (PHI)."""
import re

import spacy

from spacy_deid import labels
from spacy_deid.extensions import install_extensions

TEXT = "Mary Major (MRN 12345678) was seen on 4/17/2094 with her son Major."


def build(config=None):
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([
        {"label": labels.PATIENT, "pattern": "Mary Major"},
        {"label": labels.PATIENT, "pattern": "Major"},
        {"label": labels.MEDICALRECORD, "pattern": "12345678"},
        {"label": labels.DATE, "pattern": "4/17/2094"},
    ])
    nlp.add_pipe("deid_release", config=config or {})
    return nlp


def test_component_writes_released_text_and_keeps_doc_text():
    nlp = build({"deidentifier": {"@misc": "spacy-deid.Deidentifier.v1", "operator": "numbered"}})
    doc = nlp(TEXT)
    assert doc.text == TEXT
    assert doc._.released_text == (
        "[PATIENT-1] (MRN [MEDICALRECORD-1]) was seen on [DATE-1] with her son [PATIENT-1]."
    )


def test_default_config_is_placeholders_and_round_trip_saves_no_mapping(tmp_path):
    nlp = build()
    assert nlp(TEXT)._.released_text.startswith("[PATIENT] (MRN [MEDICALRECORD])")
    surrogate = build({"deidentifier": {"@misc": "spacy-deid.Deidentifier.v1",
                                        "operator": "surrogate", "seed": "s"}})
    first = surrogate(TEXT)._.released_text
    assert "Major" not in first and "12345678" not in first
    surrogate.to_disk(tmp_path / "pipeline")
    # The mapping would hold the surrogates next to the real values: none is saved.
    # (The real strings are in vocab/strings.json anyway: spaCy keeps the
    # strings of processed text, so save a pipeline before using it on notes.)
    mrn = re.search(r"MRN (\d{8})", first).group(1)
    for path in (tmp_path / "pipeline").rglob("*"):
        if path.is_file():
            assert mrn.encode() not in path.read_bytes(), path
    reloaded = spacy.load(tmp_path / "pipeline")
    install_extensions()
    assert reloaded(TEXT)._.released_text == first  # same seed, same surrogates
