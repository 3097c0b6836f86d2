"""The learning curve of fine-tuning on a site's corrected notes (issue 28).

A reviewer is simulated by the gold annotations of N notes of a PhysioNet
deid-format corpus (real nursing notes, read in place: the script writes no
note text anywhere; the training examples are built in memory by a reader
registered here). Patients are split first (`--pool` notes of whole patients
on one side): the held-out patients' notes are never trained on; the N notes
come from the pool, in a fixed patient order, so the 10 notes are part of the
25, and so on, or (`--order uncertainty`) in the review page's order: the
source pipeline's output on the pool, most uncertain note first
(review.page.uncertainty_order, as `spacy-deid review` sorts).

Recipes: `--phi-free-share S` trains on the notes' lines, all with PHI and a
share S of the others (transfer.phi_windows, `finetune-mix --phi-free-share`);
`--learn-rate` sets the optimizer's rate (default: the workflow's,
transfer.SITE_LEARN_RATE); `--also-recall` scores the held-out notes at the
`recall` operating point too, `--also-corpus-aware` corpus-aware (the evidence
learned from the held-out notes); `--merge` puts runs side by side,
`--by-split` shows one recipe run on several splits (`--seed`) and their mean.

For each N the installed pipeline (`--source`) is fine-tuned as the project's
`fine-tune-site` workflow does (spacy_deid/transfer.py: every component
sourced from the pipeline, training resumed), on the N notes (repeated to
about as many as the generated notes) mixed with generated notes of the
training seed, for `--steps` steps; then recalibrated on held-out generated
notes, as the workflow does. Measured: binary token precision/recall on the
held-out patients in the corpus's own view (`--scheme physionet` of
`spacy-deid evaluate`), and strict F1 on the package's fictional dev notes
(nothing forgotten). N = 0 is the source pipeline itself.

The simulated reviewer keeps the pipeline's subtype where the pipeline found
the same kind of PHI over a gold mention (a reviewer accepts a span's subtype
when it is right), else uses the corpus's type; word-by-word gold mentions
("Holy" + "Cross") are joined, as a reviewer marks one span.

    nice -n 10 python scripts/experiments/learning_curve.py /path/to/physionet --sizes 10 25 50 \
        --output site.json --plot learning-curve.png
"""
import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from statistics import mean
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import spacy
from spacy.training import Example
from spacy.util import registry
from thinc.api import Config

from spacy_deid.augment.phicon import PhiconAugmenter
from spacy_deid.corpus import Note, read_corpus, write_i2b2_2014
from spacy_deid.corpus.docs import doc_to_note, note_to_doc
from spacy_deid.corpus.note import PhiMention
from spacy_deid.corpus.reader import I2b2Corpus
from spacy_deid.dev_notes import DEV_NOTES_DIR
from spacy_deid.evaluation.measures import ALL_SUBTYPES, BINARY_TOKEN, STRICT
from spacy_deid.evaluation.pairing import pair_notes
from spacy_deid.evaluation.report import build_report
from spacy_deid.evaluation.schemes import get_scheme
from spacy_deid.evaluation.systems import CorpusAware, run_pipeline
from spacy_deid.pipeline.confidence.component import load_at_operating_point
from spacy_deid.pipeline.source_proposals import add_source_proposals, label_precision, trusted_labels
from spacy_deid.review.page import review_note, uncertainty_order
from spacy_deid.transfer import SITE_LEARN_RATE, finetune_config, phi_windows

PHYSIONET = get_scheme("physionet")
# The notes the registered reader trains on, set by main() before each run.
_SITE: Dict[str, List[Note]] = {"notes": []}


@registry.readers("learning_curve.SiteMix.v1")
def site_mix(generated: str, repeat: int = 1, augment: int = 0, phi_line_copies: int = 0):
    """The site's corrected notes (in memory, `repeat` times, and `augment`
    copies of each with PHI whose PHI is replaced by surrogates) and
    generated notes."""
    generated_corpus = I2b2Corpus(Path(generated))
    augmenter = PhiconAugmenter(alpha=augment, phi=True, context=False, seed=0)

    def read(nlp):
        examples = list(generated_corpus(nlp))
        for note in _SITE["notes"]:
            reference = note_to_doc(note, nlp.make_doc)
            original = Example(nlp.make_doc(note.text), reference)
            examples += [original] * (repeat - 1) + list(augmenter(nlp, original))
        # Extra weight on the PHI: each line holding PHI again, on its own.
        for line in phi_windows(_SITE["notes"], 0.0) * phi_line_copies:
            examples.append(Example(nlp.make_doc(line.text), note_to_doc(line, nlp.make_doc)))
        random.Random(len(examples)).shuffle(examples)
        yield from examples

    return read


