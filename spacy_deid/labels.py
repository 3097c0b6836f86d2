"""The PHI label scheme: the single place where label strings are spelled out.

The scheme is the one of the i2b2/UTHealth 2014 and CEGS N-GRID 2016
de-identification tasks: 7 categories, 30 subtypes. `doc.ents` labels are the
subtypes; the category is derived from the subtype. Other modules import the
constants below instead of writing label strings themselves.
"""
from types import MappingProxyType
from typing import Dict, FrozenSet, Mapping, Optional, Tuple

# --- subtypes -----------------------------------------------------------
PATIENT = "PATIENT"
DOCTOR = "DOCTOR"
USERNAME = "USERNAME"
PROFESSION = "PROFESSION"
ROOM = "ROOM"
DEPARTMENT = "DEPARTMENT"
HOSPITAL = "HOSPITAL"
ORGANIZATION = "ORGANIZATION"
STREET = "STREET"
CITY = "CITY"
STATE = "STATE"
COUNTRY = "COUNTRY"
ZIP = "ZIP"
LOCATION_OTHER = "LOCATION-OTHER"
AGE = "AGE"
DATE = "DATE"
PHONE = "PHONE"
FAX = "FAX"
EMAIL = "EMAIL"
URL = "URL"
IPADDR = "IPADDR"
SSN = "SSN"
MEDICALRECORD = "MEDICALRECORD"
HEALTHPLAN = "HEALTHPLAN"
ACCOUNT = "ACCOUNT"
LICENSE = "LICENSE"
VEHICLE = "VEHICLE"
DEVICE = "DEVICE"
BIOID = "BIOID"
IDNUM = "IDNUM"

# --- categories (the element names of i2b2 2014 XML tags) ----------------
NAME_CATEGORY = "NAME"
PROFESSION_CATEGORY = "PROFESSION"
LOCATION_CATEGORY = "LOCATION"
AGE_CATEGORY = "AGE"
DATE_CATEGORY = "DATE"
CONTACT_CATEGORY = "CONTACT"
ID_CATEGORY = "ID"
# Some i2b2 files carry an OTHER category (and TYPE="OTHER"); it is read as
# LOCATION-OTHER, the subtype the guidelines use for other locations.
OTHER = "OTHER"

SUBTYPES_BY_CATEGORY: Mapping[str, Tuple[str, ...]] = MappingProxyType(
    {
        NAME_CATEGORY: (PATIENT, DOCTOR, USERNAME),
        PROFESSION_CATEGORY: (PROFESSION,),
        LOCATION_CATEGORY: (
            ROOM,
            DEPARTMENT,
            HOSPITAL,
            ORGANIZATION,
            STREET,
            CITY,
            STATE,
            COUNTRY,
            ZIP,
            LOCATION_OTHER,
        ),
        AGE_CATEGORY: (AGE,),
        DATE_CATEGORY: (DATE,),
        CONTACT_CATEGORY: (PHONE, FAX, EMAIL, URL, IPADDR),
        ID_CATEGORY: (
            SSN,
            MEDICALRECORD,
            HEALTHPLAN,
            ACCOUNT,
            LICENSE,
            VEHICLE,
            DEVICE,
            BIOID,
            IDNUM,
        ),
    }
)
CATEGORIES: Tuple[str, ...] = tuple(SUBTYPES_BY_CATEGORY)
SUBTYPES: Tuple[str, ...] = tuple(
    subtype for subtypes in SUBTYPES_BY_CATEGORY.values() for subtype in subtypes
)
CATEGORY_OF: Mapping[str, str] = MappingProxyType(
    {
        subtype: category
        for category, subtypes in SUBTYPES_BY_CATEGORY.items()
        for subtype in subtypes
    }
)

# --- surrogate shapes ------------------------------------------------------
# Subtypes whose surrogate keeps the character shape of the original (digits
# for digits, letters for letters): every ID, the numbers of the contact
# subtypes, ZIP and ROOM. One value written two ways ("617-555-0112",
# "6175550112") keeps one surrogate in both shapes.
SHAPED_SUBTYPES: FrozenSet[str] = frozenset({PHONE, FAX, IPADDR, ZIP, ROOM}).union(
    SUBTYPES_BY_CATEGORY[ID_CATEGORY]
)

