"""Names of patients, relatives and other people (PATIENT), and the role
words and pronouns around them: `{pt}`, `{pt_header}`, `{pt_first}`,
`{pt_formal}`, `{rel}`, `{rel_name}`, `{he}`/`{his}`/`{him}`/`{himself}`,
`{sex}`, `{person}`; the name families: `{caps_name}`, `{nick_name}`,
`{lone_first}`, `{formal_unusual}`.
"""
import re
from functools import lru_cache
from typing import Dict, List

from ... import labels
from ...surrogates import Person, lists
from ..assembler import Seg
from ..context import FAMILY_ROLES, NoteContext, draw_relative
from ..families import family_key
from .clinicians import _clinician
from .registry import SLOTS, count_family, phi, plain, slot


PATIENT_STYLES = {"first": 30, "first_last": 14, "initials": 3, "initials_dotted": 2,
                  "lower_first": 2, "lower_first_last": 1, "first_last_initial": 1}
HEADER_NAME_STYLES = {"first_last": 30, "last_comma_first": 25, "upper_last_comma_first": 10,
                      "first_mi_last": 8, "last_first": 3, "lower_first_last": 2}
OTHER_PERSON_STYLES = {"first": 45, "first_last": 20, "lower_first": 3, "initials": 2,
                       "first_last_initial": 2}
_PHENOMENON_OF_STYLE = {
    "initials": "name_initials", "initials_dotted": "name_initials",
    "first_initial_last": "name_initials",
    "lower_first": "name_lower_case", "lower_first_last": "name_lower_case",
    "lower_last": "name_lower_case", "last_comma_first": "name_last_first",
    "upper_last_comma_first": "name_last_first", "last_first": "name_last_first",
}


def _name(ctx: NoteContext, person: Person, styles: Dict[str, int], label: str) -> List[Seg]:
    style = ctx.gen.weighted(styles)
    if style in _PHENOMENON_OF_STYLE:
        ctx.phenomena[_PHENOMENON_OF_STYLE[style]] += 1
    value = ctx.gen.name(person, style)
    if re.search(r"[-' ]", person.last):
        ctx.phenomena[family_key("composed_surname")] += 1
    ambiguous = _ambiguous_lower()
    if any(part in ambiguous for part in re.findall(r"[a-z']+", value.lower())):
        ctx.phenomena["name_ambiguous_word"] += 1
    return phi(label, value)


@lru_cache(maxsize=None)
def _ambiguous_lower() -> frozenset:
    return frozenset(word.lower() for word in lists.words("ambiguous_names.txt"))


def _title(person: Person, ctx: NoteContext) -> str:
    if person.sex == "F":
        return ctx.gen.choice(("Ms. ", "Ms. ", "Mrs. ", "Miss ", "Ms "))
    return ctx.gen.choice(("Mr. ", "Mr. ", "Mr "))


@slot("pt")
def pt(ctx, arg):
    return _name(ctx, ctx.patient.person, PATIENT_STYLES, labels.PATIENT)


@slot("pt_header")
def pt_header(ctx, arg):
    return _name(ctx, ctx.patient.person, HEADER_NAME_STYLES, labels.PATIENT)


@slot("pt_first")
def pt_first(ctx, arg):
    return phi(labels.PATIENT, ctx.patient.person.first)


@slot("pt_formal")
def pt_formal(ctx, arg):
    """"Mr. Smith": the title stays outside the span."""
    person = ctx.patient.person
    return plain(_title(person, ctx)) + phi(labels.PATIENT, person.last)


def _pick_relative(ctx: NoteContext, role: str = ""):
    if role == "family":
        candidates = [r for r in ctx.patient.relatives if r.role in FAMILY_ROLES]
        role = "" if candidates else ctx.gen.choice(FAMILY_ROLES)
    else:
        candidates = [r for r in ctx.patient.relatives if not role or r.role == role]
    if not candidates and role:  # a relative the patient's world lacks: draw one for this note
        candidates = [draw_relative(ctx.gen, role, ctx.patient.person, ctx.age_now, ctx.patient.city)]
    ctx.relative = ctx.gen.choice(candidates or ctx.patient.relatives)
    return ctx.relative


@slot("rel")
def rel(ctx, arg):
    """Pick a relative (optionally by role) and write the role word (not PHI)."""
    relative = _pick_relative(ctx, arg)
    return plain(relative.role)


@slot("rel_name")
def rel_name(ctx, arg):
    relative = ctx.relative or _pick_relative(ctx)
    return _name(ctx, relative.person, OTHER_PERSON_STYLES, labels.PATIENT)


