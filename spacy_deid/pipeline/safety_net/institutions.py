"""Institution names: a capitalised run on one line with a head word, or an
institution word and a rare word; the capitalised words around an
institution entity the pipeline found.
"""

from typing import List, Tuple

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc, Token

from ... import labels
from ..lexicon import INSTITUTION
from .cues import (
    ATTRIBUTE_STARTS,
    INSTITUTION_HEADS,
    INSTITUTION_JOINERS,
    INSTITUTION_LABELS,
    NOT_IN_NAMES,
    RUN_THROUGH_LABELS,
    SINGLE_HEADS,
    TITLES,
)
from .tokens import TokenShapes


class InstitutionCues(TokenShapes):
    """Part of `SafetyNet` (a mixin): the institution cues."""

    def _run_word(self, token: Token, covered: bool) -> bool:
        """A word that can be part of a capitalised name run."""
        if not self._capitalised(token) or (not covered and token.lower_ in NOT_IN_NAMES):
            return False
        # "I", "A", and in capitals function words ("IN", "TO"), end the name;
        # institution words do not ("FIRST STEP PROGRAM").
        return (
            not (
                token.is_upper
                and (len(token) == 1 or self._shouted(token.doc, token.i))
                and token.lower_ in STOP_WORDS
                and token.lower_ not in INSTITUTION_JOINERS
                and INSTITUTION not in (token._.lexicon or "")
            )
            or covered
        )

    def _capitalised_run(self, doc: Doc, i: int, covered: List[bool], headers: List[bool]) -> int:
        """End of the run of capitalised words from i on its line, joined by "of",
        "and", "&" ("Museum of Local History") or a hyphen ("Walk-In")."""
        end = i + 1
        while end < len(doc) and not headers[end] and "\n" not in doc[end - 1].whitespace_:
            nxt = doc[end]
            if self._glued(doc, end):
                break  # "ClinicIntake": a line break lost in extraction
            if self._run_word(nxt, covered[end]):
                end += 1
            elif (
                (
                    nxt.lower_ in INSTITUTION_JOINERS
                    or (nxt.text == "-" and not nxt.whitespace_ and not doc[end - 1].whitespace_)
                )
                and end + 1 < len(doc)
                and self._run_word(doc[end + 1], covered[end + 1])
                and "\n" not in nxt.whitespace_
            ):
                end += 2
            else:
                break
        return end

    def _function_word(self, doc: Doc, i: int) -> bool:
        """A capitalised function word ("The", "At"), not an acronym ("US Marines") nor
        the first part of a compound ("Walk-In")."""
        token = doc[i]
        if token.lower_ not in STOP_WORDS or token.lower_ in INSTITUTION_JOINERS:
            return False
        if token.is_upper and len(token) > 1 and not self._shouted(doc, i):
            return False
        # Capitalised mid-sentence, it is part of the name ("at Such Center").
        if token.is_title and len(token) > 1 and not self._sentence_initial(doc, i):
            return False
        return token.whitespace_ != "" or i + 1 >= len(doc) or doc[i + 1].text != "-"

    @staticmethod
    def _after_titled_name(doc: Doc, i: int, end: int) -> int:
        """After a title ("Dr Marc Kong and Fay Center"), the run opens with a person:
        the institution starts after the first joiner, or nowhere (end)."""
        j = i - 1
        if j >= 0 and doc[j].text == ".":
            j -= 1
        if j < 0 or doc[j].lower_.rstrip(".") not in TITLES:
            return i
        joiners = [k for k in range(i, end) if doc[k].lower_ in ("and", "&", ",")]
        return joiners[0] + 1 if joiners else end

    def _institutions(
        self, doc: Doc, covered: List[bool], headers: List[bool]
    ) -> List[Tuple[int, int, str, str]]:
        """Capitalised runs on one line that name an institution (a head word, or an
        institution word with a rare word), and the capitalised words around an
        institution entity; only their uncovered parts are proposed."""
        entity_label = [""] * len(doc)
        for ent in doc.ents:
            for k in range(ent.start, ent.end):
                entity_label[k] = ent.label_
        # A run may go through places and institutions ("[Quorvale] County Family
        # Court"), not through a person ("Dr. [Merabet] and Brar Clinic").
        blocked = [
            h or (c and lab not in RUN_THROUGH_LABELS)
            for h, c, lab in zip(headers, covered, entity_label)
        ]
        found: List[Tuple[int, int, str, str]] = []
        # A run starts at a capitalised word (`_run_word`'s first test): the
        # others are passed over without a Token object each.
        capitalised = self._capitalised_flags(doc)
        i = 0
        while i < len(doc):
            if blocked[i] or not capitalised[i] or not self._run_word(doc[i], covered[i]):
                i += 1
                continue
            end = self._capitalised_run(doc, i, covered, blocked)
            # A function word, or a capitalised common word opening a sentence
            # ("Yesterday Quarrytown Hospital called"), is not part of the name; in
            # capitals (a header line) or a compound ("Walk-In Behavioral Health")
            # it may be.
            while (
                end - i > 1
                and not covered[i]
                and INSTITUTION not in (doc[i]._.lexicon or "")
                and (
                    self._function_word(doc, i)
                    or self._sentence_initial(doc, i)
                    and self._zipf(doc[i]) >= self.common_zipf
                    # a line that is only the name is a header ("Mobile Crisis Service")
                    and not (self._line_start(doc, i) == i and self._line_ends(doc, end))
                    and not doc[i:end].text.isupper()
                    and not (i + 1 < end and doc[i + 1].text == "-" and not doc[i].whitespace_)
                )
            ):
                i += 1
            i = self._after_titled_name(doc, i, end)
            if i >= end:
                continue
            label, cue, name_end = self._institution_label(doc, i, end, covered, entity_label)
            if label:
                found.extend(self._uncovered_parts(doc, i, name_end, covered, label, cue))
            i = end
        return found

    def _institution_label(self, doc, i, end, covered, entity_label) -> Tuple[str, str, int]:
        """(label, cue, end of the name) of the run i..end; no label: not a name."""
        run = doc[i:end]
        # "COURSE IN HOSPITAL:" is a heading, "Date of Service =" an attribute name.
        if end < len(doc) and doc[end].text in (":", "="):
            return "", "", end
        if all(covered[i:end]) or run[0].lower_ in ATTRIBUTE_STARTS:
            return "", "", end
        heads = [k for k in range(i, end) if doc[k].lower_ in INSTITUTION_HEADS]
        words = [t for t in run if t.is_alpha and t.lower_ not in INSTITUTION_JOINERS]
        if heads and (
            len(words) >= 2
            or (run[0].lower_ in SINGLE_HEADS and not self._sentence_initial(doc, i))
        ):
            # The name ends at its last head unless "of ..." follows ("Museum of
            # Local History"): "EMERGENCY SERVICE [EVALUATION]" is a heading.
            last = heads[-1] + 1
            if last < end and doc[last].lower_ not in INSTITUTION_JOINERS:
                end = last
            named = [t for t in doc[i:end] if t.is_alpha and t.lower_ not in INSTITUTION_JOINERS]
            if len(named) >= 2 or run[0].lower_ in SINGLE_HEADS:
                return INSTITUTION_HEADS[doc[heads[-1]].lower_], "institution", end
        # In capitals, a rare word is no evidence (whole paragraphs are shouted).
        # (Tested in this order: most runs are one word, and the lexicon is read last.)
        if (
            len(words) >= 2
            and not run.text.isupper()
            and any(self._zipf(t) < self.common_zipf and t.lower_ not in self.clinical for t in run)
            and any(INSTITUTION in (t._.lexicon or "").split("|") for t in run)
        ):
            return labels.HOSPITAL, "institution", end
        inside = [entity_label[k] for k in range(i, end) if entity_label[k] in INSTITUTION_LABELS]
        if inside:
            return inside[0], "extend", end
        return "", "", end

    @staticmethod
    def _uncovered_parts(doc, i, end, covered, label, cue) -> List[Tuple[int, int, str, str]]:
        """The uncovered stretches of the run i..end; a joiner or hyphen stays only
        between two parts of the name ("Mood and [Anxiety Program]")."""
        parts = []
        k = i
        while k < end:
            if covered[k]:
                k += 1
                continue
            stop = k
            while stop < end and not covered[stop]:
                stop += 1
            s, e = k, stop
            while (
                s < e and s == i and (doc[s].lower_ in INSTITUTION_JOINERS or not doc[s].is_alpha)
            ):
                s += 1
            while (
                e > s
                and e == end
                and (doc[e - 1].lower_ in INSTITUTION_JOINERS or not doc[e - 1].is_alpha)
            ):
                e -= 1
            # "[Papadopoulos Building] of [Finnegan Hospital]": two names, not one
            if any(
                doc[t].is_alpha and doc[t].lower_ not in INSTITUTION_JOINERS for t in range(s, e)
            ):
                parts.append((s, e, label, cue))
            k = stop
        return parts
