"""Identifiers (MEDICALRECORD, SSN, HEALTHPLAN, ACCOUNT, LICENSE, VEHICLE,
DEVICE, BIOID, IDNUM): `{id:<kind>}`, `{ids}` (two glued by a comma) and
`{cued_id:<cue>}` (letter-digit-hyphen identifiers after a cue word).
"""
from ... import labels
from .registry import count_family, phi, plain, slot


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
    count_family(ctx, "cued_identifier")
    gen = ctx.gen
    label, cues = ID_CUES[arg or gen.choice(tuple(ID_CUES))]
    cue = gen.choice(cues)
    joiner = gen.choice((" #", " # ", " no. ", " No. ", ": ", " number ", " ", " #: "))
    if cue.endswith(".") and not joiner.startswith(" #"):  # "case no. no. 24-CR-01189"
        joiner = " "
    return plain(cue + joiner) + phi(label, structured_id(gen, arg or "id"))