def split_by_patient(notes: Sequence[Note], seed: int, pool_size: int):
    """(training pool in order, held-out notes): whole patients on each side."""
    patients = sorted({n.patient_id for n in notes})
    random.Random(seed).shuffle(patients)
    by_patient = {p: [n for n in notes if n.patient_id == p] for p in patients}
    pool: List[Note] = []
    used = set()
    for patient in patients:
        if len(pool) >= pool_size:
            break
        pool += by_patient[patient]
        used.add(patient)
    held_out = [n for n in notes if n.patient_id not in used]
    return pool, held_out, len(used), len(patients) - len(used)


def _join_words(mentions: Sequence[PhiMention], text: str) -> List[PhiMention]:
    joined: List[PhiMention] = []
    for m in sorted(mentions):
        last = joined[-1] if joined else None
        if last and last.label == m.label and text[last.end : m.start] == " ":
            joined[-1] = PhiMention(last.start, m.end, m.label)
        else:
            joined.append(PhiMention(m.start, m.end, m.label))
    return joined


def reviewed(note: Note, predicted: Note) -> Note:
    """The note as the simulated reviewer corrects it (see the module doc)."""
    mentions = []
    for m in _join_words(note.mentions, note.text):
        label = m.label
        for p in predicted.mentions:
            if p.start < m.end and m.start < p.end and PHYSIONET.map_subtype(p.label) == m.label:
                label = p.label
                break
        mentions.append(PhiMention(m.start, m.end, label))
    return Note(note.note_id, note.text, mentions, note.patient_id)


def site_scores(nlp, held_out: Sequence[Note], prefix: str = "site",
                corpus_aware: Optional[CorpusAware] = None) -> Dict[str, float]:
    predicted = run_pipeline(nlp, held_out, corpus_aware=corpus_aware)
    site = build_report(
        pair_notes(held_out, predicted), system={}, gold={}, scheme=PHYSIONET
    )["scores"][ALL_SUBTYPES][BINARY_TOKEN]["overall"]
    return {f"{prefix}_binary_p": site["p"], f"{prefix}_binary_r": site["r"],
            f"{prefix}_binary_f": site["f"]}


def scores(nlp, held_out: Sequence[Note], dev: Sequence[Note]) -> Dict[str, float]:
    site = site_scores(nlp, held_out)
    strict = build_report(pair_notes(dev, run_pipeline(nlp, dev)), system={}, gold={})[
        "scores"
    ][ALL_SUBTYPES][STRICT]["overall"]
    return {**site, "dev_strict_f": strict["f"]}


def recall_point_scores(model, held_out: Sequence[Note]) -> Dict[str, float]:
    """Held-out scores of `model` at its `recall` operating point."""
    return site_scores(load_at_operating_point(model, "recall"), held_out, prefix="recall")


def corpus_aware_scores(nlp, held_out: Sequence[Note]) -> Dict[str, float]:
    """Held-out scores with corpus evidence learned from the held-out notes
    themselves: the batch the site de-identifies (`deidentify --corpus-aware`)."""
    return site_scores(nlp, held_out, prefix="aware", corpus_aware=CorpusAware())


def ordered_pool(nlp, pool: Sequence[Note], order: str):
    """The pool's notes in the order the reviewer takes them ("patient": as
    split; "uncertainty": the review page's order of the pipeline's output)
    and the pipeline's predictions on them, by note id."""
    docs = list(nlp.pipe((n.text for n in pool), batch_size=16))
    predicted = {n.note_id: doc_to_note(doc, n.note_id) for n, doc in zip(pool, docs)}
    if order == "patient":
        return list(pool), predicted
    by_id = {n.note_id: n for n in pool}
    ranked = uncertainty_order(review_note(doc, n.note_id) for n, doc in zip(pool, docs))
    return [by_id[r.note_id] for r in ranked], predicted


def run(command: List[str]) -> float:
    started = time.time()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.time() - started


