"""The synthetic-note generator: exact offsets, determinism, conventions, halves, CLI."""
import re

import pytest
from typer.testing import CliRunner

from spacy_deid import labels
from spacy_deid.cli import app
from spacy_deid.corpus.i2b2_2014 import read_i2b2_2014, write_i2b2_2014
from spacy_deid.synth import generate_notes, generate_notes_with_info
from spacy_deid.surrogates import lists as vocab
from spacy_deid.synth.fields import FIELD_POOLS
from spacy_deid.synth.generate import MAX_WORDS, MIN_WORDS
from spacy_deid.synth.layouts import LAYOUTS, SECTIONS
from spacy_deid.synth.sentences import POOLS
from spacy_deid.synth.slots import SLOTS
from spacy_deid.synth.stats import format_table, skeletons, summarize
from spacy_deid.synth.template import parse, render


@pytest.fixture(scope="module")
def pairs():
    return list(generate_notes_with_info(20, seed=7))


def test_written_notes_read_back_with_exact_mentions(pairs, tmp_path):
    for note, info in pairs:
        path = write_i2b2_2014(note, tmp_path / f"{note.note_id}.xml")
        back = read_i2b2_2014(path)  # validates offsets and text attributes
        assert back.text == note.text
        assert back.mention_keys() == note.mention_keys()
        assert back.patient_id == note.note_id.split("-")[0]
        # each mention's text is the value the generator inserted, in order
        assert [note.text[m.start:m.end] for m in note.mentions] == info.inserted
        assert len(note.mentions) > 10


def test_mentions_do_not_overlap_and_have_no_edge_whitespace(pairs):
    for note, _ in pairs:
        ordered = sorted(note.mentions)
        for before, after in zip(ordered, ordered[1:]):
            assert before.end <= after.start
        for m in ordered:
            value = note.text[m.start:m.end]
            assert value == value.strip() and value


def test_same_seed_same_bytes_other_seed_other_notes(tmp_path):
    for name in ("a", "b"):
        for note in generate_notes(6, seed=3):
            write_i2b2_2014(note, tmp_path / name / f"{note.note_id}.xml")
    files_a = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert files_a == sorted(p.name for p in (tmp_path / "b").iterdir())
    for name in files_a:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    other = [note.text for note in generate_notes(6, seed=4)]
    assert other != [note.text for note in generate_notes(6, seed=3)]


def test_note_ids_are_patient_record_names(pairs):
    ids = [note.note_id for note, _ in pairs]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"\d{3,}-\d{2}", i) for i in ids)


def test_lengths_within_bounds(pairs):
    for note, info in pairs:
        assert MIN_WORDS <= len(note.text.split()) <= MAX_WORDS
        assert info.words == len(note.text.split())


TITLES = ("Dr.", "Dr ", "Mr.", "Ms.", "Mrs.", "Miss ")


def test_annotation_conventions(pairs):
    for note, _ in pairs:
        for m in note.mentions:
            value = note.text[m.start:m.end]
            if m.label in (labels.DOCTOR, labels.PATIENT):
                assert not value.startswith(TITLES), "titles stay outside name spans"
                assert not re.search(r",? (MD|RN|LICSW|PhD)$", value)
            if m.label == labels.AGE:
                assert re.fullmatch(r"\d{1,3}s?|[a-z -]+", value, re.I), "only the age itself"


def test_traps_stay_unannotated():
    eponyms = vocab.words("diseases_eponyms.txt")
    seen = 0
    for note in generate_notes(30, seed=11):
        covered = [(m.start, m.end) for m in note.mentions]
        for pattern in [re.escape(e) for e in eponyms] + [r"BP:? \d+/\d+", r"(?:as|is|Pain:?) \d{1,2}/10\b(?!/)", r"\d+ years of school"]:
            for match in re.finditer(pattern, note.text):
                seen += 1
                assert not any(s < match.end() and match.start() < e for s, e in covered)
    assert seen > 10


def test_every_template_uses_known_slots_and_parses():
    def slots_in(nodes):
        for node in nodes:
            if isinstance(node, list):
                for branch in node:
                    yield from slots_in(branch)
            elif isinstance(node, tuple):
                yield node[1]

    for pools in (POOLS, FIELD_POOLS):
        for pool in pools.values():
            for template in pool:
                sources = template.source if isinstance(template.source, tuple) else (template.source,)
                for source in sources:
                    assert set(slots_in(parse(source))) <= set(SLOTS), template.id


