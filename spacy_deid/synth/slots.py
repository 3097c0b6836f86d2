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
from .families import family_key
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
    if re.search(r"[-' ]", p.last):
        ctx.phenomena[family_key("composed_surname")] += 1
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
    """`{prof}` the patient's job, `{prof:new}` any job (of someone non-clinical),
    `{prof:plural}` jobs of several people ("teachers", "registered nurses")."""
    if arg == "plural":
        return _profession(ctx, ctx.gen.plural_profession())
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


# --- phenomenon families (families.py) --------------------------------------------------------
def _count(ctx: NoteContext, family: str) -> None:
    ctx.phenomena[family_key(family)] += 1


def _any_case(ctx: NoteContext, value: str, arg: str = "") -> str:
    """Departments come in every case: "Inpatient Psychiatry", "INPATIENT PSYCHIATRY"."""
    if arg == "upper" or (not arg and ctx.gen.chance(0.2)):
        return value.upper()
    if arg == "lower" or (not arg and ctx.gen.chance(0.05)):
        return value.lower()
    return value


@slot("dept_name")
def dept_name(ctx, arg):
    """`{dept_name}` a department, program, unit or service name (composed or listed),
    `{dept_name:upper}`, `{dept_name:lower}`, `{dept_name:title}` in that case."""
    _count(ctx, "department")
    gen = ctx.gen
    value = (gen.compose("department_patterns.txt", "department_words.tsv") if gen.chance(0.6)
             else gen.department())
    return phi(labels.DEPARTMENT, _any_case(ctx, value, "" if arg == "title" else arg or ""))


# "Room".upper(): the capitals are a designator word, not the label of that name.
ROOM_DESIGNATORS = {"Rm": 5, "Room": 6, "Rm.": 1, "RM": 1, "Room".upper(): 1, "Bay": 2, "Bed": 2,
                    "Exam Rm": 1, "Pod": 1, "Suite": 1}


def _room_id(gen) -> str:
    """A generated room identifier: 2207, 12A, D-3, 4B-17, W412."""
    return gen.choice((
        lambda: str(gen.rng.randint(1, 40)),
        lambda: f"{gen.rng.randint(1, 14)}{gen.rng.randint(0, 3)}{gen.rng.randint(0, 9)}{gen.rng.randint(0, 9)}",
        lambda: f"{gen.rng.randint(100, 999)}",
        lambda: f"{gen.choice('ABCDEFGHJKLMNPRSW')}-{gen.rng.randint(1, 30)}",
        lambda: f"{gen.rng.randint(1, 12)}{gen.choice('ABCDNSEW')}-{gen.rng.randint(1, 40)}",
        lambda: f"{gen.choice('ABCDEFGW')}{gen.rng.randint(100, 499)}",
        lambda: f"{gen.rng.randint(100, 999)}-{gen.choice('AB')}",
    ))()


@slot("room_line")
def room_line(ctx, arg):
    """`{room_line}` "Rm 2207", "Room 5, Bed B", "Bay 9" as one ROOM span (the designator
    inside), `{room_line:bare}` "interview room [D-3]" (only the identifier is PHI)."""
    _count(ctx, "room")
    gen = ctx.gen
    if arg == "bare":
        kind = gen.choice(("interview room", "exam room", "group room", "consult room",
                           "family room", "observation room", "room", "bed", "bay", "seclusion room"))
        return plain(f"{kind} ") + phi(labels.ROOM, _room_id(gen))
    designator = gen.weighted(ROOM_DESIGNATORS)
    value = f"{designator} {_room_id(gen)}"
    roll = gen.rng.random()
    if roll < 0.25 and designator not in ("Bay", "Bed", "Pod"):  # "Room 5, Bed B": one span
        value += gen.choice((", Bed ", " Bed ", ", bed ")) + gen.choice(
            (gen.choice("ABCD"), str(gen.rng.randint(1, 4))))
    elif roll < 0.35:
        value = f"{gen.choice(('Pod', 'Bay', 'Unit'))} {gen.choice('ABCDEFG')}, Bed {gen.rng.randint(1, 24)}"
    return phi(labels.ROOM, value)


