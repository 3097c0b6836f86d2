"""Slot functions: what `{slot:arg}` in a template turns into.

Each takes the NoteContext and the argument after the colon and returns
segments. PHI slots draw values from the patient's world (context.py) or
fresh from the SurrogateGenerator, and record hard phenomena (initials,
lower case, weekdays, extensions, ...) in `ctx.phenomena` for the report.
Non-PHI slots fill in drugs, doses, durations and other traps.
"""
import datetime as dt
import re
from functools import lru_cache
from typing import Callable, Dict, List

from .. import labels
from ..surrogates import formats
from ..surrogates import lists
from . import fillers
from .assembler import Seg
from .context import FAMILY_ROLES, Clinician, NoteContext, draw_clinician, draw_relative
from ..surrogates import Person

SLOTS: Dict[str, Callable[[NoteContext, str], List[Seg]]] = {}


def slot(name: str):
    def register(func):
        SLOTS[name] = func
        return func
    return register


def phi(label: str, text: str) -> List[Seg]:
    return [Seg(text, label)]


def plain(text: str) -> List[Seg]:
    return [Seg(text)]


# --- names --------------------------------------------------------------------------
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


@slot("rel_age")
def rel_age(ctx, arg):
    relative = ctx.relative or _pick_relative(ctx)
    return _age_segments(ctx, relative.age, arg)


@slot("rel_prof")
def rel_prof(ctx, arg):
    relative = ctx.relative or _pick_relative(ctx)
    return _profession(ctx, relative.profession)


@slot("rel_city")
def rel_city(ctx, arg):
    relative = ctx.relative or _pick_relative(ctx)
    return phi(labels.CITY, relative.city)


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


# --- clinicians ---------------------------------------------------------------------------
DOCTOR_FORMS = {"dr_last": 40, "dr_first_last": 12, "full_cred": 18, "full_nocomma": 4,
                "initial_last_cred": 5, "last_comma_first_cred": 4, "first": 5, "lower": 2,
                "initials": 2, "full": 8}


def _clinician(ctx: NoteContext, which: str) -> Clinician:
    roles = {"psych": "psychiatrist", "ther": "therapist", "pcp": "PCP"}
    if which == "att":
        clin = ctx.attending
    elif which in roles:
        clin = next((c for c in ctx.patient.clinicians if c.role == roles[which]), ctx.attending)
    elif which == "any":
        clin = ctx.gen.choice(ctx.patient.clinicians)
    else:  # a new name, e.g. an ED physician or a covering resident
        clin = draw_clinician(ctx.gen, ctx.gen.choice(("psychiatrist", "therapist", "nurse",
                                                       "social worker", "psychiatrist")))
    ctx.clinician = clin
    return clin


def _doctor_segments(ctx: NoteContext, clin: Clinician, form: str) -> List[Seg]:
    p = clin.person
    cred = clin.credential or "MD"
    dr = ctx.gen.choice(("Dr. ", "Dr. ", "Dr ", "dr. "))
    if form == "dr_last":
        return plain(dr) + phi(labels.DOCTOR, p.last)
    if form == "dr_first_last":
        return plain(dr) + phi(labels.DOCTOR, f"{p.first} {p.last}")
    if form == "full_cred":
        return phi(labels.DOCTOR, f"{p.first} {p.last}") + plain(f", {cred}")
    if form == "full_nocomma":
        return phi(labels.DOCTOR, f"{p.first} {p.last}") + plain(f" {cred}")
    if form == "initial_last_cred":
        ctx.phenomena["name_initials"] += 1
        return phi(labels.DOCTOR, f"{p.first[0]}. {p.last}") + plain(f", {cred}")
    if form == "last_comma_first_cred":
        ctx.phenomena["name_last_first"] += 1
        return phi(labels.DOCTOR, f"{p.last}, {p.first}") + plain(f" {cred}")
    if form == "first":
        return phi(labels.DOCTOR, p.first)
    if form == "lower":
        ctx.phenomena["name_lower_case"] += 1
        return plain(dr.lower()) + phi(labels.DOCTOR, p.last.lower())
    if form == "initials":
        ctx.phenomena["name_initials"] += 1
        return phi(labels.DOCTOR, f"{p.first[0]}{p.last[0]}")
    return phi(labels.DOCTOR, f"{p.first} {p.last}")