@pytest.mark.parametrize("bad", ["{pt", "[a|b", "a]b", "x|y"])
def test_malformed_templates_raise(bad):
    with pytest.raises(ValueError):
        parse(bad)


def test_template_ids_unique_and_both_halves_cover_every_pool():
    ids = [t.id for pools in (POOLS, FIELD_POOLS) for pool in pools.values() for t in pool]
    assert len(ids) == len(set(ids))
    for pools in (POOLS, FIELD_POOLS):
        for name, pool in pools.items():
            if len(pool) > 1:
                assert {t.half for t in pool} == {"A", "B"}, name
    assert {layout.half for layout in LAYOUTS} == {"A", "B"}
    for layout in LAYOUTS:
        assert all(key in SECTIONS for key, _ in layout.sections)


def test_template_halves_are_disjoint():
    used = {}
    for half in ("A", "B"):
        layouts, templates = set(), set()
        for _, info in generate_notes_with_info(8, seed=5, templates=half):
            layouts.add(info.layout)
            templates.update(info.templates)
        half_of = {t.id: t.half for pools in (POOLS, FIELD_POOLS) for p in pools.values() for t in p}
        half_of.update({layout.id: layout.half for layout in LAYOUTS})
        assert all(half_of[t] == half for t in templates | layouts)
        used[half] = templates
    assert not used["A"] & used["B"]
    with pytest.raises(ValueError):
        next(generate_notes_with_info(1, templates="C"))


def test_render_alternatives_and_slots():
    import random

    from spacy_deid.synth.context import NoteContext  # noqa: F401  (documented type)

    out = render("[a|b|c] x", None, SLOTS, random.Random(0))
    assert "".join(s.text for s in out) in ("a x", "b x", "c x")


def test_summary_counts_and_skeletons(pairs):
    summary = summarize(pairs, seconds=1.0)
    assert summary["notes"] == 20
    assert summary["phi_total"] == sum(len(n.mentions) for n, _ in pairs)
    assert sum(row["count"] for row in summary["subtypes"].values()) == summary["phi_total"]
    assert summary["diversity"]["distinct_skeletons"] <= summary["diversity"]["sentences"]
    note = pairs[0][0]
    assert all("<" in s or not any(ch.isdigit() and ch != "0" for ch in s) for s in skeletons(note))


def test_all_subtypes_in_600_notes():
    counts = {}
    for note in generate_notes(600, seed=0):
        for m in note.mentions:
            counts[m.label] = counts.get(m.label, 0) + 1
    assert set(counts) == set(labels.SUBTYPES)
    assert min(counts.values()) >= 15


def test_cli_writes_files(tmp_path):
    result = CliRunner().invoke(
        app, ["synth", str(tmp_path / "out"), "--n", "4", "--seed", "1", "--quiet",
              "--report", str(tmp_path / "report.json")])
    assert result.exit_code == 0, result.output
    files = sorted((tmp_path / "out").glob("*.xml"))
    assert len(files) == 4 and all(re.fullmatch(r"\d+-\d\d\.xml", f.name) for f in files)
    assert (tmp_path / "report.json").is_file()
    bad = CliRunner().invoke(app, ["synth", str(tmp_path / "x"), "--templates", "C"])
    assert bad.exit_code != 0


HARD_PHENOMENA = (
    "conjoined_phi_boundary", "conjoined_after_period", "name_initials", "name_lower_case",
    "name_last_first", "name_ambiguous_word", "clinician_then_hospital", "multiword_profession",
    "date_weekday", "date_holiday", "date_season", "age_in_words", "phone_extension", "pager", "fax",
    "trap_blood_pressure", "trap_combination_dose", "trap_rating_scale", "trap_duration",
    "trap_eponym_disease", "trap_years_of_school",
)


def test_hard_phenomena_occur():
    notes_with = {}
    for _, info in generate_notes_with_info(150, seed=2):
        for key in info.phenomena:
            notes_with[key] = notes_with.get(key, 0) + 1
    missing = [key for key in HARD_PHENOMENA if not notes_with.get(key)]
    assert not missing


