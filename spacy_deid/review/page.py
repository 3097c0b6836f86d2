"""One self-contained HTML page for reviewing de-identified notes by eye.

Notes are shown with their PHI spans highlighted in the style of displaCy's
entity visualiser (a coloured box per span, its subtype after the text), one
colour per PHI category. Hovering a span shows its subtype, calibrated score
and provenance; spans scored below `low_score` are marked (dashed border, "?"
badge); spans the pipeline scored but did not remove at its operating point
are drawn as dotted outlines, so a reviewer sees near misses. Notes come most
uncertain first, under a summary table.

The page is also an annotation view (spacy_deid/data/review/annotate.js,
inlined): accept or reject each span, change its subtype, add a missed span
by selecting text, by mouse or keyboard; progress is kept in the browser's
localStorage (offsets, labels and states, never text); an export button
writes the corrected notes as a ZIP of i2b2 2014 XML files or as JSONL
(review/export.py reads both back). No fonts, images, links or external scripts: a strict
content security policy (the one script allowed by its hash) forbids every
request, so the page works offline and nothing it holds leaves the machine.

The page SHOWS NOTE TEXT (that is its purpose): it is for reviewers who may
see the notes, and it says so at the top.
"""

import base64
import hashlib
import html
import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Sequence

from spacy.tokens import Doc

from .. import labels
from ..data_files import DATA_DIR
from ..extensions import PROVENANCE_KEY, REJECTED_KEY, SCORES_ATTR

NOTICE = (
    "This page shows the text of clinical notes, including the PHI the pipeline found "
    "and any it missed. It is meant for reviewers authorised to see these notes: do not "
    "share, upload or publish it, and delete it when the review is done."
)
# displaCy-like colours, one per PHI category (labels.py); OTHER for unknown labels.
CATEGORY_COLOURS: Dict[str, str] = {
    labels.NAME_CATEGORY: "#aa9cfc",
    labels.PROFESSION_CATEGORY: "#c887fb",
    labels.LOCATION_CATEGORY: "#feca74",
    labels.AGE_CATEGORY: "#bfe1d9",
    labels.DATE_CATEGORY: "#bfeeb7",
    labels.CONTACT_CATEGORY: "#7aecec",
    labels.ID_CATEGORY: "#ff9561",
    labels.OTHER: "#dddddd",
}
DEFAULT_LOW_SCORE = 0.5
# Rejected spans below this score are not drawn (the beam proposes many unlikely ones).
DEFAULT_SHOW_REJECTED = 0.1

STYLE = """
body{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;
  margin:2em;color:#222;max-width:70em}
.notice{border:2px solid #b00;background:#fff0f0;padding:.8em 1em;
  font-weight:bold;border-radius:4px}
table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th:first-child,td:first-child{text-align:left}
.note{border-top:1px solid #999;margin-top:2em}.note h2{font-size:1.1em}
.text{white-space:pre-wrap;line-height:2.4;font-size:15px}
mark.phi{padding:.2em .35em;margin:0 .15em;border-radius:.35em;line-height:1;
  border:2px solid transparent}
mark.phi.low{border:2px dashed #b00}
mark.phi.rejected{background:transparent!important;border:2px dotted #888}
.phi-label{font-size:.6em;font-weight:bold;line-height:1;border-radius:.35em;
  text-transform:uppercase;vertical-align:middle;margin-left:.5em}
.phi-flag{font-size:.6em;font-weight:bold;color:#b00;margin-left:.25em}
.legend span{display:inline-block;padding:.15em .5em;margin:.1em;
  border-radius:.35em;font-size:.85em}
.toolbar{display:none}
body.annotating{margin-bottom:9em}
body.annotating .toolbar{display:flex;flex-wrap:wrap;gap:.4em .8em;align-items:center;
  position:fixed;left:0;right:0;bottom:0;background:#f4f4f4;border-top:2px solid #999;
  padding:.5em 1em;font-size:.9em}
mark.phi{cursor:pointer}
mark.phi.st-accepted{border:2px solid #070}
mark.phi.st-added{border:2px solid #05c}
mark.phi.st-rejected{text-decoration:line-through;opacity:.7}
mark.phi.focused{outline:3px solid #000;outline-offset:2px}
#status{color:#555}
"""
SCRIPT_FILE = "review/annotate.js"
# The states of a span on the page (annotate.js): the pipeline's own two, then the reviewer's.
PENDING, SUGGESTED, ACCEPTED, REJECTED, ADDED = (
    "pending",
    "suggested",
    "accepted",
    "rejected",
    "added",
)
STATES = (PENDING, SUGGESTED, ACCEPTED, REJECTED, ADDED)
STORAGE_NOTE = (
    "Your decisions are saved in this browser's local storage (offsets, subtypes and "
    "decisions, never the text), so a reload loses nothing. The export is a file on this "
    "machine that holds note text: treat it as you treat the notes."
)
KEYS_HELP = (
    "Keys: j / k next / previous span, a accept, x reject, l change subtype (type it, Enter), "
    "m mark the selected text as PHI, d note done, u undo, e export. The mouse works too: "
    "click a span, then use the bar below; select missed text, then Add."
)


