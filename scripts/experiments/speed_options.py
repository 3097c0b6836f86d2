"""The accuracy of each speed option next to its speed (issue 17).

    python scripts/experiments/speed_options.py --train corpus/train.spacy \
        --test dev=assets/dev_notes --test generated=assets/heldout \
        --eval-during-training corpus/dev.spacy --max-steps 1500 \
        --notes dev --notes synth:200 --output metrics/speed_options

Each option is configs/cpu.cfg with one edit, trained the same way (same
notes, steps and seed; see variants.py), scored with `spacy-deid evaluate` on
every test corpus, then timed with scripts/bench/benchmark.py (one and two
processes, median of `--passes` passes, words per second and per CPU-second):

- default: configs/cpu.cfg as it is (tok2vec width 128, depth 4);
- width-96: the tok2vec 96 wide (the width of spaCy's small English pipeline);
- pieces-2: the encoder's maxout layers with 2 pieces instead of 3 (a third
  fewer multiplications in the encoder, the same width and depth);
- fast: the tok2vec 64 wide and 2 layers deep, without `deid_ner_scores`,
  `deid_safety_net` and `deid_confidence` (no calibrated scores, no recall
  operating point: the NER, the rules and the reconciler only).

Writes <output>/table.md and table.json (accuracy and words/s per option);
each option's folder keeps its config, training log, evaluation reports and
benchmark. Prints figures only, never note text.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional

from variants import Variant, parse_tests, score_model, train_and_score

ENCODE = ("components", "tok2vec", "model", "encode")
SCORING_COMPONENTS = ("deid_ner_scores", "deid_safety_net", "deid_confidence")


def _encode(config):
    block = config
    for key in ENCODE:
        block = block[key]
    return block


def narrow(width: int, depth: Optional[int] = None):
    """The tok2vec `width` wide (and `depth` layers deep); the embeddings follow the width."""

    def edit(config) -> None:
        encode = _encode(config)
        encode["width"] = width
        if depth is not None:
            encode["depth"] = depth

    return edit


def pieces(n: int):
    """The encoder's maxout layers with `n` pieces."""

    def edit(config) -> None:
        _encode(config)["maxout_pieces"] = n

    return edit


def fast(config) -> None:
    """A 64-wide, 2-deep tok2vec and no scoring components."""
    narrow(64, 2)(config)
    config["nlp"]["pipeline"] = [p for p in config["nlp"]["pipeline"] if p not in SCORING_COMPONENTS]
    for name in SCORING_COMPONENTS:
        config["components"].pop(name, None)
    weights = config["training"]["score_weights"]
    for key in [k for k in weights if k.startswith("phi_score_")]:
        del weights[key]


OPTIONS = {
    "default": Variant("default", lambda config: None, {"tok2vec": "128 x 4", "scoring": "yes"}),
    "width-96": Variant("width-96", narrow(96), {"tok2vec": "96 x 4", "scoring": "yes"}),
    "pieces-2": Variant("pieces-2", pieces(2), {"tok2vec": "128 x 4, 2 pieces", "scoring": "yes"}),
    "fast": Variant("fast", fast, {"tok2vec": "64 x 2", "scoring": "no"}),
}


def benchmark(model: Path, notes: List[str], passes: int, output: Path, name: str) -> Dict[str, float]:
    """workload -> words/s with 1 and 2 processes (scripts/bench/benchmark.py, components not timed)."""
    command = [sys.executable, str(Path(__file__).resolve().parents[1] / "bench" / "benchmark.py"), str(model), "--name", name,
               "--processes", "1", "2", "--passes", str(passes), "--no-components", "--output", str(output)]
    for workload in notes:
        command += ["--notes", workload]
    with (output.parent / "benchmark.log").open("w") as log:
        done = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT)
    if done.returncode:
        raise SystemExit(f"benchmark failed ({done.returncode}); see {output.parent / 'benchmark.log'}")
    report = json.loads((output / "benchmark.json").read_text())
    speeds: Dict[str, float] = {}
    for run in report["runs"]:
        if "words_per_second" in run:
            speeds[f"{run['workload']} words/s ({run['n_process']} proc)"] = run["words_per_second"]
            speeds[f"{run['workload']} words/CPU-s ({run['n_process']} proc)"] = run["words_per_cpu_second"]
    return speeds


def write_table(rows: List[Dict], tests: List[str], output: Path, note: str) -> str:
    speed_columns = sorted({k for row in rows for k in row["speed"]}, key=lambda k: ("CPU" in k, k))
    header = ["option", "tok2vec", "scoring"] + [f"{t} {m}" for t in tests for m in ("strict F1", "binary token R")]
    header += speed_columns
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        cells = [row["setting"], row["tok2vec"], row["scoring"]]
        for test in tests:
            cells += [f"{100 * row[test]['strict_f']:.2f}", f"{100 * row[test]['binary_token_r']:.2f}"]
        cells += [f"{row['speed'].get(c, 0):,.0f}" for c in speed_columns]
        lines.append("| " + " | ".join(cells) + " |")
    text = "\n".join(lines + ["", note, ""])
    (output / "table.json").write_text(json.dumps(rows, indent=2))
    (output / "table.md").write_text(text)
    return text


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train", type=Path, required=True)
    parser.add_argument("--test", action="append", required=True, help="NAME=PATH, repeatable")
    parser.add_argument("--eval-during-training", type=Path, required=True)
    parser.add_argument("--config", type=Path, default=Path("configs/cpu.cfg"))
    parser.add_argument("--max-steps", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--notes", action="append", default=None, help="benchmark workloads (benchmark.py --notes)")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--only", nargs="*", choices=sorted(OPTIONS), help="run only these options")
    parser.add_argument("--default-model", type=Path,
                        help="a pipeline already trained from --config the same way (e.g. training/cpu/model-last "
                             "of `spacy project run all`): scored and timed as the default option, not retrained")
    parser.add_argument("--output", type=Path, default=Path("metrics/speed_options"))
    args = parser.parse_args(argv)
    tests = parse_tests(args.test)
    notes = args.notes or ["dev"]
    args.output.mkdir(parents=True, exist_ok=True)
    rows = []
    for name, variant in OPTIONS.items():
        saved = args.output / name / "row.json"
        if args.only is not None and name not in args.only:
            if saved.exists():
                rows.append(json.loads(saved.read_text()))
            continue
        if name == "default" and args.default_model is not None:
            model = args.default_model
            saved.parent.mkdir(parents=True, exist_ok=True)
            row = {"setting": name, **variant.info, "train_minutes": None, "model": str(model)}
            row.update(score_model(model, tests, args.output / name, name))
        else:
            row = train_and_score(variant, base=args.config, output=args.output, train=args.train,
                                  dev=args.eval_during_training, tests=tests, max_steps=args.max_steps,
                                  seed=args.seed)
            model = args.output / name / "model" / "model-last"
        row["speed"] = benchmark(model, notes, args.passes, args.output / name / "benchmark", name)
        saved.write_text(json.dumps(row, indent=2))
        rows.append(row)
    note = (f"configs/cpu.cfg with one edit per option, {args.max_steps} steps, seed {args.seed}, trained on "
            f"{args.train}; model-last scored (strict entity F1, binary token recall, all 30 subtypes) and timed "
            f"with scripts/bench/benchmark.py ({args.passes} passes, nlp.pipe batch size 8).")
    print(write_table(rows, list(tests), args.output, note))


if __name__ == "__main__":
    main()
