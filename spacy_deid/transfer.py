"""Transfer learning: the fine-tune strategy's training config.

The NeuroNER transfer study found two strategies best when an external
annotated corpus (e.g. i2b2 2014) sits beside the target one (e.g. N-GRID
2016): *concurrent* (train on both together; needs only a folder holding
both .spacy files) and *fine-tune* (train on the external corpus, then go on
training that pipeline on the target corpus). For fine-tuning, every trained
component of the base config is sourced from the external pipeline instead
of being built by its factory; spaCy then resumes their training rather than
initializing them afresh, keeping the learned weights, labels, rules and
dictionaries. The [training], [corpora] and [initialize] blocks stay those of
the base config.
"""
from pathlib import Path
from typing import Union

from thinc.api import Config


def finetune_config(base: Config, source: Union[str, Path]) -> Config:
    """`base` with each pipeline component sourced from the pipeline `source`."""
    config = Config(base).copy()
    pipeline = config["nlp"]["pipeline"]
    missing = [name for name in pipeline if name not in config["components"]]
    if missing:
        raise ValueError(f"the base config lists {', '.join(missing)} but has no block for them")
    for name in pipeline:
        config["components"][name] = {"source": str(source)}
    return config
