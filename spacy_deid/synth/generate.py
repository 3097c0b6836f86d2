"""Assemble whole notes: a layout, section headers, bodies from templates.

`generate_notes(n, seed)` yields `Note`s with exact gold PHI mentions;
`generate_notes_with_info` also yields what went into each note (layout,
templates, hard phenomena) for the report. Every random choice of a note
comes from a `random.Random` seeded by (seed, patient, record), so a seed
fixes the output byte for byte and notes do not depend on each other.
"""
import datetime as dt
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterator, List, Optional, Tuple

from ..corpus.note import Note
from . import fillers
from .assembler import NoteBuilder, Seg, capitalize_first, fix_articles, strip_segments, tidy_spaces
from .context import NoteContext, Patient, draw_clinician, draw_patient
from .families import FAMILIES, families_for, family_key, pool_name
from .fields import FIELD_POOLS
from .layouts import BULLETS, FIELD_SEPARATORS, HEADER_STYLES, LAYOUTS, NURSING, SECTIONS, Layout, Section
from .sentences import POOLS
from .slots import SLOTS
from ..surrogates import SurrogateGenerator
from .template import Template, render, select

MIN_WORDS, MAX_WORDS = 300, 2500
NURSING_MIN_WORDS = 40  # nursing notes are short: a shift's events and a systems review
# A Titlecase word the tokenizer cuts from capitals or digits glued before it
# ("HPIPatient", "39Sex"); "He", "Dr." and "O'Brien" stay glued, so they are not used.
_TITLECASE_WORD = re.compile(r"[A-Z][a-z]{2,}")
# A sentence ending in a plain word and its period ("JMH.", "2003."): the tokenizer
# cuts a period glued between it and a Titlecase word.
_PLAIN_WORD_PERIOD = re.compile(r"(?:^|\s)[A-Za-z0-9]+\.$")
# PHI ending in a lone letter ("Bed C", "ZF91987P", "gunner's mate g"): a period
# after it becomes part of the token ("C."), as in an initial.
_LONE_LETTER_END = re.compile(r"(?:^|[^A-Za-z])[A-Za-z]$")
_LAST_WORD = re.compile(r"[A-Za-z]+$")


@lru_cache(maxsize=1)
def _abbreviations() -> frozenset:
    """Words spaCy's English tokenizer keeps with a following period ("Corp", "Mo", "Jr")."""
    from spacy.lang.en import English

    return frozenset(text[:-1] for text in English.Defaults.tokenizer_exceptions
                     if text.endswith(".") and text[:-1].isalpha())


def period_joins(text: str) -> bool:
    """Whether a period written after `text` would become part of its last token
    ("Bed C.", "Acme Corp.", "Dr. Mo."), so a sentence ending on it gets none."""
    if _LONE_LETTER_END.search(text):
        return True
    last = _LAST_WORD.search(text)
    return bool(last) and last.group() in _abbreviations()


def glue_splits(left: str, right: str) -> bool:
    """Whether the package tokenizer cuts `left` + `right` written without a
    space: lower→Upper ("winterHx"), or capitals or digits before a Titlecase
    word ("HPIPatient", "39Sex"). Glue artifacts are only made where it does, so
    every gold span stays aligned to tokens."""
    if not left or not right or re.search(r"[./@:]\S*$", left):
        return False  # URLs, e-mails, "3.5": the tokenizer keeps what is glued to them
    if left[-1].islower():
        return right[0].isupper()
    return (left[-1].isupper() or left[-1].isdigit()) and bool(_TITLECASE_WORD.match(right))
TEMPLATE_HALVES = ("A", "B", "all")
# Value-list halves of the name-held-out split (spacy_deid.surrogates.lists.half_of).
VALUE_HALVES = ("A", "B", "all", None)

# Nursing notes: their default share of notes (the nursing_style family's weight;
# `--nursing` sets it) and how often one is typed all in capitals or lower case.
NURSING_SHARE = FAMILIES["nursing_style"].weight
NURSING_UPPER, NURSING_LOWER = 0.2, 0.3

