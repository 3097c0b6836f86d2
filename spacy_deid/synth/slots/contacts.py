"""Contact details (PHONE, FAX, EMAIL, URL, IPADDR): `{phone}`, `{phone:ext}`,
`{phone:pager}`, `{phone:fax}`, `{email}`, `{url}`, `{ip}`.
"""
from ... import labels
from .registry import phi, slot


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
