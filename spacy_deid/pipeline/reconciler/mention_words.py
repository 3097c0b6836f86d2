"""Each word of a mention checked against a word list, for lexicon rules with
`each_token` (rules.py) and their options `slips_count`,
`skip_initials_and_signs`, `needs_word_from` and `needs_slip`."""
import re
from typing import FrozenSet, List, Mapping

from .rules import Rule, normalize_value
from .typing_slips import is_near_miss

# Tokens that are no word of a name in a run of charting words: an initial
# ("V." of "N/V.", "R" of "R Swan") or a token with a sign inside it ("S+S",
# "c/o"), which no name has.
_INITIAL = re.compile(r"^[^\W\d_]\.?$")
_SIGN = re.compile(r"[+=&@#%*<>/]")


def mention_words(span, skip_initials_and_signs: bool = False) -> List[str]:
    """The mention's words (tokens with a letter), normalised."""
    words = []
    for token in span:
        text = token.text
        if not any(c.isalpha() for c in text):
            continue
        if skip_initials_and_signs and (_INITIAL.match(text) or _SIGN.search(text)):
            continue
        words.append(normalize_value(text))
    return words


def words_fit(span, rule: Rule, lists: Mapping[str, FrozenSet[str]]) -> bool:
    """An `each_token` lexicon rule's test: every word is in the rule's list
    (or one typing slip from a word of it, with `slips_count`); initials and
    tokens with signs are passed over with `skip_initials_and_signs`; and, where
    the rule asks, one word is in `needs_word_from` or is a typing slip."""
    words = lists[rule.lexicon]
    checked = mention_words(span, rule.skip_initials_and_signs)
    if not checked:
        return False
    slips = [w not in words and rule.slips_count and is_near_miss(w, words) for w in checked]
    if not all(w in words or slip for w, slip in zip(checked, slips)):
        return False
    if rule.needs_word_from is not None and not any(w in lists[rule.needs_word_from] for w in checked):
        return False
    return not rule.needs_slip or any(slips)
