"""Slot functions: what `{slot:arg}` in a template turns into, grouped by what
they fill.

Each takes the NoteContext and the argument after the colon and returns
segments. PHI slots draw values from the patient's world (context.py) or
fresh from the SurrogateGenerator, and record hard phenomena (initials,
lower case, weekdays, extensions, ...) in `ctx.phenomena` for the report.
Non-PHI slots fill in drugs, doses, durations and other traps.

| module | fills |
|---|---|
| `names` | PATIENT names, relatives' role words, pronouns; capitals, nicknames, lone names |
| `clinicians` | DOCTOR names in running text, lists and signatures |
| `usernames` | USERNAME: portal ids, social-media handles, signers' user ids |
| `professions` | PROFESSION |
| `locations` | HOSPITAL, DEPARTMENT, ROOM, ORGANIZATION, STREET, CITY, STATE, COUNTRY, ZIP, LOCATION-OTHER |
| `dates` | DATE |
| `ages` | AGE |
| `contacts` | PHONE, FAX, EMAIL, URL, IPADDR |
| `identifiers` | MEDICALRECORD, SSN, HEALTHPLAN, ACCOUNT, LICENSE, VEHICLE, DEVICE, BIOID, IDNUM |
| `clinical` | nothing: non-PHI vocabulary and traps (numbers that are no PHI) |
| `measurements` | nothing: vitals, drips, vent settings, labs and the words of nursing notes (never PHI) |
"""
from . import ages, clinical, clinicians, contacts, dates, identifiers, locations, names  # noqa: F401
from . import measurements, professions, usernames  # noqa: F401
from .registry import SLOTS, phi, plain, slot

__all__ = ["SLOTS", "slot", "phi", "plain"]