def _handle(gen, person: Person) -> str:
    """A social-media handle with dots and underscores: jay.smith_22, k_okafor.lindgren."""
    first = re.sub(r"[^a-z]", "", person.first.lower()) or "x"
    last = re.sub(r"[^a-z]", "", person.last.lower()) or "y"
    sep = gen.choice(("_", ".", "__", "._"))
    word = gen.choice(("official", "art", "music", "fit", "gaming", "photo", "life", "vibes",
                       "the", "real", "x", "its"))
    form = gen.choice((
        f"{first}{sep}{last}", f"{first}.{last}_{gen.rng.randint(1, 99)}", f"{first[0]}_{last}",
        f"{last}.{first[0]}{gen.rng.randint(70, 9999)}", f"{word}_{first}", f"{first}.{word}",
        f"{first}_{last[:4]}_{word}", f"{word}.{last}{gen.rng.randint(1, 99)}",
        f"_{first}.{last}",
    ))
    return form.upper() if gen.chance(0.05) else form


@slot("handle")
def handle(ctx, arg):
    """`{handle}` a handle of the patient (or `{handle:rel}` of the relative picked last)."""
    _count(ctx, "social_handle")
    person = (ctx.relative or _pick_relative(ctx)).person if arg == "rel" else ctx.patient.person
    return phi(labels.USERNAME, _handle(ctx.gen, person))


@slot("platform")
def platform(ctx, arg):
    return plain(ctx.gen.choice(("Instagram", "TikTok", "Twitter", "X", "Snapchat", "Facebook",
                                 "Discord", "Reddit", "Twitch", "YouTube", "IG", "SC")))


def _user_id(gen, person: Person) -> str:
    """A short user id as EHRs print after a signature: "aok2", "JSMITH4", "lindgr01"."""
    first = re.sub(r"[^a-z]", "", person.first.lower()) or "x"
    last = re.sub(r"[^a-z]", "", person.last.lower()) or "y"
    value = gen.choice((f"{first[0]}{last[:6]}{gen.rng.randint(1, 9)}", f"{first[:2]}{last[:2]}{gen.rng.randint(1, 99)}",
                        f"{last[:6]}{gen.rng.randint(1, 99):02d}", f"{first[0]}{last[0]}{gen.rng.randint(100, 999)}"))
    return value.upper() if gen.chance(0.25) else value


@slot("uid")
def uid(ctx, arg):
    """"[aok2]": the signing clinician's user id in brackets (brackets outside the span)."""
    _count(ctx, "signature_block")
    person = (ctx.clinician or ctx.attending).person
    opening, closing = ctx.gen.choice((("[", "]"), ("(", ")"), ("[", "]"), ("<", ">")))
    return plain(opening) + phi(labels.USERNAME, _user_id(ctx.gen, person)) + plain(closing)


# Cues and the subtype of the identifier that follows them.
ID_CUES = {
    "booking": (labels.IDNUM, ("Booking", "booking", "Booking no.", "Booking number", "booking ID")),
    "incident": (labels.IDNUM, ("incident", "Incident", "incident report", "police report", "report")),
    "case": (labels.IDNUM, ("case", "Case", "docket", "Docket", "court case", "DCF case", "case no.")),
    "accession": (labels.IDNUM, ("accession", "Accession", "acc.", "accession no.", "order")),
    "claim": (labels.IDNUM, ("claim", "Claim", "authorization", "prior auth", "referral", "ticket")),
    "license": (labels.LICENSE, ("license", "License", "Lic.", "DEA", "NPI", "MA license", "board certificate")),
    "mrn": (labels.MEDICALRECORD, ("MRN", "MR", "Med Rec", "hospital no.", "chart")),
    "plan": (labels.HEALTHPLAN, ("member ID", "Member", "policy", "subscriber", "MassHealth ID")),
}
_CASE_CODES = ("CR", "CV", "JV", "MH", "FA", "DV", "PR", "TR", "SC", "CF")
_ID_SHAPES = ("AA-00000", "00-AA-00000", "A00-000000", "AAA-0000-00", "0000-00000", "AA00000A",
              "AA-0000-0000-A", "00AA-0000", "A0-00000-A", "AAA000000", "000-AA-0000", "A-000000")


