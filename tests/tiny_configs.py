"""Tiny versions of the real configs, for tests that train or build a pipeline.

`tiny_config("cpu")` is `configs/cpu.cfg` with every model made small and two
training steps; nothing else changes, so the tests exercise the pipeline the
project really trains (its components, features, readers and scorers) and a
change to a real config reaches the tests without a copy to keep in step.
The shrinking goes by architecture, so a block added to a real config is
made small too.
"""
from pathlib import Path
from typing import Any, Callable, Dict

from thinc.api import Config

REPO = Path(__file__).resolve().parents[1]
CONFIGS = REPO / "configs"
NAMES = ("cpu", "transformer")

# Steps: enough to run training, evaluation and saving once.
TRAINING = {"max_steps": 2, "eval_frequency": 2}
_ROWS = [500, 100, 250, 250]


def _hash_embed(block: Dict[str, Any]) -> None:
    block["rows"] = _ROWS[: len(block["attrs"])]
    block["include_static_vectors"] = False  # no vectors package needed
    if isinstance(block.get("width"), int):
        block["width"] = 16


# architecture (or schedule, span getter) -> how its block is made small
SHRINK: Dict[str, Callable[[Dict[str, Any]], None]] = {
    "spacy.MultiHashEmbed.v2": _hash_embed,
    "spacy.MaxoutWindowEncoder.v2": lambda b: b.update(width=32, depth=1),
    "spacy.TransitionBasedParser.v2": lambda b: b.update(hidden_width=16),
    "spacy-deid.StructureEmbed.v1": lambda b: b.update(width=8, rows=50),
    "spacy-deid.LexiconEmbed.v1": lambda b: b.update(width=8, rows=50),
    "spacy-transformers.strided_spans.v1": lambda b: b.update(window=64, stride=48),
    "warmup_linear.v1": lambda b: b.update(warmup_steps=1),
}


def _shrink(block: Dict[str, Any]) -> None:
    for key in ("@architectures", "@schedules", "@span_getters"):
        if block.get(key) in SHRINK:
            SHRINK[block[key]](block)
    for value in block.values():
        if isinstance(value, dict):
            _shrink(value)


def tiny_config(name: str, *, interpolate: bool = False) -> Config:
    """`configs/<name>.cfg` with small models, no static vectors and two steps."""
    config = Config().from_disk(CONFIGS / f"{name}.cfg", interpolate=False)
    config["training"].update(TRAINING)
    if "vectors" in config["paths"]:
        config["paths"]["vectors"] = None
    _shrink(config)
    return config.interpolate() if interpolate else config


def write_tiny_config(name: str, folder: Path) -> Path:
    """Write `tiny_<name>.cfg` into `folder` (a project copy's configs/)."""
    path = Path(folder) / f"tiny_{name}.cfg"
    tiny_config(name).to_disk(path)
    return path
