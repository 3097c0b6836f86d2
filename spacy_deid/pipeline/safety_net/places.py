"""Rooms and beds, country names, and identifiers near an ID cue."""

from typing import List, Tuple

from spacy.attrs import IS_ALPHA, IS_DIGIT, SPACY
from spacy.tokens import Doc

from ... import labels
from ...extensions import token_feature_values
from .cues import (
    HOME_COUNTRY,
    ID_ATTRIBUTES,
    ID_CUES,
    INSTITUTION_JOINERS,
    NOT_AN_ID,
    QUANTITY_WORDS,
    ROOM_CUES,
)
from .tokens import TokenShapes


class PlaceCues(TokenShapes):
    """Part of `SafetyNet` (a mixin): the room, place and identifier cues."""

    def _rooms(self, doc: Doc, covered: List[bool]) -> List[Tuple[int, int, str, str]]:
        """A number right after "room", "bed", "ward" ("bed 12-3", "Ward 4C")."""
        found: List[Tuple[int, int, str, str]] = []
        lowers = self._lowers(doc)  # a Token object only at a cue
        for k in range(len(doc) - 1):
            if lowers[k].rstrip(".") not in ROOM_CUES:
                continue
            i = k + 1
            while i < len(doc) and doc[i].text in ("#", ":", "no", "no."):
                i += 1
            end = i
            # The whitespace-free run after the cue ("12-3", "4C").
            while end < len(doc) and (end == i or not doc[end - 1].whitespace_):
                if not (doc[end].is_alpha or doc[end].is_digit or doc[end].text in "-/"):
                    break
                end += 1
            while end > i and not (doc[end - 1].is_alpha or doc[end - 1].is_digit):
                end -= 1
            text = doc[i:end].text if end > i else ""
            if (
                text
                and any(c.isdigit() for c in text)
                and len(text) <= 8
                and not any(covered[i:end])
                # "bed 10 hours": a number followed by a unit is a quantity
                and not (
                    end < len(doc)
                    and (doc[end].lower_ in self.clinical or doc[end].lower_ in QUANTITY_WORDS)
                )
            ):
                found.append((i, end, labels.ROOM, "room"))
        return found

    def _places(self, doc: Doc, covered: List[bool]) -> List[Tuple[int, int, str, str]]:
        """Capitalised country names (lexicon COUNTRY tags) in running text."""
        found: List[Tuple[int, int, str, str]] = []
        tags = token_feature_values(doc, "lexicon")
        countries = [labels.COUNTRY in (tag or "").split("|") for tag in tags]
        i = 0
        while i < len(doc):
            if not countries[i]:
                i += 1  # no run starts here
                continue
            end = i
            while (
                end < len(doc)
                and not covered[end]
                and countries[end]
                and (self._capitalised(doc[end]) or doc[end].lower_ in INSTITUTION_JOINERS)
                and not (doc[end].is_upper and len(doc[end]) <= 3)
            ):
                end += 1
            while end > i and not self._capitalised(doc[end - 1]):
                end -= 1
            if end > i and doc[i:end].text.lower() in HOME_COUNTRY:
                i = end
            elif end > i and not doc[i].is_upper:
                found.append((i, end, labels.COUNTRY, "place"))
                i = end
            else:
                i += 1
        return found

    def _identifiers(self, doc: Doc, covered: List[bool]) -> List[Tuple[int, int, str, str]]:
        found: List[Tuple[int, int, str, str]] = []
        # Read once from the Doc's arrays: a Token object per look cost most of the
        # safety net's time on short notes.
        texts = self._texts(doc)
        has_digit = [any(map(str.isdigit, text)) for text in texts]
        flags = doc.to_array([IS_ALPHA, IS_DIGIT, SPACY]).tolist() if len(doc) else []
        word = [alpha or digit for alpha, digit, _ in flags]
        spaced = [space for _, _, space in flags]
        attributes = token_feature_values(doc, "attribute_name")
        i = 0
        while i < len(doc):
            # A whitespace-free run of tokens: the splitter may have cut "AB123" in two.
            end = i + 1
            while (
                end < len(doc)
                and not spaced[end - 1]
                and (word[end] or texts[end] in "-/")
            ):
                end += 1
            while end > i + 1 and not word[end - 1]:
                end -= 1
            if not any(has_digit[i:end]):
                i = end
                continue
            run = doc[i:end]
            if any(covered[k] for k in range(i, end)) or not self._idlike(run.text):
                i = end
                continue
            attribute = attributes[i]
            window = range(max(0, i - self.id_window), i)
            if attribute in ID_ATTRIBUTES or any(self._id_cue(doc, k, i) for k in window):
                found.append((i, end, labels.IDNUM, "id_cue"))
            i = end
        return found

    @staticmethod
    def _id_cue(doc: Doc, k: int, i: int) -> bool:
        """Token k is an ID cue for the word at i: on its line, and "no" only as an
        abbreviation ("Docket No. ...", "no: ..."), not "Cocaine: no"."""
        if doc[k].lower_ not in ID_CUES or any("\n" in t.whitespace_ for t in doc[k:i]):
            return False
        if doc[k].lower_ == "no":
            return k + 1 < i and doc[k + 1].text in (".", ":", "#")
        return True

    def _idlike(self, text: str) -> bool:
        digits = sum(c.isdigit() for c in text)
        letters = sum(c.isalpha() for c in text)
        if digits == 0 or text.lower() in self.clinical or NOT_AN_ID.match(text):
            return False
        # "PHQ-9", "GAD-7": a scale on the clinical list with its item count.
        if text.split("-")[0].lower() in self.clinical:
            return False
        return (letters > 0 and digits + letters >= 4) or digits >= 5
