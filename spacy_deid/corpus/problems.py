"""Errors and the strict / lenient handling of bad corpus input.

Messages name the file, the tag id and the problem, never note text or PHI:
they end up in terminals, CI logs and bug reports. An id read from the
input is shown only when it looks like one (`shown_id`): a tag id, TYPE or
element name is input too and may hold a name.
"""
import re
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Union

PathLike = Union[str, Path]

# Problem kinds, the keys of lenient-mode counts.
MALFORMED_XML = "malformed-xml"
UNDECODABLE = "undecodable-bytes"
MISSING_ATTRIBUTE = "missing-attribute"
BAD_OFFSETS = "bad-offsets"
OFFSETS_OUT_OF_RANGE = "offsets-out-of-range"
TEXT_MISMATCH = "text-mismatch"
DUPLICATE_TAG = "duplicate-tag"
OVERLAPPING_TAGS = "overlapping-tags"
UNKNOWN_TYPE = "unknown-type"
CATEGORY_MISMATCH = "category-mismatch"
DUPLICATE_ID = "duplicate-id"
MISSING_RECORD = "missing-record"


# Ids a message may show: i2b2 tag ids ("P12", "T3"), record numbers, and
# the positions and line numbers the readers make up ("#4", "line 7",
# "RECORD 12 PHI #3"). Anything else is replaced, never echoed.
_SHOWN_ID = r"(?:[A-Za-z]{0,4}|#)[0-9]{1,9}"
_SHOWN_REFERENCE = re.compile(
    rf"{_SHOWN_ID}|line [0-9]{{1,9}}|RECORD {_SHOWN_ID}(?: PHI #[0-9]{{1,9}})?"
)
NOT_SHOWN = "(id not shown)"


def is_shown_id(value: Optional[str]) -> bool:
    """Whether `value` is short and id-like enough to appear in a message."""
    return value is not None and _SHOWN_REFERENCE.fullmatch(value) is not None


def shown_id(value: Optional[str], fallback: Optional[str] = None) -> str:
    """`value` if it may appear in a message (`is_shown_id`), else `fallback`
    (a position the caller knows, "#3") or a fixed stand-in."""
    if is_shown_id(value):
        return str(value)
    return fallback if fallback is not None else NOT_SHOWN


class CorpusFormatError(ValueError):
    """Bad corpus input: names the file, the tag (if any) and the problem."""

    def __init__(
        self, path: PathLike, problem: str, *, tag_id: Optional[str] = None, kind: str = ""
    ) -> None:
        self.path = str(path)
        self.tag_id = None if tag_id is None else shown_id(tag_id)
        self.problem = problem
        self.kind = kind
        where = self.path if tag_id is None else f"{self.path}: tag {self.tag_id}"
        super().__init__(f"{where}: {problem}")


class ProblemLog:
    """Raises on the first problem (strict) or skips and counts (lenient).

    In lenient mode the caller skips the offending tag or record; the counts
    per file and per kind are kept for the summary a command prints.
    """

    def __init__(self, lenient: bool = False) -> None:
        self.lenient = lenient
        self.counts: Dict[str, Counter] = {}
        self.messages: List[str] = []

    def report(
        self, path: PathLike, kind: str, problem: str, *, tag_id: Optional[str] = None
    ) -> None:
        error = CorpusFormatError(path, problem, tag_id=tag_id, kind=kind)
        if not self.lenient:
            raise error
        self.counts.setdefault(str(path), Counter())[kind] += 1
        self.messages.append(str(error))

    @property
    def total(self) -> int:
        return sum(sum(counter.values()) for counter in self.counts.values())

    def by_kind(self) -> Counter:
        total: Counter = Counter()
        for counter in self.counts.values():
            total.update(counter)
        return total

    def summary(self) -> str:
        """One line per file with what was skipped; no note text."""
        if not self.total:
            return "no input problems"
        lines = [f"skipped {self.total} problem(s) in {len(self.counts)} file(s):"]
        for path, counter in sorted(self.counts.items()):
            kinds = ", ".join(f"{kind} x{n}" for kind, n in sorted(counter.items()))
            lines.append(f"  {path}: {kinds}")
        return "\n".join(lines)
