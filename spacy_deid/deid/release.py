"""Released text from a Doc: every PHI span replaced by its operator's output,
every character outside the spans kept exactly as it came in.

    deid = Deidentifier(operator="surrogate", seed="secret")
    released = deid.release_doc(doc, patient_key="110")
    released.text, released.spans, released.unparsed_dates

`spacy-deid.Deidentifier.v1` builds one from a config block, so the
operators per subtype can live in a config file.
"""

import random
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from operator import index as whole_number
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from spacy.tokens import Doc
from spacy.util import registry

from .. import labels
from ..corpus.note import without_edge_whitespace
from ..extensions import install_extensions
from ..surrogates import Person, SurrogateGenerator
from ..surrogates.formats import match_case
from . import dates, names
from . import operators as ops
from .mapping import NUMBERS, DeidMapping, PatientState

# Subtypes whose surrogate keeps the character shape of the original (the one
# set, in spacy_deid.labels).
SHAPED = labels.SHAPED_SUBTYPES
NAME_SUBTYPES = frozenset({labels.PATIENT, labels.DOCTOR})
# Draws before a surrogate that collides with a real value is accepted anyway.
MAX_DRAWS = 25

Span3 = Tuple[int, int, str]


@dataclass(frozen=True)
class ReleasedSpan:
    """Where a replacement stands in the released text (never the original value)."""

    start: int
    end: int
    label: str
    operator: str


@dataclass
class Released:
    text: str
    spans: List[ReleasedSpan] = field(default_factory=list)
    unparsed_dates: int = 0  # DATE mentions no format could read: placeholders instead
    counts: Counter = field(default_factory=Counter)  # (label, operator) -> mentions


def _key(label: str, text: str) -> str:
    """The identity of a real value: case and spacing ignored; for shaped
    subtypes only its letters and digits count."""
    # NFKC: full-width and other compatibility digits and letters are the
    # same value as their ASCII forms ("６１７" is "617").
    text = unicodedata.normalize("NFKC", text)
    if label in SHAPED:
        return "".join(c for c in text.upper() if c.isalnum())
    return " ".join(text.casefold().split())


def _project(alnum: str, like: str) -> Optional[str]:
    """`alnum`'s characters written into the shape of `like` (separators kept)."""
    chars = iter(alnum)
    out = []
    for char in like:
        if char.isalnum():
            new = next(chars, None)
            if new is None:
                return None
            out.append(new.lower() if char.islower() else new)
        else:
            out.append(char)
    return "".join(out) if next(chars, None) is None else None


