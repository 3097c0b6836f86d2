"""A long note is read in overlapping pieces (windows.note_pieces) and joined
where no mention is near (windows.join_pieces): no PHI is split by a cut.

Every PHI type the rules find is planted so that the cut `piece_points`
would make falls inside it (or between it and its cue), at each word break
of the phrase; the joined Doc must have the entities the whole note has. A
control row checks that cutting without overlap (the old way) splits them.
"""
import pytest
from spacy.tokens import Doc, Span

from spacy_deid.deid.windows import (
    doc_between,
    join_pieces,
    note_pieces,
    overlap_cut,
    piece_points,
)
from spacy_deid.extensions import set_token_feature_values, token_feature_values

PIECE_CHARS = 4000
OVERLAP = 500  # note_pieces caps the overlap at PIECE_CHARS // 8
NOMINAL = PIECE_CHARS - 4 * OVERLAP  # where piece_points cuts a one-line note first

# (phrase, the PHI in it): the rules-only pipeline finds each PHI whole.
PLANTED = [
    ("call (617) 555-0142 tomorrow", "(617) 555-0142"),
    ("seen on March 14, 2019 by", "March 14, 2019"),
    ("seen by Dr. Zorblatt Quimby today", "Zorblatt Quimby"),
    ("lives at 42 Maplewood Avenue with", "42 Maplewood Avenue"),
    ("MRN: 12345678 on file", "12345678"),
    ("email zq@example.org today", "zq@example.org"),
    ("see https://example.org/path/x for", "https://example.org/path/x"),
    ("a 93 year old man", "93"),
    ("SSN 123-45-6789 given", "123-45-6789"),
]


