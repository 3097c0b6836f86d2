"""User names (USERNAME): `{username}` (portal ids), `{handle}` (social-media
handles, with `{platform}` as their cue) and `{uid}` (a signer's user id).
"""
import re

from ... import labels
from ...surrogates import Person
from .names import _pick_relative
from .registry import count_family, phi, plain, slot


@slot("username")
def username(ctx, arg):
    person = ctx.patient.person if arg == "pt" else (ctx.clinician or ctx.attending).person
    return phi(labels.USERNAME, ctx.gen.username(person))


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
    count_family(ctx, "social_handle")
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
    count_family(ctx, "signature_block")
    person = (ctx.clinician or ctx.attending).person
    opening, closing = ctx.gen.choice((("[", "]"), ("(", ")"), ("[", "]"), ("<", ">")))
    return plain(opening) + phi(labels.USERNAME, _user_id(ctx.gen, person)) + plain(closing)
