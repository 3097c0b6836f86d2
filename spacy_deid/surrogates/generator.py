"""Surrogate PHI values, one small API per subtype.

    gen = SurrogateGenerator(seed=0)
    gen.generate(labels.DATE)                     # "3/14/2019", "March 2021", ...
    gen.generate(labels.DATE, like="2067-05-03")  # another date, same format
    gen.generate(labels.MEDICALRECORD, like="12G00123")  # same shape: "48K93017"
    gen.generate(labels.PATIENT, like="smith, john")     # "garcia, maria"

Everything is fictional: names and places come from the lists in
`spacy_deid/data/surrogates/` combined at random, numbers are random. The
synthetic-note generator draws from it, and so can PHI augmentation and
surrogate replacement of de-identified output. All randomness goes through
one `random.Random`, so a seed fixes every value.
"""
import datetime as dt
import math
import random
import re
import string
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Dict, Optional, Tuple, Union

from .. import labels
from . import formats
from . import lists


@dataclass(frozen=True)
class Person:
    first: str
    last: str
    sex: str  # "F" or "M"
    middle_initial: str = ""


# Name styles (how a name is written) → renderer; "lower" variants are common
# in hastily typed notes.
NAME_STYLES: Dict[str, Callable[[Person], str]] = {
    "first_last": lambda p: f"{p.first} {p.last}",
    "first": lambda p: p.first,
    "last": lambda p: p.last,
    "first_mi_last": lambda p: f"{p.first} {p.middle_initial}. {p.last}",
    "last_comma_first": lambda p: f"{p.last}, {p.first}",
    "last_first": lambda p: f"{p.last} {p.first}",
    "initials": lambda p: f"{p.first[0]}{p.last[0]}",
    "initials_dotted": lambda p: f"{p.first[0]}.{p.last[0]}.",
    "first_initial_last": lambda p: f"{p.first[0]}. {p.last}",
    "first_last_initial": lambda p: f"{p.first} {p.last[0]}.",
    "lower_first_last": lambda p: f"{p.first} {p.last}".lower(),
    "lower_last": lambda p: p.last.lower(),
    "lower_first": lambda p: p.first.lower(),
    "upper_last": lambda p: p.last.upper(),
    "upper_last_comma_first": lambda p: f"{p.last.upper()}, {p.first.upper()}",
}

_UPPER = string.ascii_uppercase
_LOWER = string.ascii_lowercase
_DIGITS = string.digits
_TLDS = ("com", "org", "net", "edu", "info", "us", "io")
# ranked_choice draws among at least the first RANKED_HEAD entries of a list.
RANKED_HEAD = 300
# Share of first and last names drawn from the world lists (Faker locales of
# the origins US clinics see) rather than the US census lists.
WORLD_NAME_RATE = 0.3
# Share of people whose surname is composed (hyphenated, double, with a particle).
COMPOSED_SURNAME_RATE = 0.08
SURNAME_COMPOSITIONS = {"hyphen": 5, "double": 2, "particle": 3}
SURNAME_PARTICLES = ("van", "van der", "van den", "de", "de la", "del", "da", "di", "von", "le",
                     "al-", "el-", "Al-", "O'", "ben", "bin")
# Share of the non-BLS occupations written as one word ("nurse"): the title
# lists have few of them, and notes write them alone ("works as a mechanic").
ONE_WORD_OCCUPATION_SHARE = 0.3


@lru_cache(maxsize=1)
def _bls_one_word_occupations() -> Tuple[str, ...]:
    """The one-word occupations that head a BLS title ("nurse", "teacher"): the
    occupation words of the larger job-title list include roles that are no
    occupation in a note ("patient", "volunteer")."""
    bls_heads = {title.split()[-1] for title in lists.words("professions.txt")}
    return tuple(word for word, _, _ in lists.occupation_words() if word in bls_heads)


@lru_cache(maxsize=1)
def _occupation_plurals() -> Dict[str, str]:
    return {word: plural for word, plural, _ in lists.occupation_words()}


