"""Build a note's text from segments and keep PHI offsets exact.

A segment is a piece of text, PHI (with its subtype) or not. The builder
appends segments, so every mention's offsets are known by construction and
the mention's text is exactly the value the generator inserted.
"""
import re
from typing import List, NamedTuple, Optional, Sequence

from ..corpus.note import PhiMention


class Seg(NamedTuple):
    text: str
    label: Optional[str] = None


def strip_segments(segments: Sequence[Seg]) -> List[Seg]:
    """Drop empty segments and merge adjacent plain ones (PHI stays separate)."""
    out: List[Seg] = []
    for seg in segments:
        if not seg.text:
            continue
        if seg.label is None and out and out[-1].label is None:
            out[-1] = Seg(out[-1].text + seg.text)
        else:
            out.append(seg)
    return out


_ARTICLE_AT_END = re.compile(r"(?<![\w'])([Aa]n?) $")
_ARTICLE_INSIDE = re.compile(r"(?<![\w'])([Aa]n?) (?=([A-Za-z0-9]+))")
_AN_NUMBER = re.compile(r"(8|11|18)(?!\d)|8\d(?!\d)")  # "an 8-", "an 18-", "an 80-year-old"


_SILENT_H = ("hour", "honest", "honor", "heir")
_CONSONANT_VOWELS = ("uni", "use", "usu", "eu", "one", "once")


def _vowel_sound(word: str) -> bool:
    """Rough English rule: "an hour", "an MD", "a university", "a one-time"."""
    lowered = word.lower()
    if lowered.startswith(_SILENT_H):
        return True
    if lowered.startswith(_CONSONANT_VOWELS):
        return False
    letters = re.match(r"[A-Za-z]+", word)
    if letters and len(letters.group(0)) > 1 and letters.group(0).isupper():
        return word[0] in "AEFHILMNORSX"  # read letter by letter: "an RN", "an LPN"
    return lowered[:1] in ("a", "e", "i", "o", "u")


def _article(article: str, next_word: str) -> str:
    if next_word[:1].isdigit():
        word = "an" if _AN_NUMBER.match(next_word) else "a"
    else:
        word = "an" if _vowel_sound(next_word) else "a"
    return word.capitalize() if article[0].isupper() else word


def fix_articles(segments: List[Seg]) -> List[Seg]:
    """"a"/"an" agreeing with the next word, also across segments
    ("a {prof}" + "EMT" → "an EMT" would need sound rules; vowels only)."""
    out = list(segments)
    for i, seg in enumerate(out):
        if seg.label is not None:
            continue
        text = _ARTICLE_INSIDE.sub(lambda m: _article(m.group(1), m.group(2)) + " ", seg.text)
        if i + 1 < len(out) and out[i + 1].text:
            nxt = out[i + 1].text
            text = _ARTICLE_AT_END.sub(lambda m: _article(m.group(1), nxt) + " ", text)
        out[i] = Seg(text)
    return out


def tidy_spaces(segments: List[Seg]) -> List[Seg]:
    """Collapse the double spaces and " ," that empty alternatives leave."""
    out = []
    for seg in strip_segments(segments):
        if seg.label is None:
            seg = Seg(re.sub(r" +([,.;:)])", r"\1", re.sub(r"  +", " ", seg.text)))
        out.append(seg)
    return strip_segments(out)


def capitalize_first(segments: List[Seg]) -> List[Seg]:
    """Upper-case the first letter of a sentence when it is plain text."""
    for i, seg in enumerate(segments):
        if not seg.text:
            continue
        if seg.label is None and seg.text[0].islower():
            segments[i] = Seg(seg.text[0].upper() + seg.text[1:])
        return segments
    return segments


class NoteBuilder:
    """Appends segments to a growing text and records PHI mentions."""

    def __init__(self) -> None:
        self._parts: List[str] = []
        self._length = 0
        self.mentions: List[PhiMention] = []
        self.inserted: List[str] = []  # the value inserted for each mention

    @property
    def length(self) -> int:
        return self._length

    def add(self, text: str, label: Optional[str] = None) -> None:
        if not text:
            return
        if label is not None:
            if text != text.strip():
                raise ValueError("PHI values must not start or end with whitespace")
            self.mentions.append(PhiMention(self._length, self._length + len(text), label))
            self.inserted.append(text)
        self._parts.append(text)
        self._length += len(text)

    def extend(self, segments: Sequence[Seg]) -> None:
        for seg in segments:
            self.add(seg.text, seg.label)

    def text(self) -> str:
        return "".join(self._parts)
