"""Confusion matrix and leak list, by hand."""
from spacy_deid import labels
from spacy_deid.corpus import Note, PhiMention
from spacy_deid.evaluation import (
    MISSING,
    SPURIOUS,
    confusion_counts,
    confusion_matrix,
    find_leaks,
    leak_summary,
    pair_notes,
)

#       0         1         2         3         4
#       0123456789012345678901234567890123456789012345
TEXT = "Seen Wednesday, 4/17/94 by Dr. Ann Lee at MGH."


def pairs(gold, predicted, text=TEXT):
    return pair_notes(
        [Note("n1", text, [PhiMention(*m) for m in gold])],
        [Note("n1", text, [PhiMention(*m) for m in predicted])],
    )


def test_confusion_counts_type_errors_missing_and_spurious():
    gold = [(5, 23, labels.DATE), (31, 38, labels.DOCTOR), (42, 45, labels.HOSPITAL)]
    predicted = [(5, 14, labels.DATE), (16, 23, labels.DATE), (31, 38, labels.PATIENT)]
    cells = confusion_counts(pairs(gold, predicted))
    assert cells == {
        (labels.DOCTOR, labels.PATIENT): 1,  # type error
        (labels.DATE, MISSING): 1,  # partial overlap: missing ...
        (SPURIOUS, labels.DATE): 2,  # ... and spurious at the entity level
        (labels.HOSPITAL, MISSING): 1,
    }
    token_cells = confusion_counts(pairs(gold, predicted), "token")
    assert token_cells[(labels.DATE, labels.DATE)] == 4  # no error at the token level
    assert token_cells[(labels.DOCTOR, labels.PATIENT)] == 2


def test_confusion_matrix_layout():
    gold = [(31, 38, labels.DOCTOR)]
    predicted = [(31, 38, labels.PATIENT), (42, 45, labels.HOSPITAL)]
    rows, columns, counts = confusion_matrix(pairs(gold, predicted))
    assert rows == [labels.PATIENT, labels.DOCTOR, labels.HOSPITAL, SPURIOUS]
    assert columns == [labels.PATIENT, labels.DOCTOR, labels.HOSPITAL, MISSING]
    assert counts[rows.index(labels.DOCTOR)][columns.index(labels.PATIENT)] == 1
    assert counts[rows.index(SPURIOUS)][columns.index(labels.HOSPITAL)] == 1
    assert sum(map(sum, counts)) == 2
    rows, columns, _ = confusion_matrix(pairs(gold, predicted), keep_empty=True)
    assert len(rows) == len(labels.SUBTYPES) + 1


def test_leaks_are_uncovered_gold_tokens_with_ids_and_offsets_only():
    gold = [(5, 23, labels.DATE), (31, 38, labels.DOCTOR)]
    # "4/17/94" covered; "Wednesday" not; "Ann L" covers Ann and part of Lee.
    predicted = [(16, 23, labels.DATE), (31, 36, labels.PATIENT)]
    leaks = find_leaks(pairs(gold, predicted))
    assert [(l.note_id, l.start, l.end, l.subtype, l.partial) for l in leaks] == [
        ("n1", 5, 14, labels.DATE, False),
        ("n1", 35, 38, labels.DOCTOR, True),
    ]
    assert all(l.text is None and "text" not in l.to_dict() for l in leaks)
    with_text = find_leaks(pairs(gold, predicted), show_text=True)
    assert [l.text for l in with_text] == ["Wednesday", "Lee"]


def test_leak_summary_rates():
    gold = [(5, 23, labels.DATE), (31, 38, labels.DOCTOR)]
    predicted = [(16, 23, labels.DATE)]
    note_pairs = pairs(gold, predicted)
    summary = leak_summary(note_pairs, find_leaks(note_pairs))
    assert summary[labels.DATE] == {"gold_tokens": 4, "leaked": 1, "partial": 0, "leak_rate": 0.25}
    assert summary[labels.DOCTOR]["leak_rate"] == 1.0
    assert summary["total"]["gold_tokens"] == 6 and summary["total"]["leaked"] == 3
    assert labels.PATIENT not in summary