def fine_tune(source: str, base: Config, notes: List[Note], work: Path, args) -> Tuple[Path, Dict]:
    from spacy.cli.train import train

    config = finetune_config(base, source, learn_rate=args.learn_rate)
    repeat = args.repeat or max(1, round(args.generated / max(1, len(notes))))
    config["corpora"]["train"] = {
        "@readers": "learning_curve.SiteMix.v1",
        "generated": str(work / "generated"),
        "repeat": repeat,
        "augment": args.augment,
        "phi_line_copies": args.phi_line_copies,
    }
    config["corpora"]["dev"]["path"] = str(work / "generated_dev")
    config["paths"]["train"] = config["paths"]["dev"] = str(work / "generated_dev")
    config["training"]["max_steps"] = args.steps
    if args.freeze:
        # a frozen component that feeds a listener must also annotate
        config["training"]["frozen_components"] = list(args.freeze)
        config["training"]["annotating_components"] = list(
            dict.fromkeys([*config["training"]["annotating_components"], *args.freeze]))
    config["training"]["eval_frequency"] = args.steps
    config["training"]["logger"] = {"@loggers": "spacy.ConsoleLogger.v1", "progress_bar": False}
    config_path = work / f"finetune-{len(notes)}.cfg"
    config.to_disk(config_path)
    output = work / f"site-{len(notes)}"
    timing: Dict = {}
    # Repeated as the whole notes would be, so a PHI line weighs as before and
    # PHI-free text less.
    corrected = notes
    if args.phi_free_share is not None:
        notes = phi_windows(notes, args.phi_free_share, seed=args.seed)
        timing["windows"] = len(notes)
    _SITE["notes"] = notes
    started = time.time()
    train(config_path, output, use_gpu=-1)
    timing.update(train_s=time.time() - started, repeat=repeat)
    model = output / "model-last"
    if args.source_min_precision is not None:
        # fine-tune-site's site-source step: the source's proposals of the labels it
        # gets right in the corrected notes (spacy-deid keep-source)
        source_nlp = spacy.load(source)
        labels = trusted_labels(label_precision(source_nlp, corrected), args.source_min_precision)
        site_nlp = spacy.load(model)
        add_source_proposals(site_nlp, source_nlp, labels)
        site_nlp.to_disk(model)
        timing["source_labels"] = labels
    # The keep/drop decision is refitted on the corrected notes too, as fine-tune-site does.
    site_dir = work / f"site-notes-{len(notes)}"
    site_dir.mkdir(exist_ok=True)
    for i, note in enumerate(_SITE["notes"]):
        write_i2b2_2014(note, site_dir / f"{i:05d}.xml")
    timing["calibrate_s"] = run(
        ["spacy-deid", "calibrate", str(model), str(work / "calibration"), str(model),
         "--site", str(site_dir)]
    )
    return model, timing


def recipes_of(results: Dict) -> List[Dict]:
    """The runs in a results file: one run, or {"recipes": [run, ...]} (--merge)."""
    return results["recipes"] if "recipes" in results else [results]


def recipe_name(run: Dict) -> str:
    settings = run["settings"]
    if settings.get("recipe"):
        return settings["recipe"]
    # Unnamed: the settings that tell runs apart.
    parts = ["whole notes" if settings.get("phi_free_share") is None
             else f"PHI lines, {settings['phi_free_share']:g} of the others",
             f"{settings.get('order', 'patient')} order", f"{settings.get('steps')} steps"]
    if settings.get("learn_rate") is not None:
        parts.append(f"learn rate {settings['learn_rate']:g}")
    if settings.get("augment"):
        parts.append(f"{settings['augment']} surrogate copies")
    if settings.get("freeze"):
        parts.append(f"{', '.join(settings['freeze'])} frozen")
    if settings.get("source_min_precision") is not None:
        parts.append(f"source proposals at {settings['source_min_precision']:g}")
    return ", ".join(parts)


