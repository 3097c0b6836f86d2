"""The evaluate, compare and ablate commands on tiny XML folders and pipelines."""
import json
import sys

import pytest
import spacy
from typer.testing import CliRunner

from spacy_deid import labels
from spacy_deid.cli import app
from spacy_deid.corpus import Note, PhiMention, write_i2b2_2014

runner = CliRunner()

#        0         1         2         3         4
#        0123456789012345678901234567890123456789012345
TEXT1 = "Seen Wednesday, 4/17/94 by Dr. Ann Lee at MGH."
TEXT2 = "Call Zed Quux on 2/3/2001 please."
TEXT3 = "Nothing identifying in this one."
GOLD = {
    "101-01": (TEXT1, [(5, 23, labels.DATE), (31, 38, labels.DOCTOR), (42, 45, labels.HOSPITAL)]),
    "101-02": (TEXT2, [(5, 13, labels.PATIENT), (17, 25, labels.DATE)]),
    "102-01": (TEXT3, []),
}
# The PHI strings of the notes: none may appear in a report without --show-text.
PHI_STRINGS = ["Wednesday", "Ann", "Lee", "MGH", "Zed", "Quux", "4/17/94", "2/3/2001"]


def write_folder(folder, notes):
    for note_id, (text, mentions) in notes.items():
        write_i2b2_2014(Note(note_id, text, [PhiMention(*m) for m in mentions]),
                        folder / f"{note_id}.xml")
    return folder


@pytest.fixture
def gold_dir(tmp_path):
    return write_folder(tmp_path / "gold", GOLD)


@pytest.fixture
def system_dir(tmp_path):
    # Dates split/missed, doctor as patient, hospital right, patient right.
    notes = {
        "101-01": (
            TEXT1,
            [(16, 23, labels.DATE), (31, 38, labels.PATIENT), (42, 45, labels.HOSPITAL)],
        ),
        "101-02": (TEXT2, [(5, 13, labels.PATIENT)]),
        "102-01": (TEXT3, []),
    }
    return write_folder(tmp_path / "system", notes)


@pytest.fixture
def rules_model(tmp_path):
    nlp = spacy.blank("en")
    dates = nlp.add_pipe("entity_ruler", name="dates")
    dates.add_patterns([{"label": labels.DATE,
                         "pattern": [{"TEXT": {"REGEX": r"^\d+/\d+/\d+$"}}]}])
    places = nlp.add_pipe("entity_ruler", name="places")
    places.add_patterns([{"label": labels.HOSPITAL, "pattern": "MGH"}])
    path = tmp_path / "model"
    nlp.to_disk(path)
    return path


class Run:
    """A CliRunner result whose output has line wrapping undone."""

    def __init__(self, result):
        self.exit_code = result.exit_code
        self.output = " ".join(result.output.split())


def run(*args):
    return Run(runner.invoke(app, [str(a) for a in args]))


def test_evaluate_output_folder_writes_the_report(tmp_path, gold_dir, system_dir):
    out = tmp_path / "report"
    result = run("evaluate", system_dir, gold_dir, "--output", out)
    assert result.exit_code == 0, result.output
    for name in ("report.md", "report.json", "leaks.tsv", "f1_per_subtype.png", "confusion.png"):
        assert (out / name).is_file(), name
    report = json.loads((out / "report.json").read_text())
    strict = report["scores"]["all"]["strict"]["overall"]
    # gold 5 mentions; predicted 4; right: MGH, Zed Quux.
    assert (strict["tp"], strict["fp"], strict["fn"]) == (2, 2, 3)
    assert report["gold"]["notes"] == 3 and report["gold"]["empty_notes"] == 1
    # Leaks: Wednesday (not covered), 2, 3, 2001 (nothing predicted); Ann Lee is covered.
    leaks = [(e["note_id"], e["start"], e["end"]) for e in report["leaks"]["entries"]]
    assert leaks == [("101-01", 5, 14), ("101-02", 17, 18), ("101-02", 19, 20), ("101-02", 21, 25)]
    for name in ("report.md", "report.json", "leaks.tsv"):
        content = (out / name).read_text()
        for phi in PHI_STRINGS:
            assert phi not in content, (name, phi)
    for phi in PHI_STRINGS:
        assert phi not in result.output


