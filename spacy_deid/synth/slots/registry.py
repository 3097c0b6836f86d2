"""The slot registry and what every slot module shares.

`SLOTS` maps a slot name to a function (NoteContext, argument) -> segments;
the modules of this package fill it with `@slot(name)` when they are imported.
"""
from typing import Callable, Dict, List

from ..assembler import Seg
from ..context import NoteContext
from ..families import family_key


SLOTS: Dict[str, Callable[[NoteContext, str], List[Seg]]] = {}


def slot(name: str):
    def register(func):
        SLOTS[name] = func
        return func
    return register


def phi(label: str, text: str) -> List[Seg]:
    return [Seg(text, label)]


def plain(text: str) -> List[Seg]:
    return [Seg(text)]


def count_family(ctx: NoteContext, family: str) -> None:
    ctx.phenomena[family_key(family)] += 1


# Subsets of a value list, by the first column of a row: towns of several words,
# places with a hyphen or a space, occupations of three or more words.
_SUBSETS = {
    "multiword": lambda value: " " in value,
    "hyphen_or_space": lambda value: "-" in value or " " in value,
    "three_words": lambda value: len(value.split()) >= 3,
    "and_or_hyphen": lambda value: " and " in value or "-" in value,
}
_SUBSET_CACHE: Dict[tuple, tuple] = {}


def subset(gen, name: str, kind: str) -> tuple:
    """The entries of list `name` (as `gen` draws from it: one half of it under
    `values`) that fit `kind`; computed once per list, half and kind, since the
    lists have up to 89k entries."""
    key = (name, gen.values, kind)
    if key not in _SUBSET_CACHE:
        keep = _SUBSETS[kind]
        _SUBSET_CACHE[key] = tuple(v for v in gen.listed(name)
                                   if keep(v if isinstance(v, str) else v[0]))
    return _SUBSET_CACHE[key]