# Probability that each header field appears (by template id).
HEADER_FIELD_PROBS = {
    "header.000": .75, "header.001": .4, "header.002": .45, "header.003": .8, "header.004": .35,
    "header.005": .5, "header.006": .35, "header.007": .3, "header.008": .12, "header.009": .35,
    "header.010": .25, "header.011": .12, "header.012": .12, "header.013": .2, "header.014": .08,
    "header.015": .04, "header.016": .06, "header.017": .05, "header.018": .07, "header.019": .07,
    "header.020": .08, "header.021": .15, "header.022": .2, "header.023": .15, "header.024": .15,
    "header.025": .2, "header.026": .04, "header.027": .15, "header.028": .04, "header.029": .04, "header.030": .04,
    "header.031": .03, "header.032": .2, "header.033": .04, "header.034": .04, "header.035": .05,
    "header.036": .05, "header.037": .08, "header.038": .04, "header.039": .03,
    # signature block: pager, phone and fax lines are rare in N-GRID
    "signature.000": .6, "signature.001": .12, "signature.002": .25, "signature.003": .1,
    "signature.004": .05, "signature.005": .2, "signature.006": .3, "signature.007": .25,
    "signature.008": .35, "signature.009": .05, "signature.010": .25, "signature.011": .06,
    "signature.012": .2,
}


@dataclass
class NoteInfo:
    """What went into a note (for reports; never written to the XML)."""

    note_id: str
    layout: str
    words: int
    phenomena: Counter = field(default_factory=Counter)
    templates: Counter = field(default_factory=Counter)
    inserted: List[str] = field(default_factory=list)  # the value inserted per mention, in order
    wrapped: bool = False  # lines hard-wrapped at a fixed width
    note_type: str = "intake"


@dataclass
class _Style:
    header: str
    separator: str
    bullet: str
    newline: str
    glue: float  # probability of a conjoined-token artifact at a line join
    verbosity: float
    wrap: int = 0  # hard-wrap width of exported text (0: lines are not wrapped)


def _draw_style(rng: random.Random) -> _Style:
    def weighted(table):
        keys = list(table)
        values = [table[k][1] if isinstance(table[k], tuple) else table[k] for k in keys]
        return rng.choices(keys, weights=values)[0]

    return _Style(
        header=weighted(HEADER_STYLES),
        separator=weighted(FIELD_SEPARATORS),
        bullet=weighted(BULLETS),
        newline="\r\n" if rng.random() < 0.04 else "\n",
        glue=rng.choice((0.0, 0.0, 0.02, 0.05, 0.1)),
        verbosity=min(2.6, max(0.45, rng.lognormvariate(0.05, 0.4))),
        wrap=rng.choice((60, 72, 80, 100)) if rng.random() < 0.1 else 0,
    )