def test_evaluate_show_text_puts_leaked_text_in_the_leak_list(tmp_path, gold_dir, system_dir):
    out = tmp_path / "report"
    result = run("evaluate", system_dir, gold_dir, "--output", out, "--show-text", "--no-plots")
    assert result.exit_code == 0, result.output
    assert "Wednesday" in (out / "leaks.tsv").read_text()
    assert "Wednesday" in (out / "report.md").read_text()
    assert not (out / "confusion.png").exists()


def test_evaluate_a_pipeline(tmp_path, gold_dir, rules_model):
    out = tmp_path / "report"
    result = run("evaluate", rules_model, gold_dir, "--output", out, "--no-plots",
                 "--trained-on", "nothing (rules)")
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text())
    strict = report["scores"]["all"]["strict"]["overall"]
    # Predicted: 4/17/94, MGH, 2/3/2001 -> MGH and 2/3/2001 right.
    assert (strict["tp"], strict["fp"], strict["fn"]) == (2, 1, 3)
    assert report["system"]["kind"] == "pipeline"
    assert report["system"]["components"] == ["dates", "places"]
    assert "nothing (rules)" in (out / "report.md").read_text()


def _binary_recall(out):
    return json.loads((out / "report.json").read_text())["scores"]["all"]["binary_token"]["overall"]


def test_evaluate_a_pipeline_at_an_operating_point(tmp_path, gold_dir, rules_model):
    scores = {}
    for point in (None, "recall", "0.999"):
        out = tmp_path / f"report-{point}"
        flags = [] if point is None else ["--operating-point", point]
        result = run("evaluate", rules_model, gold_dir, "--output", out, "--no-plots", *flags)
        assert result.exit_code == 0, result.output
        scores[point] = _binary_recall(out)["r"]
        report = json.loads((out / "report.json").read_text())
        assert report["system"].get("operating_point") == point
        assert ("**Run**: operating point" in (out / "report.md").read_text()) == (point is not None)
    # The recall point adds the safety net (the name after "Dr."); a threshold
    # over every calibrated score keeps nothing.
    assert scores["recall"] > scores[None] > scores["0.999"] == 0


@pytest.mark.parametrize("flags, message", [
    (["--operating-point", "loud"], "operating point must be"),
    (["--corpus-aware"], "apply to a pipeline only"),
    (["--operating-point", "recall"], "apply to a pipeline only"),
])
def test_evaluate_run_settings_that_cannot_be_used_fail(tmp_path, gold_dir, system_dir,
                                                         rules_model, flags, message):
    system = rules_model if "loud" in flags else system_dir
    result = run("evaluate", system, gold_dir, "--output", tmp_path / "r", "--no-plots", *flags)
    assert result.exit_code == 1 and message in result.output


# Four patients' notes (file names PPP-RR): "Foley" is written in lower case
# by three patients' notes (site vocabulary, docs/corpus-aware.md), and the
# pipeline tags its capitalised use as a name; "Zorblatt" is patient 201's
# name, tagged in one of that patient's notes and not the other.
SITE = {
    "201-01": ("Foley draining well. Zorblatt resting.", [(21, 29, labels.PATIENT)]),
    "201-02": ("Zorblatt up in chair, foley in place.", [(0, 8, labels.PATIENT)]),
    "202-01": ("New foley placed, urine clear.", []),
    "203-01": ("Foley changed; foley care given.", []),
    "204-01": ("Bladder scan, then foley.", []),
}


@pytest.fixture
def site_model(tmp_path):
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": labels.PATIENT, "pattern": "Foley"},
                        {"label": labels.PATIENT, "pattern": [{"TEXT": "Zorblatt"}, {"TEXT": "resting"}]}])
    path = tmp_path / "site-model"
    nlp.to_disk(path)
    return path


