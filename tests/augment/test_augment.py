"""PHICON augmentation: offsets, labels, what may change, determinism, config."""
import difflib
import re

import pytest
from spacy.training import Example
from spacy.util import registry

from spacy_deid import labels
from spacy_deid.augment import PhiconAugmenter
from spacy_deid.augment.context import (
    INSERTION,
    SYNONYM,
    WordNetLexicon,
    apply_context_edits,
    plan_context_edits,
)
from spacy_deid.augment.phi import augment_phi
from spacy_deid.corpus.docs import note_to_doc
from spacy_deid.deid import dates
from spacy_deid.deid.release import SHAPED
from spacy_deid.synth.generate import generate_notes
from spacy_deid.tokenizer import blank_deid


# --- a tiny WordNet stand-in, so the context logic is tested without nltk --------
class FakeLemma:
    def __init__(self, name, count):
        self._name, self._count = name, count

    def name(self):
        return self._name

    def count(self):
        return self._count


class FakeSynset:
    def __init__(self, pos, names, count=10):
        self._pos, self._names, self._count = pos, names, count

    def pos(self):
        return self._pos

    def lemma_names(self):
        return list(self._names)

    def lemmas(self):
        return [FakeLemma(n, self._count) for n in self._names]


class FakeWordNet:
    SYNSETS = [
        FakeSynset("v", ["report", "describe"]),
        FakeSynset("n", ["mood", "temper"]),
        FakeSynset("a", ["poor", "bad"]),
        FakeSynset("r", ["quickly", "rapidly"]),
        FakeSynset("a", ["severe", "intense"]),
        FakeSynset("n", ["father", "dad"]),
    ]
    INFLECTED = {"reports": "report", "fathers": "father"}

    def morphy(self, word, pos):
        base = self.INFLECTED.get(word, word)
        return base if any(s.pos() == pos and base in s.lemma_names() for s in self.SYNSETS) else None

    def lemmas(self, word, pos):
        return [FakeLemma(word, s._count) for s in self.synsets(word, pos)]

    def synsets(self, word, pos):
        return [s for s in self.SYNSETS if s.pos() == pos and word in s.lemma_names()]

    def all_synsets(self, pos):
        return [s for s in self.SYNSETS if s.pos() == pos]


@pytest.fixture(scope="module")
def nlp():
    return blank_deid()


@pytest.fixture(scope="module")
def notes_docs(nlp):
    return [note_to_doc(note, nlp.make_doc) for note in generate_notes(6, 11, "A")]


def spans_of(doc):
    return [(e.start_char, e.end_char, e.label_) for e in doc.ents]


def augmented(augmenter, nlp, doc):
    return list(augmenter(nlp, Example(nlp.make_doc(doc.text), doc)))


def shape(text):
    return re.sub(r"[a-z]", "a", re.sub(r"[A-Z]", "A", re.sub(r"\d", "0", text)))


# --- PHI augmentation ---------------------------------------------------------------
def test_phi_augmentation_replaces_only_phi_and_keeps_labels(nlp, notes_docs):
    augmenter = PhiconAugmenter(alpha=1, phi=True, context=False, seed=3)
    for doc in notes_docs:
        original, copy = augmented(augmenter, nlp, doc)
        assert original.reference is doc
        ref = copy.reference
        assert copy.predicted.text == ref.text
        assert [e.label_ for e in ref.ents] == [e.label_ for e in doc.ents]
        # the text between mentions is untouched
        old_gaps = re.split("\x00", _masked(doc))
        new_gaps = re.split("\x00", _masked(ref))
        assert old_gaps == new_gaps
        changed = sum(a.text != b.text for a, b in zip(doc.ents, ref.ents))
        assert changed >= 0.9 * len(doc.ents)


def _masked(doc):
    text, out, position = doc.text, [], 0
    for ent in doc.ents:
        out.append(text[position:ent.start_char])
        position = ent.end_char
    out.append(text[position:])
    return "\x00".join(out)


