"""PNG plots of a report. matplotlib is the optional `evaluate` extra and is
imported only here, when a plot is drawn."""
from pathlib import Path
from typing import Any, Dict

from .. import labels
from .measures import ALL_SUBTYPES, STRICT, TOKEN

INSTALL_HINT = 'pip install "spacy-deid[evaluate]"'


class MissingPlotDependency(ImportError):
    pass


def require_matplotlib():
    """matplotlib.pyplot with a non-interactive backend, or a clear error."""
    try:
        import matplotlib
    except ImportError:
        raise MissingPlotDependency(
            f"plots need matplotlib, which is not installed: {INSTALL_HINT}"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_subtype_f1(report: Dict[str, Any], path: Path) -> Path:
    """Bars of strict and token F1 per subtype with gold support, labelled with support."""
    plt = require_matplotlib()
    table = report["scores"][ALL_SUBTYPES]
    rows = table[STRICT]["per_subtype"]
    # A scheme other than i2b2 2014 scores a subset of the subtypes (or its own
    # types): plot the rows the report has, the scheme's 30 subtypes in order first.
    ordered = [s for s in labels.SUBTYPES if s in rows] + sorted(set(rows) - set(labels.SUBTYPES))
    subtypes = [s for s in ordered if rows[s]["support"] or rows[s]["predicted"]]
    strict = [100 * (table[STRICT]["per_subtype"][s]["f"] or 0.0) for s in subtypes]
    token = [100 * (table[TOKEN]["per_subtype"][s]["f"] or 0.0) for s in subtypes]
    support = [table[STRICT]["per_subtype"][s]["support"] for s in subtypes]
    fig, ax = plt.subplots(figsize=(max(6, 0.55 * len(subtypes) + 2), 4.5))
    positions = range(len(subtypes))
    width = 0.4
    ax.bar([p - width / 2 for p in positions], strict, width, label="strict F1")
    ax.bar([p + width / 2 for p in positions], token, width, label="token F1")
    for p, n in zip(positions, support):
        ax.text(p, 101, f"n={n}", ha="center", va="bottom", fontsize=7, rotation=90)
    ax.set_xticks(list(positions))
    ax.set_xticklabels(subtypes, rotation=60, ha="right", fontsize=8)
    ax.set_ylim(0, 118)
    ax.set_ylabel("F1 (%)")
    ax.set_title("F1 per subtype (n = gold mentions)")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return Path(path)


def plot_confusion(report: Dict[str, Any], path: Path) -> Path:
    """Heatmap of the mention-level confusion matrix, counts written in the cells."""
    plt = require_matplotlib()
    matrix = report["confusion"]["entity_matrix"]
    rows, columns, counts = matrix["rows"], matrix["columns"], matrix["counts"]
    fig, ax = plt.subplots(figsize=(0.45 * len(columns) + 3, 0.4 * len(rows) + 2.5))
    image = ax.imshow(counts, cmap="Blues", aspect="auto")
    ax.set_xticks(range(len(columns)))
    ax.set_xticklabels(columns, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(rows, fontsize=8)
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold")
    peak = max((max(line) for line in counts), default=0)
    for i, line in enumerate(counts):
        for j, value in enumerate(line):
            if value:
                colour = "white" if value > peak / 2 else "black"
                ax.text(j, i, str(value), ha="center", va="center", fontsize=7, color=colour)
    fig.colorbar(image, ax=ax)
    ax.set_title("Confusion matrix (mentions)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return Path(path)
