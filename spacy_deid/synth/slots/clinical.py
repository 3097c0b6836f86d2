"""Non-PHI text (traps included): drugs, doses, diagnoses, durations, times,
vitals, blood pressures, rating scales, lab values, clinical abbreviations.
None of it is annotated; the vocabulary is `data/synth/fillers.jsonl`.
"""
from ...surrogates import lists
from .. import fillers
from ..fillers import CLINICAL_ABBREVIATIONS, DURATIONS_SHORT, LAB_TRAPS, SCALES, SCORE_FORMS, SCORE_TRAPS
from .registry import SLOTS, count_family, plain, slot


def _filler(name, values, phenomenon=None):
    def fill(ctx, arg):
        if phenomenon:
            ctx.phenomena[phenomenon] += 1
        return plain(ctx.gen.choice(values))
    SLOTS[name] = fill


_filler("drug", fillers.DRUGS)
_filler("dose", fillers.DOSES)
_filler("freq", fillers.FREQUENCIES)
_filler("combo", fillers.COMBO_DOSES, "trap_combination_dose")
_filler("symptom", fillers.SYMPTOMS)
@slot("dx")
def dx(ctx, arg):
    diagnosis = ctx.gen.choice(fillers.DIAGNOSES)
    if ctx.gen.chance(0.2):
        ctx.phenomena["trap_icd_code"] += 1
        diagnosis = ctx.gen.choice((f"{diagnosis} ({fillers.ICD10[diagnosis]})",
                                    f"{fillers.ICD10[diagnosis]} {diagnosis}"))
    return plain(diagnosis)


_filler("billing", fillers.BILLING, "trap_billing_code")
_filler("medical", fillers.MEDICAL)
_filler("duration", fillers.DURATIONS, "trap_duration")
_filler("time", fillers.TIMES, "trap_time_of_day")
_filler("eponym", lists.words("diseases_eponyms.txt"), "trap_eponym_disease")
_filler("substance", fillers.SUBSTANCES)
_filler("subst_value", fillers.SUBSTANCE_VALUES)


@slot("bp")
def bp(ctx, arg):
    ctx.phenomena["trap_blood_pressure"] += 1
    gen = ctx.gen
    return plain(f"{gen.rng.randint(96, 168)}/{gen.rng.randint(58, 102)}")


@slot("scale")
def scale(ctx, arg):
    """"9/10": a rating, not a date."""
    ctx.phenomena["trap_rating_scale"] += 1
    return plain(f"{ctx.gen.rng.randint(0, 10)}/10")


@slot("school_years")
def school_years(ctx, arg):
    ctx.phenomena["trap_years_of_school"] += 1
    return plain(str(ctx.gen.rng.randint(8, 20)))


@slot("num")
def num(ctx, arg):
    low, _, high = (arg or "1-10").partition("-")
    return plain(str(ctx.gen.rng.randint(int(low), int(high))))


@slot("vitals")
def vitals(ctx, arg):
    ctx.phenomena["trap_blood_pressure"] += 1
    g = ctx.gen.rng
    return plain(ctx.gen.choice((
        f"BP {g.randint(96, 168)}/{g.randint(58, 102)}, HR {g.randint(54, 118)}, RR {g.randint(12, 22)}, "
        f"T {g.randint(970, 1003) / 10}, SpO2 {g.randint(92, 100)}%",
        f"BP: {g.randint(96, 168)}/{g.randint(58, 102)}  P: {g.randint(54, 118)}  Wt: {g.randint(98, 310)} lbs",
        f"blood pressure {g.randint(96, 168)}/{g.randint(58, 102)}, pulse {g.randint(54, 118)}",
        f"T {g.randint(970, 1003) / 10} P {g.randint(54, 118)} BP {g.randint(96, 168)}/{g.randint(58, 102)} "
        f"O2 sat {g.randint(92, 100)}% RA",
    )))


def _score_trap(gen) -> str:
    """A rating-scale score: one of the written-out examples, or any scale in any
    of the forms notes use, with a value in its range."""
    if gen.chance(0.3):
        return gen.choice(SCORE_TRAPS)
    scale, top = gen.choice(SCALES)
    return gen.choice(SCORE_FORMS).format(s=scale, n=gen.rng.randint(0, top), top=top)


def _time_trap(gen) -> str:
    """A clock time ("3 am", "11:30 PM", "0300"): a number that is no age."""
    hour, minute = gen.rng.randint(1, 12), gen.choice(("00", "15", "30", "45"))
    meridiem = gen.choice(("am", "pm", "AM", "PM", "a.m.", "p.m."))
    forms = (f"{hour} {meridiem}", f"{hour}{meridiem}", f"{hour}:{minute} {meridiem}",
             f"{hour}:{minute}", f"{gen.rng.randint(0, 23):02d}{minute}")
    return gen.choice(forms)


@slot("trap")
def trap(ctx, arg):
    """`{trap:abbr}`, `{trap:lab}`, `{trap:dur}`, `{trap:score}`, `{trap:time}`: never annotated."""
    count_family(ctx, "clinical_trap")
    if arg == "score":
        return plain(_score_trap(ctx.gen))
    if arg == "time":
        return plain(_time_trap(ctx.gen))
    values = {"abbr": CLINICAL_ABBREVIATIONS, "lab": LAB_TRAPS, "dur": DURATIONS_SHORT}[arg]
    return plain(ctx.gen.choice(values))
