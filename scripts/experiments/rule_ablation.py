"""Ablation of the PHI rules and reconciler rules: each named group of rule ids
left out in turn, the pipeline's trained components unchanged (docs/clinical-notes.md).

    python scripts/experiments/rule_ablation.py MODEL CORPUS [--scheme physionet] \
        [--group NAME=ID,ID,... ...] [--out FILE.json]

The pipeline runs once up to its NER scores; then, for "all" (every rule) and
for each group left out, the PHI rules and the reconciler are re-initialised
from the package data without those ids and the later components rerun on
copies of the cached Docs. Scores are binary token and strict P/R/F1 in the
corpus's scheme (`spacy-deid evaluate --scheme`). Prints counts and measures
only, never note text.
"""
import argparse
import json
from typing import Dict, FrozenSet, List

import spacy
from spacy.tokens import Doc

from spacy_deid.corpus import doc_to_note, read_corpus
from spacy_deid.evaluation.measures import BINARY_TOKEN, STRICT
from spacy_deid.evaluation.pairing import pair_notes
from spacy_deid.evaluation.schemes import I2B2_2014, get_scheme
from spacy_deid.evaluation.scores import Evaluation
from spacy_deid.pipeline.phi_rules.patterns import load_phi_patterns
from spacy_deid.pipeline.reconciler.rules import make_reconciler_rules

FIRST_RERUN = "deid_phi_rules"


def rerun(nlp, cached: List[Doc], left_out: FrozenSet[str]) -> List[Doc]:
    """The components from the PHI rules on, with the rules of `left_out` removed."""
    nlp.get_pipe("deid_phi_rules").initialize(
        patterns=[p for p in load_phi_patterns() if p["id"] not in left_out])
    rules = make_reconciler_rules()
    rules["rules"] = [r for r in rules["rules"] if r["id"] not in left_out]
    nlp.get_pipe("deid_reconciler").initialize(rules=rules)
    docs = [doc.copy() for doc in cached]
    for name in nlp.pipe_names[nlp.pipe_names.index(FIRST_RERUN):]:
        docs = list(nlp.get_pipe(name).pipe(docs))
    return docs


def score(notes, docs, scheme_name: str) -> Dict[str, Dict[str, float]]:
    scheme = get_scheme(scheme_name)
    predicted = [doc_to_note(doc, note_id=note.note_id) for doc, note in zip(docs, notes)]
    evaluation = Evaluation(scheme.apply(pair_notes(notes, predicted)), label_sets=scheme.report_label_sets())
    result = {}
    for level in (BINARY_TOKEN, STRICT):
        c = evaluation.overall(level)
        result[level] = {"p": round(c.precision or 0, 4), "r": round(c.recall or 0, 4),
                         "f": round(c.f1 or 0, 4), "tp": c.tp, "fp": c.fp, "fn": c.fn}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model")
    parser.add_argument("corpus")
    parser.add_argument("--scheme", default=I2B2_2014)
    parser.add_argument("--group", action="append", default=[],
                        help="NAME=ID,ID,...: rule and pattern ids left out together (repeatable)")
    parser.add_argument("--out")
    args = parser.parse_args()
    groups = {"all": frozenset()}
    for spec in args.group:
        name, _, ids = spec.partition("=")
        if not name or not ids:
            parser.error(f"--group needs NAME=ID,ID,...: {spec!r}")
        groups[f"without {name}"] = frozenset(i.strip() for i in ids.split(",") if i.strip())
    nlp = spacy.load(args.model)
    notes = list(read_corpus(args.corpus))
    with nlp.select_pipes(enable=nlp.pipe_names[:nlp.pipe_names.index(FIRST_RERUN)]):
        cached = list(nlp.pipe([note.text for note in notes], batch_size=16))
    rows = {}
    for name, left_out in groups.items():
        rows[name] = score(notes, rerun(nlp, cached, left_out), args.scheme)
        b = rows[name][BINARY_TOKEN]
        print(f"{name}: binary token P {b['p']:.4f} R {b['r']:.4f} (tp {b['tp']}, fp {b['fp']}, fn {b['fn']}); "
              f"strict F1 {rows[name][STRICT]['f']:.4f}")
    if args.out:
        with open(args.out, "w", encoding="utf8") as f:
            json.dump({"model": args.model, "scheme": args.scheme, "notes": len(notes),
                       "groups": {k: sorted(v) for k, v in groups.items()}, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
