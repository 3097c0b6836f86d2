"""A first-character guard for a regex: `(?=[...])`, the characters a match can start with.

The `regex` package tries a pattern at every position of the text and, for
patterns that open with lookbehinds or optional prefixes, does not skip
ahead to the characters a match can start with. A lookahead on that first
character, placed in front of the pattern, lets it reject most positions at
once: the digit-start PHI patterns scan the notes 2-5 times faster, and
find exactly the same matches (a match consumes its first character, so it
must be one of them).

The set is computed from the pattern's syntax tree as Python's own `re`
parser (`re._parser`, the standard library's `sre_parse`) builds it; the
`regex` package has no public parser. Whatever that parser cannot read or
this module does not model (backreferences, conditionals, `.`, global inline
flags, a pattern that can match the empty string), and syntax that `re`
would read differently from `regex` (POSIX classes such as `[[:alpha:]]`,
fuzzy matching such as `(?:word){e<=1}`, version flags), gets no guard,
never a wrong one. Characters under a case-insensitive scope stay case-insensitive
in the guard, so `regex` applies its own case folding to both.
"""
import string
from typing import List, Optional, Tuple

import regex

try:  # Python 3.11+: the parser behind `re`; `sre_parse` before (deprecated name)
    import re._constants as _sre
    import re._parser as _sre_parse
except ImportError:  # pragma: no cover - Python < 3.11
    import sre_constants as _sre  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

# (case-insensitive?, a bracket expression such as "[0-9A-F]" or "[^\s]")
_ClassItem = Tuple[bool, str]

_CATEGORIES = {
    _sre.CATEGORY_DIGIT: r"\d",
    _sre.CATEGORY_NOT_DIGIT: r"\D",
    _sre.CATEGORY_SPACE: r"\s",
    _sre.CATEGORY_NOT_SPACE: r"\S",
    _sre.CATEGORY_WORD: r"\w",
    _sre.CATEGORY_NOT_WORD: r"\W",
}
# Scoped flags that leave a character class's meaning alone (or are modelled: i).
_SCOPED_FLAGS_MODELLED = (
    _sre.SRE_FLAG_IGNORECASE | _sre.SRE_FLAG_VERBOSE | _sre.SRE_FLAG_DOTALL | _sre.SRE_FLAG_MULTILINE
)
_ZERO_WIDTH = (_sre.AT, _sre.ASSERT, _sre.ASSERT_NOT)
_REPEATS = tuple(
    op for op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", None)) if op is not None
)


class _NotModelled(Exception):
    """The pattern uses syntax the first-character set is not computed for."""


def first_char_guard(pattern: str) -> Optional[str]:
    """A lookahead that admits every character a match of `pattern` can start with.

    None when no guard can be given (see the module docstring). Prepending the
    guard to the pattern changes its speed, never its matches.
    """
    items = _first_chars(pattern)
    return None if items is None else _guard(items)


def scan_guard(pattern: str) -> Optional[str]:
    """The first-character guard where it makes `regex` scan faster, else None.

    Measured on the 15 dev notes and 30 generated ones (docs/speed.md): the
    guard pays where a match can start with a digit, at few lower-case
    letters and at none matched case-insensitively ("3rd of March", "12F");
    there it lets the scan skip the letters that lookbehinds and optional
    prefixes otherwise make it try (2-5 times faster). Where a match can
    start at any of a dozen letters in either case, or with a literal word,
    the `regex` engine already skips ahead itself and the extra lookahead
    costs 5-25%.
    """
    items = _first_chars(pattern)
    if items is None or any(ignore_case for ignore_case, _ in items):
        return None
    guard = _guard(items)
    if guard is None or not any(regex.match(guard, digit) for digit in string.digits):
        return None
    if sum(1 for letter in string.ascii_lowercase if regex.match(guard, letter)) > 13:
        return None  # starts at most lower-case letters ("[a-z0-9]"): nothing to skip
    return guard


# Syntax `re`'s parser would accept but read otherwise than `regex` does.
_REGEX_ONLY = regex.compile(r"\[:\^?[A-Za-z]+:\]|\{\s*[eids]\s*(?:[<=,}]|$)|\(\?[^)]*V[01]")


