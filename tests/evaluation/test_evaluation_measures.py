"""Hand-computed expectations for every measure of evaluation.md."""
import pytest

from spacy_deid import labels
from spacy_deid.corpus import Note, PhiMention
from spacy_deid.evaluation import (
    BINARY_STRICT,
    BINARY_TOKEN,
    RELAXED,
    STRICT,
    TOKEN,
    Counts,
    Evaluation,
    EvaluationInputError,
    match_level,
    mention_tokens,
    pair_notes,
)

#        0         1         2         3         4
#        0123456789012345678901234567890123456789012345
TEXT = "Seen Wednesday, 4/17/94 by Dr. Ann Lee at MGH."
WEDNESDAY = (5, 23, labels.DATE)  # "Wednesday, 4/17/94"
ANN_LEE = (31, 38, labels.DOCTOR)  # "Ann Lee"
MGH = (42, 45, labels.HOSPITAL)


def note(note_id, text, *mentions):
    return Note(note_id, text, [PhiMention(s, e, label) for s, e, label in mentions])


def evaluate(gold, predicted, text=TEXT):
    return Evaluation(pair_notes([note("n1", text, *gold)], [note("n1", text, *predicted)]))


def prf(counts):
    return (counts.tp, counts.fp, counts.fn)


def test_offsets_of_the_test_text():
    assert TEXT[5:23] == "Wednesday, 4/17/94"
    assert TEXT[31:38] == "Ann Lee"
    assert TEXT[42:45] == "MGH"


def test_tokens_are_maximal_alphanumeric_runs_inside_the_mention():
    assert mention_tokens(TEXT, 5, 23) == [(5, 14), (16, 17), (18, 20), (21, 23)]
    # A mention ending inside a word cuts the run at its edge.
    assert mention_tokens(TEXT, 31, 36) == [(31, 34), (35, 36)]
    assert mention_tokens("a -- b", 2, 4) == []


def test_perfect_prediction_scores_one_everywhere():
    result = evaluate([WEDNESDAY, ANN_LEE, MGH], [WEDNESDAY, ANN_LEE, MGH])
    for level in (STRICT, RELAXED, TOKEN, BINARY_TOKEN, BINARY_STRICT):
        counts = result.overall(level)
        assert (counts.precision, counts.recall, counts.f1) == (1.0, 1.0, 1.0), level


def test_partial_overlap_is_an_error_for_entities_not_for_tokens():
    """Gold "Wednesday, 4/17/94" as one DATE, predicted as "Wednesday" + "4/17/94"."""
    result = evaluate([WEDNESDAY], [(5, 14, labels.DATE), (16, 23, labels.DATE)])
    assert prf(result.overall(STRICT)) == (0, 2, 1)
    assert result.overall(STRICT).precision == 0.0
    assert result.overall(STRICT).recall == 0.0
    assert result.overall(STRICT).f1 == 0.0
    # "Wednesday" ends 9 characters early: not relaxed either.
    assert prf(result.overall(RELAXED)) == (0, 2, 1)
    assert prf(result.overall(BINARY_STRICT)) == (0, 2, 1)
    # Tokens Wednesday, 4, 17, 94 on both sides.
    assert prf(result.overall(TOKEN)) == (4, 0, 0)
    assert prf(result.overall(BINARY_TOKEN)) == (4, 0, 0)


def test_partial_overlap_with_a_missed_part():
    """Gold "Wednesday, 4/17/94", predicted "4/17/94" only: 3 of 4 tokens."""
    result = evaluate([WEDNESDAY], [(16, 23, labels.DATE)])
    token = result.overall(TOKEN)
    assert prf(token) == (3, 0, 1)
    assert token.precision == 1.0
    assert token.recall == 0.75
    assert token.f1 == pytest.approx(2 * 0.75 / 1.75)


@pytest.mark.parametrize(
    "predicted_end,relaxed_match",
    [(23, True), (24, True), (25, True), (26, False), (22, True), (21, True), (20, False)],
)
def test_relaxed_end_tolerance_is_two_characters(predicted_end, relaxed_match):
    text = TEXT + " " * 5  # room for ends past the mention
    result = evaluate([WEDNESDAY], [(5, predicted_end, labels.DATE)], text=text)
    assert prf(result.overall(RELAXED)) == ((1, 0, 0) if relaxed_match else (0, 1, 1))
    strict = (1, 0, 0) if predicted_end == 23 else (0, 1, 1)
    assert prf(result.overall(STRICT)) == strict