class _NoteWriter:
    """Renders one note into blocks (lines and paragraphs) of segments."""

    def __init__(self, ctx: NoteContext, style: _Style, half: str):
        self.ctx, self.style, self.half = ctx, style, half
        self.rng = ctx.rng
        self.blocks: List[Tuple[List[Seg], str]] = []  # (segments, separator after)

    # --- rendering helpers -------------------------------------------------------
    def render(self, source: str, template_id: Optional[str] = None) -> List[Seg]:
        if template_id:
            self.ctx.templates_used[template_id] += 1
        return strip_segments(render(source, self.ctx, SLOTS, self.rng))

    def sentence(self, template: Template) -> List[Seg]:
        self.ctx.relative = None  # each sentence picks its own relative
        segs = capitalize_first(fix_articles(tidy_spaces(self.render(template.source, template.id))))
        if segs and segs[-1].label is None:
            text = segs[-1].text.rstrip()
            segs[-1] = Seg(text)
        if (len(segs) > 1 and segs[-1] == Seg(".") and segs[-2].label
                and period_joins(segs[-2].text)):
            segs.pop()
        if segs and not re.search(r"[.!?\"')\]]$", segs[-1].text):
            if not (segs[-1].label and period_joins(segs[-1].text)):
                segs.append(Seg("."))
        return strip_segments(segs)

    def count(self, section: Section) -> int:
        low, high = section.count
        return max(1, round(self.rng.uniform(low, high) * self.style.verbosity))

    def pool(self, name: str) -> List[Template]:
        return select(POOLS[name], self.half)

    def field_pool(self, name: str) -> List[Template]:
        return select(FIELD_POOLS[name], self.half)

    def add(self, segs: List[Seg], after: str = "\n") -> None:
        if segs:
            self.blocks.append((segs, after))

    # --- sections -------------------------------------------------------------------
    def header_line(self, section: Section) -> List[Seg]:
        spelling = self.rng.choice(section.headers)
        pattern = HEADER_STYLES[self.style.header][0]
        text = pattern.replace("{h}", spelling).replace("{H}", spelling.upper())
        return [Seg(text)]

    def section(self, section: Section) -> None:
        if section.kind == "title":
            self.title(section)
            return
        period_glues = self.ctx.phenomena["conjoined_after_period"]
        if section.field_pool and self.rng.random() < section.field_share:
            body = self.fields(section, section.field_pool)
        else:
            body = {
                "narrative": self.narrative, "fields": self.fields, "list": self.listing, "mse": self.mse,
                "checklist": self.checklist, "block": self.block,
            }[section.kind](section)
        if not body:
            return
        # Some EHR exports upper-case whole sections (not where a period glues two
        # sentences: "DAKOTA.HIS" would be one token).
        if (self.rng.random() < 0.02
                and self.ctx.phenomena["conjoined_after_period"] == period_glues):
            self.ctx.phenomena["upper_case_section"] += 1
            body = [[Seg(seg.text.upper(), seg.label) for seg in block] for block in body]
        if section.headers:
            header = self.header_line(section)
            if self.style.header.endswith("inline") and section.kind in ("narrative",):
                if self.style.header.endswith("glued_inline"):
                    header = self.glued_header(header, body[0])
                body[0] = strip_segments(header + body[0])
            else:
                self.add(header)
        for i, block in enumerate(body):
            last = i == len(body) - 1
            self.add(block, "\n\n" if (last or section.kind == "narrative") and self.rng.random() < 0.7 else "\n")

    def glued_header(self, header: List[Seg], first: List[Seg]) -> List[Seg]:
        """"HPIPatient reports": the header glued to the first word where the
        tokenizer cuts the case change (CAPS→Title, lower→Upper), else "HPI: "."""
        text = header[0].text
        if glue_splits(text, first[0].text):
            self.ctx.phenomena[family_key("glued_header")] += 1
            return header
        return [Seg(text + ": ")]

    def block(self, section: Section) -> List[List[Seg]]:
        """One multi-line template (letterhead, salutation, signature block)."""
        template = self.rng.choice(self.pool(section.pool))
        segs = self.render(template.source, template.id)
        newline = self.style.newline
        return [[Seg(seg.text.replace("\n", newline), seg.label) if seg.label is None else seg
                 for seg in segs]]

    def title(self, section: Section) -> None:
        title = self.rng.choice(section.headers)
        roll = self.rng.random()
        if roll < 0.25:
            self.add(self.render("{hosp:here}"))
            self.add([Seg(title)])
        elif roll < 0.35:
            self.add(self.render("{dept}[ -|,| at] {hosp:here}"))
            self.add([Seg(title)])
        elif roll < 0.45:
            self.add(self.render(f"{title} - {{hosp:abbr}}"))
        elif roll < 0.55:  # a banner: department in capitals, then the facility
            self.add(self.render("{dept_name:upper}"))
            self.add(self.render("{hosp:here}"))
            self.add([Seg(title)])
        else:
            self.add([Seg(title)])

    def choose_templates(self, section: Section):
        """The section's template pool, its sentence count and the templates drawn
        (PHI-free "plain" ones mixed in at the section's share)."""
        templates = self.pool(section.pool)
        n = self.count(section)
        n_plain = round(n * section.plain_share) if section.plain_pool else 0
        chosen = self.rng.sample(templates, min(len(templates), max(1, n - n_plain)))
        if n_plain:
            plain = self.pool(section.plain_pool)
            chosen += self.rng.sample(plain, min(len(plain), n_plain))
            self.rng.shuffle(chosen)
        self.add_family_templates(section.key, chosen, POOLS)
        return templates, n, chosen

    def add_family_templates(self, section: str, chosen: List[Template], pools) -> None:
        """Each phenomenon family of this section joins it with the family's weight
        (one template of its pool, at a random place)."""
        lines = pools is FIELD_POOLS
        for family in families_for(section):
            if self.rng.random() < FAMILIES[family].weight:
                pool = select(pools[pool_name(family, lines)], self.half)
                chosen.insert(self.rng.randrange(len(chosen) + 1), self.rng.choice(pool))

    def narrative(self, section: Section) -> List[List[Seg]]:
        templates, n, chosen = self.choose_templates(section)
        paragraphs: List[List[Seg]] = [[]]
        for template in chosen:
            segs = self.sentence(template)
            current = paragraphs[-1]
            if current:
                if len(current) > 6 and self.rng.random() < 0.25:
                    paragraphs.append([])
                    current = paragraphs[-1]
                else:
                    joiner = " "
                    if (current[-1].text.endswith(".") and self.rng.random() < self.style.glue / 2
                            and _PLAIN_WORD_PERIOD.search("".join(s.text for s in current[-2:]))
                            and _TITLECASE_WORD.match(segs[0].text)):
                        # not "aware.raquel", "Kriso').His", "univ.com.Contact": one token each
                        joiner = ""  # "JMH.Does": no space after the period
                        self.ctx.phenomena["conjoined_after_period"] += 1
                    elif self.rng.random() < 0.08:
                        joiner = "  "
                    current.append(Seg(joiner))
            current.extend(segs)
        for paragraph in paragraphs:
            # Some notes drop the final period, so a paragraph can end on PHI.
            if (len(paragraph) > 1 and paragraph[-1].text == "." and paragraph[-2].label
                    and self.rng.random() < 0.3):
                paragraph.pop()
        return [strip_segments(p) for p in paragraphs if p]

    def field_line(self, template: Template) -> List[Seg]:
        attribute, value = template.source
        self.ctx.relative = None
        self.ctx.templates_used[template.id] += 1
        segs = tidy_spaces(self.render(attribute)) + [Seg(self.style.separator)] + tidy_spaces(self.render(value))
        return capitalize_first(fix_articles(strip_segments(segs)))

    def fields(self, section: Section, pool: str = "") -> List[List[Seg]]:
        pool = pool or section.pool
        templates = self.field_pool(pool)
        if pool == "dx_axes":
            chosen = list(templates)
        elif pool in ("psych_fields", "social_fields"):
            chosen = self.rng.sample(templates, min(len(templates), max(3, self.count(section))))
        elif pool in ("header", "signature"):
            chosen = [t for t in templates if self.rng.random() < HEADER_FIELD_PROBS.get(t.id, 0.1)]
            if not chosen:
                chosen = templates[:1]
        elif pool == "substance":
            generic, specific = templates[0], templates[1:]
            n_generic = self.rng.randint(2, 7)
            chosen = [generic] * n_generic + self.rng.sample(specific, min(len(specific), self.count(section) // 2 + 1))
            self.rng.shuffle(chosen)
        else:
            chosen = self.rng.sample(templates, min(len(templates), self.count(section)))
        self.add_family_templates(pool, chosen, FIELD_POOLS)
        lines = [self.field_line(t) for t in chosen]
        if pool == "header" and len(lines) > 3 and self.rng.random() < 0.3:
            # EHR banners put several fields on one line: "Name: X    DOB: Y    MRN: Z"
            self.ctx.phenomena["fields_on_one_line"] += 1
            joiner = Seg(self.rng.choice(("   ", "    ", " | ", "  ", "\t")))
            grouped, i = [], 0
            while i < len(lines):
                size = self.rng.randint(2, 3)
                merged: List[Seg] = []
                for line in lines[i:i + size]:
                    merged += ([joiner] if merged else []) + line
                grouped.append(strip_segments(merged))
                i += size
            lines = grouped
        if pool == "signature" and self.rng.random() < 0.5:
            lines.insert(0, self.render("[Electronically signed by|Signed:|Dictated by|--] {dr:att}[, {cred}|] [on|] {date:visit} [at|] {time}"))
        return lines

    def listing(self, section: Section) -> List[List[Seg]]:
        templates, n, chosen = self.choose_templates(section)
        if section.pool == "med_trials" and n > len(chosen):  # med lists repeat the simple form
            chosen += [templates[0]] * (n - len(chosen))
        lines = []
        for i, template in enumerate(chosen, 1):
            bullet = self.style.bullet
            bullet = f"{i}. " if bullet == "#" else f"{i}) " if bullet == "#)" else bullet
            lines.append(strip_segments([Seg(bullet)] + self.sentence(template)))
        return lines

    def checklist(self, section: Section) -> List[List[Seg]]:
        """"Depression: [x] low mood [ ] anhedonia": form checkboxes (no PHI)."""
        boxes = self.rng.choice((("[x]", "[ ]"), ("(+)", "(-)"), ("X", "_"), ("yes", "no")))
        groups = (("Depression", fillers.SYMPTOMS[:12]), ("Mania", fillers.SYMPTOMS[8:16]),
                  ("Anxiety", fillers.SYMPTOMS[15:23]), ("Psychosis", fillers.SYMPTOMS[21:26]),
                  ("Other", fillers.SYMPTOMS[26:]))
        lines = []
        for name, symptoms in self.rng.sample(groups, min(len(groups), self.count(section))):
            picked = self.rng.sample(symptoms, min(len(symptoms), self.rng.randint(2, 5)))
            marks = " ".join(f"{self.rng.choice(boxes)} {symptom}" for symptom in picked)
            lines.append([Seg(f"{name}{self.style.separator}{marks}")])
        return lines

    def mse(self, section: Section) -> List[List[Seg]]:
        items = [(attr, self.rng.choice(values)) for attr, values in fillers.MSE_LINES
                 if self.rng.random() < 0.85]
        extra = [self.field_line(t) for t in
                 self.rng.sample(self.field_pool(section.pool), min(3, self.count(section)))]
        if self.rng.random() < 0.55:
            lines = [[Seg(f"{attr}{self.style.separator}{value}")] for attr, value in items]
        else:
            text = " ".join(f"{attr}: {value}." if not value.endswith(".") else f"{attr}: {value}"
                            for attr, value in items)
            lines = [[Seg(text)]]
        return lines + extra

    # --- output ------------------------------------------------------------------------
    def build(self) -> NoteBuilder:
        builder = NoteBuilder()
        newline = self.style.newline
        for i, (segs, after) in enumerate(self.blocks):
            if self.style.wrap:
                segs = self._wrap(segs, self.style.wrap, newline)
            builder.extend(segs)
            if i + 1 == len(self.blocks):
                builder.add(newline)
                break
            nxt = self.blocks[i + 1][0]
            if (self.rng.random() < self.style.glue and re.search(r"\w$", segs[-1].text)
                    and re.match(r"\w", nxt[0].text) and glue_splits(segs[-1].text, nxt[0].text)):
                phi_edge = segs[-1].label is not None or nxt[0].label is not None
                self.ctx.phenomena["conjoined_phi_boundary" if phi_edge else "conjoined_plain"] += 1
                continue  # "winterHx": the line break is lost
            builder.add(after.replace("\n", newline))
        return builder


    def _wrap(self, segs: List[Seg], width: int, newline: str) -> List[Seg]:
        """Hard-wrap a block at spaces outside PHI, as some EHR exports do."""
        out, column = [], 0
        for seg in segs:
            if seg.label is not None:
                out.append(seg)
                column += len(seg.text)
                continue
            chars = []
            for char in seg.text:
                if char == " " and column >= width:
                    chars.append(newline)
                    column = 0
                    self.ctx.phenomena["hard_wrapped_lines"] += 1
                else:
                    chars.append(char)
                    column = 0 if char == "\n" else column + 1
            out.append(Seg("".join(chars)))
        return out


def _layouts(half: str, nursing: float) -> list:
    """The layouts of a template half; nursing layouts only when they have a share."""
    return [layout for layout in select(LAYOUTS, half)  # type: ignore[arg-type]
            if nursing > 0 or layout.note_type != NURSING]


def _weight(layout: Layout, layouts: list, nursing: float) -> float:
    """A layout's draw weight: nursing layouts share `nursing` of all notes equally."""
    if layout.note_type != NURSING:
        return layout.weight
    others = sum(other.weight for other in layouts if other.note_type != NURSING)
    count = sum(1 for other in layouts if other.note_type == NURSING)
    return others * nursing / (1 - nursing) / count


def check_nursing_share(nursing: float) -> float:
    if not 0 <= nursing < 1:
        raise ValueError(f"the nursing share must be at least 0 and below 1, not {nursing!r}")
    return nursing


def _build_note(note_id: str, patient: Patient, visit: dt.date, rng: random.Random,
                half: str, values: Optional[str] = None,
                nursing: float = 0.0) -> Tuple[Note, NoteInfo]:
    gen = SurrogateGenerator(rng=rng, values=values)
    facility = gen.choice(patient.hospitals + [gen.hospital()])
    age_now = patient.age + (visit - patient.first_visit).days // 365
    ctx = NoteContext(
        rng=rng, gen=gen, patient=patient, visit_date=visit, age_now=age_now,
        attending=gen.choice([c for c in patient.clinicians if c.role == "psychiatrist"]
                             + [draw_clinician(gen, "psychiatrist")] * 2),
        facility=facility, facility_abbr=SurrogateGenerator.abbreviate(facility) or facility,
        half=half,
    )
    layouts = _layouts(half, nursing)
    layout = rng.choices(layouts, weights=[_weight(layout, layouts, nursing) for layout in layouts])[0]
    case = "upper" if layout.upper else ""
    if layout.note_type == NURSING:
        ctx.phenomena[family_key("nursing_style")] += 1
        ctx.phenomena[f"note_type:{layout.note_type}"] += 1
        if layout.case == "mixed":  # charted as typed: often all capitals or all lower case
            roll = rng.random()
            case = "upper" if roll < NURSING_UPPER else "lower" if roll < NURSING_UPPER + NURSING_LOWER else ""
    elif layout.note_type != "intake":
        ctx.phenomena[family_key("note_type")] += 1
        ctx.phenomena[f"note_type:{layout.note_type}"] += 1
    writer = _NoteWriter(ctx, _draw_style(rng), half)
    if case:  # glued capitals ("DAKOTA.HIS", "BELLESAYS") are one token: no glue
        writer.style.glue = 0.0
        if writer.style.header.endswith("glued_inline"):
            writer.style.header = "upper_inline"
    for key, probability in layout.sections:
        if rng.random() < probability:
            writer.section(SECTIONS[key])
    if case:  # dictations transcribed in capitals, nursing notes typed in one case, PHI included
        change = str.upper if case == "upper" else str.lower
        if case == "lower":
            ctx.phenomena["lower_case_note"] += 1
        writer.blocks = [([Seg(change(seg.text), seg.label) for seg in segs], after)
                         for segs, after in writer.blocks]
    builder = writer.build()
    text = builder.text()
    note = Note(note_id=note_id, text=text, mentions=list(builder.mentions),
                patient_id=note_id.split("-")[0])
    info = NoteInfo(note_id=note_id, layout=layout.id, words=len(text.split()),
                    phenomena=ctx.phenomena, templates=ctx.templates_used,
                    inserted=list(builder.inserted), wrapped=bool(writer.style.wrap),
                    note_type=layout.note_type)
    return note, info


def generate_note(note_id: str, patient: Patient, visit: dt.date, seed: str,
                  half: str = "all", values: Optional[str] = None,
                  nursing: float = 0.0) -> Tuple[Note, NoteInfo]:
    """One note of a given length range; retries with derived seeds until
    its length is between MIN_WORDS (NURSING_MIN_WORDS for the shorter
    nursing notes) and MAX_WORDS words."""
    for attempt in range(20):
        note, info = _build_note(note_id, patient, visit, random.Random(f"{seed}:{attempt}"), half, values,
                                 nursing)
        low = NURSING_MIN_WORDS if info.note_type == NURSING else MIN_WORDS
        if low <= info.words <= MAX_WORDS:
            return note, info
    return note, info


def generate_notes_with_info(n: int, seed: int = 0, templates: str = "all",
                             values: Optional[str] = None,
                             nursing: Optional[float] = None) -> Iterator[Tuple[Note, NoteInfo]]:
    nursing = check_nursing_share(NURSING_SHARE if nursing is None else nursing)
    if templates not in TEMPLATE_HALVES:
        raise ValueError(f"templates must be one of {TEMPLATE_HALVES}, not {templates!r}")
    if values not in VALUE_HALVES:
        raise ValueError(f"values must be one of {VALUE_HALVES}, not {values!r}")
    values = None if values == "all" else values
    produced, patient_number = 0, 100
    while produced < n:
        patient_number += 1
        patient_rng = random.Random(f"spacy-deid-synth:{seed}:{templates}:patient:{patient_number}")
        patient = draw_patient(SurrogateGenerator(rng=patient_rng, values=values))
        records = min(n - produced, patient_rng.choices((1, 2, 3, 4), weights=(55, 25, 14, 6))[0])
        visit = patient.first_visit
        for record in range(1, records + 1):
            note_id = f"{patient_number}-{record:02d}"
            yield generate_note(note_id, patient, visit,
                                f"spacy-deid-synth:{seed}:{templates}:note:{note_id}", templates, values,
                                nursing)
            visit += dt.timedelta(days=patient_rng.randint(7, 400))
            produced += 1


def generate_notes(n: int, seed: int = 0, templates: str = "all",
                   values: Optional[str] = None, nursing: Optional[float] = None) -> Iterator[Note]:
    """`n` fictional psychiatric intake notes with gold PHI mentions.

    `templates` is "A", "B" or "all": notes from one half of the layouts and
    templates only, so train and test notes can come from disjoint templates.
    `values` is "A", "B" or None/"all": PHI values (names, places, occupations,
    organisation words) from one half of every value list only, so test notes
    can hold only names never seen in training (the name-held-out split).
    `nursing` is the share of ICU, ward and psychiatric-unit nursing notes
    (0 = none; None = NURSING_SHARE, the `nursing_style` family's weight).
    """
    for note, _ in generate_notes_with_info(n, seed, templates, values, nursing):
        yield note
