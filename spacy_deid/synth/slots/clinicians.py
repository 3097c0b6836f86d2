"""Clinicians (DOCTOR): `{dr:<who>/<form>}`, `{dr_hosp}` (a clinician and a
hospital), `{cred}` (the credential, not PHI), `{doc_name}` (list and
signature forms: "Last, First, MD").
"""
import re
from typing import List

from ... import labels
from ..assembler import Seg
from ..context import Clinician, NoteContext, draw_clinician
from ..families import family_key
from .registry import count_family, phi, plain, slot


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


@slot("doc_name")
def doc_name(ctx, arg):
    """A clinician in list and signature form: `{doc_name:att/last_first_cred}`
    "Okafor-Lindgren, Amara, MD", `last_first_mi` "Okafor-Lindgren, Amara M",
    `upper_last_first_cred` "OKAFOR-LINDGREN, AMARA, MD", `last_first` (no credential)."""
    which, _, form = arg.partition("/")
    clin = _clinician(ctx, which or "new")
    p, cred = clin.person, clin.credential or "MD"
    ctx.phenomena["name_last_first"] += 1
    count_family(ctx, "signature_block")
    if form == "last_first_mi":
        return phi(labels.DOCTOR, f"{p.last}, {p.first} {p.middle_initial}") + plain(
            ctx.gen.choice(("", "", f", {cred}", f" {cred}")))
    if form == "upper_last_first_cred":
        return phi(labels.DOCTOR, f"{p.last}, {p.first}".upper()) + plain(f", {cred.upper()}")
    if form == "last_first":
        return phi(labels.DOCTOR, f"{p.last}, {p.first}")
    return phi(labels.DOCTOR, f"{p.last}, {p.first}") + plain(f", {cred}")


@slot("nsg_clin")
def nsg_clin(ctx, arg):
    """Clinicians as nursing notes write them: `{nsg_clin:dr}` "dr smith" (mostly lower
    case), `{nsg_clin:any}` also "np jones", "Dr. Smith", `{nsg_clin:rn}` the nurse's
    signature "j smith rn", "J. Smith, RN" (the name is DOCTOR, titles and credentials not)."""
    gen = ctx.gen
    if arg == "rn":
        clin = draw_clinician(gen, "nurse")
        ctx.clinician = clin
        p = clin.person
        name = gen.choice((f"{p.first[0]} {p.last}", f"{p.first[0]}. {p.last}", f"{p.first} {p.last}",
                           p.last, f"{p.first[0]}.{p.last}"))
        lower = gen.chance(0.5)
        ctx.phenomena["name_lower_case" if lower else "nurse_signature"] += 1
        credential = gen.choice((" rn", " RN", ", RN", ", rn", " r.n.", " RN, BSN"))
        return phi(labels.DOCTOR, name.lower() if lower else name) + plain(credential)
    clin = _clinician(ctx, "new" if arg == "dr" or gen.chance(0.5) else "any")
    last = clin.person.last
    if gen.chance(0.65):
        ctx.phenomena["name_lower_case"] += 1
        last = last.lower()
    title = gen.choice(("dr ", "dr. ", "Dr ", "Dr. ", "dr ")) if arg == "dr" else gen.choice(
        ("dr ", "dr. ", "Dr. ", "np ", "pa ", "NP ", "Dr "))
    return plain(title) + phi(labels.DOCTOR, last)
