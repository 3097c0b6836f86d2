"""Cumulative ablation, like Table 7 of the hybrid-system paper: the first
row runs the first step's components, each later row adds the next step, and
every row is tested against the one before it by approximate randomization
on strict entity P, R and F1."""
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

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
from .systems import run_pipeline


class AblationError(ValueError):
    pass


@dataclass
class AblationRow:
    step: List[str]  # the components this row adds
    enabled: List[str]  # every component that runs in this row
    counts: Counts
    significance: Dict[str, RandomizationResult] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        return {
            "step": self.step,
            "enabled": self.enabled,
            **self.counts.to_dict(),
            "vs_previous": {m: r.to_dict() for m, r in self.significance.items()},
        }


def ablation_steps(
    pipe_names: Sequence[str], steps: Optional[Sequence[Sequence[str]]], keep: Sequence[str]
) -> List[List[str]]:
    """The steps to add in turn: as given, or one per component not kept on."""
    known = set(pipe_names)
    named = list(keep) + [name for step in steps or [] for name in step]
    unknown = [name for name in named if name not in known]
    if unknown:
        raise AblationError(
            f"not in the pipeline: {', '.join(unknown)} (components: {', '.join(pipe_names)})"
        )
    if steps:
        seen: List[str] = [n for s in steps for n in s]
        twice = sorted({n for n in seen if seen.count(n) > 1})
        if twice:
            raise AblationError(f"components in more than one step: {', '.join(twice)}")
        return [list(s) for s in steps]
    result = [[name] for name in pipe_names if name not in keep]
    if not result:
        raise AblationError("every component is kept on: nothing to ablate")
    return result


def run_ablation(
    nlp,
    gold: List[Note],
    *,
    steps: Optional[Sequence[Sequence[str]]] = None,
    keep: Sequence[str] = (),
    label_set: str = ALL_SUBTYPES,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
) -> List[AblationRow]:
    rows: List[AblationRow] = []
    enabled: List[str] = list(keep)
    previous: Optional[List[Counts]] = None
    for step in ablation_steps(nlp.pipe_names, steps, keep):
        enabled = enabled + list(step)
        in_order = [name for name in nlp.pipe_names if name in enabled]
        predicted = run_pipeline(nlp, gold, enable=in_order)
        per_note = Evaluation(pair_notes(gold, predicted)).per_note(STRICT, label_set)
        row = AblationRow(list(step), in_order, sum(per_note, Counts()))
        if previous is not None:
            row.significance = approximate_randomization(
                per_note, previous, iterations=iterations, seed=seed
            )
        rows.append(row)
        previous = per_note
    return rows


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
        "components to the rows above it; s: approximate randomization against the previous "
        f"row (document-level shuffling), * significant at s <= {alpha}.",
    ]
    return "\n".join(lines) + "\n"
