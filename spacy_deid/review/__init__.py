"""The review page: notes with their PHI spans, scores and provenance, for
authorised reviewers, and an annotation view whose export (i2b2 2014 XML in a
ZIP, or JSONL) reads back for `spacy-deid convert` and to continue a review (page.py,
export.py; docs/review.md)."""

from .export import ExportError, is_export, read_export, unpacked
from .page import NOTICE, ReviewNote, ReviewSpan, render_page, review_note

__all__ = [
    "NOTICE",
    "ExportError",
    "ReviewNote",
    "ReviewSpan",
    "is_export",
    "read_export",
    "render_page",
    "review_note",
    "unpacked",
]
