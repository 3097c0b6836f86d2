"""Token and line shapes the cue families share: is a word name-like, where its
line and sentence start, is it shouted or glued to the word before.
"""

from typing import Dict, List, Optional, Set, Tuple

import numpy
from spacy.attrs import IS_ALPHA, IS_SPACE, IS_UPPER, LENGTH, LOWER, ORTH
from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc, Token

from ..lexicon import FIRST, LAST
from .cues import (
    CUE_WORDS,
    EPONYM_NOUNS,
    QUOTES,
    SENTENCE_ENDS,
)


class TokenShapes:
    """Part of `SafetyNet` (a mixin): the word lists and settings the cue
    families read, and the token shapes they share."""

    clinical: Set[str]  # clinical vocabulary: never a name
    common: Dict[str, int]  # common English word -> Zipf bucket
    job_heads: Set[str]  # spacy-deid.JobHeadNouns.v1
    common_zipf: int
    stop_zipf: int
    max_name_tokens: int
    id_window: int

    @staticmethod
    def _texts(doc: Doc) -> List[str]:
        """Every token's text, read from the Doc's array (no Token objects made)."""
        strings = doc.vocab.strings
        return [strings[orth] for orth in doc.to_array(ORTH).tolist()] if len(doc) else []

    @staticmethod
    def _lowers(doc: Doc) -> List[str]:
        """Every token's `lower_`, read from the Doc's array (no Token objects made)."""
        strings = doc.vocab.strings
        return [strings[lower] for lower in doc.to_array(LOWER).tolist()] if len(doc) else []

    @classmethod
    def _capitalised_flags(cls, doc: Doc) -> List[bool]:
        """`_capitalised` of every token, read from the Doc's arrays."""
        alpha = doc.to_array(IS_ALPHA).tolist() if len(doc) else []
        return [bool(is_alpha) and text[0].isupper() for is_alpha, text in zip(alpha, cls._texts(doc))]

    def _zipf(self, token: Token) -> int:
        return self.common.get(token.lower_, 0)

    def _nameish(self, token: Token, *, strong: bool) -> bool:
        """A capitalised word that may be (part of) a name."""
        text = token.text
        if not (token.is_alpha and text[0].isupper() and len(text) >= 2):
            return False
        if token.lower_ in self.clinical or token.lower_ in CUE_WORDS or self._eponym(token):
            return False
        if strong:
            # In shouted text ("HE DENIES AH/VH") only a known name that is no
            # common word counts.
            if token.is_upper and len(text) > 3 and self._shouted(token.doc, token.i):
                return (
                    self._known_name(token)
                    and token.lower_ not in STOP_WORDS
                    and self._zipf(token) < self.stop_zipf
                )
            return self._zipf(token) < self.stop_zipf
        # Weak cue: "Tamsin", not "QTc" or "NSAIDs" (inner capitals are abbreviations),
        # nor a word glued to the one before ("useStimulants": a lost line break).
        doc = token.doc
        return (
            text[1:].islower()
            and self._zipf(token) < self.common_zipf
            and not self._glued(doc, token.i)
            # "Evaluator:" is an attribute name
            and not (token.i + 1 < len(doc) and doc[token.i + 1].text == ":")
        )

    @staticmethod
    def _known_name(token: Token) -> bool:
        return bool({FIRST, LAST} & set((token._.lexicon or "").split("|")))

    @staticmethod
    def _eponym(token: Token) -> bool:
        """ "Cushing" in "Cushing's syndrome", "Lewy" in "Lewy body dementia"."""
        doc, j = token.doc, token.i + 1
        while j < len(doc) and doc[j].text in ("'s", "'", "’s", "’"):
            j += 1
        return j < len(doc) and doc[j].lower_ in EPONYM_NOUNS

    @staticmethod
    def _capitalised(token: Token) -> bool:
        return token.is_alpha and token.text[0].isupper()

    @classmethod
    def _line_starts(cls, doc: Doc) -> List[int]:
        """The first token of each token's line (as `_line_start`, in one pass)."""
        starts = [0] * len(doc)
        # A token's trailing whitespace is one space or none, so a line break
        # before token i is in the text of token i - 1.
        texts = cls._texts(doc)
        space = doc.to_array(IS_SPACE).tolist() if len(doc) else []
        start = 0
        for i in range(1, len(doc)):
            before = texts[i - 1]
            if "\n" in before or space[i - 1] or before == "|":
                start = i
            starts[i] = start
        return starts

    @staticmethod
    def _line_start(doc: Doc, i: int) -> int:
        """First token of i's line; a table cell ("| Attending: ...") counts as a line."""
        while (
            i > 0
            and "\n" not in doc[i - 1].text_with_ws
            and not doc[i - 1].is_space
            and doc[i - 1].text != "|"
        ):
            i -= 1
        return i

    @staticmethod
    def _line_ends(doc: Doc, end: int) -> bool:
        return end >= len(doc) or "\n" in doc[end - 1].whitespace_ or doc[end].is_space

    # (doc, shouted_tokens(doc)) of the Doc being processed, set by the
    # component's __call__: the cue families ask about the same tokens often.
    _shouted_flags: Optional[Tuple[Doc, List[bool]]] = None

    def _shouted(self, doc: Doc, i: int) -> bool:
        """Token i is in an all-capitals stretch (its neighbours are capitals too)."""
        flags = self._shouted_flags
        if flags is not None and flags[0] is doc:
            return flags[1][i]
        return shouted_at(doc, i)

    @staticmethod
    def _glued(doc: Doc, i: int) -> bool:
        """Token i is a capitalised word stuck to the word before it ("CenterNew")."""
        return (
            i > 0
            and not doc[i - 1].whitespace_
            and (doc[i - 1].is_alpha or doc[i - 1].is_digit)
            and doc[i].is_alpha
            and doc[i].text[0].isupper()
        )

    def _sentence_initial(self, doc: Doc, i: int) -> bool:
        j = i - 1
        while j >= 0 and doc[j].is_space:
            j -= 1
        if j < 0 or "\n" in doc[j].whitespace_ or doc[j].is_space and "\n" in doc[j].text:
            return True
        if doc[j].text in QUOTES and j > 0 and doc[j - 1].text in SENTENCE_ENDS:
            return True  # 'he "doesn't join in." Tantrums ...'
        return doc[j].text in SENTENCE_ENDS or "\n" in doc[i - 1].text_with_ws

    def _after_sentence_end(self, doc: Doc, i: int) -> bool:
        """Token i opens a sentence after ". ", "! ", "? " (not after an initial's dot)."""
        j = i - 1
        while j >= 0 and doc[j].is_space:
            j -= 1
        return (
            j >= 1
            and doc[j].text in (".", "!", "?")
            and not (doc[j - 1].is_alpha and len(doc[j - 1]) == 1)
        ) or (j >= 0 and (doc[j].text == "|" or (doc[j].text[-1:] in "!?" and len(doc[j]) > 1)))

    @staticmethod
    def _attribute_name_at(doc: Doc, i: int) -> bool:
        """Token i opens an attribute name: "Payer:", "Unit/Bed:"."""
        j = i + 1
        # words joined by "/" or "-" without spaces ("Unit/Bed")
        while (
            j + 1 < len(doc)
            and j - i < 4
            and doc[j].text in ("/", "-")
            and not doc[j - 1].whitespace_
            and doc[j + 1].is_alpha
        ):
            j += 2
        return j < len(doc) and doc[j].text == ":"