@pytest.mark.slow  # building the package tokenizer takes about 10 s
def test_mentions_align_with_the_package_tokenizer():
    tokenizer = pytest.importorskip("spacy_deid.tokenizer")
    nlp = tokenizer.blank_deid()
    total = misaligned = 0
    for note in generate_notes(10, seed=8):
        doc = nlp.make_doc(note.text)
        for m in note.mentions:
            total += 1
            misaligned += doc.char_span(m.start, m.end) is None
    assert misaligned / total < 0.01


@pytest.mark.slow  # 2 x 600 notes
@pytest.mark.parametrize("half", ["A", "B"])
def test_each_template_half_has_all_subtypes(half):
    counts = {}
    for note in generate_notes(600, seed=0, templates=half):
        for m in note.mentions:
            counts[m.label] = counts.get(m.label, 0) + 1
    assert set(counts) == set(labels.SUBTYPES)


@pytest.mark.parametrize(
    "before,value,after",
    [("a ", "EMT", "an "), ("a ", "hour", "an "), ("an ", "teacher", "a "), ("a ", "18", "an "),
     ("an ", "21", "a "), ("A ", "accountant", "An "), ("an ", "university", "a ")],
)
def test_articles_agree_with_the_next_segment(before, value, after):
    from spacy_deid.synth.assembler import Seg, fix_articles

    fixed = fix_articles([Seg("She is " + before), Seg(value, labels.PROFESSION)])
    assert fixed[0].text == "She is " + after and fixed[1] == Seg(value, labels.PROFESSION)


def test_tidy_spaces_leaves_phi_alone():
    from spacy_deid.synth.assembler import Seg, tidy_spaces

    out = tidy_spaces([Seg("seen by  "), Seg("Dr  X", labels.DOCTOR), Seg(" , today  .")])
    assert [s.text for s in out] == ["seen by ", "Dr  X", ", today."]


# --- phenomenon families (issue 14) ---------------------------------------------------------
from spacy_deid.surrogates import SurrogateGenerator  # noqa: E402
from spacy_deid.synth import fillers  # noqa: E402
from spacy_deid.synth.context import NoteContext, draw_patient  # noqa: E402
from spacy_deid.synth.families import FAMILIES, families_for, pool_name  # noqa: E402
from spacy_deid.synth.generate import glue_splits  # noqa: E402

FIELD_SECTIONS = ("header", "signature", "labs")


def _context(seed, values=None):
    gen = SurrogateGenerator(seed=seed, values=values)
    patient = draw_patient(gen)
    return NoteContext(rng=gen.rng, gen=gen, patient=patient, visit_date=patient.first_visit,
                       age_now=patient.age, attending=patient.clinicians[0],
                       facility=patient.hospitals[0], facility_abbr="FAC")


def _phi(segments):
    return [(seg.label, seg.text) for seg in segments if seg.label]


ROOM_DESIGNATOR = r"(?:Rm\.?|Room|RM|ROOM|Bay|Bed|Exam Rm|Pod|Suite|Unit) "
FAMILY_SLOT_CASES = [
    # slot, argument, expected labels in order, pattern every PHI value must match
    ("dept_name", "", [labels.DEPARTMENT], r"\S.*\S"),
    ("dept_name", "upper", [labels.DEPARTMENT], r"[^a-z]+"),
    ("dept_name", "lower", [labels.DEPARTMENT], r"[^A-Z]+"),
    ("room_line", "", [labels.ROOM], ROOM_DESIGNATOR + r"\S.*"),
    ("room_line", "bare", [labels.ROOM], r"[A-Z0-9][A-Z0-9-]*"),
    ("handle", "", [labels.USERNAME], r"[A-Za-z0-9_.]*[._][A-Za-z0-9_.]*[A-Za-z0-9]"),
    ("uid", "", [labels.USERNAME], r"[A-Za-z]+\d+"),
    ("cued_id", "booking", [labels.IDNUM], r"[A-Z0-9][A-Z0-9-]*[A-Z0-9]"),
    ("cued_id", "incident", [labels.IDNUM], r"[A-Z0-9][A-Z0-9-]*[A-Z0-9]"),
    ("cued_id", "case", [labels.IDNUM], r"[A-Z0-9][A-Z0-9-]*[A-Z0-9]"),
    ("cued_id", "accession", [labels.IDNUM], r"[A-Z0-9][A-Z0-9-]*[A-Z0-9]"),
    ("cued_id", "license", [labels.LICENSE], r"[A-Z0-9][A-Z0-9 -]*[A-Z0-9]"),
    ("cued_id", "mrn", [labels.MEDICALRECORD], r"[A-Z0-9][A-Z0-9-]*[A-Z0-9]"),
    ("cued_id", "plan", [labels.HEALTHPLAN], r"[A-Z0-9][A-Z0-9-]*[A-Z0-9]"),
    ("town", "state", [labels.CITY, labels.STATE], r"\S+( \S+)*"),
    ("foreign_place", "country", [labels.COUNTRY], r".*( and |-).*"),
    ("fw_org", "", [labels.ORGANIZATION], r".*( of | on | for | & | and |Local \d+).*"),
    ("prof_long", "", [labels.PROFESSION], r"\S+ \S+ \S.*"),
    ("caps_name", "rel", [labels.PATIENT], r"[^a-z]+"),
    ("caps_name", "new", [labels.DOCTOR], r"[^a-z]+"),
    ("lone_first", "rel", [labels.PATIENT], r"\S+"),
    ("formal_unusual", "", [labels.PATIENT], r"\S.*\S"),
    ("formal_unusual", "dr", [labels.DOCTOR], r"\S.*\S"),
    ("doc_name", "att/last_first_cred", [labels.DOCTOR], r"[^,]+, [^,]+"),
    ("doc_name", "att/last_first_mi", [labels.DOCTOR], r"[^,]+, .+ [A-Z]"),
    ("doc_name", "att/upper_last_first_cred", [labels.DOCTOR], r"[^a-z,]+, [^a-z,]+"),
]