def test_relaxed_needs_the_same_start_and_subtype():
    result = evaluate([ANN_LEE], [(30, 38, labels.DOCTOR)])
    assert prf(result.overall(RELAXED)) == (0, 1, 1)
    result = evaluate([ANN_LEE], [(31, 38, labels.PATIENT)])
    assert prf(result.overall(RELAXED)) == (0, 1, 1)


def test_relaxed_matching_is_one_to_one():
    """Two predictions within 2 of one gold end: one is right, the other spurious."""
    match = match_level(TEXT, [(31, 36, labels.DOCTOR)], [(31, 35, labels.DOCTOR),
                                                          (31, 37, labels.DOCTOR)], RELAXED)
    assert len(match.pairs) == 1 and len(match.spurious) == 1 and not match.missed


def test_type_error_counts_for_binary_but_not_for_typed_levels():
    result = evaluate([ANN_LEE, MGH], [(31, 38, labels.PATIENT), MGH])
    assert prf(result.overall(STRICT)) == (1, 1, 1)
    assert prf(result.overall(TOKEN)) == (1, 2, 2)  # Ann, Lee wrong; MGH right
    assert prf(result.overall(BINARY_STRICT)) == (2, 0, 0)
    assert prf(result.overall(BINARY_TOKEN)) == (3, 0, 0)
    per_subtype = result.per_subtype(STRICT)
    assert prf(per_subtype[labels.DOCTOR]) == (0, 0, 1)
    assert prf(per_subtype[labels.PATIENT]) == (0, 1, 0)
    assert prf(per_subtype[labels.HOSPITAL]) == (1, 0, 0)


def test_per_category_is_the_micro_sum_of_its_subtypes():
    gold = [ANN_LEE, MGH, WEDNESDAY]
    predicted = [(31, 38, labels.PATIENT), (42, 45, labels.HOSPITAL)]
    result = evaluate(gold, predicted)
    categories = result.per_category(STRICT)
    assert prf(categories[labels.NAME_CATEGORY]) == (0, 1, 1)
    assert prf(categories[labels.LOCATION_CATEGORY]) == (1, 0, 0)
    assert prf(categories[labels.DATE_CATEGORY]) == (0, 0, 1)
    assert categories[labels.NAME_CATEGORY].gold == 1  # support
    assert result.overall(STRICT).gold == 3
    assert prf(result.overall(STRICT)) == (1, 1, 2)
    assert result.overall(STRICT).precision == 0.5
    assert result.overall(STRICT).recall == pytest.approx(1 / 3)
    assert result.overall(STRICT).f1 == pytest.approx(0.4)


def test_binary_per_subtype_rows_are_recall_only():
    result = evaluate([ANN_LEE, MGH], [(31, 38, labels.PATIENT)])
    row = result.per_subtype(BINARY_TOKEN)[labels.DOCTOR]
    assert row.recall == 1.0 and row.precision is None and row.f1 is None
    assert result.per_subtype(BINARY_TOKEN)[labels.HOSPITAL].recall == 0.0


def test_hipaa_subset_filters_both_sides_before_matching():
    """i2b2-2014 HIPAA: DOCTOR and HOSPITAL are out, PATIENT and DATE in."""
    gold = [WEDNESDAY, ANN_LEE, MGH]
    predicted = [WEDNESDAY, (31, 38, labels.PATIENT)]
    result = evaluate(gold, predicted)
    assert prf(result.overall(STRICT, "all")) == (1, 1, 2)
    # HIPAA: gold DATE only; predicted DATE and PATIENT (a type error on a non-HIPAA gold).
    assert prf(result.overall(STRICT, "i2b2-2014")) == (1, 1, 0)
    assert prf(result.overall(BINARY_STRICT, "i2b2-2014")) == (1, 1, 0)
    assert prf(result.overall(BINARY_TOKEN, "i2b2-2014")) == (4, 2, 0)
    assert labels.DOCTOR not in result.per_subtype(STRICT, "i2b2-2014")
    assert labels.PATIENT in result.per_subtype(STRICT, "i2b2-2014")