def structured_id(gen, cue: str) -> str:
    """A letter-digit-hyphen identifier for a cue (case numbers carry a year and a code)."""
    if cue == "case" and gen.chance(0.5):
        return f"{gen.rng.randint(0, 99):02d}-{gen.choice(_CASE_CODES)}-{gen.digits(gen.rng.randint(4, 6))}"
    if cue == "incident" and gen.chance(0.4):
        return f"{gen.rng.randint(2005, 2030)}-{gen.digits(gen.rng.randint(4, 6))}"
    if cue == "license" and gen.chance(0.4):
        return gen.license()
    return gen.reshape(gen.choice(_ID_SHAPES))


@slot("cued_id")
def cued_id(ctx, arg):
    """`{cued_id:booking}` "Booking #BK-20391-A": the cue (plain) and the identifier (PHI),
    joined by "#", "# ", "no. ", ": ", "number " or a space."""
    _count(ctx, "cued_identifier")
    gen = ctx.gen
    label, cues = ID_CUES[arg or gen.choice(tuple(ID_CUES))]
    cue = gen.choice(cues)
    joiner = gen.choice((" #", " # ", " no. ", " No. ", ": ", " number ", " ", " #: "))
    if cue.endswith(".") and not joiner.startswith(" #"):  # "case no. no. 24-CR-01189"
        joiner = " "
    return plain(cue + joiner) + phi(label, structured_id(gen, arg or "id"))


@slot("town")
def town(ctx, arg):
    """`{town}` a town of two or three words (listed or composed), `{town:state}` with its
    state ("Cedar Hollow, VT": two mentions)."""
    _count(ctx, "multiword_town")
    gen = ctx.gen
    if gen.chance(0.5):
        name, abbr = gen.compose("town_patterns.txt", "town_words.tsv"), gen.state(abbreviation=True)
    else:
        name, abbr = gen.choice(_subset(gen, "cities.tsv", "multiword"))
    segs = phi(labels.CITY, name)
    if arg == "state":
        value = abbr if gen.chance(0.7) else gen.state_name(abbr)
        segs += plain(gen.choice((", ", ", ", " "))) + phi(labels.STATE, value)
    return segs


# Subsets of a value list, by the first column of a row: towns of several words,
# places with a hyphen or a space, occupations of three or more words.
_SUBSETS = {
    "multiword": lambda value: " " in value,
    "hyphen_or_space": lambda value: "-" in value or " " in value,
    "three_words": lambda value: len(value.split()) >= 3,
    "and_or_hyphen": lambda value: " and " in value or "-" in value,
}
_SUBSET_CACHE: Dict[tuple, tuple] = {}


def _subset(gen, name: str, kind: str) -> tuple:
    """The entries of list `name` (as `gen` draws from it: one half of it under
    `values`) that fit `kind`; computed once per list, half and kind, since the
    lists have up to 89k entries."""
    key = (name, gen.values, kind)
    if key not in _SUBSET_CACHE:
        keep = _SUBSETS[kind]
        _SUBSET_CACHE[key] = tuple(v for v in gen.listed(name)
                                   if keep(v if isinstance(v, str) else v[0]))
    return _SUBSET_CACHE[key]


@slot("foreign_place")
def foreign_place(ctx, arg):
    """`{foreign_place}` "Port-au-Prince, Haiti" (CITY, COUNTRY) or a country with "and"
    ("Bosnia and Herzegovina"); `{foreign_place:country}` the country form only."""
    _count(ctx, "foreign_place")
    gen = ctx.gen
    countries = _subset(gen, "countries.txt", "and_or_hyphen")
    if arg == "country" or gen.chance(0.4):
        return phi(labels.COUNTRY, gen.choice(countries or gen.listed("countries.txt")))
    cities = _subset(gen, "world_cities.tsv", "hyphen_or_space")
    city_name, country_name = gen.choice(cities or gen.listed("world_cities.tsv"))
    return phi(labels.CITY, city_name) + plain(", ") + phi(labels.COUNTRY, country_name)