# --- HIPAA subsets --------------------------------------------------------
# The subset scored by the official i2b2 2014 evaluation script. That script
# spells IDNUM with a trailing space, so IDNUM never matched there; we include
# it, as the guidelines intend, and reports say so.
HIPAA_I2B2_2014: FrozenSet[str] = frozenset(
    {PATIENT, CITY, STREET, ZIP, ORGANIZATION, DATE, AGE, PHONE, FAX, EMAIL}
).union(SUBTYPES_BY_CATEGORY[ID_CATEGORY])
# HIPAA Safe Harbor also lists web addresses and IP addresses.
HIPAA_SAFE_HARBOR: FrozenSet[str] = HIPAA_I2B2_2014 | {URL, IPADDR}
HIPAA_SUBSETS: Mapping[str, FrozenSet[str]] = MappingProxyType(
    {"i2b2-2014": HIPAA_I2B2_2014, "safe-harbor": HIPAA_SAFE_HARBOR}
)

# --- other corpora's type names --------------------------------------------
# i2b2 2006 has 8 types. Its DATE excluded years (2014 includes them), its ID
# covers medical record and other numbers, its LOCATION every kind of place.
I2B2_2006_TYPES: Mapping[str, str] = MappingProxyType(
    {
        "PATIENT": PATIENT,
        "DOCTOR": DOCTOR,
        "HOSPITAL": HOSPITAL,
        "ID": IDNUM,
        "DATE": DATE,
        "LOCATION": LOCATION_OTHER,
        "PHONE": PHONE,
        "AGE": AGE,
    }
)
# PhysioNet deid gold standard (id-phi.phrase, 5th column), matched
# case-insensitively. "Other" there marks identifying numbers.
PHYSIONET_TYPES: Mapping[str, str] = MappingProxyType(
    {
        "PTNAME": PATIENT,
        "PTNAMEINITIAL": PATIENT,
        "RELATIVEPROXYNAME": PATIENT,
        "HCPNAME": DOCTOR,
        "LOCATION": LOCATION_OTHER,
        "DATE": DATE,
        "DATEYEAR": DATE,
        "AGE": AGE,
        "PHONE": PHONE,
        "OTHER": IDNUM,
    }
)
# TYPE spellings found in i2b2 2014 / N-GRID files besides the 30 subtypes.
_SUBTYPE_ALIASES: Dict[str, str] = {OTHER: LOCATION_OTHER, "LOCATION_OTHER": LOCATION_OTHER}


class UnknownLabelError(ValueError):
    """A TYPE or category that is not part of the scheme."""


def normalize_subtype(type_name: str) -> str:
    """Map a TYPE attribute of i2b2 2014 / N-GRID XML onto one of the 30 subtypes.

    Matching ignores case and surrounding whitespace (the official scorer's
    own data has "IDNUM " with a trailing space). Raises UnknownLabelError.
    """
    key = type_name.strip().upper()
    if key in CATEGORY_OF:
        return key
    if key in _SUBTYPE_ALIASES:
        return _SUBTYPE_ALIASES[key]
    raise UnknownLabelError(f"unknown PHI TYPE {type_name!r}")


def normalize_category(category: str) -> Optional[str]:
    """The category for an i2b2 tag name, or None for OTHER (no fixed category)."""
    key = category.strip().upper()
    if key == OTHER:
        return None
    if key in SUBTYPES_BY_CATEGORY:
        return key
    raise UnknownLabelError(f"unknown PHI category {category!r}")


def category_of(subtype: str) -> str:
    """The category of one of the 30 subtypes (KeyError for anything else)."""
    return CATEGORY_OF[subtype]


def is_hipaa(subtype: str, definition: str = "i2b2-2014") -> bool:
    """Whether a subtype belongs to a HIPAA subset ("i2b2-2014" or "safe-harbor")."""
    return subtype in HIPAA_SUBSETS[definition]
