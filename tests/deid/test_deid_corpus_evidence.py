"""Corpus-aware de-identification (spacy_deid/deid/corpus_evidence.py): the
decision rule (tables of positives and negatives), the same output for any
order of the notes, nothing of one note in another's output, hashes only on disk."""
import itertools

import pytest
import spacy
from spacy.strings import hash_string
from spacy.tokens import Doc

from spacy_deid.deid.corpus_evidence import (
    ADDED_KEY,
    COMMON,
    DROPPED_KEY,
    TITLED_DOCTOR,
    USED,
    CorpusEvidence,
    note_is_cased,
    title_before,
)
from spacy_deid.extensions import install_extensions

install_extensions()
NLP = spacy.blank("en")


def note(text, ents=(), patient=None):
    """A Doc with entities given as (word, label): every occurrence of the word."""
    doc = NLP.make_doc(text)
    spans = []
    for word, label in ents:
        for token in doc:
            if token.text == word:
                spans.append(doc[token.i : token.i + 1])
                spans[-1].label_ = label
    doc.ents = [doc.char_span(s.start_char, s.end_char, label=s.label_) for s in spans]
    doc._.patient_id = patient
    return doc


def ents_of(doc):
    return [(e.text, e.label_) for e in doc.ents]


# A small site: "foley" is written in lower case by four patients; the
# pipeline (here: the given ents) wrongly tags it as a name in p1's note.
# "Zorblatt" is p1's name; "Quibbick" a clinician seen after "Dr." in p2's note.
def site():
    return [
        note("Patient resting. Foley draining, Zorblatt calm.",
             [("Foley", "PATIENT"), ("Zorblatt", "PATIENT")], "p1"),
        note("Zorblatt asked for water. The foley was changed.", [], "p1"),
        note("Seen by Dr. Quibbick today. The foley is patent.", [("Quibbick", "DOCTOR")], "p2"),
        note("Night shift. The foley was flushed. Quibbick aware.", [], "p3"),
        note("Family in. Good foley output noted.", [], "p4"),
        note("Family called. Zorblatt Street is far.", [], "p5"),
    ]


def learn(docs, **settings):
    return CorpusEvidence.from_docs(docs, **settings)


@pytest.mark.parametrize(
    "text,cased",
    [
        ("Patient resting. Foley draining well.", True),
        ("PATIENT RESTING. FOLEY DRAINING WELL.", False),
        ("patient resting. foley draining well.", False),
        ("12 / 40", False),
    ],
)
def test_note_is_cased(text, cased):
    assert note_is_cased(NLP.make_doc(text)) is cased


@pytest.mark.parametrize(
    "text,index,cased,expected",
    [
        ("Seen by Dr. Quibbick", -1, True, "doctor"),
        ("Seen by Dr Quibbick", -1, True, "doctor"),
        ("Seen by Dr . Quibbick", -1, True, "doctor"),
        ("Called Mrs. Zorblatt", -1, True, "other"),
        ("SEEN BY DR QUIBBICK", -1, False, "doctor"),
        ("MS AND NEURO", 1, False, None),  # MS: mental status in a single-case note
        ("Dr. regarding", -1, True, None),  # a lower-case word is no name
        ("Seen by Quibbick", -1, True, None),
    ],
)
def test_title_before(text, index, cased, expected):
    assert title_before(NLP.make_doc(text)[index], cased) == expected


def test_statistics_count_patients_not_notes():
    evidence = learn(site())
    assert evidence.count(USED, "zorblatt") == 2  # p1 (two notes) and p5
    assert evidence.count(COMMON, "foley") == 4
    assert evidence.count(TITLED_DOCTOR, "quibbick") == 1
    assert (evidence.notes, len(evidence.patients)) == (6, 5)


@pytest.mark.parametrize(
    "form,min_patients,expected",
    [
        ("foley", 3, True),  # lower case in cased notes of 4 patients
        ("foley", 5, False),  # ... not of 5
        ("zorblatt", 3, False),  # a name: capitalised everywhere
        ("quibbick", 3, False),  # after a title
        ("the", 3, True),
        ("unseen", 1, False),
    ],
)
def test_site_vocabulary(form, min_patients, expected):
    assert learn(site(), min_patients=min_patients).is_site_vocabulary(form) is expected


def test_pipeline_majority_makes_vocabulary_in_single_case_notes():
    # Upper-case notes give no case evidence; the pipeline tagged "PEEP" in one
    # of its four uses across three patients: its own majority says not PHI.
    docs = [
        note("PEEP 5. STABLE.", [("PEEP", "PATIENT")], "a"),
        note("PEEP 8. STABLE.", [], "b"),
        note("PEEP WEANED. PEEP 5.", [], "c"),
    ]
    evidence = learn(docs)
    assert evidence.is_site_vocabulary("peep")
    assert ents_of(evidence.apply(docs[0], "a")) == []
    # Tagged in most of its uses: not vocabulary, kept.
    tagged = [note("PEEP 5.", [("PEEP", "PATIENT")], p) for p in "abc"]
    assert not learn(tagged).is_site_vocabulary("peep")