@pytest.mark.parametrize("name,arg,expected,pattern", FAMILY_SLOT_CASES)
def test_family_slots_label_exactly_the_value(name, arg, expected, pattern):
    for seed in range(40):
        segments = SLOTS[name](_context(seed), arg)
        found = _phi(segments)
        assert [label for label, _ in found] == expected, (name, arg, seed)
        for label, value in found:
            assert value == value.strip(" \t\n.,;:()[]\"'"), (name, arg, seed)
            assert re.fullmatch(pattern, value), (name, arg, seed)


@pytest.mark.parametrize("half", ["A", "B"])
def test_family_values_come_from_one_value_half(half):
    """The name-held-out split holds for the family slots too."""
    for seed in range(30):
        ctx = _context(seed, values=half)
        [(_, profession)] = _phi(SLOTS["prof_long"](ctx, ""))
        assert vocab.half_of(profession) == half
        for label, value in _phi(SLOTS["foreign_place"](ctx, "")):
            assert vocab.half_of(value) == half or label == labels.COUNTRY


def test_multiword_towns_have_two_or_three_words():
    words = [len(_phi(SLOTS["town"](_context(seed), ""))[0][1].split()) for seed in range(60)]
    assert min(words) >= 2 and max(words) <= 4 and words.count(2) and words.count(3)


def test_room_lines_include_room_and_bed_in_one_span():
    values = [_phi(SLOTS["room_line"](_context(seed), ""))[0][1] for seed in range(80)]
    assert any(re.fullmatch(r"(Room|Rm\.?|ROOM|RM|Exam Rm|Suite) \S+,? [Bb]ed \w", v) for v in values)
    assert any(v.startswith("Bay ") for v in values)


def test_nicknames_are_separate_mentions_with_quotes_outside():
    for seed in range(30):
        segments = SLOTS["nick_name"](_context(seed), "pt")
        found = _phi(segments)
        assert len(found) in (2, 3) and {label for label, _ in found} == {labels.PATIENT}
        plain_text = "".join(seg.text for seg in segments if not seg.label)
        assert re.search("[\"'\u201c]", plain_text)


def test_user_id_brackets_stay_outside():
    segments = SLOTS["uid"](_context(3), "")
    assert segments[0].label is None and segments[0].text in "[(<"
    assert segments[-1].label is None and segments[-1].text in "])>"


@pytest.mark.parametrize("kind", ["abbr", "lab", "dur", "score", "time"])
def test_clinical_traps_are_plain_text(kind):
    for seed in range(20):
        assert not _phi(SLOTS["trap"](_context(seed), kind))


