"""Which token features help the transformer NER: train the config as it is,
without the shape/prefix/suffix/norm embeddings (the listener alone),
without the section/attribute structure embeddings, and without the lexicon
category embeddings (names, places, clinical words); score each model.

    python scripts/experiments/feature_ablation.py --train corpus/train.spacy \
        --test dev=assets/dev_notes --config configs/transformer.cfg \
        --max-steps 600 --output metrics/features

See variants.py for how each variant is trained and scored.
"""
import argparse
from typing import List, Optional

from variants import Variant, add_common_arguments, run_experiment

TOK2VEC = ("components", "ner", "model", "tok2vec")


def _tok2vec(config):
    block = config
    for key in TOK2VEC:
        block = block[key]
    return block


def without_features(config) -> None:
    """The NER reads the transformer listener alone."""
    listener = dict(_tok2vec(config)["transformer"])
    config["components"]["ner"]["model"]["tok2vec"] = listener


def without_structure(config) -> None:
    _tok2vec(config)["structure"] = None


def without_lexicon(config) -> None:
    _tok2vec(config)["lexicon"] = None


VARIANTS = {
    "all": Variant("all", lambda config: None, {"features": "lexical + structure + lexicon"}),
    "no-lexical": Variant("no-lexical", without_features, {"features": "listener only"}),
    "no-structure": Variant("no-structure", without_structure, {"features": "lexical + lexicon"}),
    "no-lexicon": Variant("no-lexicon", without_lexicon, {"features": "lexical + structure"}),
}


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_common_arguments(parser, "configs/transformer.cfg", 600, "metrics/features")
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    args = parser.parse_args(argv)
    print(run_experiment(args, [VARIANTS[name] for name in args.variants], ["setting", "features"]))


if __name__ == "__main__":
    main()