def test_phi_surrogates_keep_formats(nlp, notes_docs):
    checked = set()
    for doc in notes_docs:
        text, spans = augment_phi(doc.text, spans_of(doc), "fmt")
        for ent, (start, end, label) in zip(doc.ents, spans):
            new = text[start:end]
            assert label == ent.label_
            if label in SHAPED:
                assert shape(new) == shape(ent.text), label
                checked.add(label)
            if label == labels.DATE and dates.parse_date(ent.text) is not None:
                assert dates.parse_date(new) is not None
                checked.add(label)
    assert {labels.PHONE, labels.DATE, labels.MEDICALRECORD} <= checked


def test_unreadable_date_gets_a_surrogate_not_a_placeholder():
    text = "Seen on the day of the blue moon by staff."
    spans = [(8, 32, labels.DATE)]
    new_text, new_spans = augment_phi(text, spans, "x")
    (start, end, label), = new_spans
    assert "[" not in new_text
    assert new_text.startswith("Seen on ") and new_text.endswith(" by staff.")
    assert label == labels.DATE and end - start > 0


# --- context augmentation (fake WordNet) -----------------------------------------------
def fake_lexicon():
    return WordNetLexicon(FakeWordNet())


class AlwaysRandom:
    """An rng whose random() is always 0: every eligible word is edited."""

    def random(self):
        return 0.0

    def choice(self, seq):
        return seq[0]


def test_context_edits_follow_parts_of_speech_and_skip_phi(nlp):
    doc = nlp.make_doc("The father is poor and reports mood severe. Smith reports")
    phi = [token.text == "Smith" for token in doc]
    edits = plan_context_edits(doc, phi, fake_lexicon(), AlwaysRandom(), 1.0, 1.0)
    by_token = {(doc[e.token].text, e.kind): e.text for e in edits}
    assert by_token[("father", SYNONYM)] == "dad"
    assert by_token[("father", INSERTION)] in ("bad", "intense", "poor", "severe")  # adjective
    assert by_token[("poor", INSERTION)] in ("quickly", "rapidly")  # adverb before adjective
    assert by_token[("reports", INSERTION)] in ("quickly", "rapidly")  # before an inflected verb
    assert ("reports", SYNONYM) not in by_token  # never a base form for an inflected word
    assert not [e for e in edits if doc[e.token].text in ("The", "is", "and", "Smith")]


@pytest.mark.parametrize("rate", [0.0, 0.3, 1.0])
def test_context_edits_move_spans_and_change_only_edited_words(nlp, rate):
    import random

    text = "Mother reports poor mood. Dr. Smith saw the father on 3/4/2020 and reports severe mood."
    doc = nlp.make_doc(text)
    spans = [
        (text.index("Smith"), text.index("Smith") + 5, labels.DOCTOR),
        (text.index("3/4"), text.index("3/4") + 8, labels.DATE),
    ]
    phi = [any(s <= t.idx < e for s, e, _ in spans) for t in doc]
    edits = plan_context_edits(doc, phi, fake_lexicon(), random.Random(1), rate, rate)
    new_text, new_spans = apply_context_edits(doc, spans, edits)
    assert [new_text[s:e] for s, e, _ in new_spans] == ["Smith", "3/4/2020"]
    assert [lb for *_, lb in new_spans] == [labels.DOCTOR, labels.DATE]
    old_words, new_words = text.split(), new_text.split()
    inserted = {e.text for e in edits if e.kind == INSERTION}
    replaced = {doc[e.token].text: e.text for e in edits if e.kind == SYNONYM}
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old_words, b=new_words).get_opcodes():
        if op == "insert":
            assert set(new_words[j1:j2]) <= inserted
        elif op == "replace":
            for old, new in zip(old_words[i1:i2], new_words[j1:j2]):
                stem = old.rstrip(".")
                assert stem in replaced or new in inserted
        else:
            assert op == "equal"
    if rate == 0.0:
        assert new_text == text


