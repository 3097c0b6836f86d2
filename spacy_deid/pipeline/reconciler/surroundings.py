"""What stands right around a mention, for the rule options `after_line_header`,
`glued_pattern` and `windows_in_sentence` (rules.py): the header that opens its
line ("CV: ..."), the characters glued to it ("4." before "7/2") and the part of
a cue window in its sentence. Token-level helpers that never rebuild the note's
text (a reconciler call reads it at most once)."""
import re

from spacy.tokens import Doc

from .rules import normalize_value

# What ends a line header: "CV:", "Neuro -", or a dash glued to the header ("Neuro-").
HEADER_ENDS = frozenset({":", "-", "--"})
# A header is at most this many tokens ("Neuro status", "GI / GU").
HEADER_MAX_TOKENS = 4
# How many characters on each side of a mention `glued_pattern` sees.
GLUED_CHARS = 8
# A sentence's end in a window's text: . ! ? or ; before whitespace, or a line break.
SENTENCE_END = re.compile(r"[.!?;](?=\s)|\n")


def line_starts_at(doc: Doc, i: int) -> bool:
    """Whether token `i` is the first word of its line (or of the note)."""
    j = i - 1
    while j >= 0 and doc[j].is_space:
        if "\n" in doc[j].text:
            return True
        j -= 1
    return j < 0 or "\n" in doc[j].whitespace_


def follows_line_header(doc: Doc, start: int, headers: frozenset) -> bool:
    """Whether the mention starting at token `start` directly follows a header
    in `headers` that opens its line, with the header's colon or dash
    ("CV: Aflutter", "Neuro- Pleasant")."""
    i = start - 1
    while i >= 0 and doc[i].is_space and "\n" not in doc[i].text:
        i -= 1
    if i < 0:
        return False
    if doc[i].text in HEADER_ENDS:
        end = i
    elif len(doc[i].text) > 1 and doc[i].text.endswith("-"):
        end = i + 1  # the dash is glued to the header's last word
    else:
        return False
    for first in range(end - 1, max(end - HEADER_MAX_TOKENS, 0) - 1, -1):
        if line_starts_at(doc, first):
            words = doc[first:end].text.rstrip("-").replace(" / ", "/")
            return normalize_value(words) in headers
    return False


def glued_text(doc: Doc, start: int, end: int) -> str:
    """The characters around tokens `start`..`end` with a '|' in their place:
    "4." + "|" + ".6. MVO2" (at most GLUED_CHARS on each side)."""
    before = ""
    i = start - 1
    while i >= 0 and len(before) < GLUED_CHARS:
        before = doc[i].text_with_ws + before
        i -= 1
    after = doc[end - 1].whitespace_
    i = end
    while i < len(doc) and len(after) < GLUED_CHARS:
        after += doc[i].text_with_ws
        i += 1
    return before[-GLUED_CHARS:] + "|" + after[:GLUED_CHARS]


def within_sentence(text: str, from_end: bool) -> str:
    """The part of a window's text in the mention's sentence: after the last
    sentence end of a window before it, up to the first of a window after it."""
    ends = list(SENTENCE_END.finditer(text))
    if not ends:
        return text
    return text[ends[-1].end():] if from_end else text[: ends[0].start()]
