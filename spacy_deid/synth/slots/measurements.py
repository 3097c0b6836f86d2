"""Numbers of nursing notes that are never PHI: vital signs, drips and their
rates, ventilator settings, blood gases, lab values, intake and output
(`{vital:<kind>}`, `{drip}`, `{drip_name}`, `{dose_iv}`), and the clinical words
around them (`{shift}`, `{icu}`, `{abx}`, `{charting}`, ...). A number next to
a name or a date must stay unannotated: these are the traps of issue 25.
"""
import re

from ..fillers import (
    ANTIBIOTICS, CHARTING_SYSTEMS, DISPOSITIONS, DRIPS, IV_DOSES, SHIFTS, SPUTUM_AMOUNTS, SPUTUM_COLORS,
    TUBE_FEEDS, UNIT_TYPES,
)
from .registry import SLOTS, plain, slot

_RANGE = re.compile(r"\{([ir]):([\d.]+)-([\d.]+)\}")


def _fill_rates(gen, text: str) -> str:
    """"levophed @ {r:0.02-0.3} mcg/kg/min" → "levophed @ 0.12 mcg/kg/min": `i` an
    integer in the range, `r` a decimal with the low end's number of decimals."""
    def number(match):
        kind, low, high = match.groups()
        if kind == "i":
            return str(gen.rng.randint(int(low), int(high)))
        places = len(low.partition(".")[2]) or 1
        return f"{gen.rng.uniform(float(low), float(high)):.{places}f}"
    return _RANGE.sub(number, text)


def _tens(value: int) -> str:
    return f"{value // 10 * 10}s"


def _vital(gen, kind: str) -> str:
    r = gen.rng.randint
    forms = {
        "hr": lambda: gen.choice((f"hr {r(50, 130)}", f"hr {_tens(r(50, 120))}", f"hr {r(55, 90)}-{r(91, 130)}",
                                  f"hr {_tens(r(50, 110))}-{_tens(r(60, 120))}", f"HR {r(50, 130)}")),
        "bp": lambda: gen.choice((f"bp {r(85, 170)}/{r(40, 95)}", f"sbp {_tens(r(80, 170))}",
                                  f"sbp {r(85, 110)}-{r(111, 160)}", f"bp {r(90, 120)}-{r(121, 160)}/{_tens(r(40, 90))}",
                                  f"map {r(55, 75)}-{r(76, 95)}", f"nbp {r(85, 170)}/{r(40, 95)}")),
        "rr": lambda: gen.choice((f"rr {r(10, 22)}-{r(23, 34)}", f"rr {_tens(r(10, 39))}", f"rr {r(10, 34)}")),
        "sat": lambda: gen.choice((f"sats {r(88, 95)}-{r(96, 100)}%", f"spo2 {r(88, 100)}%",
                                   f"o2 sat {r(88, 100)}%", f"sat {r(90, 100)}%")),
        "temp": lambda: gen.choice((f"tmax {r(980, 1034) / 10}", f"t {r(970, 1024) / 10} po",
                                    f"temp {r(360, 395) / 10}", f"tmax {r(365, 394) / 10}c")),
        "cvp": lambda: gen.choice((f"cvp {r(2, 10)}-{r(11, 20)}", f"cvp {r(2, 20)}", f"pad {r(8, 30)}",
                                   f"pa {r(25, 60)}/{r(10, 30)}")),
        "uo": lambda: gen.choice((f"uo {r(10, 40)}-{r(41, 200)}cc/hr", f"u/o {r(20, 150)} cc/hr",
                                  f"uo >{r(20, 60)}cc/hr", f"uo {r(200, 1500)}cc for shift")),
        "io": lambda: gen.choice((f"i/o +{r(1, 4)}.{r(0, 9)}L", f"neg {r(100, 2000)}cc", f"+{r(100, 3000)}cc",
                                  f"fluid balance -{r(100, 1500)}", f"los +{r(1, 12)}.{r(0, 9)}l")),
        "o2": lambda: gen.choice((f"{r(1, 6)}l nc", f"{r(2, 6)}L np", f"{r(35, 100)}% fm", "100% nrb",
                                  f"{r(40, 70)}% cool neb", f"{r(35, 60)}% trach mask", "ra")),
        "vent": lambda: gen.choice((f"ac {r(4, 7)}00x{r(10, 24)} peep {r(5, 12)} fio2 {r(3, 10)}0%",
                                    f"ac {r(4, 7)}00x{r(10, 24)}x{r(40, 100)}%x{r(5, 12)}",
                                    f"cpap {r(5, 10)}/{r(5, 10)}", f"ps {r(5, 20)}/{r(5, 10)} fio2 {r(35, 60)}%",
                                    f"simv {r(4, 7)}00x{r(8, 14)} ps {r(5, 15)} peep {r(5, 10)}",
                                    f"peep {r(5, 15)}, fio2 {r(35, 100)}%", f"tv {r(350, 700)} rr {r(10, 24)}")),
        "abg": lambda: gen.choice((f"7.{r(18, 50)}/{r(28, 70)}/{r(55, 250)}",
                                   f"7.{r(18, 50)}/{r(28, 70)}/{r(55, 250)}/{r(14, 32)}/{r(-8, 6)}",
                                   f"abg 7.{r(18, 50)}/{r(28, 70)}/{r(55, 250)}")),
        "lab": lambda: gen.choice((f"k {r(28, 55) / 10}", f"mg {r(12, 28) / 10}", f"hct {r(200, 420) / 10}",
                                   f"wbc {r(25, 250) / 10}", f"plt {r(20, 450)}", f"inr {r(10, 45) / 10}",
                                   f"bun/cr {r(8, 90)}/{r(5, 60) / 10}", f"lactate {r(8, 80) / 10}",
                                   f"na {r(125, 150)}", f"ca {r(70, 105) / 10}", f"phos {r(15, 60) / 10}",
                                   f"glucose {r(60, 400)}", f"trop {r(1, 300) / 100}", f"ck {r(40, 2000)}")),
        "fs": lambda: gen.choice((f"fs {r(60, 350)}", f"fsbs {r(60, 350)}", f"bs {_tens(r(80, 300))}",
                                  f"fingerstick {r(60, 350)}")),
    }
    return forms[kind]()


