"""Build the clinical findings list (`spacy_deid/data/clinical_findings.txt`) from ICD-10-CM.

    pip install simple-icd-10-cm==1.5.0 wordfreq==3.1.1
    python scripts/data/build_clinical_findings.py spacy_deid/data

The words that ICD-10-CM's tabular list (as shipped in `simple-icd-10-cm`, MIT;
ICD-10-CM itself is a work of the US National Center for Health Statistics,
public domain) uses to name diagnoses, signs and findings: "rash", "cough",
"pulmonale", "alkalosis", "incision". Evidence that a single capitalised word
the NER called a person is a finding charted at the start of a sentence
("Rash on both arms"), read by the reconciler only (rule
name_is_clinical_finding), never by the NER's lexicon features.

Kept: lower-case words of three letters or more (hyphens inside) of the
descriptions, inclusion terms and notes, except

- words the list ever writes capitalised inside a text: eponyms and places
  ("Parkinson", "Graves", "Nile") are names first;
- the first word of each text (capitalised by convention, so unknown);
- spaCy's English stop words;
- words that a census name list or the US city list holds and that are
  common English (wordfreq Zipf >= 4: "white", "long", "young"): after a
  title they are surnames as often as findings.

The output is sorted and deterministic for the same package versions; the
versions go into its header and into `SOURCES.json` beside the other lists.
"""
import argparse
import json
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from importlib import metadata, util
from pathlib import Path
from typing import Dict, Iterable, List, Tuple

OUTPUT_NAME = "clinical_findings.txt"
PACKAGE = "simple-icd-10-cm"
COMMON_ZIPF = 4.0
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]")
_KEPT = re.compile(r"[a-z][a-z-]*[a-z]")
# Elements of the tabular XML whose text is a description or a note.
TEXT_TAGS = frozenset({"desc", "note"})


def tabular_xml() -> Path:
    spec = util.find_spec("simple_icd_10_cm")
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"package {PACKAGE!r} is not installed (see this script's docstring)")
    found = sorted((Path(list(spec.submodule_search_locations)[0]) / "data").glob("*tabular*.xml"))
    if not found:
        sys.exit(f"{PACKAGE}: no tabular XML file in its data folder")
    return found[-1]


def texts(path: Path) -> Iterable[str]:
    for element in ET.parse(path).getroot().iter():
        if element.tag in TEXT_TAGS and element.text:
            yield element.text


def lower_case_words(descriptions: Iterable[str]) -> List[str]:
    """Words written in lower case and never capitalised after a text's first word."""
    lower: Counter = Counter()
    capitalised: Counter = Counter()
    for text in descriptions:
        for index, match in enumerate(_WORD.finditer(text)):
            word = match.group()
            if index == 0:
                continue
            if word.islower():
                lower[word] += 1
            elif word[0].isupper():
                capitalised[word.lower()] += 1
    return sorted(w for w in lower if not capitalised[w] and _KEPT.fullmatch(w) and len(w) >= 3)


def names_and_places() -> frozenset:
    from spacy_deid.surrogates import lists

    words = {w.lower() for name in ("last_names.txt", "first_names_female.txt", "first_names_male.txt")
             for w in lists.words(name)}
    words |= {city.lower() for city, _ in lists.pairs("cities.tsv")}
    return frozenset(words)


def build() -> Tuple[List[str], Dict[str, str]]:
    from spacy.lang.en.stop_words import STOP_WORDS
    from wordfreq import zipf_frequency

    path = tabular_xml()
    names = names_and_places()
    words = [
        w for w in lower_case_words(texts(path))
        if w not in STOP_WORDS and not (w in names and zipf_frequency(w, "en") >= COMMON_ZIPF)
    ]
    source = {
        "package": PACKAGE,
        "version": metadata.version(PACKAGE),
        "licence": "MIT (package); ICD-10-CM: US National Center for Health Statistics, public domain",
        "data": f"lower-case words of the ICD-10-CM tabular list ({path.name}); filter: wordfreq "
                f"{metadata.version('wordfreq')} (names and places with Zipf >= {COMMON_ZIPF} left out)",
        "entries": str(len(words)),
    }
    return words, source


def write(output_dir: Path) -> Path:
    words, source = build()
    header = [
        "# Clinical findings: words of ICD-10-CM (built by scripts/data/build_clinical_findings.py)",
        f"# from {source['package']} {source['version']} ({source['licence']})",
    ]
    output_dir.mkdir(parents=True, exist_ok=True)
    path = output_dir / OUTPUT_NAME
    path.write_text("\n".join(header + words) + "\n", encoding="utf-8")
    sources_path = output_dir / "surrogates" / "SOURCES.json"
    recorded = json.loads(sources_path.read_text(encoding="utf-8")) if sources_path.exists() else {}
    recorded[f"../{OUTPUT_NAME}"] = source
    sources_path.parent.mkdir(parents=True, exist_ok=True)
    sources_path.write_text(json.dumps(recorded, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output_dir", type=Path, help="the package's data folder (spacy_deid/data)")
    args = parser.parse_args(argv)
    print(f"wrote {write(args.output_dir)}")


if __name__ == "__main__":
    main()
