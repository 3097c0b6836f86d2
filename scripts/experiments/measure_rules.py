"""Precision and recall of the rules alone (`deid_phi_rules`) per subtype.

    python scripts/experiments/measure_rules.py spacy_deid/data/dev_notes [--tokenizer deid|blank]
    python scripts/experiments/measure_rules.py --synth 200 --seed 1   # generated notes

Compares rule hits with the gold mentions of i2b2 2014 XML files, by exact
(start, end, label) and by overlap (same label, overlapping characters).
Prints counts and scores only, never note text.
"""
import argparse
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

import spacy

from spacy_deid.corpus.i2b2_2014 import read_i2b2_2014
from spacy_deid.corpus.note import Note

Key = Tuple[int, int, str]


def build_nlp(tokenizer: str, sections: bool = False) -> "spacy.language.Language":
    config = {}
    if tokenizer == "deid":
        config = {"nlp": {"tokenizer": {"@tokenizers": "spacy-deid.Tokenizer.v1"}}}
    nlp = spacy.blank("en", config=config)
    if sections:  # the section/attribute detector, so that attribute patterns apply
        nlp.add_pipe("deid_sections")
    nlp.add_pipe("deid_phi_rules")
    nlp.initialize()
    return nlp


def read_notes(folder: Optional[Path], synth: int, seed: int) -> Iterable[Note]:
    if folder is not None:
        return (read_i2b2_2014(path) for path in sorted(folder.glob("*.xml")))
    from spacy_deid.synth import generate_notes

    return generate_notes(synth, seed=seed)


def measure(notes: Iterable[Note], tokenizer: str, sections: bool = False) -> Dict[str, Counter]:
    nlp = build_nlp(tokenizer, sections)
    counts: Dict[str, Counter] = {}
    for note in notes:
        doc = nlp(note.text)
        predicted: List[Key] = [(s.start_char, s.end_char, s.label_) for s in doc.spans["phi_rules"]]
        gold: List[Key] = [m.key() for m in note.mentions]
        for label in {k[2] for k in predicted} | {k[2] for k in gold}:
            c = counts.setdefault(label, Counter())
            p = [k for k in predicted if k[2] == label]
            g = [k for k in gold if k[2] == label]
            c["pred"] += len(p)
            c["gold"] += len(g)
            c["tp_exact_p"] += len(set(p) & set(g))
            c["tp_overlap_p"] += sum(any(_overlap(a, b) for b in g) for a in p)
            c["tp_overlap_g"] += sum(any(_overlap(a, b) for a in p) for b in g)
    return counts


def _overlap(a: Key, b: Key) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _ratio(num: int, den: int) -> str:
    return f"{num / den:.3f}" if den else "  -  "


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="?", help="folder of i2b2 2014 XML files")
    parser.add_argument("--synth", type=int, default=0, help="measure on N generated notes instead")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sections", action="store_true", help="run deid_sections before the rules")
    parser.add_argument("--tokenizer", choices=["deid", "blank"], default="deid")
    parser.add_argument("--all-labels", action="store_true", help="also list subtypes the rules never predict")
    args = parser.parse_args()
    if (args.folder is None) == (args.synth == 0):
        parser.error("give a folder or --synth N")
    counts = measure(read_notes(args.folder, args.synth, args.seed), args.tokenizer, args.sections)
    print(f"{'subtype':<15}{'gold':>6}{'pred':>6}  {'P_exact':>8}{'R_exact':>8}  {'P_overlap':>10}{'R_overlap':>10}")
    total = Counter()
    for label in sorted(counts):
        c = counts[label]
        if not c["pred"] and not args.all_labels:
            continue
        total.update(c)
        print(
            f"{label:<15}{c['gold']:>6}{c['pred']:>6}  {_ratio(c['tp_exact_p'], c['pred']):>8}"
            f"{_ratio(c['tp_exact_p'], c['gold']):>8}  {_ratio(c['tp_overlap_p'], c['pred']):>10}"
            f"{_ratio(c['tp_overlap_g'], c['gold']):>10}"
        )
    print(
        f"{'(rule types)':<15}{total['gold']:>6}{total['pred']:>6}  {_ratio(total['tp_exact_p'], total['pred']):>8}"
        f"{_ratio(total['tp_exact_p'], total['gold']):>8}  {_ratio(total['tp_overlap_p'], total['pred']):>10}"
        f"{_ratio(total['tp_overlap_g'], total['gold']):>10}"
    )


if __name__ == "__main__":
    main()
