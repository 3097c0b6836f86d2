"""Corpus-aware de-identification off vs on (docs/corpus-aware.md).

    python scripts/experiments/measure_corpus_aware.py MODEL CORPUS [--scheme physionet] [--out FILE.json]

Runs the pipeline once over the corpus (any format `read_corpus` reads; the
patient ids come with the notes), scores its `doc.ents`, then learns the
corpus evidence from those Docs, applies it and scores again. Measures, in
the corpus's own scheme (`spacy-deid evaluate --scheme`; `physionet` leaves
PROFESSION spans and ages under 90 out and scores names and places word by
word): binary token precision/recall, entity strict F1.
Prints counts and measures only, never note text.
"""
import argparse
import json
import time
from typing import Dict

import spacy

from spacy_deid.corpus import read_corpus
from spacy_deid.deid.corpus_evidence import ADDED_KEY, DROPPED_KEY, CorpusEvidence
from spacy_deid.evaluation.measures import BINARY_TOKEN, STRICT, Counts, match_level
from spacy_deid.evaluation.schemes import I2B2_2014, Scheme, get_scheme
from spacy_deid.extensions import install_extensions


def score(notes, docs, scheme: Scheme) -> Dict[str, float]:
    binary, strict = Counts(), Counts()
    for note, doc in zip(notes, docs):
        gold = scheme.map_units(note.text, [m.key() for m in note.mentions])
        predicted = scheme.map_units(
            note.text, [(e.start_char, e.end_char, e.label_) for e in doc.ents]
        )
        binary = binary + match_level(note.text, gold, predicted, BINARY_TOKEN).counts()
        strict = strict + match_level(note.text, gold, predicted, STRICT).counts()
    return {
        "binary_token_p": binary.precision, "binary_token_r": binary.recall,
        "binary_token_f": binary.f1, "binary_tp": binary.tp, "binary_fp": binary.fp,
        "binary_fn": binary.fn, "strict_f": strict.f1, "strict_p": strict.precision,
        "strict_r": strict.recall,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("corpus")
    parser.add_argument("--scheme", default=I2B2_2014)
    parser.add_argument("--min-patients", type=int, nargs="*", default=[3])
    parser.add_argument("--out")
    args = parser.parse_args()
    install_extensions()
    scheme = get_scheme(args.scheme)
    nlp = spacy.load(args.model)
    notes = list(read_corpus(args.corpus))
    started = time.perf_counter()
    docs = list(nlp.pipe((note.text for note in notes), batch_size=32))
    seconds = time.perf_counter() - started
    patients = [note.patient_id or f"note:{note.note_id}" for note in notes]
    result = {
        "model": args.model, "scheme": scheme.name, "notes": len(notes), "patients": len(set(patients)),
        "pipeline_seconds": round(seconds, 1), "off": score(notes, docs, scheme),
    }
    payload = [doc.to_bytes() for doc in docs]
    for min_patients in args.min_patients:
        # shared: clinicians' names and the site's places across patients; without
        # places: clinicians' names only; same patient: nothing across patients
        for setting, titled, places in (("shared", True, True), ("shared_without_places", True, False),
                                        ("same_patient", False, False)):
            evidence = CorpusEvidence.from_docs(zip(docs, patients), min_patients=min_patients,
                                                share_titled_names=titled, share_site_places=places)
            copies = [spacy.tokens.Doc(nlp.vocab).from_bytes(data) for data in payload]
            started = time.perf_counter()
            for doc, patient in zip(copies, patients):
                evidence.apply(doc, patient)
            row = score(notes, copies, scheme)
            row["apply_seconds"] = round(time.perf_counter() - started, 2)
            row["dropped"] = sum(len(doc.spans[DROPPED_KEY]) for doc in copies)
            row["added"] = sum(len(doc.spans[ADDED_KEY]) for doc in copies)
            result[f"on_k{min_patients}_{setting}"] = row
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf8") as file_:
            file_.write(text + "\n")


if __name__ == "__main__":
    main()