@pytest.mark.parametrize(
    "kind,pattern",
    [
        # a scale and a number in its range, in the forms notes use ("AUDIT 10", "AQ: 38")
        ("score", r"\S+(:| score( of)?| total| =)? \d+(/\d+| \(\d+ max\))?"),
        # a clock time ("3 am", "11:30 PM", "0300")
        ("time", r"\d{1,2}( ?([ap]m|[AP]M|[ap]\.m\.)|:\d\d( ([ap]m|[AP]M|[ap]\.m\.))?)|\d{4}"),
    ],
)
def test_score_and_time_traps_have_their_shape(kind, pattern):
    values = {"".join(seg.text for seg in SLOTS["trap"](_context(seed), kind)) for seed in range(60)}
    assert len(values) > 30  # composed, not a short list
    for value in values:
        assert re.fullmatch(pattern, value), value


def test_scores_stay_within_their_scale():
    for seed in range(200):
        value = "".join(seg.text for seg in SLOTS["trap"](_context(seed), "score"))
        match = re.fullmatch(r"(\S+?):? .*?(\d+)(?:/(\d+)| \((\d+) max\))?", value)
        scale = dict(fillers.SCALES).get(match.group(1))
        if scale is not None:
            assert int(match.group(2)) <= scale, value


def test_plural_professions_are_labelled_plurals():
    plurals = {plural for _, plural, _ in vocab.occupation_words()}
    for seed in range(40):
        [(label, value)] = _phi(SLOTS["prof"](_context(seed), "plural"))
        assert label == labels.PROFESSION
        assert value.split()[-1] in plurals, value


def test_composed_surnames_from_the_lists():
    gen = SurrogateGenerator(seed=1)
    hyphen = gen.composed_last_name("hyphen")
    assert re.fullmatch(r"[^ -]+-[^ -]+", hyphen)
    assert len(gen.composed_last_name("double").split()) == 2
    particles = [gen.composed_last_name("particle") for _ in range(40)]
    assert any(re.match(r"(van|de|del|da|di|von|le|ben|bin) ", p) for p in particles)
    assert any(re.match(r"(al-|el-|Al-|O')", p) for p in particles)


@pytest.mark.parametrize(
    "left,right,splits",
    [("HPI", "Patient reports", True), ("History of Present Illness", "Patient", True),
     ("winter", "Hx:", True), ("39", "Sex:", True), ("Hx", "Mary", True),
     ("HPI", "He reports", False), ("HPI", "Dr. Lee", False), ("451", "ID/CC", False),
     ("CA", "HISTORY", False), ("HPI", "O'Brien", False), ("Plan", "continue", False),
     ("www.summit.us", "IDENTIFYING", False), ("jo@mail.com", "Plan", False)],
)
def test_glue_only_where_the_tokenizer_splits(left, right, splits):
    assert glue_splits(left, right) is splits


@pytest.mark.parametrize(
    "value,joins",
    [("Room 5, Bed C", True), ("ZF91987P", True), ("gunner's mate g", True), ("Acme Corp", True),
     ("Mo", True), ("Smith Jr", True), ("Rm 2207", False), ("Okafor-Lindgren", False),
     ("MA", False), ("Dept", False)],
)
def test_no_final_period_where_it_would_join_the_token(value, joins):
    from spacy_deid.synth.generate import period_joins

    assert period_joins(value) is joins


@pytest.mark.slow  # builds the package tokenizer
def test_glue_table_agrees_with_the_tokenizer():
    tokenizer = pytest.importorskip("spacy_deid.tokenizer")
    nlp = tokenizer.blank_deid()
    for left, right in [("HPI", "Patient"), ("History", "Patient"), ("winter", "Hx"),
                        ("39", "Sex"), ("HPI", "He"), ("HPI", "Dr."), ("451", "ID"), ("CA", "HISTORY"),
                        ("www.summit.us", "IDENTIFYING")]:
        cut = nlp.make_doc(left + right + " x").char_span(0, len(left)) is not None
        assert cut is glue_splits(left, right), (left, right)
    from spacy_deid.synth.generate import period_joins

    for value in ("Room 5, Bed C", "ZF91987P", "Acme Corp", "Mo", "Rm 2207", "MA", "Dept"):
        joined = nlp.make_doc(f"in {value}. Next").char_span(3, 3 + len(value)) is None
        assert joined is period_joins(value), value


def test_every_family_with_sections_has_its_pool():
    for name, family in FAMILIES.items():
        assert family.subtypes is not None and 0 <= family.weight <= 1, name
        assert family.weight > 0 or name == "nursing_style", name  # nursing notes: opt-in share
        for section in family.sections:
            if section in FIELD_SECTIONS:
                assert pool_name(name, lines=True) in FIELD_POOLS, (name, section)
            else:
                assert section in SECTIONS and pool_name(name) in POOLS, (name, section)
                assert name in families_for(section)
    family_pools = [p for p in list(POOLS) + list(FIELD_POOLS) if p.startswith("fam_")]
    known = {pool_name(n) for n in FAMILIES} | {pool_name(n, lines=True) for n in FAMILIES}
    assert set(family_pools) <= known


