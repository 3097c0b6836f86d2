"""Person names: after a title or relation word, in a name-like attribute value,
on a signature line, a rare capitalised word in running text; initials of a
name found in the note; in notes typed in one case, a given name and a surname
the name lists know, side by side.
"""

from typing import Dict, List, Optional, Tuple

from spacy.attrs import IS_ALPHA, LENGTH, SPACY
from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc, Token

from ... import labels
from ...extensions import token_feature_values
from ..lexicon import FIRST, LAST
from .cues import (
    CREDENTIALS,
    CUE_WORDS,
    DOCTOR_ATTRIBUTES,
    DOCTOR_TITLES,
    ID_CUES,
    INITIALS_CUES,
    NAME_ATTRIBUTES,
    RELATION_GAP,
    RELATIONS,
    SIGNATURE_STARTS,
    SIGNATURE_VERBS,
    TITLES,
)
from .tokens import TokenShapes


class NameCues(TokenShapes):
    """Part of `SafetyNet` (a mixin): the name cues."""

    def _cue_before(self, doc: Doc, i: int) -> Optional[str]:
        """The strong cue right before token i, if any."""
        j = i - 1
        if j >= 0 and doc[j].text == ".":
            j -= 1
        title = doc[j].lower_.rstrip(".") if j >= 0 else ""
        if title in TITLES:
            return "doctor_title" if title in DOCTOR_TITLES else "title"
        j = i - 1
        gap = 0
        while j >= 0 and doc[j].lower_ in RELATION_GAP and gap < 2:
            j -= 1
            gap += 1
        if j >= 0 and doc[j].lower_ in RELATIONS:
            # "fatherRaised:": a lost line break, not a name after "father"
            if self._glued(doc, i):
                return None
            return "relation"
        return None

    def _signature_start(self, doc: Doc, start: int, line_starts: List[int]) -> bool:
        """The line from `start` opens with a signature word ("Signed by", "Attending:")."""
        k = start
        while k < len(doc) and line_starts[k] == start and (doc[k].is_space or doc[k].is_punct):
            k += 1
        if k >= len(doc) or line_starts[k] != start or doc[k].lower_ not in SIGNATURE_STARTS:
            return False
        if doc[k].lower_ not in SIGNATURE_VERBS:
            return True
        return any(t.lower_ in ("by", ":", "-") for t in doc[k + 1 : k + 4])

    def _names(self, doc: Doc, covered: List[bool]) -> List[Tuple[int, int, str, str]]:
        found: List[Tuple[int, int, str, str]] = []
        line_starts = self._line_starts(doc)
        signature_lines: Dict[int, bool] = {}
        attributes = token_feature_values(doc, "attribute_name")
        # Every cue below needs a capitalised word (`_nameish`): the others are
        # passed over from the Doc's arrays, without a Token object each.
        texts = self._texts(doc)
        alpha = doc.to_array(IS_ALPHA).tolist() if len(doc) else []
        i = 0
        while i < len(doc):
            text = texts[i]
            if covered[i] or not (alpha[i] and len(text) >= 2 and text[0].isupper()):
                i += 1
                continue
            token = doc[i]
            line_start = line_starts[i]
            if line_start not in signature_lines:
                signature_lines[line_start] = self._signature_start(doc, line_start, line_starts)
            attribute = attributes[i]
            before = self._cue_before(doc, i)
            if before is not None and self._nameish(token, strong=True):
                cue, label = (
                    ("title", labels.DOCTOR)
                    if before == "doctor_title"
                    else (before, labels.PATIENT)
                )
            elif (
                attribute in NAME_ATTRIBUTES
                and self._nameish(token, strong=True)
                # A value may run on into sentences: "Reports ..." opens one.
                and not (self._after_sentence_end(doc, i) and self._zipf(token) >= self.common_zipf)
                # or into the next attribute's name ("Payer:", "Unit/Bed:")
                and not self._attribute_name_at(doc, i)
            ):
                cue, label = (
                    "attribute",
                    (labels.DOCTOR if attribute in DOCTOR_ATTRIBUTES else labels.PATIENT),
                )
            elif self._nameish(token, strong=True) and (
                signature_lines[line_start] or self._name_before_credential(doc, line_start, i)
            ):
                cue, label = "signature", labels.DOCTOR
            elif self._nameish(token, strong=False) and not self._sentence_initial(doc, i):
                cue, label = "capitalised", labels.PATIENT
            else:
                i += 1
                continue
            end = i + 1
            # The rest of the name: more capitalised words (and initials' dots).
            while (
                end < len(doc)
                and sum(t.is_alpha for t in doc[i:end]) < self.max_name_tokens
                and not covered[end]
                and "\n" not in doc[end - 1].whitespace_
                and (
                    self._nameish(doc[end], strong=True)
                    or (doc[end].text == "." and len(doc[end - 1]) == 1)
                    # hyphenated surnames: "Brennan-Sy"
                    or (
                        doc[end].text == "-"
                        and not doc[end - 1].whitespace_
                        and end + 1 < len(doc)
                        and not doc[end].whitespace_
                        and self._nameish(doc[end + 1], strong=True)
                    )
                )
            ):
                end += 1
            while doc[end - 1].text in (".", "-"):
                end -= 1
            found.append((i, end, label, cue))
            i = end
        return found

    def _name_before_credential(self, doc: Doc, line_start: int, i: int) -> bool:
        """ "Ann Lee-Ray, MD": a name that opens its line and runs up to a credential."""
        return all(
            t.is_space or self._name_part(t) for t in doc[line_start:i]
        ) and self._before_credential(doc, i)

    def _name_part(self, token: Token) -> bool:
        return (
            token.text in ("-", ".")
            or self._nameish(token, strong=True)
            or (token.is_alpha and len(token) == 1)
        )

    def _before_credential(self, doc: Doc, i: int) -> bool:
        """Token i is in a name that runs up to ", MD" on its line (a signature)."""
        j = i
        while j < len(doc) and doc[j].text != ",":
            if not self._name_part(doc[j]) or "\n" in doc[j].whitespace_:
                return False
            j += 1
        return (
            j + 1 < len(doc) and doc[j].text == "," and doc[j + 1].lower_.rstrip(".") in CREDENTIALS
        )

    @staticmethod
    def _initials_of(doc: Doc) -> Dict[str, str]:
        """Initials ("KMR", "TB") of the person entities of the Doc -> their label."""
        found: Dict[str, str] = {}
        for ent in doc.ents:
            if ent.label_ not in (labels.PATIENT, labels.DOCTOR):
                continue
            parts = [t.text for t in ent if t.is_alpha and t.lower_ not in TITLES]
            parts = [p for piece in parts for p in piece.split("-") if p]
            if len(parts) < 2:
                continue
            for order in (parts, parts[1:] + parts[:1]):  # "Lee, Ann" -> "AL" too
                found.setdefault("".join(p[0].upper() for p in order), ent.label_)
        return found

    def _initials(self, doc: Doc, covered: List[bool]) -> List[Tuple[int, int, str, str]]:
        """Capitals standing for a person: the initials of a name found in the note
        ("KMR reports ..."), or any after "initials:"."""
        known = self._initials_of(doc)
        found: List[Tuple[int, int, str, str]] = []
        # The token's text from the Doc's array: a Token object only for capitals.
        for i, text in enumerate(self._texts(doc)):
            letters = text.replace(".", "")
            if (
                covered[i]
                or not (2 <= len(letters) <= 3 and letters.isalpha() and letters.isupper())
                or not all(c.isupper() or c == "." for c in text)
                or letters.lower() in CREDENTIALS
            ):
                continue
            token = doc[i]
            before = [t.lower_ for t in doc[max(0, token.i - 2) : token.i]]
            if any(b in INITIALS_CUES for b in before):
                found.append((token.i, token.i + 1, labels.PATIENT, "initials"))
                known.setdefault(letters, labels.PATIENT)  # "Patient initials: T.B." ... "TB"
            elif (
                letters in known
                and not self._shouted(doc, token.i)
                and letters.lower() not in self.clinical  # "BP", "ED", "AH"
                # "RE:", "MR#", "AM": common words and abbreviations, not initials.
                and self.common.get(letters.lower(), 0) < self.stop_zipf
                and not (token.i > 0 and doc[token.i - 1].like_num)
                and not (
                    token.i + 1 < len(doc)
                    and (doc[token.i + 1].text == "#" or doc[token.i + 1].lower_ in ID_CUES)
                )
            ):
                found.append((token.i, token.i + 1, known[letters], "initials"))
        return found

    def _one_case_names(self, doc: Doc, covered: List[bool]) -> List[Tuple[int, int, str, str]]:
        """A given name and a surname the name lists know, side by side, in one case
        ("ottoline harrowgate", "OTTOLINE HARROWGATE"), where case gives no evidence:
        a lower-case pair, or a pair in an all-capitals stretch. Neither word common
        English, clinical or a stop word (cue `known_pair`)."""
        found: List[Tuple[int, int, str, str]] = []
        # A pair needs a given name of three letters or more, a space
        # (`whitespace_ == " "`) and a surname of three letters or more: read
        # from the Doc's arrays and lexicon tags first, a Token object only then.
        flags = doc.to_array([IS_ALPHA, LENGTH, SPACY]).tolist() if len(doc) else []
        tags = [(tag or "").split("|") for tag in token_feature_values(doc, "lexicon")]
        given = [bool(alpha) and length > 2 and space and FIRST in tag
                 for (alpha, length, space), tag in zip(flags, tags)]
        surname = [bool(alpha) and length > 2 and LAST in tag for (alpha, length, _), tag in zip(flags, tags)]
        i = 0
        while i < len(doc) - 1:
            if not (given[i] and surname[i + 1]):
                i += 1
                continue
            first, last = doc[i], doc[i + 1]
            if (
                not covered[i]
                and not covered[i + 1]
                and first.whitespace_ == " "
                and self._one_case_pair(doc, first, last)
                and FIRST in (first._.lexicon or "").split("|")
                and LAST in (last._.lexicon or "").split("|")
                and self._uncommon_name_word(first)
                and self._uncommon_name_word(last)
            ):
                found.append((i, i + 2, labels.PATIENT, "known_pair"))
                i += 2
                continue
            i += 1
        return found

    def _one_case_pair(self, doc: Doc, first: Token, last: Token) -> bool:
        if not (first.is_alpha and last.is_alpha and len(first) > 2 and len(last) > 2):
            return False
        if first.is_lower and last.is_lower:
            return True
        return first.is_upper and last.is_upper and self._shouted(doc, first.i) and self._shouted(doc, last.i)

    def _uncommon_name_word(self, token: Token) -> bool:
        return (
            token.lower_ not in STOP_WORDS
            and token.lower_ not in self.clinical
            and token.lower_ not in CUE_WORDS
            and self._zipf(token) < self.common_zipf
        )
