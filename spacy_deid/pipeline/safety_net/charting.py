"""Cues of charting style (ICU and ward nursing notes), where case and the NER
give little evidence: a month/day date with no cue, the words after "lives in",
the unknown word a patient is called out or moved to, a number opening a line
before "s/p", a name list's word after a role abbreviation ("W/MD QUENNELL").

Each is weak alone; the calibration map scores each cue on its own
(`safety_net:<cue>`). Their spans count at the `recall` operating point, and at
every point where `deid_confidence`'s `entity_cues` names them (the project's
configs name all of CHARTING_CUES: docs/recall.md).
"""

import re
from typing import Dict, List, Optional, Pattern, Tuple

from spacy.attrs import IDX, LOWER, ORTH, SPACY
from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc, Token

from ... import labels
from ..lexicon import ABBREVIATION, CITY, CLINICAL, DRUG
from ..shared_words import reconciler_list
from .cues import (
    CALL_OUT_CUES,
    COORDINATED_TITLES,
    COORDINATORS,
    DETERMINERS,
    HISTORY_CUES,
    PLACE_RUN_STOPS,
    QUANTITY_WORDS,
    RESIDENCE_VERBS,
    ROLE_ABBREVIATIONS,
)
from .tokens import TokenShapes

Proposal = Tuple[int, int, str, str]

# The cues of this module, as their spans' ids name them ("safety_net:<cue>").
CHARTING_CUES = (
    "month_day",
    "line_age",
    "role",
    "year_mark",
    "coordinated",
    "residence",
    "call_out",
)

# A month/day pair standing alone: "7/23", "12/3" (not "120/80", "1/2/09", "5/10%").
_MONTH_DAY = re.compile(
    r"(?<![\w/.:\-])(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12][0-9]|3[01])(?![\w/%]|[.:\-][0-9])"
)
# A two-digit year marked by an apostrophe after it ("AVR 89'"); not a range's
# end ("70-80'") nor feet or minutes after "x" (checked on the word before).
_MARKED_YEAR = re.compile(r"(?<![\w'\-/.])[0-9]{2}(?=['’](?![\w'’\"]))")
# A two- or three-digit number opening a line before a history cue ("93 s/p fall").
_LINE_NUMBER = re.compile(r"(?m)^[ \t]*([0-9]{2,3})[ ]+(\S+)")
_CLINICAL_TAGS = frozenset({DRUG, ABBREVIATION, CLINICAL})
# Denominators of the scores and parts a note writes like a date: "3/10" (pain),
# "4/5" (strength), "1/2" (half), "3/3" (recall); and ventilator settings in
# steps of 5 ("PS 10/5", "5/5").
_SCORE_DENOMINATORS = (2, 3, 4, 5, 10)
# Most words between "lives" and "in" ("lives alone with wife in ...").
_RESIDENCE_GAP = 5
# Longest run proposed after a residence or call-out cue.
_MAX_PLACE_WORDS = 3


def _phrases(words) -> Pattern[str]:
    """One case-blind regex for cue phrases, spaces matching runs of spaces."""
    alternatives = sorted(
        (r"[ ]+".join(map(re.escape, phrase.split())) for phrase in words), key=len, reverse=True
    )
    return re.compile(r"(?<![\w/])(?i:" + "|".join(alternatives) + r")[ ]+")


_CALL_OUT = _phrases(CALL_OUT_CUES)
# The first token of each call-out phrase ("c" of "c/o to"): without one of them
# in a note, its text is not searched.
_CALL_OUT_FIRST_TOKENS = frozenset(re.match(r"[a-z]+", p.lower()).group() for p in CALL_OUT_CUES)


