"""Required text: strings one of which every match of a regex contains.

A note without any of them cannot hold a match, so `deid_phi_rules` skips
the pattern for that note instead of scanning it. On short notes (ICU
nursing notes) most cue words of most patterns are absent ("pager",
"insurance", a relative, a weekday), and skipping them saves about a third
of the rule scan; the matches are exactly the same (tests/pipeline/test_phi_rules_required_text.py
compares every package pattern with and without the check).

The strings are read from the pattern's syntax tree as Python's own `re`
parser (`re._parser`, the standard library's `sre_parse`) builds it, as
`first_chars` does, with the same refusals: syntax that parser cannot read
or reads otherwise than the `regex` package (`\\p{..}`, POSIX classes, fuzzy
matching, version flags) gets no requirement, never a wrong one.

- Everything is compared case-folded (`str.casefold`, then without the
  combining dot above): every character the `regex` package matches
  case-insensitively with an ASCII character folds to that character (the
  Kelvin sign to "k", the long s to "s", the dotted capital I to "i" once
  its dot is dropped; checked over all of Unicode), so folding both sides
  never hides a match; only ASCII characters of the pattern are used, and
  dropping a character that no requirement holds only adds occurrences.
- A sequence keeps its most selective requirement: the literal runs it
  spells (alternations of literals and small classes are expanded, "Jan(uary)?"
  gives "jan" and "january"), a group or a repeat of at least one, an
  alternation whose branches all have one, or a positive lookaround's (its
  text must be in the note too, if not in the match). Negative lookarounds,
  optional items and wide classes require nothing.
"""
from itertools import product
from typing import Callable, FrozenSet, Iterable, List, Optional, Sequence, Set

import ahocorasick

from .first_chars import _REGEX_ONLY, _sre, _sre_parse

Required = FrozenSet[str]

# Exact string sets larger than this are not expanded (a requirement is
# still read from their parts).
_MAX_EXACT = 64
# A repeat is expanded into exact strings up to this many copies.
_MAX_EXACT_REPEAT = 3
# A requirement whose shortest string is shorter is almost always present:
# not worth checking.
MIN_REQUIRED_LENGTH = 2
_REPEATS = tuple(
    op for op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", None)) if op is not None
)
_ATOMIC = getattr(_sre, "ATOMIC_GROUP", None)


def required_text(pattern: str) -> Optional[Required]:
    """Case-folded strings, one of which is in any text `pattern` matches in
    (inside the match or its lookarounds); None where none is known."""
    if _REGEX_ONLY.search(pattern):
        return None
    try:
        parsed = _sre_parse.parse(pattern)
    except Exception:  # syntax only `regex` reads (\p{..}, nested sets, ...)
        return None
    required = _Reader().sequence(list(parsed))
    if required is None or min(len(text) for text in required) < MIN_REQUIRED_LENGTH:
        return None
    return required


# "İ".casefold() is "i" + U+0307, which would split "di" + "x" from "dix".
_COMBINING_DOT_ABOVE = "\u0307"


def fold(text: str) -> str:
    """The text as requirements are compared with it."""
    return text.casefold().replace(_COMBINING_DOT_ABOVE, "")


class RequiredTextIndex:
    """The requirements of a list of patterns, looked up in a text at once.

    One Aho-Corasick automaton (pyahocorasick) holds every required string of
    every pattern; one pass over a note's folded text finds those it holds.
    """

    def __init__(self, requirements: Sequence[Optional[Required]]) -> None:
        strings = sorted({text for required in requirements if required for text in required})
        number = {text: index for index, text in enumerate(strings)}
        self._needs: List[Optional[FrozenSet[int]]] = [
            None if required is None else frozenset(number[text] for text in required)
            for required in requirements
        ]
        self._automaton: Optional[ahocorasick.Automaton] = None
        if strings:
            self._automaton = ahocorasick.Automaton()
            for text, index in number.items():
                self._automaton.add_word(text, index)
            self._automaton.make_automaton()

    def possible(self, text: str) -> List[bool]:
        """Per pattern, in order: whether it can match somewhere in `text`."""
        if self._automaton is None:
            return [True] * len(self._needs)
        found = {index for _end, index in self._automaton.iter(fold(text))}
        return [needs is None or not needs.isdisjoint(found) for needs in self._needs]


