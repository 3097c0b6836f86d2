"""The evaluation report: one JSON-ready dict, rendered as Markdown, with plots.

The report holds counts, scores, note ids and offsets. Note text appears
only in the leak list, and only when the caller passes show_text=True.
"""
import json
from pathlib import Path
from typing import Any, Dict, List, Optional

from .. import labels
from ..about import __version__
from .confusion import MISSING, SPURIOUS, confusion_dict, confusion_matrix
from .leaks import find_leaks, leak_summary
from .measures import (
    ALL_SUBTYPES,
    BINARY_TOKEN,
    LEVEL_TITLES,
    LEVELS,
    RELAXED,
    RELAXED_END_TOLERANCE,
    STRICT,
    TOKEN,
)
from .pairing import NotePair
from .schemes import I2B2_2014, Scheme, get_scheme
from .scores import Evaluation

REPORT_MD = "report.md"
REPORT_JSON = "report.json"
LEAKS_TSV = "leaks.tsv"
# Leak entries shown in the Markdown; the TSV and JSON have all of them.
MARKDOWN_LEAKS = 50



def label_set_note(name: str, scheme: Optional[Scheme] = None) -> str:
    """What a label set is, for the report (the sets themselves come from labels.py)."""
    if scheme is not None and scheme.label_sets is not None:
        subtypes = sorted(scheme.label_sets[name])
        return f"the subtypes the {scheme.name} scheme scores: {', '.join(subtypes)}"
    if name == ALL_SUBTYPES:
        return f"all {len(labels.SUBTYPES)} subtypes of the i2b2 2014 scheme"
    subset = labels.HIPAA_SUBSETS[name]
    if subset == labels.HIPAA_I2B2_2014:
        return (
            "the HIPAA subset of the official i2b2 2014 evaluation script, with "
            f"{labels.IDNUM} (the script's misspelt '{labels.IDNUM} ' never matched, so its "
            f"{labels.IDNUM} figures are not comparable)"
        )
    extra = sorted(subset - labels.HIPAA_I2B2_2014)
    if subset > labels.HIPAA_I2B2_2014:
        return f"HIPAA Safe Harbor: the i2b2 2014 subset plus {', '.join(extra)}"
    return f"a HIPAA subset of {len(subset)} subtypes"


def build_report(
    pairs: List[NotePair],
    *,
    system: Dict[str, Any],
    gold: Dict[str, Any],
    show_text: bool = False,
    scheme: Optional[Scheme] = None,
) -> Dict[str, Any]:
    """Everything the Markdown, JSON and plots show, as plain data; `scheme`
    (default i2b2-2014) puts both sides in the corpus's own view first."""
    scheme = scheme or get_scheme(I2B2_2014)
    pairs = scheme.apply(pairs)
    evaluation = Evaluation(pairs, label_sets=scheme.report_label_sets())
    leaks = find_leaks(pairs, show_text=show_text)
    rows, columns, matrix = confusion_matrix(pairs)
    return {
        "spacy_deid_version": __version__,
        "system": system,
        "gold": {
            **gold,
            "notes": len(pairs),
            "mentions": sum(len(p.gold) for p in pairs),
            "empty_notes": sum(1 for p in pairs if not p.gold),
        },
        "predicted_mentions": sum(len(p.predicted) for p in pairs),
        "scheme": scheme.to_dict(),
        "label_sets": {
            name: {"subtypes": sorted(evaluation.label_sets[name]),
                   "note": label_set_note(name, scheme)}
            for name in evaluation.label_sets
        },
        "levels": dict(LEVEL_TITLES),
        "relaxed_end_tolerance": RELAXED_END_TOLERANCE,
        "scores": evaluation.to_dict(),
        # Per note (all subtypes): where the errors are, for error analysis.
        "per_note": {
            note_id: {
                level: {"tp": c.tp, "fp": c.fp, "fn": c.fn}
                for level, c in zip(LEVELS, counts)
            }
            for note_id, *counts in zip(
                evaluation.note_ids, *(evaluation.per_note(level) for level in LEVELS)
            )
        },
        "confusion": {
            "entity": confusion_dict(pairs, "entity"),
            "token": confusion_dict(pairs, "token"),
            "entity_matrix": {"rows": rows, "columns": columns, "counts": matrix},
        },
        "leaks": {
            "summary": leak_summary(pairs, leaks),
            "show_text": show_text,
            "entries": [leak.to_dict() for leak in leaks],
        },
    }


