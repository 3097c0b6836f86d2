"""Where to split a note longer than a pipeline's `max_length`.

spaCy refuses longer texts (E088: the parser and NER need about 1 GB per
100,000 characters). Such a note is processed in pieces and the piece Docs
are joined again (`Doc.from_docs`), so offsets index the whole note. A piece
ends after a blank line where one is in reach, else after a line end, else
after a space: a PHI mention rarely spans a paragraph break and never a
line end the tokenizer keeps.
"""
import re
from typing import List, Optional

# Boundaries, best first: the end of a run of blank lines, of a line end, of spaces.
_BOUNDARIES = [re.compile(r"\n[ \t\r]*\n\s*"), re.compile(r"\n\s*"), re.compile(r"\s+")]


def split_points(text: str, limit: int) -> Optional[List[int]]:
    """Offsets to cut `text` at so every piece is at most `limit` characters
    ([] when it fits), or None when some stretch has no boundary to cut at."""
    points: List[int] = []
    start = 0
    while len(text) - start > limit:
        cut = _last_boundary(text, start, start + limit)
        if cut is None:
            return None
        points.append(cut)
        start = cut
    return points


def _last_boundary(text: str, start: int, end: int) -> Optional[int]:
    """The last boundary end in (start, end], by the best kind found in the
    second half of the window (so pieces do not get needlessly small)."""
    half = start + (end - start) // 2
    best = None
    for pattern in _BOUNDARIES:
        ends = [m.end() for m in pattern.finditer(text, start, end) if start < m.end() <= end]
        if ends and (ends[-1] > half or best is None):
            if ends[-1] > half:
                return ends[-1]
            best = best or ends[-1]
    return best