class ChartingCues(TokenShapes):
    """Part of `SafetyNet` (a mixin): the charting-style cues."""

    def _charting(self, doc: Doc, covered: List[bool]) -> List[Proposal]:
        # Lower-case texts read once from the Doc's array: most tokens are no cue,
        # and a Token object per look is what costs (as in places.py).
        # The text too: `doc.text` makes a Token object per token at each read.
        strings = doc.vocab.strings
        rows = doc.to_array([LOWER, ORTH, SPACY, IDX]).tolist() if len(doc) else []
        lowers = [strings[row[0]] for row in rows]
        text = "".join(strings[orth] + (" " if space else "") for _, orth, space, _ in rows)
        found = self._month_days(doc, text, covered) + self._line_ages(doc, text, covered)
        found += self._role_names(doc, lowers, covered) + self._marked_years(doc, text, covered)
        found += self._coordinated_names(doc, lowers, covered)
        for start, end, _, _ in found:
            for i in range(start, end):
                covered[i] = True
        found += self._residences(doc, lowers, covered)
        if not _CALL_OUT_FIRST_TOKENS.isdisjoint(lowers):
            token_at = {row[3]: i for i, row in enumerate(rows)}
            found += self._call_outs(doc, text, token_at, covered)
        return found

    def _clinical_word(self, token: Token) -> bool:
        tags = set((token._.lexicon or "").split("|"))
        return token.lower_ in self.clinical or bool(tags & _CLINICAL_TAGS)

    def _month_days(self, doc: Doc, text: str, covered: List[bool]) -> List[Proposal]:
        """A month/day pair not next to a clinical word or a unit (a setting,
        a score or a dose: "PS 10/5", "5/10 pain", "1/2 tab")."""
        found: List[Proposal] = []
        for match in _MONTH_DAY.finditer(text):
            if self._score_shape(match.group()):
                continue
            span = doc.char_span(match.start(), match.end())
            if span is None or any(covered[span.start : span.end]):
                continue
            before = self._word_before(doc, span.start)
            after = doc[span.end] if span.end < len(doc) else None
            if before is not None and self._clinical_word(before):
                continue
            if after is not None and (self._clinical_word(after) or after.lower_ in QUANTITY_WORDS):
                continue
            found.append((span.start, span.end, labels.DATE, "month_day"))
        return found

    @staticmethod
    def _score_shape(text: str) -> bool:
        """ "3/10", "1/2", "4/4": a score or a part; "10/5", "5/15": a setting."""
        top, bottom = (int(part) for part in text.split("/"))
        score = bottom in _SCORE_DENOMINATORS and top <= bottom
        return score or (top % 5 == 0 and bottom % 5 == 0)

    @staticmethod
    def _word_before(doc: Doc, i: int) -> Optional[Token]:
        """The word before token i on its line, past ":" and "=" ("PEEP: 5/5")."""
        j = i - 1
        while j >= 0 and doc[j].text in (":", "="):
            j -= 1
        if j < 0 or "\n" in doc[j].whitespace_ or doc[j].is_space:
            return None
        return doc[j]

    def _line_ages(self, doc: Doc, text: str, covered: List[bool]) -> List[Proposal]:
        """A number opening a line before a history cue: an age with its "yo" left out."""
        found: List[Proposal] = []
        for match in _LINE_NUMBER.finditer(text):
            if match.group(2).lower().rstrip(",") not in HISTORY_CUES:
                continue
            span = doc.char_span(match.start(1), match.end(1))
            if span is None or covered[span.start] or not 10 <= int(match.group(1)) <= 120:
                continue
            found.append((span.start, span.end, labels.AGE, "line_age"))
        return found

    def _role_names(self, doc: Doc, lowers: List[str], covered: List[bool]) -> List[Proposal]:
        """A one-case word a name list knows, after a role abbreviation ("MD", "rn").
        The reconciler drops those that are English words ("W/MD QUENNELL"): the
        notes write findings after the same letters ("NP STOOL")."""
        found: List[Proposal] = []
        for i in range(1, len(doc)):
            if lowers[i - 1] not in ROLE_ABBREVIATIONS or covered[i]:
                continue
            token, role = doc[i], doc[i - 1]
            if not role.whitespace_:
                continue
            one_case = token.is_upper == role.is_upper and (token.is_upper or token.is_lower)
            # A surname list holds many everyday words ("WARM", "PLAN"): only rarer ones.
            if (
                one_case
                and token.is_alpha
                and len(token) > 2
                and self._known_name(token)
                and self._zipf(token) <= self.common_zipf
                and token.lower_ not in STOP_WORDS
                and not self._clinical_word(token)
            ):
                found.append((i, i + 1, labels.DOCTOR, "role"))
        return found

    def _marked_years(self, doc: Doc, text: str, covered: List[bool]) -> List[Proposal]:
        """A two-digit year with an apostrophe after it, not a count ("x 30'")."""
        found: List[Proposal] = []
        if "'" not in text and "’" not in text:
            return found
        for match in _MARKED_YEAR.finditer(text):
            span = doc.char_span(match.start(), match.end())
            if span is None or covered[span.start]:
                continue
            before = self._word_before(doc, span.start)
            if before is not None and before.lower_ in QUANTITY_WORDS:
                continue
            found.append((span.start, span.end, labels.DATE, "year_mark"))
        return found

    def _coordinated_names(
        self, doc: Doc, lowers: List[str], covered: List[bool]
    ) -> List[Proposal]:
        """The rare or unknown words joined to a titled name ("<name> AND DRS <name>")."""
        found: List[Proposal] = []
        for i in range(1, len(doc) - 1):
            if lowers[i] not in COORDINATORS or lowers[i + 1].rstrip(".") not in COORDINATED_TITLES:
                continue
            start = i
            while (
                start > 0
                and i - start < self.max_name_tokens
                and not covered[start - 1]
                and self._rare_word(doc[start - 1])
                and doc[start - 1].whitespace_
            ):
                start -= 1
            if start < i:
                found.append((start, i, labels.DOCTOR, "coordinated"))
        return found

    def _rare_word(self, token: Token) -> bool:
        """An alphabetic word no clinical or stop list holds, rare in English."""
        return (
            token.is_alpha
            and len(token) > 1
            and token.lower_ not in STOP_WORDS
            and self._zipf(token) <= self.common_zipf
            and not self._clinical_word(token)
        )

    def _residences(self, doc: Doc, lowers: List[str], covered: List[bool]) -> List[Proposal]:
        """The words after "lives ... in" where one is rare or a town list knows it."""
        found: List[Proposal] = []
        for i, lower in enumerate(lowers):
            if lower not in RESIDENCE_VERBS:
                continue
            for j in range(i + 1, min(len(doc), i + 2 + _RESIDENCE_GAP)):
                if "\n" in doc[j - 1].whitespace_ or not (doc[j].is_alpha or doc[j].text == "/"):
                    break
                if lowers[j] == "in":
                    found += self._place_run(doc, j + 1, covered, labels.CITY, "residence")
                    break
        return found

    def _call_outs(
        self, doc: Doc, text: str, token_at: Dict[int, int], covered: List[bool]
    ) -> List[Proposal]:
        """The rare word a patient is called out or moved to or from ("c/o to <ward>",
        "admitted from <town>"), with the words after it; not a place of care
        ("c/o to MICU", "tx to floor")."""
        found: List[Proposal] = []
        settings = reconciler_list("care_settings")
        for match in _CALL_OUT.finditer(text):
            i = token_at.get(match.end())
            if i is None:
                continue
            first = doc[i]
            if self._zipf(first) < self.common_zipf and first.lower_ not in settings:
                found += self._place_run(doc, i, covered, labels.DEPARTMENT, "call_out")
        return found

    def _place_run(
        self, doc: Doc, i: int, covered: List[bool], label: str, cue: str
    ) -> List[Proposal]:
        """Up to three words from i on its line, none clinical, one of them rare or a
        town a list knows; nothing where a determiner comes first ("in a home")."""
        if i >= len(doc) or doc[i].lower_ in DETERMINERS:
            return []
        end = i
        while end < len(doc) and end - i < _MAX_PLACE_WORDS:
            word = doc[end]
            stop = word.lower_ in PLACE_RUN_STOPS or word.lower_ in STOP_WORDS
            if covered[end] or not word.is_alpha or stop:
                break
            if self._clinical_word(word):
                break
            end += 1
            if "\n" in word.whitespace_:
                break
        if any(self._rare_or_town(word) for word in doc[i:end]):
            return [(i, end, label, cue)]
        return []

    def _rare_or_town(self, token: Token) -> bool:
        return self._zipf(token) < self.common_zipf or CITY in (token._.lexicon or "").split("|")
