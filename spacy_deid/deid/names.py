"""Person-name variants: "John Smith", "Smith", "J. Smith" and "SMITH, JOHN"
are one person and get one surrogate person, each mention written the way it
was ("J. Smith" -> "M. Garcia", "SMITH, JOHN" -> "GARCIA, MARIA").

A mention is split into name parts (first, middle, last, or an unknown single
word), each with its character offsets, so the separators, initials' dots and
titles between them are kept as written. People are matched by last name and
compatible first name (same name, or its initial); a single word matches a
known last name first, then a known first name. Relatives sharing a surname
("John Smith", "Mary Smith") get different surrogate first names and one
surrogate surname.
"""

import re
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

from ..surrogates import lists
from ..surrogates.formats import match_case
from ..surrogates import Person

FIRST, MIDDLE, LAST, SINGLE, INITIALS = "first", "middle", "last", "single", "initials"
# Titles and credentials are outside PHI spans by the guidelines, but a model
# may include them; they are kept as written.
TITLES = frozenset(
    "dr mr mrs ms miss mx prof md do phd rn np pa lcsw licsw lmhc psyd jr sr ii iii".split()
)
_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['\u2019-](?=[^\W\d_]))*")
_GLUED_INITIALS = re.compile(r"[A-Z]{2,3}")


@dataclass(frozen=True)
class NamePart:
    start: int
    end: int
    role: str  # FIRST, MIDDLE, LAST, SINGLE or INITIALS
    text: str

    @property
    def is_initial(self) -> bool:
        return len(self.text) == 1


def split_name(text: str) -> List[NamePart]:
    """The name parts of a mention, in order, with offsets into `text`."""
    words = [m for m in _WORD.finditer(text) if m.group(0).lower() not in TITLES]
    if not words:
        return []
    if (
        len(words) == 1
        and _GLUED_INITIALS.fullmatch(words[0].group(0))
        and text.strip() == words[0].group(0)
    ):
        word = words[0]
        return [NamePart(word.start(), word.end(), INITIALS, word.group(0))]
    comma = text.find(",")
    if comma >= 0 and words[0].start() < comma < words[-1].start():
        before = [w for w in words if w.start() < comma]
        after = [w for w in words if w.start() > comma]
        roles = [LAST] * len(before) + [FIRST] + [MIDDLE] * (len(after) - 1)
        # A compound surname before the comma ("Van Buren, Martin") is one part.
        parts = [
            NamePart(
                before[0].start(),
                before[-1].end(),
                LAST,
                text[before[0].start() : before[-1].end()],
            )
        ]
        return parts + [
            NamePart(w.start(), w.end(), r, w.group(0)) for w, r in zip(after, roles[len(before) :])
        ]
    if len(words) == 1:
        return [NamePart(words[0].start(), words[0].end(), SINGLE, words[0].group(0))]
    roles = [FIRST] + [MIDDLE] * (len(words) - 2) + [LAST]
    return [NamePart(w.start(), w.end(), r, w.group(0)) for w, r in zip(words, roles)]


@dataclass
class KnownPerson:
    """A real person seen in a patient's notes (lower-cased parts) and their surrogate."""

    surrogate: Person
    first: Optional[str] = None
    last: Optional[str] = None
    single: Optional[str] = None  # only ever seen as one word, role unknown
    single_as_first: bool = False  # that word looks like a first name
    middle: Dict[str, str] = field(default_factory=dict)  # real middle name -> surrogate

    def to_dict(self) -> Dict:
        s = self.surrogate
        return {
            "first": self.first,
            "last": self.last,
            "single": self.single,
            "single_as_first": self.single_as_first,
            "middle": self.middle,
            "surrogate": [s.first, s.last, s.sex, s.middle_initial],
        }

    @classmethod
    def from_dict(cls, data: Dict) -> "KnownPerson":
        first, last, sex, middle_initial = data["surrogate"]
        return cls(
            Person(first, last, sex, middle_initial),
            data.get("first"),
            data.get("last"),
            data.get("single"),
            bool(data.get("single_as_first")),
            dict(data.get("middle") or {}),
        )


def _compatible(known: Optional[str], seen: Optional[str]) -> bool:
    """Two first names can be one person's: equal, one the other's initial, or one unknown."""
    if not known or not seen:
        return True
    if len(known) == 1 or len(seen) == 1:
        return known[0] == seen[0]
    return known == seen


class NameRegistry:
    """The people of one patient's notes (all person subtypes), with their surrogates."""

    def __init__(self, people: Optional[List[KnownPerson]] = None) -> None:
        self.people: List[KnownPerson] = people or []

    def resolve(
        self, parts: List[NamePart], new_person: Callable[[Optional[str], Optional[str]], Person]
    ) -> int:
        """The index of the person a mention's parts name, adding them if new.

        `new_person(first, last)` draws a surrogate from the real (lower-cased)
        first and last name, either of which may be None."""
        first = next((p.text.lower() for p in parts if p.role == FIRST), None)
        last = next((p.text.lower() for p in parts if p.role == LAST), None)
        single = next((p.text.lower() for p in parts if p.role in (SINGLE, INITIALS)), None)
        if single is not None:
            return self._resolve_single(single, new_person)
        if last is not None and len(last) > 1:
            same_last = [i for i, p in enumerate(self.people) if p.last == last]
            for index in same_last:
                person = self.people[index]
                if _compatible(person.first, first):
                    if first and (not person.first or len(person.first) == 1):
                        person.first = first
                    return index
            surrogate = new_person(first, last)
            if same_last:  # a relative: same surrogate surname
                kin = self.people[same_last[0]].surrogate
                surrogate = Person(
                    surrogate.first, kin.last, surrogate.sex, surrogate.middle_initial
                )
            return self._add(KnownPerson(surrogate, first, last), adopt=True)
        # Only initials for the last name ("John S."): match on first name.
        for index, person in enumerate(self.people):
            if person.first == first and _compatible(person.last, last):
                return index
        return self._add(KnownPerson(new_person(first, last), first, last), adopt=True)

    def _resolve_single(
        self, word: str, new_person: Callable[[Optional[str], Optional[str]], Person]
    ) -> int:
        for attribute in ("last", "first", "single"):
            for index, person in enumerate(self.people):
                if getattr(person, attribute) == word:
                    return index
        as_first = word in _first_names()
        surrogate = new_person(word, None) if as_first else new_person(None, word)
        person = KnownPerson(surrogate, single=word, single_as_first=as_first)
        return self._add(person, adopt=False)

    def _add(self, person: KnownPerson, adopt: bool) -> int:
        """Add a person; a full name takes over a one-word person it explains,
        keeping the surrogate that one word was already given."""
        if adopt:
            for index, known in enumerate(self.people):
                if known.single is None:
                    continue
                old, sur = known.surrogate, person.surrogate
                shown = old.first if known.single_as_first else old.last  # what the word became
                if known.single == person.last:
                    known.surrogate = Person(sur.first, shown, sur.sex, sur.middle_initial)
                elif known.single == person.first:
                    known.surrogate = Person(shown, sur.last, old.sex, sur.middle_initial)
                else:
                    continue
                known.first, known.last, known.single = person.first, person.last, None
                return index
        self.people.append(person)
        return len(self.people) - 1

    def render(
        self, text: str, parts: List[NamePart], index: int, middle_name: Callable[[], str]
    ) -> str:
        """The mention written with the person's surrogate, separators kept."""
        person = self.people[index]
        out, position = [], 0
        for part in parts:
            out.append(text[position : part.start])
            out.append(match_case(self._surrogate_part(person, part, middle_name), part.text))
            position = part.end
        out.append(text[position:])
        return "".join(out)

    @staticmethod
    def _surrogate_part(person: KnownPerson, part: NamePart, middle_name: Callable[[], str]) -> str:
        sur = person.surrogate
        if part.role == INITIALS:
            return (sur.first[0] + sur.last[0] + sur.middle_initial)[: len(part.text)]
        if part.role == SINGLE:
            word = part.text.lower()
            if person.single is not None:
                as_first = person.single_as_first
            else:
                as_first = person.first == word and person.last != word
            value = sur.first if as_first else sur.last
        elif part.role == FIRST:
            value = sur.first
        elif part.role == LAST:
            value = sur.last
        else:
            if part.is_initial:
                return sur.middle_initial
            key = part.text.lower()
            if key not in person.middle:
                person.middle[key] = middle_name()
            value = person.middle[key]
        return value[0] if part.is_initial else value

    def to_list(self) -> List[Dict]:
        return [person.to_dict() for person in self.people]

    @classmethod
    def from_list(cls, data: List[Dict]) -> "NameRegistry":
        return cls([KnownPerson.from_dict(item) for item in data])


_FIRST_NAMES: Optional[frozenset] = None


def _first_names() -> frozenset:
    """Lower-cased first names of the surrogate lists, to guess a lone word's role."""
    global _FIRST_NAMES
    if _FIRST_NAMES is None:
        _FIRST_NAMES = frozenset(
            name.lower()
            for filename in ("first_names_female.txt", "first_names_male.txt")
            for name in lists.words(filename)
        )
    return _FIRST_NAMES


def real_name_words(text: str) -> Tuple[str, ...]:
    """The lower-cased words of a real name, which no surrogate may reuse."""
    return tuple(part.text.lower() for part in split_name(text))