@dataclass
class ReviewSpan:
    start_char: int
    end_char: int
    label: str
    score: Optional[float]
    provenance: str
    removed: bool
    # "" = from the pipeline: pending if removed, else suggested (see STATES).
    state: str = ""
    was: Optional[str] = None  # the subtype before the reviewer changed it

    @property
    def review_state(self) -> str:
        return self.state or (PENDING if self.removed else SUGGESTED)

    @property
    def category(self) -> str:
        return labels.category_of(self.label) if self.label in labels.SUBTYPES else labels.OTHER


@dataclass
class ReviewNote:
    note_id: str
    text: str
    spans: List[ReviewSpan] = field(default_factory=list)
    done: bool = False  # marked done by a reviewer (a continued export)

    def uncertainty(self) -> float:
        """How unsure the pipeline was: the sum over scored spans not yet decided by a
        reviewer of 1 - |2s - 1| (1 for a score of 0.5, 0 for 0 or 1)."""
        return sum(
            1 - abs(2 * s.score - 1)
            for s in self.spans
            if s.score is not None and s.review_state in (PENDING, SUGGESTED)
        )

    def low(self, low_score: float) -> int:
        return sum(
            1 for s in self.spans if s.removed and s.score is not None and s.score < low_score
        )


def uncertainty_order(notes: Iterable[ReviewNote]) -> List[ReviewNote]:
    """The page's order: most uncertain note first (ties keep their input order)."""
    return sorted(notes, key=lambda n: -n.uncertainty())


def review_note(
    doc: Doc, note_id: str, *, show_rejected: float = DEFAULT_SHOW_REJECTED
) -> ReviewNote:
    """A Doc's removed spans (doc.ents) and its high-scoring rejected spans."""
    spans: List[ReviewSpan] = []
    groups = {key: doc.spans.get(key) for key in (PROVENANCE_KEY, REJECTED_KEY)}
    scored = {}
    provenance = {}
    for key, group in groups.items():
        if group is None:
            continue
        scores = group.attrs.get(SCORES_ATTR) or [None] * len(group)
        for span, score in zip(group, scores):
            provenance[(span.start_char, span.end_char, key)] = span.id_ or ""
            scored[(span.start_char, span.end_char, key)] = score
    for ent in doc.ents:
        key = (ent.start_char, ent.end_char, PROVENANCE_KEY)
        spans.append(
            ReviewSpan(
                ent.start_char,
                ent.end_char,
                ent.label_,
                scored.get(key),
                provenance.get(key, "ner"),
                True,
            )
        )
    taken = [(s.start_char, s.end_char) for s in spans]
    rejected = groups[REJECTED_KEY]
    if rejected is not None:
        scores = rejected.attrs.get(SCORES_ATTR) or [0.0] * len(rejected)
        for span, score in sorted(zip(rejected, scores), key=lambda p: -p[1]):
            if score < show_rejected:
                continue
            if any(span.start_char < e and s < span.end_char for s, e in taken):
                continue
            taken.append((span.start_char, span.end_char))
            spans.append(
                ReviewSpan(
                    span.start_char, span.end_char, span.label_, float(score), span.id_ or "", False
                )
            )
    spans.sort(key=lambda s: s.start_char)
    return ReviewNote(note_id, doc.text, spans)


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _mark(note: ReviewNote, span: ReviewSpan, low_score: float) -> str:
    colour = CATEGORY_COLOURS[span.category]
    low = span.removed and span.score is not None and span.score < low_score
    classes = (
        ["phi", f"cat-{span.category.lower()}"]
        + (["low"] if low else [])
        + ([] if span.removed else ["rejected"])
    )
    score = "–" if span.score is None else f"{span.score:.2f}"
    state = "removed" if span.removed else "NOT removed (below the operating point)"
    title = f"{span.label} · score {score} · {span.provenance or 'unknown'} · {state}"
    flag = (
        '<span class="phi-flag" aria-label="low confidence">?</span>'
        if low or not span.removed
        else ""
    )
    return (
        f'<mark class="{" ".join(classes)}" style="background:{colour}" '
        f'data-label="{_esc(span.label)}" '
        f'data-score="{score}" data-provenance="{_esc(span.provenance)}" '
        f'data-removed="{str(span.removed).lower()}" title="{_esc(title)}">'
        f"{_esc(note.text[span.start_char:span.end_char])}"
        f'<span class="phi-label">{_esc(span.label)}</span>{flag}</mark>'
    )