@slot("fw_org")
def fw_org(ctx, arg):
    """An organisation with inner function words or symbols ("Office on Aging",
    "Smith & Rowe LLP", "Teamsters Local 802")."""
    _count(ctx, "function_word_org")
    gen = ctx.gen
    local = str(gen.choice((gen.rng.randint(1, 99), gen.rng.randint(100, 2999))))
    value = gen.compose("organization_function_patterns.txt", "organization_function_words.tsv",
                        local=local)
    return phi(labels.ORGANIZATION, value)


@slot("prof_long")
def prof_long(ctx, arg):
    """An occupation of three or more words ("medical equipment sales representative")."""
    _count(ctx, "multiword_profession")
    gen = ctx.gen
    titles = (_subset(gen, "professions.txt", "three_words")
              + _subset(gen, "job_titles.txt", "three_words"))
    return _profession(ctx, gen.choice(titles))


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
    _count(ctx, "caps_name")
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
    _count(ctx, "nickname")
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
    _count(ctx, "lone_name")
    person, label = _person_for(ctx, arg or "other")
    return phi(label, person.first)


@slot("formal_unusual")
def formal_unusual(ctx, arg):
    """"Mrs. Okafor-Lindgren", "Dr. van der Berg": a title and an unusual surname
    (composed or from the world lists); `{formal_unusual:dr}` a clinician."""
    _count(ctx, "lone_name")
    gen = ctx.gen
    surname = gen.composed_last_name() if gen.chance(0.6) else gen.last_name(ambiguous_rate=0.0)
    if arg == "dr":
        return plain(gen.choice(("Dr. ", "Dr ", "Dr. ", "DR. "))) + phi(labels.DOCTOR, surname)
    title = gen.choice(("Mrs. ", "Mr. ", "Ms. ", "Mrs ", "Miss "))
    return plain(title) + phi(labels.PATIENT, surname)


CLINICAL_ABBREVIATIONS = ("OSA", "CHF", "MI", "COPD", "HTN", "DM2", "CAD", "CKD", "PE", "DVT",
                          "UTI", "GERD", "TBI", "AFib", "HLD", "BPH", "OA", "RA", "MS", "PD",
                          "CVA", "TIA", "ESRD", "HCV", "HIV", "SOB", "CP", "N/V", "LOC", "ETOH",
                          "Ca", "breast Ca", "prostate Ca", "colon Ca", "NSTEMI", "A-fib")
LAB_TRAPS = ("Ca 9.2", "Ca 8.4", "Ca++ 1.1", "Mg 1.9", "Na 134", "K 3.4", "Li 0.8", "TSH 4.2",
             "A1c 7.9", "Cr 1.3", "BUN 22", "Hgb 11.8", "INR 2.4", "Ca 10.1", "Phos 3.3")
DURATIONS_SHORT = ("in 2 wks", "in 4 wks", "x 3 wks", "q2wks", "in 6 mos", "x2d", "x 5 days",
                   "for 3 wks", "in 1 mo", "q4wk", "in 10 days", "x1 wk", "in 3-4 wks", "in 2w",
                   "for 2 yrs", "x 6 mo", "q 3 months", "in 48 hrs", "for 72h")
SCORE_TRAPS = ("PHQ-9 14/27", "PHQ-9: 19/27", "GAD-7 12/21", "GAD-7: 6/21", "MoCA 24/30",
               "MMSE 27/30", "C-SSRS 2/6", "AUDIT-C 7/12", "CIWA 8", "COWS 11", "YMRS 22/60",
               "PCL-5 48/80", "EPDS 15/30", "SLUMS 21/30", "BPRS 42/126")