# --- the augmenter -----------------------------------------------------------------------
def test_alpha_copies_and_notes_without_phi(nlp, notes_docs):
    augmenter = PhiconAugmenter(alpha=2, phi=True, context=False)
    assert len(augmented(augmenter, nlp, notes_docs[0])) == 3
    plain = nlp.make_doc("No identifiers in this note.")
    assert len(augmented(augmenter, nlp, plain)) == 1
    assert len(augmented(PhiconAugmenter(alpha=0), nlp, notes_docs[0])) == 1


def test_augmentation_is_deterministic_for_a_seed(nlp, notes_docs):
    def texts(seed):
        augmenter = PhiconAugmenter(alpha=2, phi=True, context=True, seed=seed, wordnet=FakeWordNet())
        return [
            (ex.reference.text, spans_of(ex.reference))
            for doc in notes_docs[:3]
            for ex in augmented(augmenter, nlp, doc)
        ]

    assert texts(5) == texts(5)
    assert texts(5) != texts(6)


def test_both_augmentations_keep_entities_on_token_boundaries(nlp, notes_docs):
    augmenter = PhiconAugmenter(alpha=2, phi=True, context=True, seed=1, wordnet=FakeWordNet(),
                                synonym_rate=0.5, insertion_rate=0.5)
    for doc in notes_docs:
        for example in augmented(augmenter, nlp, doc)[1:]:
            ref = example.reference
            assert [e.label_ for e in ref.ents] == [e.label_ for e in doc.ents]
            for ent in ref.ents:
                assert ref.char_span(ent.start_char, ent.end_char) is not None
            assert ref._.note_id == doc._.note_id


def test_context_only_keeps_every_phi_text(nlp, notes_docs):
    augmenter = PhiconAugmenter(alpha=1, phi=False, context=True, wordnet=FakeWordNet(),
                                synonym_rate=1.0, insertion_rate=1.0)
    doc = notes_docs[0]
    _, copy = augmented(augmenter, nlp, doc)
    assert [e.text for e in copy.reference.ents] == [e.text for e in doc.ents]


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"alpha": -1}, "alpha"),
        ({"synonym_rate": 1.5}, "synonym_rate"),
        ({"insertion_rate": -0.1}, "insertion_rate"),
        ({"alpha": 1, "phi": False, "context": False}, "phi or context"),
    ],
)
def test_bad_settings(kwargs, message):
    with pytest.raises(ValueError, match=message):
        PhiconAugmenter(**kwargs)


def test_augmenter_in_a_training_config(nlp, tmp_path):
    from spacy_deid.corpus.i2b2_2014 import write_i2b2_2014

    for note in generate_notes(2, 4, "B"):
        write_i2b2_2014(note, tmp_path / f"{note.note_id}.xml")
    config = {
        "corpus": {
            "@readers": "spacy-deid.I2b2Corpus.v1",
            "path": str(tmp_path),
            "augmenter": {"@augmenters": "spacy-deid.Phicon.v1", "alpha": 2, "context": False},
        }
    }
    corpus = registry.resolve(config)["corpus"]
    examples = list(corpus(nlp))
    assert len(examples) == 6
    nlp_train = blank_deid()
    nlp_train.add_pipe("ner")
    nlp_train.initialize(lambda: examples)
    losses = nlp_train.update(examples[:2])
    assert "ner" in losses


# --- real WordNet (installed by the `augment` extra) ----------------------------------------
def test_real_wordnet_context_augmentation(nlp, notes_docs):
    pytest.importorskip("nltk")
    augmenter = PhiconAugmenter(alpha=1, phi=True, context=True, seed=2)
    lexicon = augmenter.lexicon
    assert lexicon.synonyms("sad", "a")
    assert lexicon.part_of_speech("history") == "n"
    for doc in notes_docs[:2]:
        _, copy = augmented(augmenter, nlp, doc)
        assert len(copy.reference.ents) == len(doc.ents)
        assert copy.reference.text != doc.text
