"""Corpus-aware de-identification off vs on (docs/corpus-aware.md).

    python scripts/measure_corpus_aware.py MODEL CORPUS [--physionet-view] [--out FILE.json]

Runs the pipeline once over the corpus (any format `read_corpus` reads; the
patient ids come with the notes), scores its `doc.ents`, then learns the
corpus evidence from those Docs, applies it and scores again. Measures:
binary token precision/recall (in the PhysioNet corpus's own view with
`--physionet-view`: PROFESSION spans and ages under 90 left out of the
system's output, since that corpus does not annotate them), entity strict F1.
Prints counts and measures only, never note text.
"""
import argparse
import json
import re
import time
from typing import Dict, List, Tuple

import spacy

from spacy_deid import labels
from spacy_deid.corpus import read_corpus
from spacy_deid.deid.corpus_evidence import ADDED_KEY, DROPPED_KEY, CorpusEvidence
from spacy_deid.evaluation.measures import BINARY_TOKEN, STRICT, Counts, match_level
from spacy_deid.extensions import install_extensions

_NUMBER = re.compile(r"\d+")
OLDEST_UNPROTECTED_AGE = 89  # HIPAA: ages over 89 are PHI


def corpus_view(doc) -> List[Tuple[int, int, str]]:
    """The system's spans the PhysioNet scheme would annotate."""
    spans = []
    for ent in doc.ents:
        if ent.label_ == labels.PROFESSION:
            continue
        if ent.label_ == labels.AGE:
            number = _NUMBER.search(ent.text)
            if number and int(number.group()) <= OLDEST_UNPROTECTED_AGE:
                continue
        spans.append((ent.start_char, ent.end_char, ent.label_))
    return spans


def score(notes, docs, physionet_view: bool) -> Dict[str, float]:
    binary, strict = Counts(), Counts()
    for note, doc in zip(notes, docs):
        gold = [m.key() for m in note.mentions]
        predicted = corpus_view(doc) if physionet_view else [
            (e.start_char, e.end_char, e.label_) for e in doc.ents
        ]
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
    parser.add_argument("--physionet-view", action="store_true")
    parser.add_argument("--min-patients", type=int, nargs="*", default=[3])
    parser.add_argument("--out")
    args = parser.parse_args()
    install_extensions()
    nlp = spacy.load(args.model)
    notes = list(read_corpus(args.corpus))
    started = time.perf_counter()
    docs = list(nlp.pipe((note.text for note in notes), batch_size=32))
    seconds = time.perf_counter() - started
    patients = [note.patient_id or f"note:{note.note_id}" for note in notes]
    result = {
        "model": args.model, "notes": len(notes), "patients": len(set(patients)),
        "pipeline_seconds": round(seconds, 1), "off": score(notes, docs, args.physionet_view),
    }
    payload = [doc.to_bytes() for doc in docs]
    for min_patients in args.min_patients:
        for share in (True, False):
            evidence = CorpusEvidence.from_docs(zip(docs, patients), min_patients=min_patients,
                                                share_titled_names=share)
            copies = [spacy.tokens.Doc(nlp.vocab).from_bytes(data) for data in payload]
            started = time.perf_counter()
            for doc, patient in zip(copies, patients):
                evidence.apply(doc, patient)
            row = score(notes, copies, args.physionet_view)
            row["apply_seconds"] = round(time.perf_counter() - started, 2)
            row["dropped"] = sum(len(doc.spans[DROPPED_KEY]) for doc in copies)
            row["added"] = sum(len(doc.spans[ADDED_KEY]) for doc in copies)
            result[f"on_k{min_patients}_{'shared' if share else 'same_patient'}"] = row
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf8") as file_:
            file_.write(text + "\n")


if __name__ == "__main__":
    main()