@slot("dr")
def dr(ctx, arg):
    """A named clinician: `{dr:att}`, `{dr:psych}`, `{dr:ther}`, `{dr:pcp}`,
    `{dr:any}`, `{dr:new}`; titles and credentials stay outside the span."""
    which, _, form = arg.partition("/")
    clin = _clinician(ctx, which or "new")
    return _doctor_segments(ctx, clin, form or ctx.gen.weighted(DOCTOR_FORMS))


@slot("dr_hosp")
def dr_hosp(ctx, arg):
    """Clinician directly followed by a hospital, no punctuation between."""
    clin = _clinician(ctx, arg or "new")
    ctx.phenomena["clinician_then_hospital"] += 1
    form = ctx.gen.choice(("dr_last", "dr_first_last", "full"))
    hospital = ctx.gen.choice(ctx.patient.hospitals + [ctx.gen.hospital()])
    return _doctor_segments(ctx, clin, form) + plain(" ") + phi(labels.HOSPITAL, hospital)


@slot("cred")
def cred(ctx, arg):
    clin = ctx.clinician or ctx.attending
    return plain(clin.credential or "MD")


# --- places --------------------------------------------------------------------------------
@slot("hosp")
def hosp(ctx, arg):
    """`{hosp}` a prior hospital of the patient, `{hosp:here}` this facility,
    `{hosp:abbr}` its abbreviation, `{hosp:new}` any hospital."""
    if arg == "here":
        return phi(labels.HOSPITAL, ctx.facility)
    if arg == "abbr":
        ctx.phenomena["hospital_abbreviation"] += 1
        return phi(labels.HOSPITAL, ctx.facility_abbr)
    if arg == "new":
        return phi(labels.HOSPITAL, ctx.gen.hospital())
    return phi(labels.HOSPITAL, ctx.gen.choice(ctx.patient.hospitals))


@slot("org")
def org(ctx, arg):
    """`{org:employer}`, `{org:school}` (the patient's), or a fresh one:
    `{org}`, `{org:school}`... `{org:church}`, `{org:agency}`, `{org:military}`."""
    if arg == "employer":
        return phi(labels.ORGANIZATION, ctx.patient.employer)
    if arg == "school":
        return phi(labels.ORGANIZATION, ctx.patient.school)
    return phi(labels.ORGANIZATION, ctx.gen.organization(arg or None))


@slot("city")
def city(ctx, arg):
    if arg == "home":
        return phi(labels.CITY, ctx.patient.city)
    if arg == "birth":
        return phi(labels.CITY, ctx.patient.birth_city)
    return phi(labels.CITY, ctx.gen.city())


@slot("state")
def state(ctx, arg):
    if arg in ("home", "birth"):
        abbr = ctx.patient.state if arg == "home" else ctx.patient.birth_state
        value = abbr if ctx.gen.chance(0.4) else ctx.gen.state_name(abbr)
        return phi(labels.STATE, value)
    return phi(labels.STATE, ctx.gen.state(abbreviation=arg == "abbr" or None))


@slot("city_state")
def city_state(ctx, arg):
    """"Springfield, MA" as two mentions (CITY, STATE)."""
    if arg == "home":
        name, abbr = ctx.patient.city, ctx.patient.state
    elif arg == "birth":
        name, abbr = ctx.patient.birth_city, ctx.patient.birth_state
    else:
        name, abbr = ctx.gen.city_state()
    value = abbr if ctx.gen.chance(0.7) else ctx.gen.state_name(abbr)
    sep = ctx.gen.choice((", ", ", ", " "))
    return phi(labels.CITY, name) + plain(sep) + phi(labels.STATE, value)


@slot("country")
def country(ctx, arg):
    if arg == "birth":
        return phi(labels.COUNTRY, ctx.patient.birth_country)
    return phi(labels.COUNTRY, ctx.gen.country())


@slot("street")
def street(ctx, arg):
    return phi(labels.STREET, ctx.gen.street())


@slot("zip")
def zip_slot(ctx, arg):
    return phi(labels.ZIP, ctx.gen.zip_code())


@slot("address")
def address(ctx, arg):
    """A full address: STREET, CITY, STATE ZIP (four mentions)."""
    name, abbr = ctx.patient.city, ctx.patient.state
    return (phi(labels.STREET, ctx.gen.street()) + plain(ctx.gen.choice((", ", ", ", " ")))
            + phi(labels.CITY, name) + plain(", ") + phi(labels.STATE, abbr) + plain(" ")
            + phi(labels.ZIP, ctx.gen.zip_code()))