@pytest.fixture(scope="module")
def family_pairs():
    return list(generate_notes_with_info(150, seed=2))


def test_every_family_occurs_and_is_reported(family_pairs):
    summary = summarize(family_pairs)
    for name in (name for name, family in FAMILIES.items() if family.weight > 0):
        assert summary["phenomena_notes"].get(f"family:{name}", 0) > 0, name
        assert summary["families"][name]["notes"] == summary["phenomena_notes"][f"family:{name}"]
    assert any(line.strip().startswith("room ") for line in format_table(summary))
    types = {key for key in summary["phenomena_notes"] if key.startswith("note_type:")}
    assert types == {f"note_type:{t}" for t in ("progress", "consult", "discharge", "letter", "dictation")}


def test_note_types_in_both_template_halves():
    for half in ("A", "B"):
        kinds = {layout.note_type for layout in LAYOUTS if layout.half == half}
        assert kinds == {"intake", "progress", "consult", "discharge", "letter", "dictation", "nursing"}


def test_dictations_are_in_capitals(family_pairs):
    upper = {layout.id for layout in LAYOUTS if layout.upper}
    notes = [note for note, info in family_pairs if info.layout in upper]
    assert notes
    for note in notes:
        assert note.text == note.text.upper()


UNAMBIGUOUS_ABBREVIATIONS = ("OSA", "CHF", "COPD", "HTN", "DM2", "CKD", "DVT", "GERD", "AFib", "ESRD")


def test_family_traps_stay_unannotated(family_pairs):
    patterns = ([re.escape(v) for v in fillers.SCORE_TRAPS + fillers.LAB_TRAPS
                 + fillers.DURATIONS_SHORT]
                + [rf"\b{a}\b" for a in UNAMBIGUOUS_ABBREVIATIONS])
    regex = re.compile("|".join(patterns))
    seen = 0
    for note, _ in family_pairs:
        covered = [(m.start, m.end) for m in note.mentions]
        for match in regex.finditer(note.text):
            seen += 1
            assert not any(s < match.end() and match.start() < e for s, e in covered), note.note_id
    assert seen > 50


def test_family_mentions_have_no_edge_whitespace_or_punctuation(family_pairs):
    for note, _ in family_pairs:
        for m in note.mentions:
            value = note.text[m.start:m.end]
            assert value == value.strip(), note.note_id
            assert not re.search(r"^[,;:)\]\"]|[,;:(\[\"']$", value), (note.note_id, m.label)
            if value.startswith("("):  # "(617) 555-0100" only
                assert m.label in (labels.PHONE, labels.FAX), (note.note_id, m.label)


def test_family_labels_in_generated_notes(family_pairs):
    """Positive: the family's subtype is on the value in whole notes, not only in slots."""
    found = {label: 0 for label in (labels.DEPARTMENT, labels.ROOM, labels.USERNAME)}
    room_with_designator = last_first = handles = 0
    for note, _ in family_pairs:
        for m in note.mentions:
            value = note.text[m.start:m.end]
            if m.label in found:
                found[m.label] += 1
            if m.label == labels.ROOM and re.match(ROOM_DESIGNATOR, value, re.I):
                room_with_designator += 1
            if m.label == labels.DOCTOR and re.fullmatch(r"[^,]+, \S+( [A-Z])?", value):
                last_first += 1
            if m.label == labels.USERNAME and re.search(r"[a-z][._][a-z]", value):
                handles += 1
    assert min(found.values()) > 30
    assert room_with_designator > 10 and last_first > 30 and handles > 5


@pytest.mark.slow  # builds the package tokenizer; every note type and family
def test_family_mentions_align_with_the_package_tokenizer(family_pairs):
    tokenizer = pytest.importorskip("spacy_deid.tokenizer")
    nlp = tokenizer.blank_deid()
    misaligned = []
    for note, _ in family_pairs:
        doc = nlp.make_doc(note.text)
        misaligned += [(note.note_id, m.label) for m in note.mentions
                       if doc.char_span(m.start, m.end) is None]
    assert not misaligned