@slot("he")
def he(ctx, arg):
    words = {"he": ("she", "he"), "his": ("her", "his"), "him": ("her", "him"),
             "man": ("woman", "man"), "Mr": ("Ms.", "Mr."), "son": ("daughter", "son"),
             "male": ("female", "male"), "himself": ("herself", "himself"),
             "gentleman": ("lady", "gentleman")}
    key = arg.lower() if arg else "he"
    word = words[key][0 if ctx.sex == "F" else 1]
    if arg and arg[0].isupper():
        word = word[0].upper() + word[1:]
    return plain(word)


SLOTS["sex"] = lambda ctx, arg: plain(ctx.gen.choice(("M", "Male")) if ctx.sex == "M" else ctx.gen.choice(("F", "Female")))
SLOTS["his"] = lambda ctx, arg: he(ctx, arg or "his")
SLOTS["him"] = lambda ctx, arg: he(ctx, arg or "him")
SLOTS["himself"] = lambda ctx, arg: he(ctx, arg or "himself")


@slot("person")
def person_slot(ctx, arg):
    """A friend, neighbour, coworker: a non-clinician, so PATIENT."""
    return _name(ctx, ctx.gen.person(), OTHER_PERSON_STYLES, labels.PATIENT)


def _person_for(ctx: NoteContext, arg: str):
    """(person, label) for `pt`, `rel`, `dr` (the attending) or `new` (a new clinician)."""
    if arg == "rel":
        return (ctx.relative or _pick_relative(ctx)).person, labels.PATIENT
    if arg in ("dr", "att", "new", "pcp", "ther"):
        clin = _clinician(ctx, {"dr": "att"}.get(arg, arg))
        return clin.person, labels.DOCTOR
    if arg == "other":
        return ctx.gen.person(), labels.PATIENT
    return ctx.patient.person, labels.PATIENT


@slot("caps_name")
def caps_name(ctx, arg):
    """A name in capitals in running text: "JOHN SMITH", "SMITH", "J. SMITH"."""
    count_family(ctx, "caps_name")
    person, label = _person_for(ctx, arg)
    style = ctx.gen.weighted({"first_last": 6, "last": 2, "first": 2, "first_initial_last": 1})
    return phi(label, ctx.gen.name(person, style).upper())


def _nickname(gen, first: str) -> str:
    """A diminutive of the first name ("Robbie") or a short listed name."""
    letters = re.sub(r"[^A-Za-z]", "", first)
    if len(letters) >= 4 and gen.chance(0.6):
        stem = letters[:3] if letters[2].lower() not in "aeiou" else letters[:4]
        return stem + gen.choice(("ie", "y", "i", "o"))
    short = [n for n in (gen.first_name(ambiguous_rate=0.3) for _ in range(4)) if len(n) <= 6]
    return short[0] if short else letters[:3]


@slot("nick_name")
def nick_name(ctx, arg):
    """First "Nick" Last, or First Last ("Nick"): three mentions, quotes outside them."""
    count_family(ctx, "nickname")
    person, label = _person_for(ctx, arg)
    nick = _nickname(ctx.gen, person.first)
    quote_open, quote_close = ctx.gen.choice((('"', '"'), ("'", "'"), ("\u201c", "\u201d")))
    if ctx.gen.chance(0.6):
        return (phi(label, person.first) + plain(f" {quote_open}") + phi(label, nick)
                + plain(f"{quote_close} ") + phi(label, person.last))
    return (phi(label, f"{person.first} {person.last}") + plain(f" ({quote_open}")
            + phi(label, nick) + plain(f"{quote_close})"))


@slot("lone_first")
def lone_first(ctx, arg):
    """A lone first name (of the patient, `{lone_first:rel}` a relative, `:other` someone)."""
    count_family(ctx, "lone_name")
    person, label = _person_for(ctx, arg or "other")
    return phi(label, person.first)


@slot("formal_unusual")
def formal_unusual(ctx, arg):
    """"Mrs. Okafor-Lindgren", "Dr. van der Berg": a title and an unusual surname
    (composed or from the world lists); `{formal_unusual:dr}` a clinician."""
    count_family(ctx, "lone_name")
    gen = ctx.gen
    surname = gen.composed_last_name() if gen.chance(0.6) else gen.last_name(ambiguous_rate=0.0)
    if arg == "dr":
        return plain(gen.choice(("Dr. ", "Dr ", "Dr. ", "DR. "))) + phi(labels.DOCTOR, surname)
    title = gen.choice(("Mrs. ", "Mr. ", "Ms. ", "Mrs ", "Miss "))
    return plain(title) + phi(labels.PATIENT, surname)