@pytest.mark.parametrize(
    "text,ents,dropped",
    [
        ("The Foley is in. Family here.", [("Foley", "PATIENT")], True),
        ("The Foley is in. Family here.", [("Foley", "HOSPITAL")], True),
        ("The Foley is in. Family here.", [("Foley", "PROFESSION")], False),  # common nouns
        ("Seen by Dr. Foley. Family here.", [("Foley", "DOCTOR")], False),  # titled
        ("Foley 12 is in. Family here.", [("12", "ROOM")], False),  # digits
        ("The Foley is in. Family here.", [("Foley", "DATE")], False),  # not a word label
        ("Zorblatt is in. Family here.", [("Zorblatt", "PATIENT")], False),  # not vocabulary
    ],
)
def test_drop_rule(text, ents, dropped):
    evidence = learn(site())
    doc = evidence.apply(note(text, ents, "p9"), "p9")
    assert (len(doc.spans[DROPPED_KEY]) == 1) is dropped
    assert (ents_of(doc) == []) is dropped


def test_multiword_span_with_one_identifying_word_is_kept():
    evidence = learn(site())
    doc = NLP.make_doc("The foley Zorblatt is here. Family in.")
    doc.ents = [doc.char_span(4, 18, label="PATIENT")]
    assert ents_of(evidence.apply(doc, "p1")) == [("foley Zorblatt", "PATIENT")]


@pytest.mark.parametrize(
    "text,patient,share,added",
    [
        # p1's name, tagged in p1's first note: added in p1's other notes
        ("Zorblatt slept well. Family in.", "p1", True, [("Zorblatt", "PATIENT")]),
        # ... never in another patient's note
        ("Zorblatt slept well. Family in.", "p3", True, []),
        ("Zorblatt slept well. Family in.", "p7", True, []),
        # a clinician seen after "Dr.": a site-wide name, shared unless turned off
        ("Quibbick called back. Family in.", "p3", True, [("Quibbick", "DOCTOR")]),
        ("Quibbick called back. Family in.", "p3", False, []),
        # written in lower case in a cased note: not written as a name
        ("Then quibbick called. Family in.", "p3", True, []),
        # vocabulary is never added
        ("Foley changed. Family in.", "p1", True, []),
    ],
)
def test_add_rule(text, patient, share, added):
    docs = [doc for doc in site() if doc._.patient_id != "p5"]  # p1 alone uses "Zorblatt"
    evidence = learn(docs, share_titled_names=share)
    doc = evidence.apply(note(text, [], patient), patient)
    assert ents_of(doc) == added
    assert [s.text for s in doc.spans[ADDED_KEY]] == [a for a, _ in added]


@pytest.mark.parametrize(
    "text,patient,added",
    [
        # a clinician whose name is an English word, seen after "Dr.": shared
        # where a cased note capitalises it
        ("Drew called back. Family in.", "p3", [("Drew", "DOCTOR")]),
        # in a note typed in one case it is the verb as often
        ("DREW LABS AT 0400. QUIBBICK AWARE.", "p3", [("QUIBBICK", "DOCTOR")]),
        ("drew labs at 0400. quibbick aware.", "p3", [("quibbick", "DOCTOR")]),
    ],
)
def test_a_shared_clinician_that_is_an_english_word_needs_case(text, patient, added):
    docs = site() + [note("Seen by Dr. Drew Formby. Family in.", [("Drew", "DOCTOR")], "p6")]
    doc = learn(docs).apply(note(text, [], patient), patient)
    assert ents_of(doc) == added


def test_same_patient_name_needs_to_be_used_by_that_patient_alone():
    # "Zorblatt" is also used by p5: adding it in p1's notes would rest on p5's note.
    docs = site()
    evidence = learn(docs)
    assert evidence.patient_name_label(hash_string("zorblatt"), "p1") is None
    alone = [d for d in docs if d._.patient_id != "p5"]
    assert learn(alone).patient_name_label(hash_string("zorblatt"), "p1") == "PATIENT"


def _outputs(docs, evidence):
    copies = [Doc(NLP.vocab).from_bytes(doc.to_bytes()) for doc in docs]
    return [(doc._.patient_id, doc.text, ents_of(evidence.apply(doc))) for doc in copies]