def _pct(value: Optional[float]) -> str:
    return "–" if value is None else f"{100 * value:.2f}"


def _row(cells: List[Any]) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def _table(header: List[str], rows: List[List[Any]], align: Optional[List[str]] = None) -> str:
    align = align or ["---"] + ["---:"] * (len(header) - 1)
    return "\n".join([_row(header), _row(align)] + [_row(r) for r in rows])


def _run_settings(system: Dict[str, Any]) -> List[str]:
    """The report's line on how a pipeline was run, where not as saved."""
    settings = []
    if system.get("operating_point") is not None:
        settings.append(f"operating point {system['operating_point']}")
    if system.get("corpus_aware"):
        shared = "" if system.get("share_across_patients", True) else ", nothing shared across patients"
        settings.append(f"corpus-aware{shared}")
    return [f"- **Run**: {'; '.join(settings)}"] if settings else []


def render_markdown(report: Dict[str, Any], *, plots: Optional[Dict[str, str]] = None) -> str:
    scores = report["scores"]
    system, gold = report["system"], report["gold"]
    out: List[str] = ["# De-identification evaluation", ""]
    out += [
        f"- **System**: {system.get('name')} ({system.get('kind')})",
        f"- **Trained on**: {system.get('trained_on') or 'not stated'}",
        *_run_settings(system),
        f"- **Tested on**: {gold.get('path')} — {gold['notes']} notes "
        f"({gold['empty_notes']} without PHI), {gold['mentions']} gold mentions, "
        f"{report['predicted_mentions']} predicted",
        f"- spacy-deid {report['spacy_deid_version']}; scores in percent; "
        "micro averages over all mentions (tokens) of all notes; "
        "support = gold mentions (tokens); – = undefined (nothing to divide by).",
        "",
        "Levels (docs/evaluation.md in the spacy-deid repository): *strict* — subtype, start and end equal; "
        f"*relaxed* — end within {report['relaxed_end_tolerance']} characters; "
        "*token* — maximal [A-Za-z0-9] runs inside mentions, with subtype; "
        "*binary* — subtype ignored. Binary token recall is the privacy measure.",
        "",
    ]
    out += _scheme_section(report)
    out += ["## Overall", ""]
    header = ["level"]
    for name in report["label_sets"]:
        header += [f"{name} P", f"{name} R", f"{name} F1"]
    header.append("support")
    rows = []
    for level in LEVELS:
        row = [report["levels"][level]]
        for name in report["label_sets"]:
            overall = scores[name][level]["overall"]
            row += [_pct(overall["p"]), _pct(overall["r"]), _pct(overall["f"])]
        row.append(scores[ALL_SUBTYPES][level]["overall"]["support"])
        rows.append(row)
    out += [_table(header, rows), ""]
    for name, info in report["label_sets"].items():
        out.append(f"- *{name}*: {info['note']}.")
    out += ["", "## Per category and subtype (all subtypes)", ""]
    out += [
        "Category rows are micro sums of their subtypes (the subtype must match). "
        "Binary token recall per subtype: gold tokens of that subtype found as PHI "
        "of any subtype. HIPAA: ✓ in the i2b2 2014 subset, (✓) in Safe Harbor only.",
        "",
    ]
    header = [
        "category / subtype", "HIPAA", "support", "predicted", "strict P", "strict R",
        "strict F1", "relaxed F1", "token P", "token R", "token F1", "binary token R",
    ]
    table = scores[ALL_SUBTYPES]
    rows = []
    for category, members in labels.SUBTYPES_BY_CATEGORY.items():
        members = tuple(m for m in members if m in table[STRICT]["per_subtype"])
        if not members:  # a category the scheme does not score
            continue
        entries = [(f"**{category}**", table[STRICT]["per_category"][category],
                    table[RELAXED]["per_category"][category],
                    table[TOKEN]["per_category"][category],
                    table[BINARY_TOKEN]["per_category"][category], "")]
        if len(members) == 1:  # AGE, DATE, PROFESSION: the subtype row says it all
            entries = []
        for subtype in members:
            hipaa = ("✓" if subtype in labels.HIPAA_I2B2_2014
                     else "(✓)" if subtype in labels.HIPAA_SAFE_HARBOR else "")
            entries.append((subtype, table[STRICT]["per_subtype"][subtype],
                            table[RELAXED]["per_subtype"][subtype],
                            table[TOKEN]["per_subtype"][subtype],
                            table[BINARY_TOKEN]["per_subtype"][subtype], hipaa))
        for name, strict, relaxed, token, binary, hipaa in entries:
            if not strict["support"] and not strict["predicted"]:
                continue
            rows.append([
                name, hipaa, strict["support"], strict["predicted"], _pct(strict["p"]),
                _pct(strict["r"]), _pct(strict["f"]), _pct(relaxed["f"]), _pct(token["p"]),
                _pct(token["r"]), _pct(token["f"]), _pct(binary["r"]),
            ])
    out += [_table(header, rows), ""]
    out += ["Subtypes with neither gold nor predicted mentions are left out.", ""]
    out += _confusion_section(report)
    out += _leak_section(report)
    if report.get("confidence"):  # pipelines with deid_confidence (calibration_report.py)
        from .calibration_report import confidence_markdown

        out += confidence_markdown(report["confidence"])
    if plots:
        out += ["## Plots", ""]
        for title, file_name in plots.items():
            out += [f"![{title}]({file_name})", ""]
    return "\n".join(out).rstrip() + "\n"


