"""The generator's tables, read once from `spacy_deid/data/synth/*.jsonl`.

Templates, field lines, filler vocabulary, families, sections and layouts are
data, not code: each file holds one JSON record per line (see the README in
that folder). Every reader is cached, so a table is parsed once per process.
Bad records raise a ValueError that names the file and line (the files ship
with the package; a bad one is a packaging bug, not user input).
"""
import json
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from .template import HALVES, Template

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "synth"


@lru_cache(maxsize=None)
def records(name: str) -> Tuple[dict, ...]:
    """The records of `data/synth/<name>` in file order."""
    path = DATA_DIR / name
    out = []
    with open(path, encoding="utf8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as err:
                raise ValueError(f"{path.name}, line {number}: not JSON ({err.msg})") from None
            if not isinstance(record, dict):
                raise ValueError(f"{path.name}, line {number}: a record must be a JSON object")
            out.append(record)
    return tuple(out)


def _pools(name: str, source) -> Dict[str, List[Template]]:
    """Template pools in file order; a template's id is `pool.NNN` by position and
    its half alternates A/B, so the file states both and they are checked."""
    pools: Dict[str, List[Template]] = {}
    for record in records(name):
        pool = pools.setdefault(record["pool"], [])
        position = len(pool)
        expected = (f"{record['pool']}.{position:03d}", HALVES[position % 2])
        if (record.get("id"), record.get("half")) != expected:
            raise ValueError(f"{name}: record {record.get('id')!r} should be {expected[0]} "
                             f"(half {expected[1]}): templates are appended, never reordered")
        pools[record["pool"]].append(Template(expected[0], expected[1], source(record)))
    return pools


@lru_cache(maxsize=None)
def sentence_pools() -> Dict[str, List[Template]]:
    """Sentence, list-item and block templates by pool (sentences.jsonl)."""
    return _pools("sentences.jsonl", lambda record: record["template"])


@lru_cache(maxsize=None)
def field_pools() -> Dict[str, List[Template]]:
    """Attribute-value line templates by pool (fields.jsonl); a source is (attribute, value)."""
    return _pools("fields.jsonl", lambda record: (record["attribute"], record["value"]))


@lru_cache(maxsize=None)
def filler_records(list_name: str) -> Tuple[dict, ...]:
    """The records of one vocabulary list of fillers.jsonl, in file order."""
    chosen = tuple(record for record in records("fillers.jsonl") if record["list"] == list_name)
    if not chosen:
        raise KeyError(f"fillers.jsonl has no list {list_name!r}")
    return chosen


def filler_values(list_name: str) -> Tuple[str, ...]:
    """The values of one vocabulary list of fillers.jsonl."""
    return tuple(record["value"] for record in filler_records(list_name))


def as_tuple(value: Sequence) -> tuple:
    """JSON arrays (nested ones too) as tuples, for frozen dataclasses."""
    return tuple(as_tuple(v) if isinstance(v, list) else v for v in value)