# --- tables as data files (issue 26) --------------------------------------------------------------
import json  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from spacy_deid.synth import tables  # noqa: E402

SYNTH_DIR = Path(tables.__file__).parent
TABLE_FILES = ("sentences.jsonl", "fields.jsonl", "fillers.jsonl", "families.jsonl",
               "sections.jsonl", "layouts.jsonl")


@pytest.mark.parametrize("name", TABLE_FILES)
def test_table_files_are_json_lines_and_described(name):
    path = tables.DATA_DIR / name
    lines = path.read_text(encoding="utf8").splitlines()
    assert lines and all(isinstance(json.loads(line), dict) for line in lines)
    assert f"`{name}`" in (tables.DATA_DIR / "README.md").read_text(encoding="utf8")


def test_tables_are_read_once():
    assert tables.records("sentences.jsonl") is tables.records("sentences.jsonl")
    assert tables.sentence_pools() is POOLS and tables.field_pools() is FIELD_POOLS


def test_every_pool_template_parses_and_every_filler_list_is_read():
    for pools in (POOLS, FIELD_POOLS):
        for pool in pools.values():
            for template in pool:
                sources = template.source if isinstance(template.source, tuple) else (template.source,)
                for source in sources:
                    parse(source)
    read = set(re.findall(r'filler_(?:values|records)\("(\w+)"\)', Path(fillers.__file__).read_text()))
    assert {record["list"] for record in tables.records("fillers.jsonl")} == read


@pytest.mark.parametrize("record, message", [
    ({"pool": "p", "id": "p.001", "half": "A", "template": "x"}, "should be p.000"),
    ({"pool": "p", "id": "p.000", "half": "B", "template": "x"}, "half A"),
])
def test_misnumbered_templates_are_refused(tmp_path, monkeypatch, record, message):
    (tmp_path / "bad.jsonl").write_text(json.dumps(record) + "\n", encoding="utf8")
    monkeypatch.setattr(tables, "DATA_DIR", tmp_path)
    tables.records.cache_clear()
    try:
        with pytest.raises(ValueError, match=message):
            tables._pools("bad.jsonl", lambda r: r["template"])
    finally:
        tables.records.cache_clear()


def test_a_broken_line_names_file_and_line(tmp_path, monkeypatch):
    (tmp_path / "broken.jsonl").write_text('{"list": "x", "value": "a"}\n{"list": \n', encoding="utf8")
    monkeypatch.setattr(tables, "DATA_DIR", tmp_path)
    tables.records.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"broken.jsonl, line 2"):
            tables.records("broken.jsonl")
    finally:
        tables.records.cache_clear()


_FINGERPRINT = (
    "import hashlib, sys\n"
    "from spacy_deid.synth import generate_notes\n"
    "digest = hashlib.sha256()\n"
    "for note in generate_notes(4, seed=int(sys.argv[1]), templates=sys.argv[2]):\n"
    "    digest.update(note.text.encode()); digest.update(repr(sorted(note.mention_keys())).encode())\n"
    "print(digest.hexdigest())\n"
)