def _better(current: Optional[Required], candidate: Optional[Required]) -> Optional[Required]:
    """The more selective requirement: longer shortest string, then fewer strings."""
    if candidate is None or "" in candidate:
        return current
    if current is None:
        return candidate
    key_current = (min(map(len, current)), -len(current))
    key_candidate = (min(map(len, candidate)), -len(candidate))
    return candidate if key_candidate > key_current else current


class _Reader:
    """Walks a parsed pattern. For each item: its exact strings (every text it
    can match, where few and ASCII) and its requirement."""

    def sequence(self, items: List) -> Optional[Required]:
        required: Optional[Required] = None
        run: Set[str] = {""}  # exact strings of the current run of items
        for op, av in items:
            if op == _sre.AT:
                continue  # zero-width anchors: the run goes on
            exact = self.exact(op, av)
            if exact is not None:
                joined = {a + b for a, b in product(run, exact)} if len(run) * len(exact) <= _MAX_EXACT else None
                if joined is not None:
                    run = joined
                    continue
            required = _better(required, _as_required(run))
            run = set(exact) if exact is not None else {""}
            required = _better(required, self.item(op, av))
        return _better(required, _as_required(run))

    def item(self, op, av) -> Optional[Required]:
        if op == _sre.SUBPATTERN:
            return self.sequence(list(av[3]))
        if op == _ATOMIC:
            return self.sequence(list(av))
        if op == _sre.ASSERT:  # a positive lookahead or lookbehind
            return self.sequence(list(av[1]))
        if op == _sre.BRANCH:
            union = _union(self.sequence, av[1])
            return None if union is None else frozenset(union)
        if op in _REPEATS:
            minimum, _maximum, body = av
            return self.sequence(list(body)) if minimum >= 1 else None
        exact = self.exact(op, av)
        return _as_required(exact)

    def exact(self, op, av) -> Optional[Set[str]]:
        """Every (case-folded) text the item can match, or None."""
        if op == _sre.LITERAL:
            char = chr(av)
            return {char.lower()} if char.isascii() else None
        if op == _sre.IN:
            chars: Set[str] = set()
            for item_op, item_av in av:
                if item_op != _sre.LITERAL or not chr(item_av).isascii():
                    return None
                chars.add(chr(item_av).lower())
            return chars
        if op == _sre.SUBPATTERN:
            return self.exact_sequence(list(av[3]))
        if op == _sre.BRANCH:
            union = _union(self.exact_sequence, av[1])
            return union if union is not None and len(union) <= _MAX_EXACT else None
        if op in _REPEATS:
            minimum, maximum, body = av
            if maximum > _MAX_EXACT_REPEAT:
                return None
            strings = self.exact_sequence(list(body))
            if strings is None:
                return None
            found: Set[str] = set()
            for count in range(minimum, maximum + 1):
                for parts in product(sorted(strings), repeat=count):
                    found.add("".join(parts))
                    if len(found) > _MAX_EXACT:
                        return None
            return found
        return None

    def exact_sequence(self, items: List) -> Optional[Set[str]]:
        strings: Set[str] = {""}
        for op, av in items:
            if op == _sre.AT:
                return None  # an anchor inside an alternative: keep it simple
            exact = self.exact(op, av)
            if exact is None or len(strings) * len(exact) > _MAX_EXACT:
                return None
            strings = {a + b for a, b in product(strings, exact)}
        return strings


def _union(read: Callable[[List], Optional[Iterable[str]]], alternatives: Iterable) -> Optional[Set[str]]:
    """The strings `read` gives for every alternative of a branch; None if one has none."""
    union: Set[str] = set()
    for alternative in alternatives:
        strings = read(list(alternative))
        if strings is None:
            return None
        union |= set(strings)
    return union


def _as_required(strings: Optional[Iterable[str]]) -> Optional[Required]:
    """The strings without those that hold another of them (a text holding
    "april" holds "apr": checking "apr" is enough)."""
    if strings is None:
        return None
    unique = set(strings)
    if not unique or "" in unique:
        return None
    return frozenset(
        text for text in unique if not any(other != text and other in text for other in unique)
    )