@slot("dept")
def dept(ctx, arg):
    return phi(labels.DEPARTMENT, ctx.gen.department())


@slot("room")
def room(ctx, arg):
    return phi(labels.ROOM, ctx.gen.room())


@slot("loc")
def loc(ctx, arg):
    return phi(labels.LOCATION_OTHER, ctx.gen.location_other())


# --- professions ------------------------------------------------------------------------
def _profession(ctx: NoteContext, value: str) -> List[Seg]:
    if " " in value:
        ctx.phenomena["multiword_profession"] += 1
    return phi(labels.PROFESSION, value)


@slot("prof")
def prof(ctx, arg):
    """`{prof}` the patient's job, `{prof:new}` any job (of someone non-clinical)."""
    return _profession(ctx, ctx.patient.profession if arg != "new" else ctx.gen.profession())


# --- dates ------------------------------------------------------------------------------------
def _date_text(ctx: NoteContext, value: dt.date, weights: Dict[str, int]) -> List[Seg]:
    fmt = ctx.gen.weighted(weights)
    if formats.date_kind(fmt) == "wd" or fmt.startswith("weekday"):
        ctx.phenomena["date_weekday"] += 1
    ctx.phenomena[f"date_format:{fmt}"] += 1
    return phi(labels.DATE, formats.render_date(value, fmt))


RECENT_WEIGHTS = {"md_slash": 25, "mdy_slash": 20, "mdy_slash0": 8, "month_d": 12, "mon_d": 3,
                  "month_ord": 3, "weekday": 14, "weekday_md": 2, "month_d_y": 5, "md_slash0": 3}
MONTH_YEAR_WEIGHTS = {"month_y": 40, "my_slash": 15, "mon_y": 10, "month_of_y": 10, "my_slash2": 3}
YEARISH_WEIGHTS = {"year": 60, "month_y": 15, "my_slash": 6, "mon_y": 3, "month_of_y": 3,
                   "mdy_slash": 8, "month_d_y": 4, "year_apos": 1}


@slot("date")
def date(ctx, arg):
    """`{date:visit|dob|past|recent|future|year|month|weekday|holiday|season}`."""
    gen, visit = ctx.gen, ctx.visit_date
    if arg == "visit":
        return _date_text(ctx, visit, formats.FULL_DATE_WEIGHTS)
    if arg == "dob":
        return _date_text(ctx, ctx.patient.dob, formats.FULL_DATE_WEIGHTS)
    if arg == "recent":
        value = visit - dt.timedelta(days=gen.rng.randint(1, 60))
        return _date_text(ctx, value, RECENT_WEIGHTS)
    if arg == "future":
        value = visit + dt.timedelta(days=gen.rng.randint(2, 60))
        return _date_text(ctx, value, RECENT_WEIGHTS)
    if arg == "year":
        year = gen.rng.randint(ctx.patient.dob.year + 5, visit.year)
        return _date_text(ctx, dt.date(year, gen.rng.randint(1, 12), gen.rng.randint(1, 28)),
                          YEARISH_WEIGHTS)
    if arg == "month_year":
        year = gen.rng.randint(max(ctx.patient.dob.year + 5, visit.year - 12), visit.year)
        return _date_text(ctx, dt.date(year, gen.rng.randint(1, 12), 1), MONTH_YEAR_WEIGHTS)
    if arg == "weekday":
        ctx.phenomena["date_weekday"] += 1
        value = visit - dt.timedelta(days=gen.rng.randint(1, 6))
        return phi(labels.DATE, formats.render_date(value, "weekday"))
    if arg == "holiday":
        ctx.phenomena["date_holiday"] += 1
        holiday = gen.choice(lists.words("holidays.txt"))
        if gen.chance(0.3):
            holiday = f"{holiday} {gen.rng.randint(ctx.patient.dob.year + 5, visit.year)}"
        return phi(labels.DATE, holiday)
    if arg == "season":
        ctx.phenomena["date_season"] += 1
        season = gen.choice(formats.SEASONS)
        year = gen.rng.randint(max(ctx.patient.dob.year + 5, visit.year - 15), visit.year)
        form = gen.choice(("{s} {y}", "{s} of {y}", "{S} {y}", "the {s} of {y}"))
        if form.startswith("the "):
            return plain("the ") + phi(labels.DATE, form[4:].format(s=season, S=season.title(), y=year))
        return phi(labels.DATE, form.format(s=season, S=season.title(), y=year))
    if arg == "bare_season":
        # "last winter": a season pointing at a specific time
        ctx.phenomena["date_season"] += 1
        return phi(labels.DATE, gen.choice(formats.SEASONS))
    if arg == "month":
        return phi(labels.DATE, formats.MONTHS[gen.rng.randrange(12)])
    # "past": any time in the last ten years
    value = gen.date_between(max(ctx.patient.dob + dt.timedelta(days=3650), visit - dt.timedelta(days=3650)),
                             visit - dt.timedelta(days=30))
    return _date_text(ctx, value, formats.HISTORY_DATE_WEIGHTS)