def test_same_output_for_any_order_of_the_notes():
    docs = site()
    expected = sorted(_outputs(docs, learn(docs)))
    reference_bytes = learn(docs).to_bytes()
    for order in itertools.permutations(range(len(docs))):
        shuffled = [docs[i] for i in order]
        evidence = learn(shuffled)
        assert evidence.to_bytes() == reference_bytes
        assert sorted(_outputs(shuffled, evidence)) == expected


def test_same_output_for_any_order_with_site_places():
    import random

    docs = site() + wards()
    reference = learn(docs)
    expected = sorted(_outputs(docs, reference))
    assert any(label == "DEPARTMENT" for *_, ents in expected for _, label in ents)
    shuffler = random.Random(0)
    for _ in range(20):
        shuffled = list(docs)
        shuffler.shuffle(shuffled)
        evidence = learn(shuffled)
        assert evidence.to_bytes() == reference.to_bytes()
        assert sorted(_outputs(shuffled, evidence)) == expected


def test_nothing_of_one_note_in_another_notes_output():
    planted = "Xylofrantz"
    docs = site() + [note(f"{planted} visited. Family in.", [(planted, "PATIENT")], "p8")]
    evidence = learn(docs, share_titled_names=False, share_site_places=False)
    data = evidence.to_bytes()
    for text in (planted, planted.lower(), "Zorblatt", "zorblatt", "foley", "p1"):
        assert text.encode() not in data  # hashes and counts only
    # Another patient's note: its entities never depend on p8's names.
    other = note(f"{planted} is a word here. Family in.", [], "p9")
    assert ents_of(evidence.apply(other, "p9")) == []
    with_p8 = _outputs(site(), evidence)
    without_p8 = _outputs(site(), learn(site(), share_titled_names=False, share_site_places=False))
    assert with_p8 == without_p8
    # The released Doc is the same text with other entities, never other words.
    doc = evidence.apply(note("Zorblatt slept. Family in.", [], "p1"), "p1")
    assert doc.text == "Zorblatt slept. Family in."


def test_round_trip(tmp_path):
    evidence = learn(site() + wards(), min_patients=2, share_titled_names=False, share_site_places=False)
    path = tmp_path / "evidence.msgpack"
    evidence.to_disk(path)
    loaded = CorpusEvidence().from_disk(path)
    assert loaded.to_bytes() == evidence.to_bytes()
    assert (loaded.min_patients, loaded.share_titled_names, loaded.share_site_places) == (2, False, False)
    assert _outputs(site(), loaded) == _outputs(site(), evidence)


def test_a_version_1_file_loads_without_place_sharing():
    import srsly

    data = learn(site() + wards()).to_dict()
    for key in ("share_site_places", "place_labels"):
        del data[key]
    del data["stats"]["tagged_place"]
    data["version"] = 1
    loaded = CorpusEvidence().from_bytes(srsly.msgpack_dumps(data))
    assert loaded.share_site_places is False
    doc = loaded.apply(note("Moved to Wendlock at noon. Family in.", [], "p9"), "p9")
    assert ents_of(doc) == []


def test_bad_file_and_settings(tmp_path):
    bad = tmp_path / "bad.msgpack"
    bad.write_bytes(b"\x81\xa7version\x09")
    with pytest.raises(ValueError, match="bad.msgpack"):
        CorpusEvidence().from_disk(bad)
    with pytest.raises(ValueError, match="min_patients"):
        CorpusEvidence(min_patients=0)


def test_summary_has_counts_only():
    line = learn(site()).summary()
    assert "6 notes of 5 patients" in line
    assert "oley" not in line and "orblatt" not in line


# --- the site's places: hospitals, wards and towns shared across patients ------

def wards(patients=("w1", "w2", "w3"), label="DEPARTMENT"):
    """'Wendlock' (a ward) and 'General' (an English word) tagged as places in
    the notes of each patient given; 'Wendlock' is never written untagged."""
    return [
        note(f"Transferred to Wendlock from General today ({p}).",
             [("Wendlock", label), ("General", "HOSPITAL")], p)
        for p in patients
    ]


@pytest.mark.parametrize(
    "docs,settings,text,added",
    [
        # tagged as a place in three patients' notes: added in another patient's note
        (wards(), {}, "Moved to Wendlock at noon. Family in.", [("Wendlock", "DEPARTMENT")]),
        # in a note typed in one case, any case is written like a name
        (wards(), {}, "MOVED TO WENDLOCK AT NOON. FAMILY IN.", [("WENDLOCK", "DEPARTMENT")]),
        # ... but not in lower case in a cased note
        (wards(), {}, "Moved to wendlock at noon. Family in.", []),
        # two patients are not a site
        (wards(("w1", "w2")), {}, "Moved to Wendlock at noon. Family in.", []),
        # turned off: nothing is shared across patients
        (wards(), {"share_site_places": False}, "Moved to Wendlock at noon. Family in.", []),
        # an English word that names institutions stands alone in other senses
        (wards(), {}, "General anesthesia. Family in.", []),
        # a word the pipeline left untagged in most of its occurrences is not a place
        (wards() + [note(f"Wendlock {i} seen.", [], f"u{i}") for i in range(4)], {},
         "Moved to Wendlock at noon. Family in.", []),
    ],
)
def test_site_place_rule(docs, settings, text, added):
    evidence = learn(docs, **settings)
    doc = evidence.apply(note(text, [], "p9"), "p9")
    assert ents_of(doc) == added