def planted_note(phrase: str, cut_after: int) -> str:
    """A one-line note of filler words with `phrase` placed so that the first
    nominal cut falls right after its `cut_after`-th space."""
    breaks = [i + 1 for i, char in enumerate(phrase) if char == " "]
    position = NOMINAL - breaks[cut_after]
    filler = "the plan was reviewed with staff and "
    before = (filler * (position // len(filler) + 1))[: position - 1] + " "
    after = " " + filler * 80
    return (before + phrase + after)[: int(PIECE_CHARS * 1.2)].rstrip()


def run_pieces(nlp, text: str, overlap: int) -> Doc:
    if overlap:
        bounds = note_pieces(text, nlp.max_length, PIECE_CHARS, overlap)
    else:  # the same cuts, pieces that do not overlap (as before)
        points = [0, *piece_points(text, nlp.max_length, NOMINAL), len(text)]
        bounds = list(zip(points, points[1:]))
    docs = [nlp(text[start:end]) for start, end in bounds]
    return join_pieces([(start, doc) for (start, _), doc in zip(bounds, docs)], text)


CASES = [
    (phrase, phi, cut)
    for phrase, phi in PLANTED
    for cut in range(phrase.count(" "))
]


@pytest.mark.faults
@pytest.mark.parametrize("phrase,phi,cut", CASES)
def test_phi_across_a_cut_is_found_whole(rules_nlp, phrase, phi, cut):
    text = planted_note(phrase, cut)
    assert piece_points(text, rules_nlp.max_length, NOMINAL)[0] in range(
        text.index(phrase) + 1, text.index(phrase) + len(phrase)
    )  # the plain cut falls inside the phrase
    joined = run_pieces(rules_nlp, text, OVERLAP)
    start = text.index(phi)
    assert joined.text == text
    assert any(e.start_char <= start and e.end_char >= start + len(phi) for e in joined.ents)
    whole = rules_nlp(text)
    assert [(e.start_char, e.end_char, e.label_) for e in joined.ents] == [
        (e.start_char, e.end_char, e.label_) for e in whole.ents
    ]


# (phrase, PHI, cut after the n-th space): pieces that do not overlap split these.
SPLIT_WITHOUT_OVERLAP = [
    ("call (617) 555-0142 tomorrow", "(617) 555-0142", 1),
    ("seen on March 14, 2019 by", "March 14, 2019", 3),
    ("lives at 42 Maplewood Avenue with", "42 Maplewood Avenue", 3),
]


@pytest.mark.faults
@pytest.mark.parametrize("phrase,phi,cut", SPLIT_WITHOUT_OVERLAP)
def test_pieces_without_overlap_split_the_phi(rules_nlp, phrase, phi, cut):
    text = planted_note(phrase, cut)
    joined = run_pieces(rules_nlp, text, 0)
    start = text.index(phi)
    assert not any(e.start_char <= start and e.end_char >= start + len(phi) for e in joined.ents)


# (text length, piece_chars, overlap, pieces expected)
NOTE_PIECES = [
    (500, 1000, 100, 1),  # fits: one piece, the whole note
    (1000, 1000, 100, 1),
    (2500, 1000, 100, 5),  # cut every 1000 - 4 * 100 characters, overlapping
    (2500, 1000, 0, 3),
]


@pytest.mark.parametrize("length,piece_chars,overlap,count", NOTE_PIECES)
def test_note_pieces_overlap_and_fit(length, piece_chars, overlap, count):
    text = ("abc " * length)[:length]
    bounds = note_pieces(text, 10**6, piece_chars, overlap)
    assert len(bounds) == count
    assert bounds[0][0] == 0 and bounds[-1][1] == length
    assert all(end - start <= piece_chars for start, end in bounds)
    for (_, left_end), (right_start, _) in zip(bounds, bounds[1:]):
        assert right_start <= left_end  # no gap
        assert (left_end - right_start > 0) == (overlap > 0)
        assert text[right_start - 1] == " "  # pieces start at word breaks


def test_note_pieces_refuses_a_note_without_breaks():
    assert note_pieces("x" * 300, 200, 100, 10) is None
    assert note_pieces("x" * 150, 200, 100, 10) == [(0, 150)]  # fits max_length only
    assert note_pieces("x" * 150, 200, 0, 10) == [(0, 150)]


def test_overlap_cut_keeps_away_from_mentions(rules_nlp):
    text = "word " * 40 + "Call Ann Lee now " + "word " * 40
    left = rules_nlp.make_doc(text[:120])
    right_start = 80
    right = rules_nlp.make_doc(text[right_start:])
    middle = text.index("Ann")
    ann = right.char_span(middle - right_start, middle - right_start + 7, label="PATIENT")
    right.ents = [ann]
    cut = overlap_cut(0, left, right_start, right)
    assert text[cut - 1] == " "
    assert cut <= middle - 32 or cut >= middle + 7 + 32
    assert overlap_cut(0, left, 120, rules_nlp.make_doc(text[120:])) == 120  # touching: no overlap
    with pytest.raises(ValueError):
        overlap_cut(0, left, 130, rules_nlp.make_doc(text[130:]))  # a gap


def test_doc_between_keeps_entities_groups_and_features(rules_nlp):
    doc = rules_nlp.make_doc("Seen by Lee. Call Ann today. Bye now.")
    doc.ents = [Span(doc, 2, 3, label="DOCTOR"), Span(doc, 5, 6, label="PATIENT")]
    doc.spans["phi_rules"] = [Span(doc, 2, 3, label="DOCTOR"), Span(doc, 5, 6, label="PATIENT")]
    set_token_feature_values(doc, "lexicon", [f"t{i}" for i in range(len(doc))])
    piece = doc_between(doc, doc[4].idx, doc[8].idx)
    assert piece.text == "Call Ann today. "
    assert [(e.text, e.label_) for e in piece.ents] == [("Ann", "PATIENT")]
    assert [s.text for s in piece.spans["phi_rules"]] == ["Ann"]
    assert list(token_feature_values(piece, "lexicon")) == ["t4", "t5", "t6", "t7"]
    with pytest.raises(ValueError):
        doc_between(doc, 1, doc[8].idx)  # not a token start


def test_join_pieces_gives_the_features_of_every_piece(rules_nlp):
    text = "alpha beta gamma delta epsilon zeta eta theta"
    pieces = [(0, rules_nlp.make_doc(text[:23])), (11, rules_nlp.make_doc(text[11:]))]
    for start, doc in pieces:
        set_token_feature_values(doc, "lexicon", [f"{start}:{t.idx + start}" for t in doc])
    joined = join_pieces(pieces, text)
    assert joined.text == text
    values = list(token_feature_values(joined, "lexicon"))
    assert [value.split(":")[1] for value in values] == [str(t.idx) for t in joined]
    with pytest.raises(ValueError):
        join_pieces(pieces, text + "x")


# (what follows the phone, the cut inside it): the issue's case, through `deidentify`'s runner.
PHONE_AT_A_CUT = [("(617) ", "555-0142"), ("617 555 ", "0142"), ("+1 ", "(617) 555-0142")]


@pytest.mark.faults
@pytest.mark.parametrize("head,tail", PHONE_AT_A_CUT)
def test_phone_at_a_piece_cut_is_released_whole(tmp_path, rules_model_dir, head, tail):
    import spacy

    from spacy_deid.deid import Deidentifier
    from spacy_deid.deid.batch import run_batch

    nlp = spacy.load(rules_model_dir)
    nlp.max_length = 4000  # pieces of 4,000 characters, first cut nominally at 2,000
    filler = "the plan was reviewed with staff and "
    before = (filler * 60)[: 2000 - len(head) - 6] + " call "
    text = (before + head + tail + " tomorrow " + filler * 150).strip()
    assert piece_points(text, 4000 - 4 * 500, 0)[0] == 2000  # the plain cut: inside the phone
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "long.txt").write_text(text, encoding="utf-8")
    summary = run_batch(nlp, Deidentifier(), tmp_path / "in", tmp_path / "out", progress=False)
    assert summary.files_written == 1 and summary.files_failed == 0
    released = (tmp_path / "out" / "long.txt").read_text(encoding="utf-8")
    assert "617" not in released and tail not in released
    assert released.count("[PHONE]") == 1