# --- ages -----------------------------------------------------------------------------------------
def _age_segments(ctx: NoteContext, value: int, form: str = "") -> List[Seg]:
    """Only the number is PHI: "[42]-year-old", "[42] yo", "age [42]"."""
    gen = ctx.gen
    words = gen.chance(0.08)
    number = formats.number_to_words(value) if words else str(value)
    if words:
        ctx.phenomena["age_in_words"] += 1
    if form == "yo":
        suffix = gen.choice(("-year-old", "-year-old", "-year-old", " year old", " yo", " y/o",
                             "yo", " y.o.", "-yr-old", " yr old", "M", "F")) if not words else "-year-old"
        if suffix in ("M", "F"):
            suffix = "M" if ctx.sex == "M" else "F"
            ctx.phenomena["age_glued_letter"] += 1
        elif suffix == "yo":
            ctx.phenomena["age_glued_letter"] += 1
        return phi(labels.AGE, number) + plain(suffix)
    return phi(labels.AGE, number)


@slot("age")
def age(ctx, arg):
    """`{age}` patient's age, `{age:yo}` with a year-old suffix, `{age:event}`
    an earlier age of the patient, `{age:other}` someone's age."""
    if arg == "event":
        return _age_segments(ctx, ctx.gen.rng.randint(4, max(5, ctx.age_now - 1)))
    if arg == "teen":
        return _age_segments(ctx, ctx.gen.rng.randint(11, 19))
    if arg == "other":
        return _age_segments(ctx, ctx.gen.rng.randint(1, 95))
    if arg == "child":
        return _age_segments(ctx, ctx.gen.rng.randint(1, max(1, ctx.age_now - 17)))
    if arg == "sib":
        return _age_segments(ctx, max(1, ctx.age_now + ctx.gen.rng.randint(-12, 12)))
    if arg == "otheryo":
        return _age_segments(ctx, ctx.gen.rng.randint(1, 95), "yo")
    return _age_segments(ctx, ctx.age_now, arg)


