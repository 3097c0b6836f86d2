"""The serializer helper every component uses (spacy_deid/pipeline/serialize.py):
files by suffix, exclude by part name, a missing file named, a part's reader."""
import json
from pathlib import Path

import pytest
import srsly
from spacy.pipeline import Pipe

from spacy_deid.pipeline.serialize import MissingPartError, Part, SavedParts


class Toy(SavedParts, Pipe):
    """Two parts: a cfg (one JSON value) and rows (JSONL)."""

    def __init__(self, name="toy", read_rows=None):
        self.name = name
        self.cfg = {"size": 1}
        self.rows = []
        self.sources = []
        self.read_rows = read_rows

    def saved_parts(self):
        return {
            "cfg": Part("cfg", lambda: self.cfg),
            "rows": Part("rows.jsonl", lambda: self.rows, read=self.read_rows),
        }

    def load_parts(self, values, source):
        self.cfg.update(values.get("cfg", {}))
        self.rows = values.get("rows", self.rows)
        self.sources.append(source)


def filled():
    toy = Toy()
    toy.cfg, toy.rows = {"size": 3}, [{"a": 1}, {"a": 2}]
    return toy


def test_files_are_written_by_suffix_and_read_back(tmp_path):
    filled().to_disk(tmp_path / "toy")
    assert json.loads((tmp_path / "toy" / "cfg").read_text()) == {"size": 3}
    assert list(srsly.read_jsonl(tmp_path / "toy" / "rows.jsonl")) == [{"a": 1}, {"a": 2}]
    loaded = Toy().from_disk(tmp_path / "toy")
    assert (loaded.cfg, loaded.rows) == ({"size": 3}, [{"a": 1}, {"a": 2}])
    assert loaded.sources == [str(tmp_path / "toy")]
    copy = Toy().from_bytes(filled().to_bytes())
    assert (copy.cfg, copy.rows, copy.sources) == ({"size": 3}, [{"a": 1}, {"a": 2}], ["bytes of 'toy'"])


@pytest.mark.parametrize("exclude,written", [([], {"cfg", "rows.jsonl"}), (["rows"], {"cfg"}),
                                             (["cfg", "rows"], set()), (["rows.jsonl"], {"cfg", "rows.jsonl"})])
def test_exclude_takes_part_names(tmp_path, exclude, written):
    filled().to_disk(tmp_path / "toy", exclude=exclude)
    assert {p.name for p in (tmp_path / "toy").iterdir()} == written
    toy = Toy()
    toy.rows = ["kept"]
    toy.from_bytes(filled().to_bytes(), exclude=exclude)  # an excluded part keeps what it has
    assert toy.rows == (["kept"] if "rows" in exclude else [{"a": 1}, {"a": 2}])


@pytest.mark.faults
@pytest.mark.parametrize("missing", ["cfg", "rows.jsonl"])
def test_a_missing_file_names_component_and_file(tmp_path, missing):
    filled().to_disk(tmp_path / "toy")
    (tmp_path / "toy" / missing).unlink()
    with pytest.raises(MissingPartError, match=f"my_toy: .*{missing} is missing") as info:
        Toy(name="my_toy").from_disk(tmp_path / "toy")
    assert info.value.component == "my_toy" and info.value.path.name == missing
    Toy().from_disk(tmp_path / "toy", exclude=[missing.split(".")[0]])  # left out: not read


def test_a_parts_reader_reads_and_checks_its_file(tmp_path):
    def read_rows(path):
        rows = list(srsly.read_jsonl(path))
        if any("a" not in row for row in rows):
            raise ValueError(f"{path}: a row without 'a'")
        return rows

    filled().to_disk(tmp_path / "toy")
    assert Toy(read_rows=read_rows).from_disk(tmp_path / "toy").rows == [{"a": 1}, {"a": 2}]
    (tmp_path / "toy" / "rows.jsonl").write_text('{"b": 1}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="rows.jsonl: a row without 'a'"):
        Toy(read_rows=read_rows).from_disk(tmp_path / "toy")


def test_a_component_with_no_parts_saves_an_empty_folder(tmp_path):
    class Empty(SavedParts, Pipe):
        name = "empty"

        def saved_parts(self):
            return {}

    Empty().to_disk(tmp_path / "empty")
    assert list((tmp_path / "empty").iterdir()) == []
    assert isinstance(Empty().from_disk(tmp_path / "missing").from_bytes(Empty().to_bytes()), Empty)


TRAINED = Path(__file__).resolve().parents[2] / "training" / "cpu" / "model-best"


@pytest.mark.slow
@pytest.mark.skipif(not (TRAINED / "meta.json").is_file(), reason="no trained pipeline here")
def test_a_trained_pipeline_loads_and_saves_the_same_files(tmp_path):
    """A pipeline saved in the current format loads, and saving it again
    writes the same files byte for byte (spacy.load -> to_disk)."""
    import spacy

    spacy.load(TRAINED).to_disk(tmp_path / "again")
    saved = sorted(p.relative_to(TRAINED) for p in TRAINED.rglob("*") if p.is_file())
    again = sorted(p.relative_to(tmp_path / "again") for p in (tmp_path / "again").rglob("*") if p.is_file())
    assert saved == again
    assert [p for p in saved if (TRAINED / p).read_bytes() != (tmp_path / "again" / p).read_bytes()] == []


class WithOptional(Toy):
    """Toy plus an optional part, saved only when it has a value."""

    def __init__(self, extra=None):
        super().__init__()
        self.extra = extra

    def saved_parts(self):
        return {**super().saved_parts(), "extra": Part("extra.json", lambda: self.extra, optional=True)}

    def load_parts(self, values, source):
        super().load_parts(values, source)
        self.extra = values.get("extra")


@pytest.mark.parametrize("extra,written", [({"w": 1}, True), (None, False)])
def test_an_optional_part_is_saved_only_with_a_value(tmp_path, extra, written):
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "extra.json").write_text('{"stale": true}')
    WithOptional(extra).to_disk(tmp_path / "t")
    assert (tmp_path / "t" / "extra.json").exists() is written
    assert WithOptional({"other": 2}).from_disk(tmp_path / "t").extra == extra
    assert WithOptional({"other": 2}).from_bytes(WithOptional(extra).to_bytes()).extra == extra


def test_a_required_part_is_still_required_beside_an_optional_one(tmp_path):
    WithOptional().to_disk(tmp_path / "t")
    (tmp_path / "t" / "cfg").unlink()
    with pytest.raises(MissingPartError, match="cfg is missing"):
        WithOptional().from_disk(tmp_path / "t")
