"""Occupations: runs of job-title words or a job head noun with its modifiers,
after an occupation cue ("is a", "works as", "retired", "(44, ").
"""

from typing import List, Tuple

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc, Token

from ... import labels
from ...extensions import token_feature_values
from ..lexicon import INSTITUTION, JOB
from .cues import (
    ARTICLE_CUES,
    BEHAVIOUR_HEADS,
    COPULAS,
    CUE_WORDS,
    GENERIC_JOB_HEADS,
    MAX_JOB_MODIFIERS,
    OCCUPATION_CUES,
    PLURAL_COPULAS,
)
from .tokens import TokenShapes


class OccupationCues(TokenShapes):
    """Part of `SafetyNet` (a mixin): the occupation cues."""

    def _occupations(self, doc: Doc, covered: List[bool]) -> List[Tuple[int, int, str, str]]:
        """Job titles after an occupation cue: runs of job-title words (lexicon JOB
        tags) or a job head noun with up to three modifiers, unless all clinical
        ("therapist", "psychiatrist": the care team, not the patient's job)."""
        found: List[Tuple[int, int, str, str]] = []
        may_start = self._job_candidates(doc)
        i = 0
        while i < len(doc):
            if covered[i] or not may_start[i]:
                i += 1
                continue
            end = self._job_end(doc, i, covered)
            if end == i:
                i += 1
                continue
            start = i
            while (
                start > 0
                and i - start < MAX_JOB_MODIFIERS
                and not covered[start - 1]
                and "\n" not in doc[start - 1].whitespace_
                and self._modifier(doc[start - 1])
            ):
                start -= 1  # "embedded [software developer]", "middle school [art teacher]"
            run = doc[start:end]
            if doc[end - 1].lower_ in GENERIC_JOB_HEADS | BEHAVIOUR_HEADS:
                pass  # "a struggling student", "a heavy smoker"
            elif self._occupation_cued(doc, start, end) and not all(
                t.lower_ in self.clinical
                or t.lower_ in CUE_WORDS
                or self._zipf(t) >= self.stop_zipf
                or not t.is_alpha
                for t in run
            ):
                found.append((start, end, labels.PROFESSION, "occupation"))
            i = end
        return found

    def _profession_modifiers(
        self, doc: Doc, covered: List[bool]
    ) -> List[Tuple[int, int, str, str]]:
        """Modifiers right before a profession entity ("embedded [software developer]")."""
        found: List[Tuple[int, int, str, str]] = []
        for ent in doc.ents:
            if ent.label_ != labels.PROFESSION:
                continue
            start = ent.start
            while (
                start > 0
                and ent.start - start < MAX_JOB_MODIFIERS
                and not covered[start - 1]
                and "\n" not in doc[start - 1].whitespace_
                and self._modifier(doc[start - 1])
            ):
                start -= 1
            if start < ent.start and self._occupation_cued(doc, start, ent.end):
                found.append((start, ent.start, labels.PROFESSION, "occupation"))
        return found

    def _job_candidates(self, doc: Doc) -> List[bool]:
        """Per token: can `_job_end` find a title starting here? Only at a lexicon
        JOB word, or within MAX_JOB_MODIFIERS tokens before a job head noun."""
        tags = token_feature_values(doc, "lexicon")
        heads = self.job_heads
        near_head = [False] * len(doc)
        for k, lower in enumerate(self._lowers(doc)):
            # `_is_job_head` needs the word or its singular in the list: test that first.
            if (lower in heads or lower[:-1] in heads) and self._is_job_head(doc[k]):
                for j in range(max(0, k - MAX_JOB_MODIFIERS), k + 1):
                    near_head[j] = True
        return [near or JOB in (tag or "").split("|") for near, tag in zip(near_head, tags)]

    def _is_job_word(self, token: Token) -> bool:
        return JOB in (token._.lexicon or "").split("|")

    def _is_job_head(self, token: Token) -> bool:
        """A job head noun, in lower case (or shouted): "developer", "STONEMASON"."""
        lower = token.lower_
        if not token.is_alpha or not (token.is_lower or self._shouted(token.doc, token.i)):
            return False
        singular = lower[:-1] if lower.endswith("s") and lower[:-1] in self.job_heads else lower
        return singular in self.job_heads and singular not in self.clinical

    def _job_end(self, doc: Doc, i: int, covered: List[bool]) -> int:
        """End of a job title starting at i (i itself if none does)."""
        end = i
        while end < len(doc) and not covered[end] and self._is_job_word(doc[end]):
            end += 1
        if end > i:
            return end
        # A head noun after its modifiers: look ahead for it.
        for k in range(i, min(len(doc), i + MAX_JOB_MODIFIERS + 1)):
            line_break = k > i and "\n" in doc[k - 1].whitespace_
            if covered[k] or not doc[k].is_alpha or line_break:
                break
            if self._is_job_head(doc[k]):
                return k + 1
            if not self._modifier(doc[k]):
                break
        return i

    def _modifier(self, token: Token) -> bool:
        """A word that may modify a job head ("furniture", "software", "embedded")."""
        return (
            token.is_alpha
            and token.lower_ not in OCCUPATION_CUES
            and token.lower_ not in ARTICLE_CUES
            and token.lower_ not in STOP_WORDS
            and (
                self._zipf(token) < self.stop_zipf
                or {JOB, INSTITUTION} & set((token._.lexicon or "").split("|"))
            )
        )

    def _occupation_cued(self, doc: Doc, start: int, end: int) -> bool:
        before = doc[max(0, start - 3) : start]
        if any(t.lower_ in OCCUPATION_CUES for t in before):
            return True
        if len(before) >= 2 and before[-1].text == "," and before[-2].like_num:
            return True  # "(44, teacher)"
        # "is a teacher", "his wife, a teacher", "parents are welders"; not "has a lawyer"
        j = start - 1
        if j >= 1 and doc[j].lower_ in ARTICLE_CUES:
            return doc[j - 1].lower_ in COPULAS
        return j >= 0 and doc[j].lower_ in PLURAL_COPULAS and doc[end - 1].lower_.endswith("s")