# Rating scales and tests as notes write them, with the top of their range: a
# number after one is a score, never an age or a room ("AUDIT 10", "AQ: 38").
SCALES = (("PHQ-9", 27), ("PHQ-2", 6), ("GAD-7", 21), ("AUDIT", 40), ("AUDIT-C", 12),
          ("DAST-10", 10), ("BPRS", 126), ("PANSS", 210), ("MADRS", 60), ("HAM-D", 52),
          ("HAM-A", 56), ("YMRS", 60), ("Y-BOCS", 40), ("PCL-5", 80), ("CAPS-5", 80),
          ("MoCA", 30), ("MMSE", 30), ("SLUMS", 30), ("CIWA-Ar", 67), ("CIWA", 67), ("COWS", 48),
          ("ISI", 28), ("ESS", 24), ("PSQI", 21), ("QIDS-SR", 27), ("EPDS", 30), ("ASRS", 72),
          ("MDQ", 13), ("AQ", 50), ("RAADS-R", 240), ("SRS-2", 195), ("AIMS", 40), ("BARS", 5),
          ("CGI-S", 7), ("GAF", 100), ("WHODAS", 48), ("BDI-II", 63), ("BAI", 63), ("PDSS", 28),
          ("FSIQ", 160), ("VCI", 160), ("PSI", 160), ("C-SSRS", 6), ("Mini-Cog", 5))
SCORE_FORMS = ("{s} {n}", "{s}: {n}", "{s} {n}/{top}", "{s} score {n}", "{s} score of {n}",
               "{s} total {n}", "{s} = {n}", "{s} {n} ({top} max)")


def _score_trap(gen) -> str:
    """A rating-scale score: one of the written-out examples, or any scale in any
    of the forms notes use, with a value in its range."""
    if gen.chance(0.3):
        return gen.choice(SCORE_TRAPS)
    scale, top = gen.choice(SCALES)
    return gen.choice(SCORE_FORMS).format(s=scale, n=gen.rng.randint(0, top), top=top)


def _time_trap(gen) -> str:
    """A clock time ("3 am", "11:30 PM", "0300"): a number that is no age."""
    hour, minute = gen.rng.randint(1, 12), gen.choice(("00", "15", "30", "45"))
    meridiem = gen.choice(("am", "pm", "AM", "PM", "a.m.", "p.m."))
    forms = (f"{hour} {meridiem}", f"{hour}{meridiem}", f"{hour}:{minute} {meridiem}",
             f"{hour}:{minute}", f"{gen.rng.randint(0, 23):02d}{minute}")
    return gen.choice(forms)


@slot("trap")
def trap(ctx, arg):
    """`{trap:abbr}`, `{trap:lab}`, `{trap:dur}`, `{trap:score}`, `{trap:time}`: never annotated."""
    _count(ctx, "clinical_trap")
    if arg == "score":
        return plain(_score_trap(ctx.gen))
    if arg == "time":
        return plain(_time_trap(ctx.gen))
    values = {"abbr": CLINICAL_ABBREVIATIONS, "lab": LAB_TRAPS, "dur": DURATIONS_SHORT}[arg]
    return plain(ctx.gen.choice(values))


@slot("doc_name")
def doc_name(ctx, arg):
    """A clinician in list and signature form: `{doc_name:att/last_first_cred}`
    "Okafor-Lindgren, Amara, MD", `last_first_mi` "Okafor-Lindgren, Amara M",
    `upper_last_first_cred` "OKAFOR-LINDGREN, AMARA, MD", `last_first` (no credential)."""
    which, _, form = arg.partition("/")
    clin = _clinician(ctx, which or "new")
    p, cred = clin.person, clin.credential or "MD"
    ctx.phenomena["name_last_first"] += 1
    _count(ctx, "signature_block")
    if form == "last_first_mi":
        return phi(labels.DOCTOR, f"{p.last}, {p.first} {p.middle_initial}") + plain(
            ctx.gen.choice(("", "", f", {cred}", f" {cred}")))
    if form == "upper_last_first_cred":
        return phi(labels.DOCTOR, f"{p.last}, {p.first}".upper()) + plain(f", {cred.upper()}")
    if form == "last_first":
        return phi(labels.DOCTOR, f"{p.last}, {p.first}")
    return phi(labels.DOCTOR, f"{p.last}, {p.first}") + plain(f", {cred}")
