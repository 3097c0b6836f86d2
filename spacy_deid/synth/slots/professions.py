"""Occupations (PROFESSION): `{prof}`, `{prof:new}`, `{prof:plural}`,
`{rel_prof}` (the relative's) and `{prof_long}` (three words or more).
"""
from typing import List

from ... import labels
from ..assembler import Seg
from ..context import NoteContext
from .names import _pick_relative
from .registry import count_family, phi, slot, subset


@slot("rel_prof")
def rel_prof(ctx, arg):
    relative = ctx.relative or _pick_relative(ctx)
    return _profession(ctx, relative.profession)


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


@slot("prof_long")
def prof_long(ctx, arg):
    """An occupation of three or more words ("medical equipment sales representative")."""
    count_family(ctx, "multiword_profession")
    gen = ctx.gen
    titles = (subset(gen, "professions.txt", "three_words")
              + subset(gen, "job_titles.txt", "three_words"))
    return _profession(ctx, gen.choice(titles))