def test_a_town_a_place_list_knows_is_a_site_place_though_an_english_word():
    from spacy_deid.extensions import set_token_feature_values

    def tagged(doc, tag):
        set_token_feature_values(doc, "lexicon", [tag if t.text == "Mobile" else None for t in doc])
        return doc

    # "mobile" is an English word; a town list knows "Mobile" (CITY tag)
    docs = [tagged(note(f"Lives in Mobile with family ({p}).", [("Mobile", "CITY")], p), "CITY")
            for p in ("t1", "t2", "t3")]
    evidence = learn(docs)
    text = "Moved back to Mobile. Family in."
    assert ents_of(evidence.apply(tagged(note(text, [], "p9"), "CITY"), "p9")) == [("Mobile", "CITY")]
    assert ents_of(evidence.apply(tagged(note(text, [], "p9"), None), "p9")) == []


# --- the two passes of `spacy-deid deidentify --corpus-aware` ------------------

BATCH = [
    ("p1", "Patient resting. Foley draining, ZORBLATT calm."),
    ("p1", "Zorblatt asked for water. The foley was changed."),
    ("p2", "Seen by Dr. Quibbick today. The foley is patent."),
    ("p3", "Night shift. The foley was flushed. Quibbick aware."),
    ("p4", "Family in. Good foley output noted."),
]


@pytest.fixture
def ruler_model(tmp_path):
    """A pipeline that tags "Foley", p1's name in one spelling of it
    ("ZORBLATT", first note), and the clinician after "Dr."."""
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([
        {"label": "PATIENT", "pattern": "Foley"},
        {"label": "PATIENT", "pattern": "ZORBLATT"},
        {"label": "DOCTOR", "pattern": [{"TEXT": "Dr."}, {"TEXT": "Quibbick"}]},
    ])
    path = tmp_path / "model"
    nlp.to_disk(path)
    return path


def _released(tmp_path, ruler_model, *flags):
    import json

    from typer.testing import CliRunner

    from spacy_deid.cli import app

    source = tmp_path / "in"
    source.mkdir(exist_ok=True)
    with (source / "notes.jsonl").open("w", encoding="utf8") as file_:
        for patient, text in BATCH:
            file_.write(json.dumps({"patient_id": patient, "text": text}) + "\n")
    out = tmp_path / ("out" + "".join(flags))
    result = CliRunner().invoke(
        app, ["deidentify", str(source), str(out), "--model", str(ruler_model), "--no-progress",
              "--seed", "s", *flags],
    )
    assert result.exit_code == 0, result.output
    for _, text in BATCH:
        for word in ("orblatt", "ORBLATT", "Quibbick", "foley"):
            assert word not in result.output  # counts only
    rows = (out / "notes.jsonl").read_text("utf8").splitlines()
    return [json.loads(row)["text"] for row in rows], result.output


def test_cli_corpus_aware_drops_and_adds(tmp_path, ruler_model):
    plain, _ = _released(tmp_path, ruler_model)
    aware, output = _released(tmp_path, ruler_model, "--corpus-aware")
    assert "corpus evidence: 5 notes of 4 patients" in output
    assert "Foley" not in plain[0] and "Foley" in aware[0]  # site vocabulary kept
    assert "Zorblatt" in plain[1] and "Zorblatt" not in aware[1]  # p1's name, p1's note
    assert "Quibbick" in plain[3] and "Quibbick" not in aware[3]  # the site's clinician
    assert aware[4] == plain[4] == BATCH[4][1]


def test_cli_corpus_aware_without_sharing_across_patients(tmp_path, ruler_model):
    aware, _ = _released(tmp_path, ruler_model, "--corpus-aware")
    alone, output = _released(tmp_path, ruler_model, "--corpus-aware", "--no-share-across-patients")
    assert "corpus evidence: 5 notes of 4 patients" in output
    assert "Zorblatt" not in alone[1]  # p1's own name, from p1's other note
    assert "Quibbick" not in aware[3] and "Quibbick" in alone[3]  # p2's clinician stays p2's
    assert "Foley" in alone[0]  # site vocabulary is still vocabulary