class Deidentifier:
    """Turns Docs (or text with PHI spans) into released text."""

    def __init__(
        self,
        operator: str = ops.PLACEHOLDER,
        operators: Optional[Dict[str, str]] = None,
        seed: Optional[str] = None,
        date_shift_min_days: int = ops.DATE_SHIFT_MIN_DAYS,
        date_shift_max_days: int = ops.DATE_SHIFT_MAX_DAYS,
        age_limit: int = ops.HIPAA_AGE_LIMIT,
        mapping: Optional[DeidMapping] = None,
    ) -> None:
        if date_shift_min_days > date_shift_max_days:
            raise ValueError("date_shift_min_days is larger than date_shift_max_days")
        if date_shift_min_days == date_shift_max_days == 0:
            raise ValueError("the date shift range is 0 days: dates would not move")
        self.operators = ops.resolve_operators(operator, operators)
        self.date_shift = (date_shift_min_days, date_shift_max_days)
        self.age_limit = age_limit
        self.mapping = DeidMapping()
        self.use_mapping(mapping, seed)

    def use_mapping(self, mapping: Optional[DeidMapping] = None, seed: Optional[str] = None) -> None:
        """Continue from `mapping` (a loaded mapping file) and/or use `seed`,
        with the constructor's checks: a seed must agree with a mapping that
        already holds patients. For settings given after construction (the
        command line over a config file)."""
        if mapping is not None:
            if seed is not None and mapping.patients and str(seed) != mapping.seed:
                raise ValueError("the seed differs from the loaded mapping's seed")
            self.mapping = mapping
        if seed is not None:
            self.mapping.seed = str(seed)

    # --- entry points ----------------------------------------------------------
    def release_doc(self, doc: Doc, patient_key: Optional[str] = None) -> Released:
        """Released text of `doc` from its `doc.ents`. Without a key, the
        patient is `doc._.patient_id`, then `doc._.note_id`, else the Doc alone."""
        install_extensions()
        if patient_key is None:
            patient_key = doc._.patient_id or (f"note:{doc._.note_id}" if doc._.note_id else None)
        spans = [(ent.start_char, ent.end_char, ent.label_) for ent in doc.ents]
        return self.release(doc.text, spans, patient_key)

    def release(
        self, text: str, spans: Iterable[Span3], patient_key: Optional[str] = None
    ) -> Released:
        """Released `text` with `spans` ((start, end, label), not overlapping) replaced.

        Whitespace at the edges of a span stays in the text (a model may end a
        name with the paragraph break after it); a span of whitespace alone is
        left as it is. Raises `SpanError` for a span that is not three items,
        offsets that are not whole numbers, negative, reversed or past the end
        of the text, a label with no operator, or overlapping spans; the
        message gives the span's position and offsets, never the text or label."""
        spans = self.checked_spans(text, spans)
        ordered = sorted(_without_edge_whitespace(text, spans))
        for (s1, e1, _), (s2, _, _) in zip(ordered, ordered[1:]):
            if s2 < e1:
                raise SpanError(f"overlapping PHI spans at characters {s1}-{e1} and {s2}")
        state = self.mapping.patient(patient_key) if patient_key is not None else PatientState()
        context = _DocContext(self, text, ordered, state, patient_key or "")
        released = Released(text="")
        out: List[str] = []
        position = length = 0
        for start, end, label in ordered:
            piece = text[position:start]
            out.append(piece)
            length += len(piece)
            operator, replacement = context.replace(start, end, label)
            if operator == ops.PLACEHOLDER and self.operators[label] == ops.SHIFT:
                released.unparsed_dates += 1
            out.append(replacement)
            released.spans.append(ReleasedSpan(length, length + len(replacement), label, operator))
            released.counts[(label, operator)] += 1
            length += len(replacement)
            position = end
        out.append(text[position:])
        released.text = "".join(out)
        return released


    def checked_spans(self, text: str, spans: Iterable[Span3]) -> List[Span3]:
        """`spans` as (int, int, str) triples, or SpanError naming the first bad one."""
        if not isinstance(text, str):
            raise SpanError(f"the text must be a str, got {type(text).__name__}")
        if isinstance(spans, (str, bytes)):
            raise SpanError("spans must be (start, end, label) triples, got a string")
        checked: List[Span3] = []
        for number, span in enumerate(spans, 1):
            try:
                start, end, label = span
            except (TypeError, ValueError):
                raise SpanError(f"span {number}: not a (start, end, label) triple") from None
            where = f"span {number}"
            bounds = []
            for name, value in (("start", start), ("end", end)):
                if isinstance(value, bool):
                    raise SpanError(f"{where}: {name} is a bool, not a character offset")
                try:
                    bounds.append(whole_number(value))
                except TypeError:
                    raise SpanError(
                        f"{where}: {name} is a {type(value).__name__}, not a whole number"
                    ) from None
            start, end = bounds
            where = f"span {number} ({start}-{end})"
            if start < 0 or end < 0:
                raise SpanError(f"{where}: negative offset")
            if end < start:
                raise SpanError(f"{where}: end before start")
            if end > len(text):
                raise SpanError(f"{where}: past the end of the text ({len(text)} characters)")
            if not isinstance(label, str) or label not in self.operators:
                # The label is not echoed: a caller's label may be a value.
                raise SpanError(
                    f"{where}: the label is not a PHI subtype "
                    f"(known: {', '.join(sorted(self.operators))})"
                )
            checked.append((start, end, label))
        return checked


class SpanError(ValueError):
    """A PHI span given to `Deidentifier.release` that cannot be released:
    the message names the span by position and offsets, never its text."""


