"""Transfer learning: the fine-tune config, and both project workflows end to end."""
import subprocess
from pathlib import Path

import pytest
from spacy.util import load_config

from spacy_deid.transfer import finetune_config
from test_project import project_copy, run_step  # a workflow or a command
from tiny_configs import tiny_config

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["cpu", "transformer"])
def test_finetune_config_sources_every_component(name):
    base = load_config(REPO / "configs" / f"{name}.cfg", interpolate=False)
    config = finetune_config(base, "training/external/model-best")
    assert set(config["components"]) == set(base["nlp"]["pipeline"])
    for component in config["components"].values():
        assert component == {"source": "training/external/model-best"}
    assert config["training"] == base["training"]
    assert config["corpora"] == base["corpora"]
    assert "factory" in base["components"]["ner"]  # the base is unchanged


@pytest.mark.parametrize("rate,ok", [(None, True), (0.0002, True), (0.0, False), (2.0, False)])
def test_finetune_config_learn_rate(rate, ok):
    base = tiny_config("cpu")
    if not ok:
        with pytest.raises(ValueError, match="learn rate"):
            finetune_config(base, "x", learn_rate=rate)
        return
    config = finetune_config(base, "x", learn_rate=rate)
    expected = rate if rate is not None else base["training"]["optimizer"]["learn_rate"]
    assert config["training"]["optimizer"]["learn_rate"] == expected


def test_finetune_config_needs_a_block_per_component():
    base = tiny_config("cpu")
    del base["components"]["ner"]
    with pytest.raises(ValueError, match="ner"):
        finetune_config(base, "x")


@pytest.mark.slow
def test_transfer_workflows_end_to_end(tmp_path):
    """Both strategies as one command each, tiny CPU config, generated notes
    standing in for the external and the target corpus."""
    project = project_copy(tmp_path, "cpu")
    external = tmp_path / "external"
    subprocess.run(["spacy-deid", "synth", str(external), "--n", "3", "--seed", "7", "--templates", "B",
                    "--quiet"], check=True, capture_output=True)
    overrides = ("--vars.config", "tiny_cpu", "--vars.synth_notes", "3",
                 "--vars.external_data", str(external))
    run_step(project, "transfer-concurrent", *overrides)
    assert sorted(p.name for p in (project / "corpus" / "concurrent").iterdir()) == [
        "external.spacy", "target.spacy"]
    assert (project / "metrics" / "concurrent-tiny_cpu" / "report.json").exists()

    run_step(project, "transfer-finetune", *overrides)
    finetune = load_config(project / "training" / "finetune-tiny_cpu.cfg", interpolate=False)
    assert finetune["components"]["ner"] == {"source": "training/external-tiny_cpu/model-best"}
    assert (project / "training" / "finetune-tiny_cpu" / "model-best" / "ner").is_dir()
    assert (project / "metrics" / "finetune-tiny_cpu" / "report.json").exists()
