"""PHICON ablation (the seed paper's Table 4): train with no augmentation,
PHI augmentation, context augmentation and both, for each alpha, and score
every model on a held-out-template split and on the development notes.

    python scripts/experiments/augmentation_table.py --train assets/split/train_A \
        --test heldout=assets/split/test_B --test dev=assets/dev_notes \
        --config configs/cpu.cfg --max-steps 800 --output metrics/augmentation

Each run is `spacy train` with the config's `[corpora.train.augmenter]` set
to `spacy-deid.Phicon.v1` (see variants.py). Writes table.md and table.json.
"""
import argparse
from typing import List, Optional

from variants import Variant, add_common_arguments, run_experiment

AUGMENTER = "spacy-deid.Phicon.v1"
KINDS = {"phi": (True, False), "context": (False, True), "both": (True, True)}


def augmentation(kind: str, alpha: int, seed: int) -> Variant:
    def edit(config) -> None:
        if kind == "none":
            config["corpora"]["train"]["augmenter"] = None
            return
        phi, context = KINDS[kind]
        config["corpora"]["train"]["augmenter"] = {
            "@augmenters": AUGMENTER, "alpha": alpha, "phi": phi, "context": context,
            "synonym_rate": 0.1, "insertion_rate": 0.1, "seed": seed,
        }

    name = kind if kind == "none" else f"{kind}-a{alpha}"
    return Variant(name, edit, {"augmentation": kind, "alpha": alpha or "-"})


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_common_arguments(parser, "configs/cpu.cfg", 800, "metrics/augmentation")
    parser.add_argument("--alphas", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--kinds", nargs="+", default=list(KINDS), choices=list(KINDS))
    args = parser.parse_args(argv)
    variants = [augmentation("none", 0, args.seed)] + [
        augmentation(kind, alpha, args.seed) for kind in args.kinds for alpha in args.alphas
    ]
    print(run_experiment(args, variants, ["augmentation", "alpha"]))


if __name__ == "__main__":
    main()
