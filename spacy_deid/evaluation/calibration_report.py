"""The confidence section of the evaluation report: Markdown tables and two plots
(reliability diagram, binary-token precision-recall curve with both operating
points). The data comes from calibration.confidence_report; report.py calls
these when its report has a "confidence" entry."""

from pathlib import Path
from typing import Any, Dict, List

from ..pipeline.confidence.operating_point import BALANCED, RECALL

RELIABILITY_PNG = "reliability.png"
PR_CURVE_PNG = "pr_curve.png"


def _pct(value) -> str:
    return "–" if value is None else f"{100 * value:.2f}"


def _num(value, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def confidence_markdown(confidence: Dict[str, Any]) -> List[str]:
    points = confidence["points"]
    out = ["## Confidence and operating points", ""]
    out += [
        "Every span carries a calibrated score (`span._.phi_score`, deid_confidence). "
        "A span is right to the extent its tokens are PHI: *share right* is the mean, over "
        "the spans in a band, of the share of their binary-token units inside a gold mention. "
        "ECE: span-weighted mean |mean score − share right| over the bands. "
        f"Recall point: the balanced entities plus NER candidates and safety-net spans "
        f"scored at least {confidence['recall_threshold']}.",
        "",
        "| operating point | binary token P | R | F1 | TP | FP | FN |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name in (BALANCED, RECALL, "recall_without_safety_net"):
        p = points[name]
        out.append(
            f"| {name} | {_pct(p['p'])} | {_pct(p['r'])} | {_pct(p['f'])} | "
            f"{p['tp']} | {p['fp']} | {p['fn']} |"
        )
    out.append("")
    for name, title in (
        ("balanced_output", "entities at the balanced point"),
        ("recall_output", "entities at the recall point"),
    ):
        table = confidence["reliability"][name]
        out += [
            f"### Reliability: {title}",
            "",
            f"ECE {_num(table['ece'])}, Brier score {_num(table['brier'])}.",
            "",
            "| score band | spans | mean score | share right |",
            "| --- | ---: | ---: | ---: |",
        ]
        for row in table["rows"]:
            if row["spans"]:
                out.append(
                    f"| {row['low']:.1f}–{row['high']:.1f} | {row['spans']} | "
                    f"{_num(row['mean_score'])} | {_num(row['share_right'])} |"
                )
        out.append("")
    out += [
        "### Scores by evidence",
        "",
        "All scored spans (entities, rejected NER candidates, safety-net spans).",
        "",
        "| evidence | spans | mean score | share right |",
        "| --- | ---: | ---: | ---: |",
    ]
    for name, row in confidence["evidence"].items():
        out.append(
            f"| {name} | {row['spans']} | {_num(row['mean_score'])} | {_num(row['share_right'])} |"
        )
    out.append("")
    return out


def plot_reliability(confidence: Dict[str, Any], path: Path) -> Path:
    from .plots import require_matplotlib

    plt = require_matplotlib()
    fig, ax = plt.subplots(figsize=(4.8, 4.5))
    ax.plot([0, 1], [0, 1], color="grey", linestyle=":", label="perfect")
    for name, marker in (("balanced_output", "o"), ("recall_output", "s")):
        rows = [r for r in confidence["reliability"][name]["rows"] if r["spans"]]
        ece = confidence["reliability"][name]["ece"]
        ax.plot(
            [r["mean_score"] for r in rows],
            [r["share_right"] for r in rows],
            marker=marker,
            label=f"{name.replace('_output', '')} (ECE {_num(ece)})",
        )
    ax.set_xlabel("mean score in band")
    ax.set_ylabel("share of span tokens that are PHI")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_title("Reliability of span scores")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return Path(path)


def plot_pr_curve(confidence: Dict[str, Any], path: Path) -> Path:
    from .plots import require_matplotlib

    plt = require_matplotlib()
    curve = [c for c in confidence["curve"] if c["p"] is not None and c["r"] is not None]
    fig, ax = plt.subplots(figsize=(5.2, 4.5))
    ax.plot([c["r"] for c in curve], [c["p"] for c in curve], marker=".", label="threshold t")
    for name, marker in ((BALANCED, "o"), (RECALL, "*")):
        point = confidence["points"][name]
        if point["p"] is not None and point["r"] is not None:
            ax.plot(
                point["r"],
                point["p"],
                marker=marker,
                markersize=12,
                linestyle="none",
                label=f"{name}: P {_pct(point['p'])} R {_pct(point['r'])}",
            )
    ax.set_xlabel("binary token recall")
    ax.set_ylabel("binary token precision")
    ax.set_title("Precision-recall over score thresholds")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return Path(path)


def write_confidence_plots(confidence: Dict[str, Any], output_dir: Path) -> Dict[str, Path]:
    output_dir = Path(output_dir)
    return {
        "Reliability of span scores": plot_reliability(confidence, output_dir / RELIABILITY_PNG),
        "Binary-token precision-recall over thresholds": plot_pr_curve(
            confidence, output_dir / PR_CURVE_PNG
        ),
    }