def _scheme_section(report: Dict[str, Any]) -> List[str]:
    """The scheme's headline and what it changed, for schemes other than i2b2 2014."""
    scheme = report.get("scheme")
    if not scheme or scheme["name"] == I2B2_2014:
        return []
    out = [f"## Scheme: {scheme['name']}", "", f"Scored in {scheme['description']}.", ""]
    if scheme["left_out"]:
        out.append(f"- Left out of both sides: {', '.join(scheme['left_out'])}.")
    if scheme["min_age"] is not None:
        out.append(f"- AGE only from {scheme['min_age']} up; other ages are left out.")
    if not scheme.get("weekday_dates", True):  # reports written before the field: True
        out.append("- A DATE that is only a weekday name is left out.")
    if scheme["renamed"]:
        renamed = ", ".join(f"{s} → {m}" for s, m in scheme["renamed"].items())
        out.append(f"- System subtypes in the corpus's types: {renamed}.")
    if scheme["word_by_word"]:
        out.append(f"- Scored word by word: {', '.join(scheme['word_by_word'])}.")
    headline = scheme["headline"]
    overall = report["scores"][ALL_SUBTYPES][headline]["overall"]
    out += [
        "",
        f"**Headline ({report['levels'][headline]})**: precision {_pct(overall['p'])}, "
        f"recall {_pct(overall['r'])}, F1 {_pct(overall['f'])} "
        f"({overall['tp']} true, {overall['fp']} spurious, {overall['fn']} missed).",
        "",
    ]
    return out


