"""The fictional people, places and dates behind one patient's notes.

A patient (with family, clinicians and history) is drawn once and shared by
all notes of that patient (`PPP-RR` files), so names repeat inside and
across notes the way they do in a real chart. A NoteContext adds what
belongs to one note: its visit date, author, facility, and the slot state
templates refer to ("the relative last picked").
"""
import datetime as dt
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import List, Optional

from ..surrogates import Person, SurrogateGenerator

RELATIVE_ROLES = {
    # role word -> (sex, age offset range relative to the patient)
    "mother": ("F", (18, 40)), "father": ("M", (20, 45)), "stepfather": ("M", (15, 40)),
    "stepmother": ("F", (15, 40)), "grandmother": ("F", (40, 65)), "grandfather": ("M", (42, 68)),
    "sister": ("F", (-12, 12)), "brother": ("M", (-12, 12)), "older sister": ("F", (1, 12)),
    "younger brother": ("M", (-12, -1)), "half-brother": ("M", (-15, 15)), "aunt": ("F", (10, 35)),
    "uncle": ("M", (10, 35)), "cousin": ("F", (-8, 8)), "wife": ("F", (-10, 5)),
    "husband": ("M", (-5, 10)), "girlfriend": ("F", (-10, 3)), "boyfriend": ("M", (-3, 10)),
    "partner": ("", (-10, 10)), "son": ("M", (-45, -16)), "daughter": ("F", (-45, -16)),
    "roommate": ("", (-10, 10)), "best friend": ("", (-3, 3)), "ex-wife": ("F", (-8, 4)),
    "ex-boyfriend": ("M", (-3, 8)), "fiance": ("M", (-5, 5)), "neighbor": ("", (-20, 30)),
}

FAMILY_ROLES = tuple(role for role in RELATIVE_ROLES if role not in (
    "roommate", "best friend", "neighbor", "girlfriend", "boyfriend", "ex-boyfriend", "fiance", "partner"))


@dataclass
class Relative:
    role: str
    person: Person
    age: int
    profession: str
    city: str
    state: str


@dataclass
class Clinician:
    person: Person
    credential: str  # "MD", "PhD", "LICSW", "NP", "RN", ...
    role: str  # "psychiatrist", "therapist", "PCP", ...


@dataclass
class Patient:
    person: Person
    age: int
    dob: dt.date
    city: str
    state: str
    birth_city: str
    birth_state: str
    birth_country: str
    profession: str
    employer: str
    school: str
    relatives: List[Relative]
    clinicians: List[Clinician]
    hospitals: List[str]
    mrn: str
    first_visit: dt.date


@dataclass
class NoteContext:
    rng: random.Random
    gen: SurrogateGenerator
    patient: Patient
    visit_date: dt.date
    age_now: int
    attending: Clinician
    facility: str
    facility_abbr: str
    half: str = "all"
    relative: Optional[Relative] = None  # the relative picked last by a template
    clinician: Optional[Clinician] = None  # the clinician picked last
    phenomena: Counter = field(default_factory=Counter)
    templates_used: Counter = field(default_factory=Counter)

    @property
    def sex(self) -> str:
        return self.patient.person.sex


CREDENTIALS = {
    "psychiatrist": ("MD", "MD", "DO", "MD, PhD"),
    "therapist": ("LICSW", "LMHC", "PhD", "PsyD", "LCSW", "LMFT"),
    "PCP": ("MD", "DO", "NP", "PA-C"),
    "nurse": ("RN", "NP", "APRN", "PMHNP"),
    "social worker": ("LICSW", "LCSW", "MSW"),
    "case manager": ("", "BA", "MSW"),
    "neurologist": ("MD",),
    "psychologist": ("PhD", "PsyD"),
}


def draw_clinician(gen: SurrogateGenerator, role: str) -> Clinician:
    return Clinician(gen.person(), gen.choice(CREDENTIALS[role]), role)


_PARTNER_ROLES = ("wife", "husband", "girlfriend", "boyfriend", "partner", "ex-wife", "ex-boyfriend",
                  "fiance")
_SAME_SURNAME = ("mother", "father", "sister", "brother", "older sister", "younger brother", "son",
                 "daughter", "grandfather", "uncle")


def draw_relative(gen: SurrogateGenerator, role: str, patient: Person, age: int, city: str) -> Relative:
    sex, (low, high) = RELATIVE_ROLES.get(role, ("", (-20, 20)))
    same_last = role in _SAME_SURNAME and gen.chance(0.7)
    return Relative(
        role=role,
        person=gen.person(sex or None, last=patient.last if same_last else None),
        age=max(18 if role in _PARTNER_ROLES else 1, min(99, age + gen.rng.randint(low, high))),
        profession=gen.profession(),
        city=gen.city() if gen.chance(0.6) else city,
        state=gen.state(),
    )


def draw_patient(gen: SurrogateGenerator) -> Patient:
    rng = gen.rng
    person = gen.person()
    age = rng.choice((rng.randint(18, 35), rng.randint(18, 65), rng.randint(36, 80), rng.randint(18, 25)))
    # Visit years: mostly recent; some far in the future, as in date-shifted corpora.
    year = rng.randint(2004, 2025) if rng.random() < 0.75 else rng.randint(2060, 2099)
    first_visit = dt.date(year, rng.randint(1, 12), rng.randint(1, 28))
    dob = first_visit - dt.timedelta(days=365 * age + rng.randint(1, 364))
    city, state = gen.city_state()
    birth_city, birth_state = gen.city_state()
    relatives = [draw_relative(gen, role, person, age, city)
                 for role in rng.sample(list(RELATIVE_ROLES), rng.randint(3, 6))]
    clinicians = [draw_clinician(gen, role) for role in
                  ("psychiatrist", "therapist", "PCP", rng.choice(list(CREDENTIALS)), rng.choice(list(CREDENTIALS)))]
    return Patient(
        person=person, age=age, dob=dob, city=city, state=state,
        birth_city=birth_city, birth_state=birth_state, birth_country=gen.country(),
        profession=gen.profession(), employer=gen.organization("employer"), school=gen.organization("school"),
        relatives=relatives, clinicians=clinicians,
        hospitals=[gen.hospital() for _ in range(3)], mrn=gen.medical_record(),
        first_visit=first_visit,
    )