@slot("vital")
def vital(ctx, arg):
    """`{vital:hr|bp|rr|sat|temp|cvp|uo|io|o2|vent|abg|lab|fs}`: a measurement with its
    label, in the shapes nursing notes write ("hr 80s", "sbp 90-110", "ps 10/5")."""
    ctx.phenomena["trap_vital_number"] += 1
    return plain(_vital(ctx.gen, arg))


@slot("drip")
def drip(ctx, arg):
    """A drip with its rate ("heparin gtt @ 900 u/hr")."""
    ctx.phenomena["trap_drip_rate"] += 1
    return plain(_fill_rates(ctx.gen, ctx.gen.choice(DRIPS)))


@slot("drip_name")
def drip_name(ctx, arg):
    """A drip without its rate ("levophed")."""
    return plain(_RANGE.split(ctx.gen.choice(DRIPS))[0].split(" @")[0].split(" gtt")[0].strip())


def _filler(name, values, phenomenon=None):
    def fill(ctx, arg):
        if phenomenon:
            ctx.phenomena[phenomenon] += 1
        return plain(ctx.gen.choice(values))
    SLOTS[name] = fill


_filler("dose_iv", IV_DOSES, "trap_drip_rate")
_filler("shift", SHIFTS, "trap_shift_hours")
_filler("icu", UNIT_TYPES)
_filler("abx", ANTIBIOTICS)
_filler("charting", CHARTING_SYSTEMS, "charting_system_name")
_filler("amount", SPUTUM_AMOUNTS)
_filler("color", SPUTUM_COLORS)
_filler("tube_feed", TUBE_FEEDS)
_filler("dispo", DISPOSITIONS)
