"""Checks every reader applies to the mentions it found in a note."""
import re
from dataclasses import dataclass
from typing import Iterable, List, Optional

from . import problems as P
from .note import PhiMention
from .problems import PathLike, ProblemLog

# XML attribute-value normalisation turns each newline or tab into a space,
# and files differ in line endings, so `text` attributes are compared with
# whitespace runs collapsed.
_WHITESPACE_RUN = re.compile(r"\s+")


def _normalize_space(value: str) -> str:
    return _WHITESPACE_RUN.sub(" ", value).strip()


@dataclass
class RawMention:
    """A mention as a reader found it, before validation."""

    tag_id: Optional[str]
    start: int
    end: int
    label: str
    text: Optional[str] = None
    comment: str = ""


def validate_mentions(
    path: PathLike, note_text: str, raw_mentions: Iterable[RawMention], log: ProblemLog
) -> List[PhiMention]:
    """Range, text, duplicate and overlap checks; returns the mentions that pass.

    In lenient mode a failing mention is skipped and counted; of two
    overlapping mentions the later one (in file order) is skipped.
    """
    accepted: List[PhiMention] = []
    for raw in raw_mentions:
        tag = raw.tag_id
        if not 0 <= raw.start < raw.end <= len(note_text):
            log.report(
                path,
                P.OFFSETS_OUT_OF_RANGE,
                f"offsets {raw.start}-{raw.end} are outside the note text "
                f"(0-{len(note_text)}) or empty",
                tag_id=tag,
            )
            continue
        if raw.text is not None and _normalize_space(raw.text) != _normalize_space(
            note_text[raw.start : raw.end]
        ):
            log.report(
                path,
                P.TEXT_MISMATCH,
                f"the tag's text attribute differs from the note text at offsets "
                f"{raw.start}-{raw.end}",
                tag_id=tag,
            )
            continue
        clash = _first_clash(raw, accepted)
        if clash is not None:
            same = (clash.start, clash.end) == (raw.start, raw.end)
            kind = P.DUPLICATE_TAG if same else P.OVERLAPPING_TAGS
            what = "duplicates" if same else "overlaps"
            log.report(
                path,
                kind,
                f"offsets {raw.start}-{raw.end} {what} tag {P.shown_id(clash.tag_id)} "
                f"({clash.start}-{clash.end})",
                tag_id=tag,
            )
            continue
        accepted.append(
            PhiMention(raw.start, raw.end, raw.label, tag_id=tag, comment=raw.comment)
        )
    return sorted(accepted)


def _first_clash(raw: RawMention, accepted: List[PhiMention]) -> Optional[PhiMention]:
    for mention in accepted:
        if raw.start < mention.end and mention.start < raw.end:
            return mention
    return None
