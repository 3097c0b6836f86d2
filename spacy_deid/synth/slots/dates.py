"""Dates (DATE): `{date:visit|dob|past|recent|future|year|month_year|weekday|
holiday|season|bare_season|month|md}` in the formats notes use.
"""
import datetime as dt
from typing import Dict, List

from ... import labels
from ...surrogates import formats, lists
from ..assembler import Seg
from ..context import NoteContext
from .registry import phi, plain, slot


def _date_text(ctx: NoteContext, value: dt.date, weights: Dict[str, int]) -> List[Seg]:
    fmt = ctx.gen.weighted(weights)
    if formats.date_kind(fmt) == "wd" or fmt.startswith("weekday"):
        ctx.phenomena["date_weekday"] += 1
    ctx.phenomena[f"date_format:{fmt}"] += 1
    return phi(labels.DATE, formats.render_date(value, fmt))


RECENT_WEIGHTS = {"md_slash": 25, "mdy_slash": 20, "mdy_slash0": 8, "month_d": 12, "mon_d": 3,
                  "month_ord": 3, "weekday": 14, "weekday_md": 2, "month_d_y": 5, "md_slash0": 3}
MONTH_YEAR_WEIGHTS = {"month_y": 40, "my_slash": 15, "mon_y": 10, "month_of_y": 10, "my_slash2": 3}
MONTH_DAY_WEIGHTS = {"md_slash": 20, "md_slash0": 3}
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
    if arg == "md":
        # "7/23": month and day without a year, as nursing notes date events
        ctx.phenomena["date_month_day"] += 1
        value = visit - dt.timedelta(days=gen.rng.randint(-3, 14))
        return _date_text(ctx, value, MONTH_DAY_WEIGHTS)
    # "past": any time in the last ten years
    value = gen.date_between(max(ctx.patient.dob + dt.timedelta(days=3650), visit - dt.timedelta(days=3650)),
                             visit - dt.timedelta(days=30))
    return _date_text(ctx, value, formats.HISTORY_DATE_WEIGHTS)
