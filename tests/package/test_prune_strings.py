"""`spacy-deid prune-strings`: a fine-tuned pipeline keeps no word of its
training notes in `vocab/strings.json`, and still loads and runs the same."""
import srsly
import spacy
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.prune_strings import STRINGS_FILE, prune_strings

SITE_WORDS = ["Zyxqwert", "Quuxmoor"]  # invented words standing for a site's names


def make_pipelines(tmp_path):
    source = spacy.blank("en")
    source.add_pipe("ner").add_label("PATIENT")
    source.initialize()
    source.to_disk(tmp_path / "source")
    tuned = spacy.load(tmp_path / "source")
    tuned.get_pipe("ner").add_label("DOCTOR")
    tuned(f"{SITE_WORDS[0]} visited {SITE_WORDS[1]} today")
    tuned.to_disk(tmp_path / "tuned")
    return tmp_path / "source", tmp_path / "tuned"


def test_site_words_removed_labels_kept(tmp_path):
    source, tuned = make_pipelines(tmp_path)
    before = srsly.read_json(tuned / STRINGS_FILE)
    assert all(word in before for word in SITE_WORDS)  # the leak this guards against
    text = "Pt seen today, plan unchanged"
    expected = [(t.text, t.ent_type_) for t in spacy.load(tuned)(text)]
    kept, removed = prune_strings(tuned, source)
    after = srsly.read_json(tuned / STRINGS_FILE)
    assert not any(word in after for word in SITE_WORDS)
    assert {"DOCTOR", "PATIENT"} <= set(after)
    assert (kept, removed) == (len(after), len(before) - len(after)) and removed >= len(SITE_WORDS)
    reloaded = spacy.load(tuned)
    assert set(reloaded.get_pipe("ner").labels) == {"DOCTOR", "PATIENT"}
    assert [(t.text, t.ent_type_) for t in reloaded(text)] == expected


def test_cli_prunes_and_names_bad_input(tmp_path):
    source, tuned = make_pipelines(tmp_path)
    runner = CliRunner()
    result = runner.invoke(app, ["prune-strings", str(tuned), str(source)])
    assert result.exit_code == 0, result.output
    assert SITE_WORDS[0] not in srsly.read_json(tuned / STRINGS_FILE)
    assert SITE_WORDS[0] not in result.output
    not_a_pipeline = tmp_path / "empty"
    not_a_pipeline.mkdir()
    result = runner.invoke(app, ["prune-strings", str(not_a_pipeline), str(source)])
    assert result.exit_code == 1 and "not a saved pipeline" in " ".join(result.output.split())
    result = runner.invoke(app, ["prune-strings", str(tuned), str(tmp_path / "missing")])
    assert result.exit_code == 1 and "neither a pipeline folder" in " ".join(result.output.split())
