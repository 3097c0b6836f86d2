"""The review page: de-identified notes with their PHI spans, scores and
provenance, for authorised reviewers (see page.py and docs/recall.md)."""

from .page import NOTICE, ReviewNote, ReviewSpan, render_page, review_note

__all__ = ["NOTICE", "ReviewNote", "ReviewSpan", "render_page", "review_note"]
