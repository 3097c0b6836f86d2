"""Cumulative ablation, like Table 7 of the hybrid-system paper.

The first row runs the first step, each later row adds the next step, and
every row is tested against the one before it by approximate randomization
on strict entity P, R and F1. A step item is either a component name (the
component runs from that row on) or a boolean setting of a component,
`components.NAME.SETTING` (false in earlier rows, true from that row on),
so that steps inside one component count too: the reconciler's error
correction and global reconciliation are settings, as in the paper's rows.
"""
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Union

from ..corpus import Note
from .measures import ALL_SUBTYPES, STRICT, Counts
from .pairing import pair_notes
from .scores import Evaluation
from .significance import (
    DEFAULT_ALPHA,
    DEFAULT_ITERATIONS,
    RandomizationResult,
    approximate_randomization,
)
from .systems import load_pipeline, run_pipeline

# Prefix of a setting item: components.NAME.SETTING
_SETTING_PREFIX = "components."


class AblationError(ValueError):
    pass


@dataclass
class AblationRow:
    step: List[str]  # the components and settings this row adds
    enabled: List[str]  # every component that runs in this row
    settings: Dict[str, bool]  # every setting item and its value in this row
    counts: Counts
    significance: Dict[str, RandomizationResult] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        return {
            "step": self.step,
            "enabled": self.enabled,
            "settings": self.settings,
            **self.counts.to_dict(),
            "vs_previous": {m: r.to_dict() for m, r in self.significance.items()},
        }


def is_setting(item: str) -> bool:
    return item.startswith(_SETTING_PREFIX)


def _check_setting(item: str, config) -> None:
    parts = item.split(".")
    if len(parts) != 3 or parts[1] not in config["components"]:
        raise AblationError(
            f"{item}: a setting must be components.NAME.SETTING with NAME a component "
            f"of the pipeline ({', '.join(config['components'])})"
        )
    value = config["components"][parts[1]].get(parts[2])
    if not isinstance(value, bool):
        raise AblationError(f"{item}: only true/false settings can be steps")


def ablation_steps(
    pipe_names: Sequence[str],
    steps: Optional[Sequence[Sequence[str]]],
    keep: Sequence[str],
    config=None,
) -> List[List[str]]:
    """The steps to add in turn: as given, or one per component not kept on."""
    known = set(pipe_names)
    named = list(keep) + [name for step in steps or [] for name in step]
    unknown = [name for name in named if not is_setting(name) and name not in known]
    if unknown:
        raise AblationError(
            f"not in the pipeline: {', '.join(unknown)} (components: {', '.join(pipe_names)})"
        )
    for name in named:
        if is_setting(name):
            if config is None:
                raise AblationError(f"{name}: settings need the pipeline's config")
            _check_setting(name, config)
    if steps:
        seen: List[str] = [n for s in steps for n in s]
        twice = sorted({n for n in seen if seen.count(n) > 1})
        if twice:
            raise AblationError(f"in more than one step: {', '.join(twice)}")
        return [list(s) for s in steps]
    result = [[name] for name in pipe_names if name not in keep]
    if not result:
        raise AblationError("every component is kept on: nothing to ablate")
    return result


def _overrides(settings: Dict[str, bool]) -> Dict[str, Any]:
    """{"components.NAME.SETTING": value} as the nested dict spacy.load takes."""
    config: Dict[str, Any] = {"components": {}}
    for item, value in settings.items():
        _, component, setting = item.split(".")
        config["components"].setdefault(component, {})[setting] = value
    return config


def run_ablation(
    model: Union[str, Path, Any],
    gold: List[Note],
    *,
    steps: Optional[Sequence[Sequence[str]]] = None,
    keep: Sequence[str] = (),
    label_set: str = ALL_SUBTYPES,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
) -> List[AblationRow]:
    """`model`: a pipeline name or path, or a loaded Language."""
    is_path = isinstance(model, (str, Path))
    nlp = load_pipeline(model) if is_path else model
    plan = ablation_steps(nlp.pipe_names, steps, keep, nlp.config)
    settings = [item for step in plan for item in step if is_setting(item)]
    run = dict(keep=keep, label_set=label_set, iterations=iterations, seed=seed)
    if is_path or not settings:
        return _run(model if is_path else None, nlp, gold, plan, settings, **run)
    # Settings are read when components are created, so rows with settings reload
    # the pipeline from disk with config overrides.
    with tempfile.TemporaryDirectory() as tmp:
        nlp.to_disk(tmp)
        return _run(tmp, nlp, gold, plan, settings, **run)


def _run(path, nlp, gold, plan, all_settings, *, keep, label_set, iterations, seed):
    rows: List[AblationRow] = []
    enabled: List[str] = list(keep)
    switched_on: List[str] = []
    previous: Optional[List[Counts]] = None
    for step in plan:
        enabled += [item for item in step if not is_setting(item)]
        switched_on += [item for item in step if is_setting(item)]
        settings = {item: item in switched_on for item in all_settings}
        row_nlp = load_pipeline_with(path, _overrides(settings)) if all_settings else nlp
        in_order = [name for name in row_nlp.pipe_names if name in enabled]
        predicted = run_pipeline(row_nlp, gold, enable=in_order)
        per_note = Evaluation(pair_notes(gold, predicted)).per_note(STRICT, label_set)
        row = AblationRow(list(step), in_order, settings, sum(per_note, Counts()))
        if previous is not None:
            row.significance = approximate_randomization(
                per_note, previous, iterations=iterations, seed=seed
            )
        rows.append(row)
        previous = per_note
    return rows


def load_pipeline_with(path, overrides: Dict[str, Any]):
    import spacy

    return spacy.load(path, config=overrides)


def _pct(value: Optional[float]) -> str:
    return "–" if value is None else f"{100 * value:.2f}"


def ablation_markdown(
    rows: List[AblationRow], *, alpha: float = DEFAULT_ALPHA, label_set: str = ALL_SUBTYPES
) -> str:
    lines = [
        "| row | P | R | F1 | s (P) | s (R) | s (F1) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for index, row in enumerate(rows):
        name = ("" if index == 0 else "+ ") + ", ".join(row.step)
        cells = [name, _pct(row.counts.precision), _pct(row.counts.recall), _pct(row.counts.f1)]
        for metric in ("p", "r", "f"):
            result = row.significance.get(metric)
            cells.append(
                "–" if result is None
                else f"{result.s:.4f}" + ("*" if result.significant(alpha) else "")
            )
        lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        f"Entity strict, label set {label_set}, micro averages in percent. Each row adds its "
        "components (or switches on its settings) on top of the rows above it; s: approximate "
        "randomization against the previous "
        f"row (document-level shuffling), * significant at s <= {alpha}.",
    ]
    return "\n".join(lines) + "\n"
