"""The format-neutral form of an annotated note, between files and Docs."""
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from ..labels import category_of


@dataclass(frozen=True, order=True)
class PhiMention:
    """One PHI mention: character offsets into the note text and a subtype."""

    start: int
    end: int
    label: str
    tag_id: Optional[str] = field(default=None, compare=False)
    comment: str = field(default="", compare=False)

    @property
    def category(self) -> str:
        return category_of(self.label)

    def key(self) -> Tuple[int, int, str]:
        return (self.start, self.end, self.label)


@dataclass
class Note:
    """A note's exact text, its PHI mentions and where it came from."""

    note_id: str
    text: str
    mentions: List[PhiMention] = field(default_factory=list)
    patient_id: Optional[str] = None
    source_file: Optional[str] = None

    def mention_keys(self) -> List[Tuple[int, int, str]]:
        return sorted(m.key() for m in self.mentions)


def without_edge_whitespace(text: str, start: int, end: int) -> Tuple[int, int]:
    """The offsets of text[start:end] without whitespace at its edges (start ==
    end when it is all whitespace): PHI spans never hold line breaks or spaces
    at their edges, so released text keeps them."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
