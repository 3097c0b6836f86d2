"""Ages (AGE; only the number is PHI): `{age}`, `{age:yo}` and the other
ages of the patient's life, `{rel_age}`, `{decade}` ("in his 40s").
"""
from typing import List

from ... import labels
from ...surrogates import formats
from ..assembler import Seg
from ..context import NoteContext
from .names import _pick_relative
from .registry import phi, plain, slot


@slot("rel_age")
def rel_age(ctx, arg):
    relative = ctx.relative or _pick_relative(ctx)
    return _age_segments(ctx, relative.age, arg)


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
