"""Figures about a set of generated notes: counts per subtype, lengths,
diversity, hard phenomena. Aggregates only, never note text."""
import re
from collections import Counter
from typing import Dict, Iterable, List, Sequence, Tuple

from .. import labels
from ..corpus.note import Note
from .families import FAMILIES, family_key
from .generate import NoteInfo

# N-GRID 2016 training set (600 notes, 20,845 PHI), from the hybrid-system
# paper, Table 6 (percent of training instances). Subtypes the table leaves
# out are None.
NGRID_TRAIN_PERCENT: Dict[str, float] = {
    labels.DATE: 27.46, labels.AGE: 17.45, labels.DOCTOR: 11.49, labels.HOSPITAL: 10.53,
    labels.PROFESSION: 7.06, labels.CITY: 6.69, labels.PATIENT: 6.09, labels.ORGANIZATION: 5.34,
    labels.COUNTRY: 3.20, labels.STATE: 3.18, labels.PHONE: 0.69, labels.STREET: 0.22,
    labels.LICENSE: 0.18, labels.LOCATION_OTHER: 0.12, labels.ZIP: 0.11, labels.FAX: 0.02,
    labels.EMAIL: 0.01, labels.URL: 0.02, labels.MEDICALRECORD: 0.02, labels.IDNUM: 0.01,
    labels.HEALTHPLAN: 0.0,
}

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")


def skeletons(note: Note) -> List[str]:
    """The note's sentences and lines with PHI masked by their subtype and
    digits by 0: what is left is the template's skeleton."""
    text = note.text
    pieces, position = [], 0
    for mention in sorted(note.mentions):
        pieces.append(text[position:mention.start])
        pieces.append(f"<{mention.label}>")
        position = mention.end
    pieces.append(text[position:])
    masked = re.sub(r"\d", "0", "".join(pieces))
    return [s.strip() for s in _SENTENCE_SPLIT.split(masked) if len(s.strip().split()) >= 3]


def summarize(pairs: Sequence[Tuple[Note, NoteInfo]], seconds: float = 0.0) -> dict:
    notes = [note for note, _ in pairs]
    counts = Counter(m.label for note in notes for m in note.mentions)
    total = sum(counts.values())
    surfaces: Dict[str, set] = {}
    for note in notes:
        for mention in note.mentions:
            surfaces.setdefault(mention.label, set()).add(note.text[mention.start:mention.end])
    words = sorted(info.words for _, info in pairs)
    # Hard-wrapped notes would count line fragments as skeletons: leave them out.
    unwrapped = [note for note, info in pairs if not info.wrapped]
    all_skeletons = [s for note in unwrapped for s in skeletons(note)]
    phenomena = Counter()
    notes_with = Counter()
    for _, info in pairs:
        for key, value in info.phenomena.items():
            if key.startswith("date_format:"):
                continue
            phenomena[key] += value
            notes_with[key] += 1
    date_formats = Counter()
    for _, info in pairs:
        for key, value in info.phenomena.items():
            if key.startswith("date_format:"):
                date_formats[key.split(":", 1)[1]] += value
    n = max(1, len(notes))
    return {
        "notes": len(notes),
        "patients": len({note.patient_id for note in notes}),
        "seconds": round(seconds, 3),
        "notes_per_second": round(len(notes) / seconds, 1) if seconds else None,
        "phi_total": total,
        "phi_per_note": round(total / n, 1),
        "words": {"min": words[0] if words else 0, "median": words[len(words) // 2] if words else 0,
                  "mean": round(sum(words) / n, 1), "max": words[-1] if words else 0},
        "words_per_phi": round(sum(words) / max(1, total), 1),
        "subtypes": {
            label: {
                "count": counts.get(label, 0),
                "percent": round(100 * counts.get(label, 0) / max(1, total), 2),
                "ngrid_train_percent": NGRID_TRAIN_PERCENT.get(label),
                "distinct_surface_forms": len(surfaces.get(label, ())),
            }
            for label in labels.SUBTYPES
        },
        "missing_subtypes": [label for label in labels.SUBTYPES if not counts.get(label)],
        "diversity": {
            "sentences": len(all_skeletons),
            "distinct_skeletons": len(set(all_skeletons)),
            "notes": len(unwrapped),
            "distinct_skeletons_per_100_notes": round(100 * len(set(all_skeletons)) / max(1, len(unwrapped)), 1),
            "distinct_share": round(len(set(all_skeletons)) / max(1, len(all_skeletons)), 3),
        },
        "layouts": dict(Counter(info.layout for _, info in pairs)),
        "templates_used": len({t for _, info in pairs for t in info.templates}),
        "phenomena_occurrences": dict(sorted(phenomena.items())),
        "phenomena_notes": dict(sorted(notes_with.items())),
        "families": {
            name: {"weight": family.weight, "notes": notes_with.get(family_key(name), 0),
                   "occurrences": phenomena.get(family_key(name), 0)}
            for name, family in FAMILIES.items()
        },
        "date_formats": dict(date_formats.most_common()),
    }


def format_table(summary: dict) -> Iterable[str]:
    """Human-readable lines of a summary."""
    yield (f"{summary['notes']} notes, {summary['patients']} patients, {summary['phi_total']} PHI "
           f"({summary['phi_per_note']}/note, {summary['words_per_phi']} words/PHI)")
    w = summary["words"]
    yield f"words per note: min {w['min']}, median {w['median']}, mean {w['mean']}, max {w['max']}"
    if summary.get("notes_per_second"):
        yield f"speed: {summary['notes_per_second']} notes/s"
    d = summary["diversity"]
    yield (f"diversity: {d['distinct_skeletons']} distinct sentence skeletons of {d['sentences']} "
           f"in {d['notes']} unwrapped notes ({d['distinct_skeletons_per_100_notes']} per 100 notes)")
    yield f"{'subtype':15s} {'count':>6s} {'%':>6s} {'N-GRID %':>8s} {'forms':>6s}"
    for label, row in summary["subtypes"].items():
        ngrid = "" if row["ngrid_train_percent"] is None else f"{row['ngrid_train_percent']:.2f}"
        yield (f"{label:15s} {row['count']:6d} {row['percent']:6.2f} {ngrid:>8s} "
               f"{row['distinct_surface_forms']:6d}")
    yield "phenomenon families (weight, notes with / occurrences):"
    for name, row in summary.get("families", {}).items():
        yield f"  {name:28s} {row['weight']:5.2f} {row['notes']:5d} / {row['occurrences']}"
    yield "hard phenomena (notes with / occurrences):"
    for key, notes in summary["phenomena_notes"].items():
        if key.startswith("family:"):
            continue
        yield f"  {key:28s} {notes:5d} / {summary['phenomena_occurrences'][key]}"
