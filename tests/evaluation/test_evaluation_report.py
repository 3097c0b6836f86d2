"""The report: JSON-ready dict, Markdown without note text, plots."""
import json

import pytest

from spacy_deid import labels
from spacy_deid.corpus import Note, PhiMention
from spacy_deid.evaluation import build_report, pair_notes, render_markdown, write_report

TEXT = "Seen Wednesday, 4/17/94 by Dr. Ann Lee at MGH."
GOLD = [(5, 23, labels.DATE), (31, 38, labels.DOCTOR), (42, 45, labels.HOSPITAL)]


def report_for(gold, predicted, text=TEXT, **kwargs):
    pairs = pair_notes(
        [Note("n1", text, [PhiMention(*m) for m in gold])],
        [Note("n1", text, [PhiMention(*m) for m in predicted])],
    )
    return build_report(pairs, system={"name": "test", "kind": "outputs"},
                        gold={"path": "gold/"}, **kwargs)


def test_report_is_json_serialisable_and_has_every_level_and_label_set():
    report = report_for(GOLD, [(5, 23, labels.DATE), (31, 38, labels.PATIENT)])
    data = json.loads(json.dumps(report))
    assert set(data["scores"]) == {"all", "i2b2-2014", "safe-harbor"}
    assert set(data["scores"]["all"]) == {"strict", "relaxed", "token", "binary_token",
                                          "binary_strict"}
    assert data["scores"]["all"]["strict"]["per_subtype"]["DATE"]["f"] == 1.0
    assert data["confusion"]["entity"]["DOCTOR"] == {"PATIENT": 1}
    assert data["confusion"]["entity"]["HOSPITAL"] == {"missing": 1}
    assert data["per_note"]["n1"]["strict"] == {"tp": 1, "fp": 1, "fn": 2}
    assert data["per_note"]["n1"]["binary_strict"] == {"tp": 2, "fp": 0, "fn": 1}


def test_markdown_has_the_tables_and_no_note_text():
    report = report_for(GOLD, [(16, 23, labels.DATE), (31, 38, labels.PATIENT)])
    markdown = render_markdown(report)
    for heading in ("## Overall", "## Per category and subtype", "## Confusion matrix", "## Leaks"):
        assert heading in markdown
    assert "| entity, strict | 0.00 |" in markdown
    assert "| n1 | 5 | 14 | DATE | no |" in markdown  # "Wednesday" leaked, ids + offsets
    for phi in ("Wednesday", "4/17/94", "Ann", "Lee", "MGH"):
        assert phi not in markdown


def test_markdown_shows_text_only_when_asked():
    report = report_for(GOLD, [], show_text=True)
    assert "| n1 | 42 | 45 | HOSPITAL | no | MGH |" in render_markdown(report)


def test_empty_corpus_renders_and_plots(tmp_path):
    pytest.importorskip("matplotlib")
    report = report_for([], [], text="")
    written = write_report(report, tmp_path / "out")
    markdown = written["markdown"].read_text()
    assert "| entity, strict | – | – | – |" in markdown
    assert "No mentions on either side." in markdown
    assert written["f1_plot"].stat().st_size > 0 and written["confusion_plot"].stat().st_size > 0