def _without_edge_whitespace(text: str, spans: Iterable[Span3]) -> Iterator[Span3]:
    for start, end, label in spans:
        start, end = without_edge_whitespace(text, start, end)
        if end > start:
            yield start, end, label


class _DocContext:
    """One document's release: its real values (which no surrogate may reuse)
    and the patient state the surrogates are drawn into."""

    def __init__(
        self,
        deid: Deidentifier,
        text: str,
        spans: Sequence[Span3],
        state: PatientState,
        patient: str,
    ) -> None:
        self.deid, self.text, self.state, self.patient = deid, text, state, patient
        self.real: Set[str] = {" ".join(text[s:e].casefold().split()) for s, e, _ in spans}
        self.real_name_words: Set[str] = {
            word
            for s, e, label in spans
            if label in NAME_SUBTYPES
            for word in names.real_name_words(text[s:e])
        }
        for person in state.registry().people:
            self.real_name_words.update(w for w in (person.first, person.last, person.single) if w)
        # Real values of the patient's earlier notes are avoided too.
        self.real.update(key.casefold() for values in state.values.values() for key in values)
        self.reference_year = dates.reference_year(
            text[s:e] for s, e, label in spans if label == labels.DATE
        )
        self.people: Dict[Tuple[int, int], int] = {}
        self._real_pattern: Optional["re.Pattern[str]"] = None
        self._resolve_people(spans)

    def _rng(self, *parts: object) -> random.Random:
        # Seeded by the secret seed, the patient and the value: the same real
        # value gets the same surrogate in every run that shares the seed.
        # Bytes, as random would encode the string, but a lone surrogate in the
        # text (from JSON input) passes instead of raising UnicodeEncodeError.
        key = "|".join(map(str, (self.deid.mapping.seed, self.patient) + parts))
        return random.Random(key.encode("utf-8", "surrogatepass"))

    def _resolve_people(self, spans: Sequence[Span3]) -> None:
        """Full names before single words, so "Smith" finds "John Smith" in the same note."""
        mentions = []
        for start, end, label in spans:
            if label in NAME_SUBTYPES and self.deid.operators[label] in (
                ops.SURROGATE,
                ops.NUMBERED,
            ):
                parts = names.split_name(self.text[start:end])
                if parts:
                    mentions.append((-len(parts), start, end, label, parts))
        registry_ = self.state.registry()
        for _, start, end, label, parts in sorted(mentions, key=lambda m: m[:2]):
            self.people[(start, end)] = registry_.resolve(parts, self._new_person)
        # A surrogate drawn for an earlier note may name someone real in this
        # one: it is redrawn (privacy first; the earlier notes keep theirs).
        for index in set(self.people.values()):
            person = registry_.people[index]
            if self._collides(f"{person.surrogate.first} {person.surrogate.last}"):
                first, last = person.first, person.last or person.single
                person.surrogate = self._new_person(first, last, salt="redraw")

    def _new_person(self, first: Optional[str], last: Optional[str], salt: str = ""):
        """A surrogate person whose names are no real name of the patient and
        who is not already someone else's surrogate. The first name is drawn
        from the real first name, the surname from the real surname (with the
        seed and patient), never from the order people are met: a run that
        resumes with the seed alone gives each person the same surrogate."""
        people = self.state.registry().people
        taken = {(p.surrogate.first, p.surrogate.last) for p in people}
        for draw in range(MAX_DRAWS):
            given = SurrogateGenerator(rng=self._rng("first", first, salt, draw)).person()
            family = SurrogateGenerator(rng=self._rng("last", last, salt, draw)).person()
            person = Person(given.first, family.last, given.sex, given.middle_initial)
            names_ = {person.first.lower(), person.last.lower()}
            if not names_ & self.real_name_words and (person.first, person.last) not in taken:
                return person
        return person

    def replace(self, start: int, end: int, label: str) -> Tuple[str, str]:
        """(operator used, replacement) for one span."""
        original = self.text[start:end]
        operator = self.deid.operators[label]
        if operator == ops.KEEP:
            return operator, original
        if operator == ops.REMOVE:
            return operator, ""
        if operator == ops.PLACEHOLDER:
            return operator, ops.placeholder(label)
        if operator == ops.HIPAA_AGE:
            over = ops.hipaa_age(original, self.deid.age_limit)
            return operator, original if over is None else over
        if operator == ops.SHIFT:
            shifted = dates.shift_date(original, self.date_offset(), self.reference_year)
            if shifted is None:  # unreadable: a placeholder, counted by the caller
                return ops.PLACEHOLDER, ops.placeholder(label)
            return operator, shifted
        person = self.people.get((start, end))
        if operator == ops.NUMBERED:
            entity = f"person:{person}" if person is not None else _key(label, original)
            return operator, ops.numbered(label, self.state.number(label, entity))
        if person is not None:
            registry_ = self.state.registry()
            parts = names.split_name(original)
            known = registry_.people[person]
            middle = lambda: SurrogateGenerator(
                rng=self._rng("middle", known.first, known.last, original.lower())
            ).first_name()
            return operator, registry_.render(original, parts, person, middle)
        return operator, self._surrogate(label, original)

    def _collides(self, value: str) -> bool:
        """Whether a surrogate contains a real value of this note as a word
        ("Pham Community Health Center" in a note about Dr. Pham)."""
        if self._real_pattern is None:
            words = {w for w in self.real | self.real_name_words if len(w) >= 2}
            alternatives = "|".join(map(re.escape, sorted(words, key=len, reverse=True)))
            self._real_pattern = re.compile(
                rf"(?<!\w)(?:{alternatives})(?!\w)" if words else r"(?!)"
            )
        return self._real_pattern.search(" ".join(value.casefold().split())) is not None

    def date_offset(self) -> int:
        if self.state.date_offset is None:
            low, high = self.deid.date_shift
            rng = self._rng("date-offset")
            offset = 0
            while offset == 0:
                offset = rng.randint(low, high)
            self.state.date_offset = offset
        return self.state.date_offset

    def _surrogate(self, label: str, original: str) -> str:
        stripped = original.strip()
        lead = original[: len(original) - len(original.lstrip())]
        trail = original[len(original.rstrip()) :]
        key = _key(label, stripped)
        # Shaped numbers share one table: a value met as MEDICALRECORD and as
        # PHONE is one value with one surrogate, written in each shape.
        table = NUMBERS if label in SHAPED else label
        values = self.state.values.setdefault(table, {})
        if key not in values or self._collides(values[key]):
            # new, or (rarely) a surrogate from an earlier note that shows a
            # real value of this one: drawn again, privacy before consistency
            values[key] = self._draw(label, stripped, key, table)
        value = values[key]
        if label in SHAPED:
            projected = _project(value, stripped)
            value = projected if projected is not None else value
        else:
            value = match_case(value, stripped)
        return lead + value + trail

    def _draw(self, label: str, like: str, key: str, table: str) -> str:
        for draw in range(MAX_DRAWS):
            value = SurrogateGenerator(rng=self._rng(table, key, draw)).generate(
                label, like=like or None
            )
            if _key(label, value) != key and not self._collides(value):
                break
        return "".join(c for c in value if c.isalnum()) if label in SHAPED else value


@registry.misc("spacy-deid.Deidentifier.v1")
def make_deidentifier(
    operator: str = ops.PLACEHOLDER,
    operators: Dict[str, str] = {},
    seed: Optional[str] = None,
    date_shift_min_days: int = ops.DATE_SHIFT_MIN_DAYS,
    date_shift_max_days: int = ops.DATE_SHIFT_MAX_DAYS,
    age_limit: int = ops.HIPAA_AGE_LIMIT,
) -> Deidentifier:
    """A Deidentifier from a config block:

    [deidentifier]
    @misc = "spacy-deid.Deidentifier.v1"
    operator = "surrogate"
    operators = {"AGE": "placeholder"}
    seed = null
    """
    return Deidentifier(
        operator, dict(operators), seed, date_shift_min_days, date_shift_max_days, age_limit
    )