def render_note_text(note: ReviewNote, low_score: float) -> str:
    out: List[str] = []
    position = 0
    for span in note.spans:
        if span.start_char < position:  # overlapping spans are never drawn twice
            continue
        out.append(_esc(note.text[position : span.start_char]))
        out.append(_mark(note, span, low_score))
        position = span.end_char
    out.append(_esc(note.text[position:]))
    return "".join(out)


def _summary(notes: Sequence[ReviewNote], low_score: float) -> List[str]:
    removed = Counter(s.category for n in notes for s in n.spans if s.removed)
    out = ["<h2>Summary</h2>", "<table><tr><th>category</th><th>spans removed</th></tr>"]
    for category in CATEGORY_COLOURS:
        if removed.get(category):
            out.append(f"<tr><td>{_esc(category)}</td><td>{removed[category]}</td></tr>")
    total_low = sum(n.low(low_score) for n in notes)
    total_rejected = sum(1 for n in notes for s in n.spans if not s.removed)
    out.append(f"<tr><th>all</th><th>{sum(removed.values())}</th></tr></table>")
    out.append(
        f"<p>{len(notes)} notes; {total_low} removed spans scored below {low_score:.2f} "
        f"(dashed, “?”); {total_rejected} spans scored but not removed (dotted).</p>"
    )
    out.append(
        "<table><tr><th>note</th><th>uncertainty</th><th>removed</th><th>low</th>"
        "<th>not removed</th></tr>"
    )
    for i, note in enumerate(notes):
        out.append(
            f'<tr><td><a href="#note-{i}">{_esc(note.note_id)}</a></td>'
            f"<td>{note.uncertainty():.2f}</td>"
            f"<td>{sum(1 for s in note.spans if s.removed)}</td><td>{note.low(low_score)}</td>"
            f"<td>{sum(1 for s in note.spans if not s.removed)}</td></tr>"
        )
    out.append("</table>")
    return out


def _page_data(notes: Sequence[ReviewNote], export_name: str) -> Dict[str, Any]:
    """What annotate.js works from: the notes in page order, their spans and the label scheme."""
    data: Dict[str, Any] = {
        "notes": [
            {
                "id": note.note_id,
                "text": note.text,
                "done": note.done,
                "spans": [
                    {
                        "start": s.start_char,
                        "end": s.end_char,
                        "label": s.label,
                        "state": s.review_state,
                        "was": s.was,
                        "score": s.score,
                        "provenance": s.provenance,
                    }
                    for s in note.spans
                ],
            }
            for note in notes
        ],
        "subtypes": list(labels.SUBTYPES),
        "subtypes_by_category": {c: list(t) for c, t in labels.SUBTYPES_BY_CATEGORY.items()},
        "category_of": dict(labels.CATEGORY_OF),
        "colours": CATEGORY_COLOURS,
        "export_name": export_name,
    }
    # The page's identity for localStorage: a new page (other notes or spans) starts afresh.
    content = json.dumps(data, sort_keys=True, ensure_ascii=True)
    data["page"] = hashlib.sha256(content.encode("utf-8")).hexdigest()[:16]
    return data


