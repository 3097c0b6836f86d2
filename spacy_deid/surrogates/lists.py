"""Surrogate lists shipped in `spacy_deid/data/surrogates/`, loaded once.

Plain text files, one entry a line, `#` lines are comments; `.tsv` files have
a kind or a second column after a TAB. Order is kept (never sets), so that a
seeded generator draws the same values on every machine.
"""
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Tuple

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "surrogates"


def _lines(name: str) -> List[str]:
    path = DATA_DIR / name
    if not path.is_file():
        raise FileNotFoundError(f"surrogate list missing from the package: {path}")
    with path.open(encoding="utf-8") as file_:
        return [line.rstrip("\n") for line in file_ if line.strip() and not line.startswith("#")]


@lru_cache(maxsize=None)
def words(name: str) -> Tuple[str, ...]:
    """Entries of a one-column list, e.g. words("professions.txt")."""
    return tuple(_lines(name))


@lru_cache(maxsize=None)
def pairs(name: str) -> Tuple[Tuple[str, str], ...]:
    """(first, second) rows of a two-column TAB-separated list."""
    rows = []
    for line in _lines(name):
        first, _, second = line.partition("\t")
        if not second:
            raise ValueError(f"{DATA_DIR / name}: expected two TAB-separated columns")
        rows.append((first, second))
    return tuple(rows)


@lru_cache(maxsize=None)
def grouped(name: str) -> Dict[str, Tuple[str, ...]]:
    """kind -> words for a `kind<TAB>word` list."""
    groups: Dict[str, List[str]] = {}
    for kind, word in pairs(name):
        groups.setdefault(kind, []).append(word)
    return {kind: tuple(values) for kind, values in groups.items()}