@pytest.mark.parametrize("flags, tp, fp, run_line", [
    ([], 1, 3, None),  # "Zorblatt" once (and "resting" with it), "Foley" twice
    (["--corpus-aware"], 2, 1, "**Run**: corpus-aware"),  # Foley dropped, Zorblatt added
    (["--corpus-aware", "--no-share-across-patients"], 2, 1, "nothing shared across patients"),
])
def test_evaluate_corpus_aware(tmp_path, site_model, flags, tp, fp, run_line):
    gold = write_folder(tmp_path / "site-gold", SITE)
    out = tmp_path / "report"
    result = run("evaluate", site_model, gold, "--output", out, "--no-plots", *flags)
    assert result.exit_code == 0, result.output
    binary = _binary_recall(out)
    assert (binary["tp"], binary["fp"]) == (tp, fp)
    report = json.loads((out / "report.json").read_text())
    assert report["system"].get("corpus_aware", False) == bool(flags)
    markdown = (out / "report.md").read_text()
    assert (run_line in markdown) if run_line else "**Run**" not in markdown
    for phi in ("Zorblatt", "Foley", "foley"):
        assert phi not in result.output and phi not in markdown


def test_evaluate_disagreeing_note_ids_fail_clearly(tmp_path, gold_dir):
    system = write_folder(tmp_path / "other", {"101-01": GOLD["101-01"]})
    result = run("evaluate", system, gold_dir, "--output", tmp_path / "r", "--no-plots")
    assert result.exit_code == 1
    assert "101-02" in result.output and "102-01" in result.output
    assert "no system output" in result.output


def test_evaluate_differing_text_fails_without_showing_text(tmp_path, gold_dir):
    changed = dict(GOLD)
    changed["101-02"] = (TEXT2.replace("Zed", "Bob"), GOLD["101-02"][1])
    system = write_folder(tmp_path / "other", changed)
    result = run("evaluate", system, gold_dir, "--output", tmp_path / "r", "--no-plots")
    assert result.exit_code == 1
    assert "101-02" in result.output and "offset 5" in result.output
    assert "Zed" not in result.output and "Bob" not in result.output


def test_evaluate_without_matplotlib_names_the_extra(tmp_path, gold_dir, system_dir, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import now raises ImportError
    result = run("evaluate", system_dir, gold_dir, "--output", tmp_path / "r")
    assert result.exit_code == 1
    assert 'pip install "spacy-deid[evaluate]"' in result.output
    result = run("evaluate", system_dir, gold_dir, "--output", tmp_path / "r", "--no-plots")
    assert result.exit_code == 0, result.output


def test_compare_two_output_folders(tmp_path, gold_dir, system_dir):
    out = tmp_path / "compare.json"
    result = run("compare", system_dir, gold_dir, gold_dir, "--iterations", 200, "--seed", 1,
                 "--output", out)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    f1 = data["results"]["f"]
    assert f1["a"] == pytest.approx(4 / 9)  # 2tp / (2*2 + 2 + 3)
    assert f1["b"] == 1.0
    assert f1["N"] == 200 and f1["s"] == (f1["n"] + 1) / 201


def test_compare_identical_systems_is_not_significant(tmp_path, gold_dir, system_dir):
    out = tmp_path / "compare.json"
    result = run("compare", system_dir, system_dir, gold_dir, "--iterations", 50, "--output", out)
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["results"]["f"]["s"] == 1.0


def test_compare_rejects_an_unknown_label_set(gold_dir, system_dir):
    result = run("compare", system_dir, system_dir, gold_dir, "--labels", "nope")
    assert result.exit_code == 1 and "--labels" in result.output


def test_ablate_adds_components_cumulatively(tmp_path, gold_dir, rules_model):
    out = tmp_path / "ablation"
    result = run("ablate", rules_model, gold_dir, "--iterations", 50, "--output", out)
    assert result.exit_code == 0, result.output
    data = json.loads((out / "ablation.json").read_text())
    rows = data["rows"]
    assert [r["enabled"] for r in rows] == [["dates"], ["dates", "places"]]
    # dates: 4/17/94 wrong, 2/3/2001 right; + places: MGH right too.
    assert [(r["tp"], r["fp"], r["fn"]) for r in rows] == [(1, 1, 4), (2, 1, 3)]
    assert rows[0]["vs_previous"] == {} and rows[1]["vs_previous"]["f"]["N"] == 50
    table = (out / "ablation.md").read_text()
    assert "| + places |" in table


def test_ablate_unknown_component_fails(tmp_path, gold_dir, rules_model):
    result = run("ablate", rules_model, gold_dir, "--step", "dates,nope")
    assert result.exit_code == 1 and "nope" in result.output
