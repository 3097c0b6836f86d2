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
from spacy_deid.synth.stats import skeletons, summarize
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
