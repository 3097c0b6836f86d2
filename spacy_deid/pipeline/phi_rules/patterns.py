"""PHI regex patterns: the record format, validation, and the registered loader.

A pattern is one JSON object (one line of a `phi_patterns_*.jsonl` file):

    {"id": "fax-cue", "label": "FAX", "pattern": "...{PHONE}...",
     "priority": 10, "attributes": ["fax"], "comment": "why"}

- `id` (required, unique): provenance; every hit carries it in `span.id_`.
- `label` (required): one of the 30 subtypes of `spacy_deid.labels`.
- `pattern` (required): a regex for the `regex` package; `{NAME}` refers to a
  fragment of `fragments.FRAGMENTS`. Named groups `phi` / `phi_<x>` mark
  the PHI inside the match (context stays outside the span); without them the
  whole match is the PHI.
- `priority` (default 0): breaks ties between hits of the same extent.
- `attributes`: if given, the pattern is searched only inside the values of
  these attributes (`doc.spans["attributes"]`, labels in lower snake_case).
- `comment`: free text, ignored.
"""
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple, Union

import regex
from spacy.util import registry

from ... import labels
from ...data_files import DATA_DIR, read_jsonl
from .first_chars import scan_guard
from .fragments import FragmentError, expand
from .required_text import required_text

PATTERN_FILES_GLOB = "phi_patterns_*.jsonl"
PHI_GROUP = "phi"
_KNOWN_KEYS = frozenset({"id", "label", "pattern", "priority", "attributes", "comment"})

PatternDict = Dict[str, Any]


class PatternError(ValueError):
    """A PHI pattern that cannot be used (missing field, unknown label, bad regex)."""


@dataclass(frozen=True)
class CompiledPattern:
    """A validated pattern with its regex compiled once."""

    id: str
    label: str
    regex: "regex.Pattern[str]"
    priority: int
    attributes: Tuple[str, ...]
    phi_groups: Tuple[str, ...]
    order: int
    # Case-folded strings one of which a note must hold for a match (None:
    # not known); the scan skips notes without any (required_text.py).
    required: Optional[FrozenSet[str]] = None


def compile_pattern(pattern: PatternDict, order: int) -> Tuple[PatternDict, CompiledPattern]:
    """Validate one pattern, expand its fragments and compile it.

    Returns the pattern as it will be saved (fragments expanded, so a saved
    pipeline does not depend on the fragments of a later package version) and
    the compiled form. Error messages name the pattern id, never note text.
    """
    if not isinstance(pattern, dict):
        raise PatternError(f"pattern {order}: expected an object, got {type(pattern).__name__}")
    pattern_id = pattern.get("id")
    if not isinstance(pattern_id, str) or not pattern_id:
        raise PatternError(f"pattern {order}: missing 'id'")
    unknown = set(pattern) - _KNOWN_KEYS
    if unknown:
        raise PatternError(f"pattern {pattern_id!r}: unknown keys {sorted(unknown)}")
    label = pattern.get("label")
    if label not in labels.SUBTYPES:
        raise PatternError(f"pattern {pattern_id!r}: label {label!r} is not a PHI subtype")
    template = pattern.get("pattern")
    if not isinstance(template, str) or not template:
        raise PatternError(f"pattern {pattern_id!r}: missing 'pattern' string")
    priority = pattern.get("priority", 0)
    if not isinstance(priority, int) or isinstance(priority, bool):
        raise PatternError(f"pattern {pattern_id!r}: 'priority' must be an integer")
    attributes = pattern.get("attributes") or []
    if not isinstance(attributes, list) or not all(isinstance(a, str) for a in attributes):
        raise PatternError(f"pattern {pattern_id!r}: 'attributes' must be a list of names")
    try:
        expanded = expand(template)
        # The saved pattern stays as written; the compiled one may carry a
        # first-character lookahead that only makes the scan faster.
        compiled = regex.compile((scan_guard(expanded) or "") + expanded)
    except FragmentError as err:
        raise PatternError(f"pattern {pattern_id!r}: {err}") from None
    except regex.error as err:
        raise PatternError(f"pattern {pattern_id!r}: invalid regex ({err})") from None
    phi_groups = tuple(
        name for name in compiled.groupindex if name == PHI_GROUP or name.startswith(PHI_GROUP + "_")
    )
    saved = {k: v for k, v in pattern.items() if k != "comment"}
    saved["pattern"] = expanded
    return saved, CompiledPattern(
        id=pattern_id,
        label=label,
        regex=compiled,
        priority=priority,
        attributes=tuple(attributes),
        phi_groups=phi_groups,
        order=order,
        required=required_text(expanded),
    )


def read_pattern_files(paths: Iterable[Path]) -> List[PatternDict]:
    """Patterns from JSONL files, in file order; errors name the file and line.

    Each pattern is checked fully (regex compiled) when a component adds it;
    here only its shape, so that the message can name the line.
    """
    patterns: List[PatternDict] = []
    for path in paths:
        patterns.extend(read_jsonl(path, _an_object, what="PHI pattern", error=PatternError))
    return patterns


def _an_object(entry: Any) -> PatternDict:
    if not isinstance(entry, dict):
        raise PatternError(f"expected an object, got {type(entry).__name__}")
    return entry


def pattern_files(path: Optional[Union[str, Path]] = None) -> List[Path]:
    """The JSONL files behind `path`: a file, or a folder's phi_patterns_*.jsonl (default: package data)."""
    root = Path(path) if path is not None else DATA_DIR
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise PatternError(f"{root}: no such pattern file or folder")
    files = sorted(root.glob(PATTERN_FILES_GLOB))
    if not files:
        raise PatternError(f"{root}: no {PATTERN_FILES_GLOB} files")
    return files


def default_patterns() -> List[PatternDict]:
    """The package's own PHI patterns."""
    return read_pattern_files(pattern_files())


@registry.misc("spacy-deid.PhiPatterns.v1")
def load_phi_patterns(
    path: Optional[str] = None, exclude_ids: Sequence[str] = ()
) -> List[PatternDict]:
    """Load PHI patterns for `deid_phi_rules.initialize`.

    path: a JSONL file or a folder of phi_patterns_*.jsonl files; None means
    the patterns shipped with the package. exclude_ids: pattern ids to leave out.
    """
    patterns = read_pattern_files(pattern_files(path))
    excluded = set(exclude_ids)
    return [p for p in patterns if p.get("id") not in excluded]