@pytest.mark.parametrize("seed, half", [(0, "all"), (11, "A"), (12, "B")])
def test_generation_is_deterministic_across_processes(seed, half):
    """Same seed, same notes in fresh interpreters with other hash seeds (no
    dependence on set or dict order of strings)."""
    digests = set()
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run([sys.executable, "-c", _FINGERPRINT, str(seed), half], env=env,
                             capture_output=True, text=True, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1


# --- nursing notes (issue 25, item 3) ---------------------------------------------------------------
NURSING_SHARE_FOR_TESTS = 0.9


@pytest.fixture(scope="module")
def nursing_pairs():
    pairs = list(generate_notes_with_info(40, seed=21, nursing=NURSING_SHARE_FOR_TESTS))
    return [(note, info) for note, info in pairs if info.note_type == "nursing"]


def test_nursing_notes_are_well_formed(nursing_pairs, tmp_path):
    assert len(nursing_pairs) >= 25
    labels_seen = set()
    for note, info in nursing_pairs:
        path = write_i2b2_2014(note, tmp_path / f"{note.note_id}.xml")
        back = read_i2b2_2014(path)
        assert back.text == note.text and back.mention_keys() == note.mention_keys()
        assert [note.text[m.start:m.end] for m in note.mentions] == info.inserted
        ordered = sorted(note.mentions)
        assert all(a.end <= b.start for a, b in zip(ordered, ordered[1:]))
        assert info.words >= 40
        labels_seen |= {m.label for m in note.mentions}
    assert {labels.DATE, labels.DOCTOR, labels.HOSPITAL, labels.DEPARTMENT} <= labels_seen


# Numbers of vitals, drips, vent settings, gases and labs: never inside a mention.
NUMBER_TRAPS = re.compile(
    r"\b(?:hr|sbp|bp|nbp|map|rr|sats?|spo2|tmax|temp|cvp|pad|uo|u/o|peep|fio2|ps|cpap|ac|simv|tv|"
    r"k|mg|hct|wbc|plt|inr|bun/cr|lactate|na|ca|phos|glucose|trop|ck|fs|fsbs|gcs|rass|ciwa|cows|rsbi)"
    r" [<>+-]?\d[\d./x%-]*|\b7\.\d\d/\d+/\d+|\b\d+(?:\.\d+)? (?:mcg/kg/min|mcg/min|mg/hr|u/hr|cc/hr|u/min)",
    re.IGNORECASE)


def test_nursing_number_traps_stay_unannotated(nursing_pairs):
    seen = 0
    for note, _ in nursing_pairs:
        spans = [(m.start, m.end) for m in note.mentions]
        for match in NUMBER_TRAPS.finditer(note.text):
            seen += 1
            assert not any(s < match.end() and match.start() < e for s, e in spans), match.group()
    assert seen > 200


def test_month_day_dates_are_annotated(nursing_pairs):
    month_day = [note.text[m.start:m.end] for note, _ in nursing_pairs for m in note.mentions
                 if m.label == labels.DATE and re.fullmatch(r"\d{1,2}/\d{1,2}", note.text[m.start:m.end])]
    assert len(month_day) > 20
    assert all(1 <= int(v.split("/")[0]) <= 12 and 1 <= int(v.split("/")[1]) <= 31 for v in month_day)
    for seed in range(30):
        segs = SLOTS["date"](_context(seed), "md")
        assert len(segs) == 1 and segs[0].label == labels.DATE
        assert re.fullmatch(r"\d{1,2}/\d{1,2}", segs[0].text)


def test_nursing_notes_hold_lower_case_clinicians_and_notes_in_one_case(nursing_pairs):
    lower_doctors = [note.text[m.start:m.end] for note, _ in nursing_pairs for m in note.mentions
                     if m.label == labels.DOCTOR and note.text[m.start:m.end].islower()]
    assert len(lower_doctors) > 10
    lower_notes = [note for note, info in nursing_pairs if info.phenomena["lower_case_note"]]
    assert lower_notes and all(note.text == note.text.lower() for note in lower_notes)
    assert any(note.text == note.text.upper() for note, _ in nursing_pairs)


@pytest.mark.parametrize("kind", ["hr", "bp", "rr", "sat", "temp", "cvp", "uo", "io", "o2", "vent", "abg",
                                  "lab", "fs"])
def test_vital_slots_are_plain_numbers(kind):
    for seed in range(10):
        segs = SLOTS["vital"](_context(seed), kind)
        assert segs and all(seg.label is None for seg in segs)
        assert re.search(r"\d", "".join(seg.text for seg in segs)) or kind == "o2"


def test_drip_rates_are_filled():
    for seed in range(20):
        text = "".join(seg.text for seg in SLOTS["drip"](_context(seed), ""))
        assert "{" not in text and "}" not in text, text


def test_nursing_share_is_an_option_and_zero_leaves_notes_unchanged():
    default = [(n.text, n.mention_keys()) for n in generate_notes(5, seed=2)]
    assert default == [(n.text, n.mention_keys()) for n in generate_notes(5, seed=2, nursing=0)]
    kinds = [info.note_type for _, info in generate_notes_with_info(40, seed=3, nursing=0.5)]
    assert 8 <= kinds.count("nursing") <= 32
    again = [info.note_type for _, info in generate_notes_with_info(40, seed=3, nursing=0.5)]
    assert kinds == again
    with pytest.raises(ValueError, match="nursing share"):
        next(generate_notes(1, nursing=1.0))


def test_cli_refuses_a_bad_nursing_share(tmp_path):
    result = CliRunner().invoke(app, ["synth", str(tmp_path / "out"), "--n", "1", "--nursing", "1.5"])
    assert result.exit_code != 0