def plot(runs: List[Dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (site_ax, dev_ax) = plt.subplots(1, 2, figsize=(10, 4.2 + 0.22 * len(runs)),
                                          width_ratios=[2, 1])
    for index, run in enumerate(runs):
        colour, rows = f"C{index}", run["rows"]
        sizes = [r["notes"] for r in rows]
        name = recipe_name(run)
        site_ax.plot(sizes, [r["site_binary_r"] for r in rows], marker="o", color=colour,
                     label=f"{name}: recall")
        site_ax.plot(sizes, [r["site_binary_p"] for r in rows], marker="s", color=colour,
                     linestyle="--", label=f"{name}: precision")
        dev_ax.plot(sizes, [r["dev_strict_f"] for r in rows], marker="o", color=colour, label=name)
    site_ax.axhline(0.98, color="grey", linestyle=":", linewidth=1)
    site_ax.axhline(0.85, color="grey", linestyle=":", linewidth=1)
    site_ax.set_title("held-out nursing patients, binary token (bars dotted)", fontsize=9)
    site_ax.set_xlabel("corrected site notes (PhysioNet nursing)")
    site_ax.set_ylim(0, 1.02)
    # The legend under both plots: inside one axes' box it would widen that axes.
    handles, names = site_ax.get_legend_handles_labels()
    fig.legend(handles, names, loc="lower center", fontsize=7, ncol=2, frameon=False)
    dev_ax.set_title("psychiatric dev notes, strict F1", fontsize=9)
    dev_ax.set_xlabel("corrected site notes")
    dev_ax.set_ylim(0.85, 0.95)
    dev_ax.axhline(runs[0]["rows"][0]["dev_strict_f"] - 0.01, color="grey", linestyle=":",
                   linewidth=1)
    fig.tight_layout(rect=(0, min(0.6, 0.035 * len(runs) + 0.03), 1, 1))
    fig.savefig(path, dpi=110, bbox_inches="tight")


def pct(value: Optional[float]) -> str:
    """A share as a percentage with one decimal; "–" where it was not measured."""
    return "–" if value is None else f"{100 * value:.1f}"


def markdown_table(results: Dict) -> str:
    """The curves as a Markdown table (percentages; seconds per step)."""

    runs = recipes_of(results)
    # Corpus-aware columns only where a run has them (--also-corpus-aware).
    aware = any("aware_binary_p" in row for run in runs for row in run["rows"])
    lines = [
        "| recipe | corrected notes (patients) | held-out binary token P | R | F1 "
        "| at `recall`: P | R " + ("| corpus-aware: P | R " if aware else "")
        + "| dev strict F1 | fine-tune s | calibrate s | evaluate s |",
        "|---|---|---|---|---|---|---|" + ("---|---|" if aware else "") + "---|---|---|---|",
    ]
    for run in runs:
        for row in run["rows"]:
            # N = 0 fine-tuned: the control run, generated notes only.
            notes = "0, fine-tuned" if not row["notes"] and row.get("train_s") else row["notes"]
            aware_cells = (f"| {pct(row.get('aware_binary_p'))} | {pct(row.get('aware_binary_r'))} "
                           if aware else "")
            lines.append(
                f"| {recipe_name(run)} | {notes} ({row['patients']}) "
                f"| {pct(row['site_binary_p'])} | {pct(row['site_binary_r'])} "
                f"| {pct(row['site_binary_f'])} | {pct(row.get('recall_binary_p'))} "
                f"| {pct(row.get('recall_binary_r'))} {aware_cells}| {pct(row['dev_strict_f'])} "
                f"| {row.get('train_s', 0):.0f} | {row.get('calibrate_s', 0):.0f} "
                f"| {row['evaluate_s']:.0f} |"
            )
    return "\n".join(lines) + "\n"


# Settings that may differ between the splits of one recipe.
SPLIT_FREE_SETTINGS = ("seed", "recipe")


def split_table(runs: List[Dict]) -> str:
    """One recipe run on several splits of the patients (`--seed`), as a
    Markdown table: a row per split, a column per size (held-out binary
    token P / R; dev strict F1), and the mean over the splits that have it."""
    kept = [{k: v for k, v in run["settings"].items() if k not in SPLIT_FREE_SETTINGS}
            for run in runs]
    differing = sorted({k for other in kept[1:] for k in set(kept[0]) | set(other)
                        if kept[0].get(k) != other.get(k)})
    if differing:
        raise ValueError("--by-split needs runs of one recipe on several splits; these "
                         f"settings differ between the runs: {', '.join(differing)}")

    sizes = sorted({row["notes"] for run in runs for row in run["rows"]})
    lines = ["| split seed | held-out patients (notes) | "
             + " | ".join(f"{size} notes: P / R | dev strict F1" for size in sizes) + " |",
             "|---|---|" + "---|---|" * len(sizes)]
    by_size: Dict[int, List[Dict]] = {size: [] for size in sizes}
    for run in runs:
        rows = {row["notes"]: row for row in run["rows"]}
        cells = []
        for size in sizes:
            row = rows.get(size)
            if row is None:
                cells += ["–", "–"]
                continue
            by_size[size].append(row)
            cells += [f"{pct(row['site_binary_p'])} / {pct(row['site_binary_r'])}",
                      pct(row["dev_strict_f"])]
        corpus = run.get("corpus", {})
        lines.append(f"| {run['settings'].get('seed')} | {corpus.get('held_out_patients', '–')} "
                     f"({corpus.get('held_out_notes', '–')}) | " + " | ".join(cells) + " |")
    means = []
    for size in sizes:
        rows = by_size[size]
        means += [f"{pct(mean(r['site_binary_p'] for r in rows))} / "
                  f"{pct(mean(r['site_binary_r'] for r in rows))}",
                  pct(mean(r["dev_strict_f"] for r in rows))]
    lines.append("| mean | | " + " | ".join(means) + " |")
    return "\n".join(lines) + "\n"


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="PhysioNet deid-format corpus (read in place)")
    parser.add_argument("--source", default="en_deid_psych")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 25, 50])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--learn-rate", type=float, default=SITE_LEARN_RATE,
                        help="the optimizer's learning rate (default: fine-tune-site's, "
                             "transfer.SITE_LEARN_RATE)")
    parser.add_argument("--generated", type=int, default=100, help="generated notes mixed in")
    parser.add_argument("--repeat", type=int, default=0,
                        help="copies of each corrected note (default 0: as many as make them "
                             "about as many as the generated notes, the workflow's rule)")
    parser.add_argument("--augment", type=int, default=0,
                        help="surrogate copies of each corrected note with PHI (PHICON PHI "
                        "augmentation: the same note, its PHI replaced by other values)")
    parser.add_argument("--phi-line-copies", type=int, default=0,
                        help="add each line of the corrected notes that holds PHI this many "
                        "times more, on its own (the whole notes stay)")
    parser.add_argument("--freeze", nargs="+", default=[],
                        help="components not updated by the fine-tuning (e.g. tok2vec)")
    parser.add_argument("--nursing", type=float, default=None,
                        help="share of nursing notes among the generated notes mixed in "
                        "(the project's synth_nursing; default: the generator's)")
    parser.add_argument("--seed", type=int, default=0, help="patient order")
    parser.add_argument("--held-out", type=Path,
                        help="a second PhysioNet-format corpus held out whole (e.g. the sealed "
                        "half), CORPUS being the reviewer's pool; default: a split of CORPUS "
                        "by patient (--seed, --pool)")
    parser.add_argument("--pool", type=int, default=100,
                        help="notes of the patients the reviewer's notes come from (whole "
                        "patients, at least this many and max(--sizes)); the others are held out")
    parser.add_argument("--output", type=Path, required=True, help="JSON results")
    parser.add_argument("--plot", type=Path)
    parser.add_argument("--order", choices=("patient", "uncertainty"), default="patient",
                        help="which pool notes the reviewer corrects first: patient order, "
                        "or the review page's (most uncertain first)")
    parser.add_argument("--phi-free-share", type=float, default=None,
                        help="train on the notes' lines: all with PHI, this share of the "
                        "others (default: whole notes)")
    parser.add_argument("--also-recall", action="store_true",
                        help="also score the held-out notes at the `recall` operating point")
    parser.add_argument("--also-corpus-aware", action="store_true",
                        help="also score the held-out notes corpus-aware, the evidence learned "
                        "from the held-out notes (docs/corpus-aware.md)")
    parser.add_argument("--skip-zero", action="store_true",
                        help="do not score the source pipeline (N = 0) in this run")
    parser.add_argument("--recipe", default="", help="a name for this run's recipe")
    parser.add_argument("--source-min-precision", type=float, default=None,
                        help="keep the source's proposals of the labels at least this precise "
                        "in the corrected notes, as fine-tune-site's site-source step does "
                        "(spacy-deid keep-source; default: not kept)")
    parser.add_argument("--keep", type=Path, help="copy each fine-tuned pipeline here, for "
                        "error analysis: outside the repository, its vocabulary holds words "
                        "of the corpus")
    parser.add_argument("--held-out-limit", type=int, default=0, help="smoke tests: first N only")
    parser.add_argument("--render-only", action="store_true",
                        help="draw the plot and print the table of an existing --output")
    parser.add_argument("--merge", type=Path, nargs="+",
                        help="write the runs of these results files, in order, to --output")
    parser.add_argument("--by-split", action="store_true",
                        help="with --merge or --render-only: the runs are one recipe on several "
                             "splits (--seed); print a row per split and their mean")
    args = parser.parse_args(argv)
    if args.merge:
        runs = [run for path in args.merge for run in recipes_of(json.loads(path.read_text()))]
        args.output.write_text(json.dumps({"recipes": runs}, indent=2) + "\n")
        args.render_only = True
    if args.render_only:
        results = json.loads(args.output.read_text())
        runs = recipes_of(results)
        if args.plot:
            plot(runs, args.plot)
        try:
            print(split_table(runs) if args.by_split else markdown_table(results), end="")
        except ValueError as error:
            parser.error(str(error))
        return

    notes = list(read_corpus(args.corpus, "physionet"))
    if args.held_out:
        # A fixed split: every note of CORPUS is the pool, the other corpus is held out.
        held_out = list(read_corpus(args.held_out, "physionet"))
        pool, n_train_patients = notes, len({n.patient_id for n in notes})
        n_held_patients = len({n.patient_id for n in held_out})
    else:
        pool, held_out, n_train_patients, n_held_patients = split_by_patient(
            notes, args.seed, max(args.pool, *args.sizes)
        )
    if args.held_out_limit:
        held_out = held_out[: args.held_out_limit]
    dev = list(read_corpus(DEV_NOTES_DIR))
    results = {
        "corpus": {"notes": len(notes), "held_out_notes": len(held_out),
                   "held_out_patients": n_held_patients, "pool_patients": n_train_patients},
        "settings": {"source": args.source, "steps": args.steps, "generated": args.generated,
                     "repeat": args.repeat, "learn_rate": args.learn_rate, "nursing": args.nursing,
                     "augment": args.augment,
                     "freeze": args.freeze, "phi_line_copies": args.phi_line_copies,
                     "pool": max(args.pool, *args.sizes),
                     "seed": args.seed, "scheme": PHYSIONET.name, "order": args.order,
                     "phi_free_share": args.phi_free_share, "recipe": args.recipe,
                     "source_min_precision": args.source_min_precision},
        "rows": [],
    }
    with tempfile.TemporaryDirectory(prefix="learning-curve-") as folder:
        work = Path(folder)
        synth = ["spacy-deid", "synth"]
        nursing = [] if args.nursing is None else ["--nursing", str(args.nursing)]
        run(synth + [str(work / "generated"), "--n", str(args.generated), "--seed", "0", "--quiet"]
            + nursing)
        run(synth + [str(work / "generated_dev"), "--n", "10", "--seed", "12", "--quiet"])
        run(synth + [str(work / "calibration"), "--n", "60", "--seed", "11", "--quiet"])
        base_nlp = spacy.load(args.source)
        base = base_nlp.config
        started = time.time()
        if args.order == "patient":
            pool = pool[: max(args.pool, *args.sizes)]
        pool, predicted_pool = ordered_pool(base_nlp, pool, args.order)
        if not args.skip_zero:
            row = {"notes": 0, "patients": 0, **scores(base_nlp, held_out, dev),
                   "evaluate_s": time.time() - started}
            if args.also_recall:
                row.update(recall_point_scores(args.source, held_out))
            if args.also_corpus_aware:
                row.update(corpus_aware_scores(base_nlp, held_out))
            results["rows"].append(row)
            print(json.dumps(row), flush=True)
        for size in sorted(args.sizes):
            site = [reviewed(n, predicted_pool[n.note_id]) for n in pool[:size]]
            model, timing = fine_tune(args.source, base, site, work, args)
            started = time.time()
            site_nlp = spacy.load(model)
            row = {"notes": size, "patients": len({n.patient_id for n in site}),
                   **scores(site_nlp, held_out, dev),
                   **timing, "evaluate_s": time.time() - started}
            if args.also_recall:
                row.update(recall_point_scores(model, held_out))
            if args.also_corpus_aware:
                row.update(corpus_aware_scores(site_nlp, held_out))
            if args.keep:
                shutil.copytree(model, args.keep / f"site-{size}", dirs_exist_ok=True)
            results["rows"].append(row)
            print(json.dumps(row), flush=True)
            args.output.parent.mkdir(parents=True, exist_ok=True)
            args.output.write_text(json.dumps(results, indent=2) + "\n")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=2) + "\n")
    if args.plot:
        plot([results], args.plot)
    print(markdown_table(results), end="")


if __name__ == "__main__":
    sys.exit(main())
