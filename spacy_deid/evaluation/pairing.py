"""Pairing gold and predicted notes by note id, with checks that they agree.

Errors name note ids, offsets and labels, never note text.
"""
from dataclasses import dataclass
from typing import Dict, Iterable, List, Sequence

from .. import labels
from ..corpus import Note
from .measures import Unit

# How many ids an error message lists before saying "and N more".
_IDS_SHOWN = 10


class EvaluationInputError(ValueError):
    """Gold and system outputs that cannot be scored against each other."""


@dataclass
class NotePair:
    """One note's text with its gold and predicted mentions as (start, end, subtype)."""

    note_id: str
    text: str
    gold: List[Unit]
    predicted: List[Unit]


def _some(ids: Sequence[str]) -> str:
    shown = ", ".join(sorted(ids)[:_IDS_SHOWN])
    more = len(ids) - _IDS_SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


def _by_id(notes: Iterable[Note], side: str) -> Dict[str, Note]:
    result: Dict[str, Note] = {}
    for note in notes:
        if note.note_id in result:
            raise EvaluationInputError(f"{side}: note id {note.note_id!r} occurs twice")
        result[note.note_id] = note
    return result


def first_difference(a: str, b: str) -> int:
    """The first offset at which two strings differ (the shorter length if one is a prefix)."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def _mention_units(note: Note, side: str) -> List[Unit]:
    result = []
    for mention in note.mentions:
        if mention.label not in labels.CATEGORY_OF:
            raise EvaluationInputError(
                f"{side}: note {note.note_id!r}: mention at offsets {mention.start}-{mention.end} "
                f"has a label that is not one of the {len(labels.SUBTYPES)} subtypes "
                "(the label is not shown)"
            )
        if not 0 <= mention.start < mention.end <= len(note.text):
            raise EvaluationInputError(
                f"{side}: note {note.note_id!r}: mention offsets {mention.start}-{mention.end} "
                f"are outside the note text (0-{len(note.text)}) or empty"
            )
        result.append((mention.start, mention.end, mention.label))
    return sorted(result)


def pair_notes(gold: Iterable[Note], predicted: Iterable[Note]) -> List[NotePair]:
    """Match notes by id; every gold note needs exactly one system note with the same text."""
    gold_by_id = _by_id(gold, "gold")
    predicted_by_id = _by_id(predicted, "system")
    only_gold = sorted(set(gold_by_id) - set(predicted_by_id))
    only_system = sorted(set(predicted_by_id) - set(gold_by_id))
    if only_gold or only_system:
        problems = []
        if only_gold:
            problems.append(
                f"{len(only_gold)} gold note(s) have no system output: {_some(only_gold)}"
            )
        if only_system:
            problems.append(
                f"{len(only_system)} system note(s) have no gold note: {_some(only_system)}"
            )
        raise EvaluationInputError("note ids disagree: " + "; ".join(problems))
    pairs = []
    for note_id in sorted(gold_by_id):
        g, p = gold_by_id[note_id], predicted_by_id[note_id]
        if g.text != p.text:
            raise EvaluationInputError(
                f"note {note_id!r}: the system's text differs from the gold text at offset "
                f"{first_difference(g.text, p.text)} (lengths {len(g.text)} and {len(p.text)})"
            )
        gold_units, system_units = _mention_units(g, "gold"), _mention_units(p, "system")
        pairs.append(NotePair(note_id, g.text, gold_units, system_units))
    return pairs
