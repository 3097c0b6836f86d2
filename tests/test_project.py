"""project.yml is valid and its convert step runs through `spacy project run`."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from spacy.tokens import DocBin
from spacy.vocab import Vocab

REPO = Path(__file__).resolve().parents[1]


def test_project_file_declares_deps_and_outputs():
    from weasel.util import load_project_config

    config = load_project_config(REPO)
    assert config["vars"]["name"] == "deid_psych"
    for command in config["commands"]:
        assert command.get("deps") and command.get("outputs"), command["name"]
    assert all(not asset.get("url") for asset in config["assets"]), "DUA corpora have no URL"


def test_convert_step_runs(tmp_path, dev_corpus_dir):
    project = tmp_path / "project"
    (project / "spacy_deid").mkdir(parents=True)
    shutil.copy(REPO / "project.yml", project / "project.yml")
    shutil.copytree(REPO / "spacy_deid" / "corpus", project / "spacy_deid" / "corpus")
    command = [sys.executable, "-m", "spacy", "project", "run", "convert", str(project),
               "--vars.train_data", str(dev_corpus_dir), "--vars.dev_data", str(dev_corpus_dir)]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    for name in ("train", "dev"):
        docbin = DocBin().from_disk(project / "corpus" / f"{name}.spacy")
        assert len(list(docbin.get_docs(Vocab()))) == 15