def test_safe_harbor_adds_url_and_ipaddr():
    text = "see www.x.org now"
    url = (4, 13, labels.URL)
    result = evaluate([url], [url], text=text)
    assert prf(result.overall(STRICT, "safe-harbor")) == (1, 0, 0)
    assert prf(result.overall(STRICT, "i2b2-2014")) == (0, 0, 0)
    assert result.overall(STRICT, "i2b2-2014").f1 is None


def test_empty_documents_add_nothing():
    empty = note("empty", "", )
    no_phi = note("plain", "No identifiers here.")
    full = note("n1", TEXT, WEDNESDAY, ANN_LEE)
    predicted_full = note("n1", TEXT, WEDNESDAY)
    result = Evaluation(pair_notes([empty, no_phi, full], [empty, no_phi, predicted_full]))
    assert prf(result.overall(STRICT)) == (1, 0, 1)
    assert [prf(c) for c in result.per_note(STRICT)] == [(0, 0, 0), (1, 0, 1), (0, 0, 0)]


def test_only_empty_documents_leave_every_measure_undefined():
    result = Evaluation(pair_notes([note("e", "")], [note("e", "")]))
    for level in (STRICT, RELAXED, TOKEN, BINARY_TOKEN, BINARY_STRICT):
        counts = result.overall(level)
        assert (counts.precision, counts.recall, counts.f1) == (None, None, None)


def test_nothing_predicted_gives_zero_recall_and_f1_undefined_precision():
    result = evaluate([ANN_LEE], [])
    counts = result.overall(STRICT)
    assert counts.precision is None and counts.recall == 0.0 and counts.f1 == 0.0


def test_micro_average_over_notes():
    a = note("a", TEXT, WEDNESDAY, ANN_LEE, MGH)
    b = note("b", "Dr. Ann Lee", (4, 11, labels.DOCTOR))
    result = Evaluation(pair_notes([a, b], [note("a", TEXT, WEDNESDAY), note("b", b.text)]))
    # a: tp 1, fn 2; b: fn 1 -> R = 1/4 (not the macro (1/3 + 0) / 2).
    assert result.overall(STRICT).recall == 0.25


def test_counts_addition_and_dict():
    total = Counts(1, 2, 3) + Counts(4, 5, 6)
    assert prf(total) == (5, 7, 9)
    data = total.to_dict()
    assert data["support"] == 14 and data["predicted"] == 12
    assert data["p"] == pytest.approx(5 / 12) and data["r"] == pytest.approx(5 / 14)


# --- pairing errors: clear, and without note text --------------------------------


def test_missing_system_note_is_an_error_naming_ids():
    with pytest.raises(EvaluationInputError, match="gold note.*no system output: b"):
        pair_notes([note("a", TEXT), note("b", TEXT)], [note("a", TEXT)])


def test_extra_system_note_is_an_error():
    with pytest.raises(EvaluationInputError, match="no gold note: c"):
        pair_notes([note("a", TEXT)], [note("a", TEXT), note("c", TEXT)])


def test_differing_text_is_an_error_with_offset_not_text():
    with pytest.raises(EvaluationInputError) as error:
        pair_notes([note("a", TEXT)], [note("a", TEXT.replace("Ann", "Bob"))])
    message = str(error.value)
    assert "offset 31" in message and "'a'" in message
    assert "Ann" not in message and "Bob" not in message


def test_duplicate_note_id_is_an_error():
    with pytest.raises(EvaluationInputError, match="occurs twice"):
        pair_notes([note("a", TEXT), note("a", TEXT)], [note("a", TEXT)])


def test_label_outside_the_scheme_is_an_error():
    # the label is not echoed: a mislabelled tag may hold a name
    with pytest.raises(EvaluationInputError, match="31-38.*not one of the 30 subtypes") as error:
        pair_notes([note("a", TEXT)], [note("a", TEXT, (31, 38, "PERSON"))])
    assert "PERSON" not in str(error.value)