def _confusion_section(report: Dict[str, Any]) -> List[str]:
    matrix = report["confusion"]["entity_matrix"]
    rows, columns, counts = matrix["rows"], matrix["columns"], matrix["counts"]
    out = [
        "## Confusion matrix (mentions, exact offsets)",
        "",
        f"Rows: gold subtype (\"{SPURIOUS}\": predicted where gold has no mention with "
        f"those offsets); columns: predicted subtype (\"{MISSING}\": no prediction with "
        "those offsets). Off-diagonal subtype cells are type errors; a partial overlap "
        "counts as one missing and one spurious. report.json also has the token-level matrix.",
        "",
    ]
    if len(rows) == 1 and len(columns) == 1:
        return out + ["No mentions on either side.", ""]
    header = ["gold \\ predicted"] + columns
    body = [[r] + [c if c else "·" for c in line] for r, line in zip(rows, counts)]
    return out + [_table(header, body), ""]


def _leak_section(report: Dict[str, Any]) -> List[str]:
    leaks = report["leaks"]
    summary = leaks["summary"]
    out = [
        "## Leaks",
        "",
        "Gold PHI tokens not wholly covered by any prediction (of any subtype): "
        "these characters would remain in the released text. *partial*: part of the "
        "token is covered (a boundary error).",
        "",
    ]
    rows = [
        [subtype, item["gold_tokens"], item["leaked"], item["partial"], _pct(item["leak_rate"])]
        for subtype, item in summary.items()
    ]
    out += [_table(["subtype", "gold tokens", "leaked", "partial", "leak rate"], rows), ""]
    entries = leaks["entries"]
    if entries:
        shown = entries[:MARKDOWN_LEAKS]
        show = 1 if leaks["show_text"] else 0  # the text column
        header = ["note", "start", "end", "subtype", "partial"]
        if leaks["show_text"]:
            header.append("text")
        body = [
            [e["note_id"], e["start"], e["end"], e["subtype"], "yes" if e["partial"] else "no"]
            + ([e["text"]] if leaks["show_text"] else [])
            for e in shown
        ]
        more = len(entries) - len(shown)
        out += [
            f"First {len(shown)} of {len(entries)} leaked tokens "
            + ("(all of them in leaks.tsv and report.json)" if more else "")
            + ("; note text is shown because --show-text was given." if leaks["show_text"]
               else "; note ids and offsets only."),
            "",
            _table(header, body, ["---", "---:", "---:", "---", "---"] + ["---"] * show),
            "",
        ]
    return out


def write_leaks_tsv(report: Dict[str, Any], path: Path) -> Path:
    leaks = report["leaks"]
    columns = ["note_id", "start", "end", "subtype", "partial"] + (
        ["text"] if leaks["show_text"] else []
    )
    lines = ["\t".join(columns)]
    for entry in leaks["entries"]:
        values = [str(entry[c]) for c in columns]
        if leaks["show_text"]:  # keep one entry per line
            values[-1] = values[-1].replace("\t", " ").replace("\n", " ").replace("\r", " ")
        lines.append("\t".join(values))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_report(
    report: Dict[str, Any], output_dir: Path, *, plots: bool = True
) -> Dict[str, Path]:
    """Write report.md, report.json, leaks.tsv and (with plots) the PNG plots."""
    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    written: Dict[str, Path] = {}
    plot_files: Dict[str, str] = {}
    if plots:
        from .plots import plot_confusion, plot_subtype_f1

        written["f1_plot"] = plot_subtype_f1(report, output_dir / "f1_per_subtype.png")
        written["confusion_plot"] = plot_confusion(report, output_dir / "confusion.png")
        plot_files = {
            "Strict and token F1 per subtype": written["f1_plot"].name,
            "Confusion matrix": written["confusion_plot"].name,
        }
        if report.get("confidence"):
            from .calibration_report import write_confidence_plots

            for title, plot_path in write_confidence_plots(report["confidence"], output_dir).items():
                written[plot_path.stem] = plot_path
                plot_files[title] = plot_path.name
    json_path = output_dir / REPORT_JSON
    json_path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    written["json"] = json_path
    written["leaks"] = write_leaks_tsv(report, output_dir / LEAKS_TSV)
    md_path = output_dir / REPORT_MD
    md_path.write_text(render_markdown(report, plots=plot_files), encoding="utf-8")
    written["markdown"] = md_path
    return written
