"""Typing slips: a word one letter away from a known word ("Recieving",
"Trazadone"), for lexicon rules with `match: "near"` (rules.py)."""
from typing import Iterator

# A typing slip is only told from a name in words this long: "Swan" is one
# letter from "swat", "Bell" from "belt".
NEAR_MIN_LETTERS = 5
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def one_slip_away(word: str) -> Iterator[str]:
    """Every string one typing slip from `word`: a letter left out, two
    neighbours swapped, one changed or one added (Damerau-Levenshtein 1)."""
    for i in range(len(word) + 1):
        left, right = word[:i], word[i:]
        if right:
            yield left + right[1:]
            if len(right) > 1:
                yield left + right[1] + right[0] + right[2:]
            for letter in LETTERS:
                yield left + letter + right[1:]
        for letter in LETTERS:
            yield left + letter + right


def is_near_miss(text: str, words: frozenset) -> bool:
    """Whether `text` is one word of NEAR_MIN_LETTERS letters or more that is
    not in `words` but one typing slip from one that is ("Recieving")."""
    word = text.lower()
    if len(word) < NEAR_MIN_LETTERS or not word.isalpha() or word in words:
        return False
    return any(variant in words for variant in one_slip_away(word) if variant != word)
