"""Places (HOSPITAL, DEPARTMENT, ROOM, ORGANIZATION, STREET, CITY, STATE,
COUNTRY, ZIP, LOCATION-OTHER): `{hosp}`, `{org}`, `{fw_org}`, `{city}`,
`{rel_city}`, `{town}`, `{state}`, `{city_state}`, `{country}`,
`{foreign_place}`, `{street}`, `{zip}`, `{address}`, `{dept}`,
`{dept_name}`, `{room}`, `{room_line}`, `{loc}`.
"""
from ... import labels
from ...surrogates import SurrogateGenerator
from ..context import NoteContext
from .names import _pick_relative
from .registry import count_family, phi, plain, slot, subset


@slot("rel_city")
def rel_city(ctx, arg):
    relative = ctx.relative or _pick_relative(ctx)
    return phi(labels.CITY, relative.city)


@slot("hosp")
def hosp(ctx, arg):
    """`{hosp}` a prior hospital of the patient, `{hosp:here}` this facility,
    `{hosp:abbr}` its abbreviation, `{hosp:new}` any hospital, `{hosp:abbr_new}` the
    abbreviation of any hospital ("transferred from RGH")."""
    if arg == "here":
        return phi(labels.HOSPITAL, ctx.facility)
    if arg == "abbr":
        ctx.phenomena["hospital_abbreviation"] += 1
        return phi(labels.HOSPITAL, ctx.facility_abbr)
    if arg == "new":
        return phi(labels.HOSPITAL, ctx.gen.hospital())
    if arg == "abbr_new":
        ctx.phenomena["hospital_abbreviation"] += 1
        name = ctx.gen.hospital()
        abbreviation = SurrogateGenerator.abbreviate(name)
        return phi(labels.HOSPITAL, abbreviation if len(abbreviation) >= 2 else name)
    return phi(labels.HOSPITAL, ctx.gen.choice(ctx.patient.hospitals))


@slot("ward")
def ward(ctx, arg):
    """A named ward or unit of a hospital ("Hartwell 7", "the Okafor 4 unit"): DEPARTMENT."""
    ctx.phenomena["ward_name"] += 1
    return phi(labels.DEPARTMENT, ctx.gen.compose("unit_patterns.txt", "hospital_words.tsv"))


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
    count_family(ctx, "department")
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
    count_family(ctx, "room")
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


@slot("town")
def town(ctx, arg):
    """`{town}` a town of two or three words (listed or composed), `{town:state}` with its
    state ("Cedar Hollow, VT": two mentions)."""
    count_family(ctx, "multiword_town")
    gen = ctx.gen
    if gen.chance(0.5):
        name, abbr = gen.compose("town_patterns.txt", "town_words.tsv"), gen.state(abbreviation=True)
    else:
        name, abbr = gen.choice(subset(gen, "cities.tsv", "multiword"))
    segs = phi(labels.CITY, name)
    if arg == "state":
        value = abbr if gen.chance(0.7) else gen.state_name(abbr)
        segs += plain(gen.choice((", ", ", ", " "))) + phi(labels.STATE, value)
    return segs


@slot("foreign_place")
def foreign_place(ctx, arg):
    """`{foreign_place}` "Port-au-Prince, Haiti" (CITY, COUNTRY) or a country with "and"
    ("Bosnia and Herzegovina"); `{foreign_place:country}` the country form only."""
    count_family(ctx, "foreign_place")
    gen = ctx.gen
    countries = subset(gen, "countries.txt", "and_or_hyphen")
    if arg == "country" or gen.chance(0.4):
        return phi(labels.COUNTRY, gen.choice(countries or gen.listed("countries.txt")))
    cities = subset(gen, "world_cities.tsv", "hyphen_or_space")
    city_name, country_name = gen.choice(cities or gen.listed("world_cities.tsv"))
    return phi(labels.CITY, city_name) + plain(", ") + phi(labels.COUNTRY, country_name)


@slot("fw_org")
def fw_org(ctx, arg):
    """An organisation with inner function words or symbols ("Office on Aging",
    "Smith & Rowe LLP", "Teamsters Local 802")."""
    count_family(ctx, "function_word_org")
    gen = ctx.gen
    local = str(gen.choice((gen.rng.randint(1, 99), gen.rng.randint(100, 2999))))
    value = gen.compose("organization_function_patterns.txt", "organization_function_words.tsv",
                        local=local)
    return phi(labels.ORGANIZATION, value)