class SurrogateGenerator:
    """Random fictional values for each of the 30 PHI subtypes."""

    def __init__(
        self,
        seed: Union[int, str, None] = None,
        rng: Optional[random.Random] = None,
        values: Optional[str] = None,
    ):
        """`values` "A" or "B" draws names, places, occupations and other listed
        values from that half of every list only (the name-held-out split)."""
        if values is not None and values not in lists.HALVES:
            raise ValueError(f"values must be one of {lists.HALVES} or None, not {values!r}")
        self.rng = rng if rng is not None else random.Random(seed)
        self.values = values

    # --- value lists -------------------------------------------------------------
    def _words(self, name: str) -> Tuple[str, ...]:
        if self.values and name in lists.VALUE_LISTS:
            return lists.words_half(name, self.values)
        return lists.words(name)

    def _pairs(self, name: str, key_index: int = 0) -> Tuple[Tuple[str, str], ...]:
        if self.values and name in lists.VALUE_LISTS:
            return lists.pairs_half(name, self.values, key_index)
        return lists.pairs(name)

    def _grouped(self, name: str) -> Dict[str, Tuple[str, ...]]:
        groups = lists.grouped(name)
        if self.values and name in lists.VALUE_LISTS:
            groups = {k: lists.halved(v, self.values) or v for k, v in groups.items()}  # small lists
        return groups

    def _world_names(self, kind: str) -> Tuple[str, ...]:
        return lists.world_names_half(kind, self.values) if self.values else lists.world_names(kind)

    def ranked_choice(self, seq):
        """An entry of a list ordered most frequent first: the rank is drawn
        log-uniformly, so common values come often and rare ones still come."""
        n = len(seq)
        low = min(n, RANKED_HEAD)
        top = int(math.exp(self.rng.uniform(math.log(low), math.log(n)))) if n > low else n
        return seq[self.rng.randrange(max(1, top))]

    # --- generic -------------------------------------------------------------
    def generate(self, subtype: str, like: Optional[str] = None) -> str:
        """A surrogate for `subtype`; with `like`, written the same way as it
        (ID shapes, date formats, name order and case, digits vs words)."""
        subtype = labels.normalize_subtype(subtype)
        if like is not None and like.strip():
            return self._like(subtype, like)
        return _PLAIN[subtype](self)

    def choice(self, seq):
        return seq[self.rng.randrange(len(seq))]

    def weighted(self, weights: Dict[str, float]) -> str:
        keys = list(weights)
        return self.rng.choices(keys, weights=[weights[k] for k in keys])[0]

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def digits(self, n: int, first_nonzero: bool = False) -> str:
        out = "".join(self.choice(_DIGITS) for _ in range(n))
        if first_nonzero and out[0] == "0":
            out = self.choice("123456789") + out[1:]
        return out

    def letters(self, n: int) -> str:
        """n random upper-case letters."""
        return "".join(self.choice(_UPPER) for _ in range(n))

    def reshape(self, like: str) -> str:
        """Same shape as `like`: digits → random digits, letters → random
        letters of the same case, everything else kept."""
        out = []
        for char in like:
            if char.isdigit():
                out.append(self.choice(_DIGITS))
            elif char.isupper():
                out.append(self.choice(_UPPER))
            elif char.islower():
                out.append(self.choice(_LOWER))
            else:
                out.append(char)
        return "".join(out)

    # --- names -----------------------------------------------------------------
    def first_name(self, sex: Optional[str] = None, ambiguous_rate: float = 0.04) -> str:
        if self.chance(ambiguous_rate):
            return self.choice(lists.words("ambiguous_names.txt"))
        sex = sex or self.choice("FM")
        if self.chance(WORLD_NAME_RATE):
            return self.choice(self._world_names("first_f" if sex == "F" else "first_m"))
        return self.ranked_choice(self._words("first_names_female.txt" if sex == "F" else "first_names_male.txt"))

    def last_name(self, ambiguous_rate: float = 0.04) -> str:
        if self.chance(ambiguous_rate):
            return self.choice(lists.words("ambiguous_names.txt"))
        if self.chance(WORLD_NAME_RATE):
            return self.choice(self._world_names("last"))
        return self.ranked_choice(self._words("last_names.txt"))

    def person(self, sex: Optional[str] = None, last: Optional[str] = None) -> Person:
        sex = sex or self.choice("FM")
        return Person(
            first=self.first_name(sex),
            last=last or self._person_last_name(),
            sex=sex,
            middle_initial=self.choice(_UPPER),
        )

    def _person_last_name(self) -> str:
        if self.chance(COMPOSED_SURNAME_RATE):
            return self.composed_last_name()
        return self.last_name()

    def composed_last_name(self, kind: Optional[str] = None) -> str:
        """A surname composed from the lists: "Okafor-Lindgren" (hyphen),
        "Garcia Lopez" (double), "van der Berg", "de la Cruz", "al-Rashid",
        "O'Malley" (particle); `kind` is one of SURNAME_COMPOSITIONS."""
        kind = kind or self.weighted(SURNAME_COMPOSITIONS)
        base = self.last_name(ambiguous_rate=0.0)
        if kind == "hyphen":
            return f"{base}-{self.last_name(ambiguous_rate=0.0)}"
        if kind == "double":
            return f"{base} {self.last_name(ambiguous_rate=0.0)}"
        particle = self.choice(SURNAME_PARTICLES)
        return f"{particle}{base}" if particle.endswith(("-", "'")) else f"{particle} {base}"

    def name(self, person: Optional[Person] = None, style: str = "first_last") -> str:
        return NAME_STYLES[style](person or self.person())

    def username(self, person: Optional[Person] = None) -> str:
        p = person or self.person()
        first, last = re.sub(r"\W", "", p.first.lower()), re.sub(r"\W", "", p.last.lower())
        forms = (
            f"{first[0]}{last}", f"{first}.{last}", f"{first}{last[0]}", f"{last}{first[0]}",
            f"{first}_{last}", f"{first[0]}{last}{self.rng.randint(1, 99)}",
            f"{last}{self.rng.randint(1, 999)}", f"{first}{self.rng.randint(70, 99)}",
        )
        return self.choice(forms)

    # --- places ----------------------------------------------------------------
    def city_state(self) -> Tuple[str, str]:
        return self.ranked_choice(self._pairs("cities.tsv"))

    def city(self) -> str:
        return self.city_state()[0]

    def state(self, abbreviation: Optional[bool] = None) -> str:
        name, abbr = self.choice(lists.pairs("states.tsv"))
        if abbreviation is None:
            abbreviation = self.chance(0.35)
        return abbr if abbreviation else name

    def state_name(self, abbr: str) -> str:
        for name, code in lists.pairs("states.tsv"):
            if code == abbr:
                return name
        return abbr

    def country(self) -> str:
        return self.choice(self._words("countries.txt"))

    def zip_code(self) -> str:
        return self.digits(5) + (f"-{self.digits(4)}" if self.chance(0.1) else "")

    def street(self) -> str:
        """A street address line as annotated (STREET): number, name, suffix."""
        number = str(self.rng.choice((self.rng.randint(1, 99), self.rng.randint(100, 999),
                                      self.rng.randint(1000, 29999))))
        name = self.choice(self._words("street_names.txt"))
        suffix = self.choice(lists.words("street_suffixes.txt"))
        street = f"{number} {name} {suffix}"
        if self.chance(0.15):
            street += self.choice((f", Apt {self.rng.randint(1, 40)}", f" #{self.rng.randint(1, 12)}",
                                   f" Apt. {self.rng.randint(1, 6)}{self.choice('ABCD')}"))
        return street

    def _fill(self, pattern: str, words: Dict[str, Tuple[str, ...]]) -> str:
        def slot(match: "re.Match[str]") -> str:
            key = match.group(1)
            if key == "city":
                return self.city()
            if key in ("surname", "surname2"):
                return self.last_name(ambiguous_rate=0.0)
            if key == "state":
                return self.state(abbreviation=False)
            if key == "n":
                return str(self.rng.randint(2, 14))
            return self.choice(words[key])

        return re.sub(r"\{(\w+)\}", slot, pattern)

    def hospital(self) -> str:
        pattern = self.choice(lists.words("hospital_patterns.txt"))
        return self._fill(pattern, self._grouped("hospital_words.tsv"))

    @staticmethod
    def abbreviate(name: str) -> str:
        """Initials of the capitalised words: "Riverside General Hospital" → "RGH"."""
        return "".join(word[0] for word in re.findall(r"[A-Z][\w']*", name))

    def organization(self, kind: Optional[str] = None) -> str:
        """An organisation; `kind` is school, church, agency, military or employer."""
        patterns = lists.words("organization_patterns.txt")
        if kind:
            patterns = tuple(p for p in patterns if organization_kind(p) == kind) or patterns
        pattern = self.choice(patterns)
        words = dict(self._grouped("organization_words.tsv"))
        hospital_words = self._grouped("hospital_words.tsv")
        words["adj"] = hospital_words["adj"]
        words["saint"] = hospital_words["saint"]
        return self._fill(pattern, words)

    def listed(self, name: str) -> tuple:
        """A shipped list as this generator draws from it (one half of it when
        `values` is set): rows for .tsv files, entries otherwise."""
        return self._pairs(name) if name.endswith(".tsv") else self._words(name)

    def compose(self, patterns: str, words: str, **fixed: str) -> str:
        """A value from a pattern list and its word groups (data files), e.g.
        compose("town_patterns.txt", "town_words.tsv") → "Port Wexley Junction";
        `fixed` gives slots a value of the caller's (local="802")."""
        groups = dict(self._grouped(words), **{key: (value,) for key, value in fixed.items()})
        return self._fill(self.choice(lists.words(patterns)), groups)

    def department(self) -> str:
        if self.chance(0.4):
            return self._fill(self.choice(lists.words("unit_patterns.txt")), self._grouped("hospital_words.tsv"))
        return self.choice(self._words("departments.txt"))

    def room(self) -> str:
        forms = (
            lambda: str(self.rng.randint(100, 999)),
            lambda: f"{self.rng.randint(1, 12)}{self.choice('ABCDEFNSW')}-{self.rng.randint(1, 40)}",
            lambda: f"{self.rng.randint(2, 14)}{self.rng.randint(10, 60)}{self.choice(('', 'A', 'B'))}",
            lambda: f"{self.choice('ABCDEFG')}{self.rng.randint(100, 499)}",
            lambda: f"{self.rng.randint(1, 30)}",
        )
        return self.choice(forms)()

    def location_other(self) -> str:
        return self._fill(self.choice(lists.words("location_other.txt")), self._grouped("hospital_words.tsv"))

    def profession(self) -> str:
        """An occupation: a BLS title (common ones), one of the 69k job titles, or
        a one-word occupation as notes write it alone ("nurse", "mechanic")."""
        if self.chance(0.5):
            return self.choice(self._words("professions.txt"))
        if self.chance(ONE_WORD_OCCUPATION_SHARE):
            return self.choice(self._one_word_occupations())
        return self.choice(self._words("job_titles.txt"))

    def plural_profession(self) -> str:
        """Occupations of several people: a BLS title or a one-word occupation with
        its head noun in the plural ("registered nurses", "teachers")."""
        plurals = _occupation_plurals()
        if self.chance(0.5):
            words = self.choice(self._words("professions.txt")).split()
            if words[-1] in plurals:
                return " ".join(words[:-1] + [plurals[words[-1]]])
        return plurals[self.choice(self._one_word_occupations())]

    def _one_word_occupations(self) -> Tuple[str, ...]:
        words = _bls_one_word_occupations()
        return (lists.halved(words, self.values) or words) if self.values else words

    # --- dates and ages ---------------------------------------------------------
    def date_between(self, start: dt.date, end: dt.date) -> dt.date:
        span = max(0, (end - start).days)
        return start + dt.timedelta(days=self.rng.randint(0, span))

    def date(self, fmt: Optional[str] = None, around: Optional[dt.date] = None) -> str:
        value = self.date_value(around)
        return formats.render_date(value, fmt or self.weighted(formats.HISTORY_DATE_WEIGHTS))

    def date_value(self, around: Optional[dt.date] = None) -> dt.date:
        """A date in the ten years before `around` (by default a random mid-year)."""
        around = around or dt.date(self.rng.randint(1995, 2030), 6, 30)
        return self.date_between(around - dt.timedelta(days=3650), around)

    def age(self, low: int = 18, high: int = 90, words: bool = False) -> str:
        value = self.rng.randint(low, high)
        return formats.number_to_words(value) if words else str(value)

    # --- contact -----------------------------------------------------------------
    def phone(self, fmt: Optional[str] = None, extension: bool = False) -> str:
        fmt = fmt or self.weighted(formats.PHONE_WEIGHTS)
        area = self.choice("23456789") + self.digits(2)
        exchange = self.choice("23456789") + self.digits(2)
        number = formats.PHONE_FORMATS[fmt].format(a=area, e=exchange, n=self.digits(4))
        if extension:
            number += self.choice(formats.EXTENSION_FORMATS).format(x=self.digits(self.rng.randint(3, 5)))
        return number

    def pager(self) -> str:
        return self.choice((
            lambda: self.digits(5, first_nonzero=True),
            lambda: f"{self.digits(1, True)}-{self.digits(4)}",
            lambda: f"#{self.digits(5, True)}",
            lambda: self.phone("dash"),
        ))()

    def email(self, person: Optional[Person] = None) -> str:
        domain = self.choice(lists.words("email_domains.txt"))
        if self.chance(0.25):  # work address at a made-up organisation
            org = re.sub(r"[^a-z]", "", self.organization().lower())[:14] or "mail"
            domain = f"{org}.{self.choice(('com', 'org', 'edu'))}"
        return f"{self.username(person)}@{domain}"

    def url(self) -> str:
        base = re.sub(r"[^a-z]", "", self.organization().lower())[:20] or "site"
        forms = (
            f"www.{base}.{self.choice(_TLDS)}",
            f"http://www.{base}.{self.choice(_TLDS)}",
            f"https://{base}.{self.choice(_TLDS)}/{self.choice(('contact', 'about', 'resources', 'blog'))}",
            f"{base}.{self.choice(_TLDS)}",
        )
        return self.choice(forms)

    def ipaddr(self) -> str:
        return ".".join(str(self.rng.randint(1, 254)) for _ in range(4))

    # --- identifiers ---------------------------------------------------------------
    def ssn(self) -> str:
        return self.choice((
            lambda: f"{self.digits(3, True)}-{self.digits(2)}-{self.digits(4)}",
            lambda: self.digits(9, True),
        ))()

    def medical_record(self) -> str:
        return self.choice((
            lambda: self.digits(7, True),
            lambda: self.digits(8),
            lambda: f"{self.digits(3)}-{self.digits(2)}-{self.digits(2)}",
            lambda: f"{self.digits(2)}{self.choice(_UPPER)}{self.digits(5)}",
            lambda: f"{self.choice(_UPPER)}{self.digits(6)}",
            lambda: f"{self.digits(3)} {self.digits(2)} {self.digits(2)}",
            lambda: self.digits(10),
        ))()

    def health_plan(self) -> str:
        return self.choice((
            lambda: f"{self.letters(3)}{self.digits(9)}",
            lambda: f"{self.choice(_UPPER)}{self.digits(8)}",
            lambda: self.digits(12),
            lambda: f"{self.digits(3)}-{self.digits(3)}-{self.digits(3)}",
            lambda: f"{self.letters(2)}{self.digits(7)}{self.choice(_UPPER)}",
        ))()

    def account(self) -> str:
        return self.choice((
            lambda: self.digits(10),
            lambda: f"{self.digits(4)}-{self.digits(6)}",
            lambda: f"A{self.digits(8)}",
            lambda: self.digits(12),
        ))()

    def license(self) -> str:
        return self.choice((
            lambda: f"{self.letters(2)}{self.digits(7)}",  # DEA-like
            lambda: f"MD{self.digits(5)}",
            lambda: f"{self.digits(5, True)}",
            lambda: f"LICSW {self.digits(5, True)}",
            lambda: f"{self.choice(_UPPER)}{self.digits(8)}",
            lambda: f"RN{self.digits(6)}",
        ))()

    def vehicle(self) -> str:
        return self.choice((
            lambda: f"{self.digits(1, True)}{self.letters(3)}{self.digits(3)}",
            lambda: f"{self.letters(3)}-{self.digits(4)}",
            lambda: f"{self.digits(3)} {self.letters(3)}",
            lambda: "1" + "".join(self.choice(_UPPER + _DIGITS) for _ in range(16)),  # VIN-like
        ))()

    def device(self) -> str:
        return self.choice((
            lambda: f"{self.letters(3)}{self.digits(6)}",
            lambda: f"{self.digits(2)}-{self.digits(5)}-{self.choice(_UPPER)}",
            lambda: f"SN{self.digits(8)}",
            lambda: f"{self.choice(_UPPER)}{self.choice(_UPPER)}{self.digits(3)}{self.choice(_UPPER)}{self.digits(4)}",
        ))()

    def bioid(self) -> str:
        return self.choice((
            lambda: f"{self.choice(_UPPER)}{self.digits(2)}-{self.digits(5)}",
            lambda: f"{self.letters(2)}{self.digits(7)}",
            lambda: f"S{self.digits(2)}-{self.digits(4)}",
        ))()

    def idnum(self) -> str:
        return self.choice((
            lambda: self.digits(self.rng.randint(5, 10), True),
            lambda: f"{self.digits(2)}{self.choice(_UPPER)}{self.digits(5)}",
            lambda: f"{self.letters(2)}-{self.digits(6)}",
            lambda: f"{self.digits(4)}-{self.digits(4)}",
            lambda: f"#{self.digits(6)}",
        ))()

    # --- format-aware replacement ---------------------------------------------------
    def _like(self, subtype: str, like: str) -> str:
        if subtype in labels.SHAPED_SUBTYPES:
            return self.reshape(like)
        if subtype == labels.DATE:
            return self._date_like(like)
        if subtype == labels.AGE:
            return self._age_like(like)
        if subtype in (labels.PATIENT, labels.DOCTOR):
            return self._name_like(like)
        if subtype == labels.STATE and re.fullmatch(r"[A-Z]{2}", like.strip()):
            return self.state(abbreviation=True)
        value = _PLAIN[subtype](self)
        return formats.match_case(value, like)

    def _date_like(self, like: str) -> str:
        # Written the way `like` is: padding, order, separators, case (formats.date_shape).
        shape = formats.date_shape(like)
        if shape is None:
            holidays = lists.words("holidays.txt")
            if any(h.lower() in like.lower() for h in holidays):
                return self.choice(holidays)
            return self.reshape(like) if re.search(r"\d", like) else self.date()
        rendered = formats.render_date_like(self.date_value(), like.strip(), shape[1])
        return rendered if rendered is not None else self.reshape(like)

    def _age_like(self, like: str) -> str:
        value = words_value = formats.words_to_number(like)
        if words_value is not None:
            return formats.number_to_words(max(1, min(110, value + self.rng.randint(-5, 5))))
        digits = re.sub(r"\D", "", like)
        if digits:
            base = int(digits)
            new = max(0, base + self.rng.randint(-5, 5))
            return like.replace(digits, str(new), 1)
        return self.age()

    def _name_like(self, like: str) -> str:
        person = self.person(last=self.last_name())  # a one-word surname keeps the shape
        text = like.strip()
        if re.fullmatch(r"[A-Z]\.?\s?[A-Z]\.?", text):  # initials
            return "".join(c if not c.isalpha() else (person.first[0] if i == 0 else person.last[0])
                           for i, c in enumerate(text))
        if "," in text:
            value = f"{person.last}, {person.first}"
        elif " " in text:
            value = f"{person.first} {person.last}"
        else:
            value = person.last
        return formats.match_case(value, like)