def _first_chars(pattern: str) -> Optional[List[_ClassItem]]:
    if _REGEX_ONLY.search(pattern):
        return None
    try:
        parsed = _sre_parse.parse(pattern)
    except Exception:  # syntax only `regex` reads (e.g. \p{..}, nested sets)
        return None
    if parsed.state.flags & (_sre.SRE_FLAG_IGNORECASE | _sre.SRE_FLAG_VERBOSE):
        return None  # global inline flags must stay first in the pattern
    try:
        items, nullable = _first_of_sequence(list(parsed), ignore_case=False)
    except _NotModelled:
        return None
    if nullable or not items:
        return None
    return items


def _guard(items: List[_ClassItem]) -> Optional[str]:
    guard = "(?=" + "|".join(_merge(items)) + ")"
    try:
        regex.compile(guard)
    except regex.error:  # pragma: no cover - a class this module wrote wrongly
        return None
    return guard


def _first_of_sequence(items: List, ignore_case: bool) -> Tuple[List[_ClassItem], bool]:
    """The first characters of a sequence, and whether it can match empty."""
    first: List[_ClassItem] = []
    for op, av in items:
        if op in _ZERO_WIDTH:
            continue  # anchors and lookarounds consume nothing
        chars, nullable = _first_of_item(op, av, ignore_case)
        first.extend(chars)
        if not nullable:
            return first, False
    return first, True


def _first_of_item(op, av, ignore_case: bool) -> Tuple[List[_ClassItem], bool]:
    if op == _sre.LITERAL:
        return [(ignore_case, "[" + regex.escape(chr(av)) + "]")], False
    if op == _sre.NOT_LITERAL:
        return [(ignore_case, "[^" + regex.escape(chr(av)) + "]")], False
    if op == _sre.IN:
        return [(ignore_case, _bracket(av))], False
    if op == _sre.SUBPATTERN:
        _group, add_flags, del_flags, body = av
        if (add_flags | del_flags) & ~_SCOPED_FLAGS_MODELLED:
            raise _NotModelled  # e.g. (?a:...) changes what \w admits inside it
        scoped = ignore_case
        if add_flags & _sre.SRE_FLAG_IGNORECASE:
            scoped = True
        if del_flags & _sre.SRE_FLAG_IGNORECASE:
            scoped = False
        return _first_of_sequence(list(body), scoped)
    if op == _sre.BRANCH:
        first: List[_ClassItem] = []
        nullable = False
        for alternative in av[1]:
            chars, empty = _first_of_sequence(list(alternative), ignore_case)
            first.extend(chars)
            nullable = nullable or empty
        return first, nullable
    if op in _REPEATS:
        minimum, _maximum, body = av
        chars, empty = _first_of_sequence(list(body), ignore_case)
        return chars, empty or minimum == 0
    if op == getattr(_sre, "ATOMIC_GROUP", None):
        return _first_of_sequence(list(av), ignore_case)
    raise _NotModelled  # ANY, backreferences, conditionals, ...


def _bracket(items: List) -> str:
    """A bracket expression for one parsed character class."""
    negated = False
    parts: List[str] = []
    for op, av in items:
        if op == _sre.NEGATE:
            negated = True
        elif op == _sre.LITERAL:
            parts.append(regex.escape(chr(av)))
        elif op == _sre.RANGE:
            parts.append(regex.escape(chr(av[0])) + "-" + regex.escape(chr(av[1])))
        elif op == _sre.CATEGORY and av in _CATEGORIES:
            parts.append(_CATEGORIES[av])
        else:
            raise _NotModelled
    return "[" + ("^" if negated else "") + "".join(parts) + "]"


def _merge(items: List[_ClassItem]) -> List[str]:
    """One bracket per case mode for the plain classes; negated classes stay apart."""
    plain = {False: [], True: []}
    alternatives: List[str] = []
    for ignore_case, bracket in items:
        if bracket.startswith("[^"):
            alternatives.append(f"(?i:{bracket})" if ignore_case else bracket)
        else:
            body = bracket[1:-1]
            if body not in plain[ignore_case]:
                plain[ignore_case].append(body)
    if plain[False]:
        alternatives.insert(0, "[" + "".join(plain[False]) + "]")
    if plain[True]:
        alternatives.append("(?i:[" + "".join(plain[True]) + "])")
    return alternatives