def _json_in_html(data: Any) -> str:
    # ASCII JSON with every "<" escaped: nothing inside can close the <script> element.
    return json.dumps(data, ensure_ascii=True).replace("<", "\\u003c")


def _toolbar() -> List[str]:
    options = "".join(f'<option value="{_esc(s)}"></option>' for s in labels.SUBTYPES)
    return [
        '<div class="toolbar" id="toolbar">',
        '<span id="focus-info"></span>',
        '<button id="accept" type="button">Accept (a)</button>',
        '<button id="reject" type="button">Reject (x)</button>',
        '<label>Subtype <select id="label-select"></select></label>',
        '<span id="label-box" hidden><input id="label-input" list="subtype-list" '
        'placeholder="subtype, then Enter" autocomplete="off"></span>',
        '<label>Add selection as <select id="add-label"></select></label>',
        '<button id="add" type="button">Add (m)</button>',
        '<button id="undo" type="button">Undo (u)</button>',
        '<button id="export" type="button">Export (e)</button>',
        '<label>as <select id="export-format"><option value="zip">i2b2 2014 XML (.zip)</option>'
        '<option value="jsonl">JSONL</option></select></label>',
        '<label><input type="checkbox" id="done-only"> done notes only</label>',
        '<button id="forget" type="button">Forget saved progress</button>',
        '<span id="progress"></span><span id="status" role="status"></span>',
        "</div>",
        f'<datalist id="subtype-list">{options}</datalist>',
    ]


def render_page(
    notes: Iterable[ReviewNote],
    *,
    title: str = "spacy-deid review",
    low_score: float = DEFAULT_LOW_SCORE,
    sort: str = "uncertainty",
    operating_point: Optional[str] = None,
    export_name: str = "review-export.zip",
) -> str:
    """The whole page as a string (UTF-8, no external resources)."""
    notes = list(notes)
    if sort == "uncertainty":
        notes = uncertainty_order(notes)
    elif sort != "input":
        raise ValueError(f"sort must be 'uncertainty' or 'input', got {sort!r}")
    legend = "".join(
        f'<span style="background:{colour}">{_esc(category)}</span>'
        for category, colour in CATEGORY_COLOURS.items()
    )
    script = (DATA_DIR / SCRIPT_FILE).read_text(encoding="utf-8")
    script_hash = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        # Nothing may be fetched: a strict content security policy says so to the browser
        # too; the one script allowed is the page's own, by its hash.
        '<meta http-equiv="Content-Security-Policy" '
        "content=\"default-src 'none'; style-src 'unsafe-inline'; "
        f"script-src 'sha256-{script_hash}'\">",
        '<meta name="referrer" content="no-referrer">',
        f"<title>{_esc(title)}</title><style>{STYLE}</style></head><body>",
        f'<p class="notice" id="notice">{_esc(NOTICE)}</p>',
        f"<h1>{_esc(title)}</h1>",
        f"<p>Operating point: {_esc(operating_point or 'as configured')}. "
        "Hover a span for its subtype, score and provenance.</p>",
        f'<p class="keys">{_esc(KEYS_HELP)}</p><p>{_esc(STORAGE_NOTE)}</p>',
        f'<p class="legend">{legend}</p>',
    ]
    out += _summary(notes, low_score)
    for i, note in enumerate(notes):
        done = " checked" if note.done else ""
        out.append(
            f'<section class="note" id="note-{i}" data-index="{i}" '
            f'data-note-id="{_esc(note.note_id)}">'
            f"<h2>{_esc(note.note_id)} <small>(uncertainty {note.uncertainty():.2f})</small> "
            f'<label><input type="checkbox" class="done" data-note="{i}"{done}> done</label></h2>'
            f'<div class="text">{render_note_text(note, low_score)}</div></section>'
        )
    out += _toolbar()
    out.append(
        '<script type="application/json" id="review-data">'
        f"{_json_in_html(_page_data(notes, export_name))}</script>"
    )
    out.append(f"<script>{script}</script>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