# A stretch is the token and 3 tokens on each side; of its words of two letters
# or more (at least 3), all must be in capitals.
_SHOUT_REACH = 3
_SHOUT_MIN_WORDS = 3


def shouted_at(doc: Doc, i: int) -> bool:
    """Token i is in an all-capitals stretch (see `shouted_tokens`)."""
    near = [t for t in doc[max(0, i - _SHOUT_REACH) : i + _SHOUT_REACH + 1] if t.is_alpha and len(t) > 1]
    return len(near) >= _SHOUT_MIN_WORDS and all(t.is_upper for t in near)


def shouted_tokens(doc: Doc) -> List[bool]:
    """`shouted_at(doc, i)` for every token, from the Doc's arrays in one pass."""
    if not len(doc):
        return []
    alpha, upper, length = doc.to_array([IS_ALPHA, IS_UPPER, LENGTH]).T
    word = (alpha == 1) & (length > 1)
    capital_word = word & (upper == 1)
    # Window sums from cumulative sums: tokens max(0, i - 3) .. i + 3.
    words = numpy.concatenate(([0], numpy.cumsum(word)))
    capitals = numpy.concatenate(([0], numpy.cumsum(capital_word)))
    index = numpy.arange(len(doc))
    low = numpy.maximum(index - _SHOUT_REACH, 0)
    high = numpy.minimum(index + _SHOUT_REACH + 1, len(doc))
    in_window = words[high] - words[low]
    capitals_in_window = capitals[high] - capitals[low]
    return ((in_window >= _SHOUT_MIN_WORDS) & (capitals_in_window == in_window)).tolist()
