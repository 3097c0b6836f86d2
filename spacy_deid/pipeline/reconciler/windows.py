"""The text windows a reconciler rule looks for cues in, cut to the mention's
sentence for rules with `windows_in_sentence` (rules.py)."""
import re

# A sentence's end in a window's text: . ! ? or ; before whitespace, or a line break.
SENTENCE_END = re.compile(r"[.!?;](?=\s)|\n")


def within_sentence(text: str, from_end: bool) -> str:
    """The part of a window's text in the mention's sentence: after the last
    sentence end of a window before it, up to the first of a window after it."""
    ends = list(SENTENCE_END.finditer(text))
    if not ends:
        return text
    return text[ends[-1].end():] if from_end else text[: ends[0].start()]
