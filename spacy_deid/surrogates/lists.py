"""Surrogate lists shipped in `spacy_deid/data/surrogates/`, loaded once.

Most are derived from well-kept packages by `scripts/data/build_value_lists.py`
(census names, USPS cities, GeoNames places, BLS occupations, job titles,
wordfreq's common words; `SOURCES.json` records package, version and
licence); the rest (hospital and organisation patterns, departments, traps)
are written by hand because no package has them.

Plain text files, one entry a line, `#` lines are comments; `.tsv` files have
a kind or a second column after a TAB. Order is kept (never sets), so that a
seeded generator draws the same values on every machine.
"""
import zlib
from functools import lru_cache
from typing import Dict, List, Tuple

from ..data_files import DATA_DIR as PACKAGE_DATA_DIR

DATA_DIR = PACKAGE_DATA_DIR / "surrogates"


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


@lru_cache(maxsize=None)
def occupation_words() -> Tuple[Tuple[str, str, int], ...]:
    """(word, plural, number of titles it heads) rows of `occupation_words.tsv`:
    one-word occupations ("nurse", "nurses"), see scripts/data/build_value_lists.py."""
    rows = []
    for line in _lines("occupation_words.tsv"):
        parts = line.split("\t")
        if len(parts) != 3 or not parts[2].isdigit():
            raise ValueError(f"{DATA_DIR / 'occupation_words.tsv'}: expected word<TAB>plural<TAB>count rows")
        rows.append((parts[0], parts[1], int(parts[2])))
    return tuple(rows)


# Lists of values (as opposed to patterns with {slots}): the name-held-out
# split gives each half of every one of them to one side (see `half`).
VALUE_LISTS = frozenset({
    "last_names.txt", "first_names_female.txt", "first_names_male.txt", "world_names.tsv",
    "cities.tsv", "world_cities.tsv", "countries.txt", "professions.txt", "job_titles.txt",
    "street_names.txt", "departments.txt", "hospital_words.tsv", "organization_words.tsv",
})
HALVES = ("A", "B")


def half_of(value: str) -> str:
    """"A" or "B": a stable split of values (crc32 of the lower-cased value), the
    same on every machine and for every list, so "Boston" is on one side only."""
    return HALVES[zlib.crc32(value.strip().lower().encode("utf-8")) % 2]


@lru_cache(maxsize=None)
def world_names(kind: str) -> Tuple[str, ...]:
    """Names of `world_names.tsv` of one kind: first_f, first_m or last."""
    return tuple(name for line in _lines("world_names.tsv") for _, k, name in [line.split("\t")] if k == kind)


def halved(values: Tuple, which: str, key_index: int = -1) -> Tuple:
    """The entries of `values` on side `which` ("A" or "B"); rows (tuples) are
    split by their column `key_index`."""
    if which not in HALVES:
        raise ValueError(f"value half must be one of {HALVES}, not {which!r}")
    return tuple(v for v in values if half_of(v if isinstance(v, str) else v[key_index]) == which)


@lru_cache(maxsize=None)
def words_half(name: str, which: str) -> Tuple[str, ...]:
    """`words(name)` on side `which` only (computed once per list and side)."""
    return halved(words(name), which)


@lru_cache(maxsize=None)
def pairs_half(name: str, which: str, key_index: int = 0) -> Tuple[Tuple[str, str], ...]:
    """`pairs(name)` on side `which`, split by column `key_index`."""
    return halved(pairs(name), which, key_index)


@lru_cache(maxsize=None)
def world_names_half(kind: str, which: str) -> Tuple[str, ...]:
    return halved(world_names(kind), which)