@slot("decade")
def decade(ctx, arg):
    """"in his 40s": the decade is the age."""
    value = max(20, (ctx.age_now // 10) * 10 - ctx.gen.choice((0, 10, 20)))
    return phi(labels.AGE, f"{value}s")


# --- contact and identifiers ------------------------------------------------------------------
@slot("phone")
def phone(ctx, arg):
    """`{phone}`, `{phone:ext}` (with extension), `{phone:pager}`, `{phone:fax}` (FAX)."""
    gen = ctx.gen
    if arg == "pager":
        ctx.phenomena["pager"] += 1
        return phi(labels.PHONE, gen.pager())
    if arg == "fax":
        ctx.phenomena["fax"] += 1
        return phi(labels.FAX, gen.phone())
    extension = arg == "ext" or gen.chance(0.05)
    if extension:
        ctx.phenomena["phone_extension"] += 1
    return phi(labels.PHONE, gen.phone(extension=extension))


@slot("email")
def email(ctx, arg):
    person = ctx.patient.person if arg == "pt" else (ctx.clinician or ctx.attending).person if arg == "dr" else None
    return phi(labels.EMAIL, ctx.gen.email(person))


@slot("url")
def url(ctx, arg):
    return phi(labels.URL, ctx.gen.url())


@slot("ip")
def ip(ctx, arg):
    return phi(labels.IPADDR, ctx.gen.ipaddr())


@slot("username")
def username(ctx, arg):
    person = ctx.patient.person if arg == "pt" else (ctx.clinician or ctx.attending).person
    return phi(labels.USERNAME, ctx.gen.username(person))


_ID_SLOTS = {
    "mrn": (labels.MEDICALRECORD, lambda ctx: ctx.patient.mrn),
    "mrn_new": (labels.MEDICALRECORD, lambda ctx: ctx.gen.medical_record()),
    "ssn": (labels.SSN, lambda ctx: ctx.gen.ssn()),
    "healthplan": (labels.HEALTHPLAN, lambda ctx: ctx.gen.health_plan()),
    "account": (labels.ACCOUNT, lambda ctx: ctx.gen.account()),
    "license": (labels.LICENSE, lambda ctx: ctx.gen.license()),
    "vehicle": (labels.VEHICLE, lambda ctx: ctx.gen.vehicle()),
    "device": (labels.DEVICE, lambda ctx: ctx.gen.device()),
    "bioid": (labels.BIOID, lambda ctx: ctx.gen.bioid()),
    "idnum": (labels.IDNUM, lambda ctx: ctx.gen.idnum()),
}


@slot("id")
def id_slot(ctx, arg):
    label, make = _ID_SLOTS[arg]
    return phi(label, make(ctx))


@slot("ids")
def ids(ctx, arg):
    """Two identifiers glued by a comma and no space ("12G00123,12N01234")."""
    ctx.phenomena["conjoined_ids"] += 1
    return phi(labels.IDNUM, ctx.gen.idnum()) + plain(",") + phi(labels.IDNUM, ctx.gen.idnum())


# --- non-PHI fillers (traps included) ---------------------------------------------------------------
def _filler(name, values, phenomenon=None):
    def fill(ctx, arg):
        if phenomenon:
            ctx.phenomena[phenomenon] += 1
        return plain(ctx.gen.choice(values))
    SLOTS[name] = fill


_filler("drug", fillers.DRUGS)
_filler("dose", fillers.DOSES)
_filler("freq", fillers.FREQUENCIES)
_filler("combo", fillers.COMBO_DOSES, "trap_combination_dose")
_filler("symptom", fillers.SYMPTOMS)
@slot("dx")
def dx(ctx, arg):
    diagnosis = ctx.gen.choice(fillers.DIAGNOSES)
    if ctx.gen.chance(0.2):
        ctx.phenomena["trap_icd_code"] += 1
        diagnosis = ctx.gen.choice((f"{diagnosis} ({fillers.ICD10[diagnosis]})",
                                    f"{fillers.ICD10[diagnosis]} {diagnosis}"))
    return plain(diagnosis)


_filler("billing", fillers.BILLING, "trap_billing_code")
_filler("medical", fillers.MEDICAL)
_filler("duration", fillers.DURATIONS, "trap_duration")
_filler("time", fillers.TIMES, "trap_time_of_day")
_filler("eponym", lists.words("diseases_eponyms.txt"), "trap_eponym_disease")
_filler("substance", fillers.SUBSTANCES)
_filler("subst_value", fillers.SUBSTANCE_VALUES)


@slot("bp")
def bp(ctx, arg):
    ctx.phenomena["trap_blood_pressure"] += 1
    gen = ctx.gen
    return plain(f"{gen.rng.randint(96, 168)}/{gen.rng.randint(58, 102)}")


@slot("scale")
def scale(ctx, arg):
    """"9/10": a rating, not a date."""
    ctx.phenomena["trap_rating_scale"] += 1
    return plain(f"{ctx.gen.rng.randint(0, 10)}/10")


@slot("school_years")
def school_years(ctx, arg):
    ctx.phenomena["trap_years_of_school"] += 1
    return plain(str(ctx.gen.rng.randint(8, 20)))


@slot("num")
def num(ctx, arg):
    low, _, high = (arg or "1-10").partition("-")
    return plain(str(ctx.gen.rng.randint(int(low), int(high))))


@slot("vitals")
def vitals(ctx, arg):
    ctx.phenomena["trap_blood_pressure"] += 1
    g = ctx.gen.rng
    return plain(ctx.gen.choice((
        f"BP {g.randint(96, 168)}/{g.randint(58, 102)}, HR {g.randint(54, 118)}, RR {g.randint(12, 22)}, "
        f"T {g.randint(970, 1003) / 10}, SpO2 {g.randint(92, 100)}%",
        f"BP: {g.randint(96, 168)}/{g.randint(58, 102)}  P: {g.randint(54, 118)}  Wt: {g.randint(98, 310)} lbs",
        f"blood pressure {g.randint(96, 168)}/{g.randint(58, 102)}, pulse {g.randint(54, 118)}",
        f"T {g.randint(970, 1003) / 10} P {g.randint(54, 118)} BP {g.randint(96, 168)}/{g.randint(58, 102)} "
        f"O2 sat {g.randint(92, 100)}% RA",
    )))