_ORGANIZATION_KINDS = (
    ("school", re.compile(r"School|Academy|College|University")),
    ("church", re.compile(r"Church|Temple|Islamic|YMCA|Boys and Girls")),
    ("agency", re.compile(r"Department|Authority|Police|Fire|Library|Food Bank|Foundation")),
    ("military", re.compile(r"\{branch\}")),
)


def organization_kind(pattern: str) -> str:
    for kind, regex in _ORGANIZATION_KINDS:
        if regex.search(pattern):
            return kind
    return "employer"


# A value of each subtype without a model to imitate.
_PLAIN: Dict[str, Callable[[SurrogateGenerator], str]] = {
    labels.PATIENT: lambda g: g.name(),
    labels.DOCTOR: lambda g: g.name(style=g.choice(("first_last", "last", "first_mi_last"))),
    labels.USERNAME: lambda g: g.username(),
    labels.PROFESSION: lambda g: g.profession(),
    labels.ROOM: lambda g: g.room(),
    labels.DEPARTMENT: lambda g: g.department(),
    labels.HOSPITAL: lambda g: g.hospital(),
    labels.ORGANIZATION: lambda g: g.organization(),
    labels.STREET: lambda g: g.street(),
    labels.CITY: lambda g: g.city(),
    labels.STATE: lambda g: g.state(),
    labels.COUNTRY: lambda g: g.country(),
    labels.ZIP: lambda g: g.zip_code(),
    labels.LOCATION_OTHER: lambda g: g.location_other(),
    labels.AGE: lambda g: g.age(),
    labels.DATE: lambda g: g.date(),
    labels.PHONE: lambda g: g.phone(),
    labels.FAX: lambda g: g.phone(),
    labels.EMAIL: lambda g: g.email(),
    labels.URL: lambda g: g.url(),
    labels.IPADDR: lambda g: g.ipaddr(),
    labels.SSN: lambda g: g.ssn(),
    labels.MEDICALRECORD: lambda g: g.medical_record(),
    labels.HEALTHPLAN: lambda g: g.health_plan(),
    labels.ACCOUNT: lambda g: g.account(),
    labels.LICENSE: lambda g: g.license(),
    labels.VEHICLE: lambda g: g.vehicle(),
    labels.DEVICE: lambda g: g.device(),
    labels.BIOID: lambda g: g.bioid(),
    labels.IDNUM: lambda g: g.idnum(),
}
