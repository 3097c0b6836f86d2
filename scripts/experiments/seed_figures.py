"""The headline figures over several trained pipelines (training seeds): mean and spread.

    python scripts/experiments/seed_figures.py training/cpu/model-best training/cpu-seed1/model-best \
        training/cpu-seed2/model-best \
        --set dev=spacy_deid/data/dev_notes:i2b2-2014 \
        --set nursing=/data/physionet:physionet \
        --out docs/measurements/seed_figures.json

Each pipeline's rule components (PHI rules, reconciler, safety net) are initialised again from
the installed package's data, so pipelines trained before a rule change are scored with today's
rules; its trained components and its calibration (`deid_confidence`) are kept. Every set is
run once up to `deid_confidence`, then scored at each operating point: binary token and strict
P/R/F1 in the set's scheme (`spacy-deid evaluate --scheme`). Prints and writes counts and
measures only, never note text.
"""
import argparse
import json
import statistics
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import spacy

from spacy_deid.corpus import doc_to_note, read_corpus
from spacy_deid.evaluation.measures import BINARY_TOKEN, STRICT
from spacy_deid.evaluation.pairing import pair_notes
from spacy_deid.evaluation.schemes import get_scheme
from spacy_deid.evaluation.scores import Evaluation

RULE_COMPONENTS = ("deid_phi_rules", "deid_reconciler", "deid_safety_net")
CONFIDENCE = "deid_confidence"
POINTS = ("balanced", "recall")


def parse_set(spec: str) -> Tuple[str, str, str]:
    name, _, rest = spec.partition("=")
    path, _, scheme = rest.rpartition(":")
    if not name or not path or not scheme:
        raise argparse.ArgumentTypeError(f"--set needs NAME=PATH:SCHEME, got {spec!r}")
    return name, path, scheme


def with_package_rules(model: str):
    nlp = spacy.load(model)
    for name in RULE_COMPONENTS:
        if name in nlp.pipe_names:
            nlp.get_pipe(name).initialize(nlp=nlp)
    return nlp


def measures(notes, docs, scheme_name: str) -> Dict[str, Dict[str, float]]:
    scheme = get_scheme(scheme_name)
    predicted = [doc_to_note(doc, note_id=note.note_id) for doc, note in zip(docs, notes)]
    evaluation = Evaluation(
        scheme.apply(pair_notes(notes, predicted)), label_sets=scheme.report_label_sets()
    )
    result = {}
    for level in (BINARY_TOKEN, STRICT):
        c = evaluation.overall(level)
        result[level] = {"p": round(c.precision or 0, 4), "r": round(c.recall or 0, 4),
                         "f": round(c.f1 or 0, 4), "tp": c.tp, "fp": c.fp, "fn": c.fn}
    return result


def score_model(model: str, sets: Sequence[Tuple[str, str, str]],
                decision_thresholds: Sequence[float] = ()) -> Dict[str, Dict]:
    """Rows "<set> <point>" with the pipeline's own keep/drop threshold, and
    "<set> <point> decision <t>" with `decision_threshold` t (1.0: every soft
    drop stays dropped, as the drop rules alone; lower: the decision restores)."""
    nlp = with_package_rules(model)
    confidence = nlp.get_pipe(CONFIDENCE)
    own_threshold = confidence.decision_threshold
    before = nlp.pipe_names[: nlp.pipe_names.index(CONFIDENCE)]
    rows: Dict[str, Dict] = {}
    for name, path, scheme in sets:
        notes = list(read_corpus(path))
        with nlp.select_pipes(enable=before):
            cached = list(nlp.pipe([note.text for note in notes], batch_size=16))
        for threshold in [None, *decision_thresholds]:
            confidence.decision_threshold = own_threshold if threshold is None else threshold
            suffix = "" if threshold is None else f" decision {threshold:g}"
            for point in POINTS:
                confidence.operating_point = point
                docs = [confidence(doc.copy()) for doc in cached]
                row = f"{name} {point}{suffix}"
                rows[row] = measures(notes, docs, scheme)
                b = rows[row][BINARY_TOKEN]
                print(f"{model} {row}: binary token P {b['p']:.4f} R {b['r']:.4f} "
                      f"(fn {b['fn']}, fp {b['fp']})", flush=True)
        confidence.decision_threshold = own_threshold
    return rows


def summary(runs: Dict[str, Dict[str, Dict]]) -> Dict[str, Dict[str, Dict[str, float]]]:
    """Per row and level: mean, min and max of P, R, F1 over the pipelines."""
    rows = next(iter(runs.values())).keys()
    out: Dict[str, Dict[str, Dict[str, float]]] = {}
    for row in rows:
        out[row] = {}
        for level in (BINARY_TOKEN, STRICT):
            out[row][level] = {}
            for m in ("p", "r", "f"):
                values = [runs[model][row][level][m] for model in runs]
                out[row][level][m] = {"mean": round(statistics.mean(values), 4),
                                      "min": min(values), "max": max(values)}
    return out


def markdown(summary_rows: Dict[str, Dict], level: str = BINARY_TOKEN) -> str:
    def cell(v: Dict[str, float]) -> str:
        return f"{100 * v['mean']:.1f} ({100 * v['min']:.1f}-{100 * v['max']:.1f})"

    lines = ["| notes, operating point | P | R | F1 |", "|---|---:|---:|---:|"]
    for row, levels in summary_rows.items():
        v = levels[level]
        lines.append(f"| {row} | {cell(v['p'])} | {cell(v['r'])} | {cell(v['f'])} |")
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="+")
    parser.add_argument("--set", dest="sets", type=parse_set, action="append", required=True,
                        help="NAME=PATH:SCHEME (repeatable)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--decision-thresholds", type=float, nargs="*", default=[],
                        help="also score each set with deid_confidence's decision_threshold at "
                             "these values (1.0 = the drop rules alone), for the ablation of "
                             "the keep/drop decision")
    args = parser.parse_args(argv)
    runs = {model: score_model(model, args.sets, args.decision_thresholds) for model in args.models}
    result = {"models": args.models, "sets": [list(s) for s in args.sets], "runs": runs,
              "summary": summary(runs)}
    print(markdown(result["summary"]))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
