"""Which reconciler drop rules remove gold PHI: the table behind `"hard"` in
spacy_deid/data/reconciler_rules.jsonl (issue 62: keep a hard veto only where
it removes no gold PHI on any data we have).

For each annotated set, the pipeline runs with no keep/drop decision (every
drop a veto, as before the decision layer) and, per drop rule id (every rule
that fired on a dropped mention, `fired_rules`; "merge:<step>" for mentions
merged away), counts the binary-token units of the dropped mentions that no
final entity covers: gold PHI units (released because of the drop) and
non-PHI units (correctly kept out). Gold is read in each set's scheme
(`physionet`: professions and ages under 90 left out).

Aggregates only: rule ids and counts, never note text. A set given with
`--totals-only` (the nursing `sealed/` half) prints its totals and no
per-rule row, and never counts towards `--write-hard`.

    python scripts/experiments/veto_audit.py MODEL \\
        --set dev spacy_deid/data/dev_notes i2b2-2014 \\
        --set gen7 /tmp/g/gen7 i2b2-2014 \\
        --set read /work/shared/corpus/physionet-dev/read physionet \\
        --totals-only sealed /work/shared/corpus/physionet-dev/sealed physionet \\
        --json /tmp/veto_audit.json --write-hard spacy_deid/data/reconciler_rules.jsonl

`--write-hard` marks every drop rule of the rules file `"hard": true` where it
fired on some set and removed no gold PHI unit on any, else `"hard": false`
(a rule never seen firing is soft: nothing shows it safe).
"""
import argparse
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Set, Tuple

import spacy

from spacy_deid.evaluation.schemes import get_scheme
from spacy_deid.evaluation.systems import read_notes
from spacy_deid.pipeline.confidence.component import dropped_evidence
from spacy_deid.pipeline.confidence.reliability import gold_token_set, units

Counts = Dict[str, int]


def drop_keys(provenance: str, fired: List[str]) -> List[str]:
    """The rule ids a dropped span counts under: its fired drop rules, or its merge step."""
    if fired:
        return list(fired)
    steps = [s for s in provenance.split("|")[1:] if s.startswith("merge:")]
    return [steps[-1] if steps else "other"]


def audit_set(nlp, path: str, scheme_name: str, batch_size: int = 8):
    """Per key: spans, PHI units and non-PHI units removed; and the set's totals."""
    scheme = get_scheme(scheme_name)
    notes = read_notes(path)
    table: Dict[str, Counts] = defaultdict(lambda: {"spans": 0, "phi": 0, "other": 0})
    totals = {"notes": len(notes), "gold_units": 0, "phi_removed": 0, "other_removed": 0,
              "phi_removed_by_rules": 0, "phi_removed_by_merge": 0}
    docs = nlp.pipe((n.text for n in notes), batch_size=batch_size)
    for note, doc in zip(notes, docs):
        text = note.text
        gold = scheme.map_units(text, [m.key() for m in note.mentions])
        gold_units = gold_token_set(text, gold)
        totals["gold_units"] += len(gold_units)
        kept: Set[Tuple[int, int]] = {u for e in doc.ents for u in units(text, e.start_char, e.end_char)}
        removed_by: Dict[Tuple[int, int], Set[str]] = defaultdict(set)
        for span, fired, _hard in dropped_evidence(doc):
            removed = [u for u in units(text, span.start_char, span.end_char) if u not in kept]
            phi = sum(1 for u in removed if u in gold_units)
            for key in drop_keys(span.id_, fired):
                row = table[key]
                row["spans"] += 1
                row["phi"] += phi
                row["other"] += len(removed) - phi
            for u in removed:
                removed_by[u].add("rule" if fired else "merge")
        for u, how in removed_by.items():
            if u in gold_units:
                totals["phi_removed"] += 1
                totals["phi_removed_by_rules" if "rule" in how else "phi_removed_by_merge"] += 1
            else:
                totals["other_removed"] += 1
    return dict(table), totals


def write_hard(rules_path: Path, tables: Dict[str, Dict[str, Counts]]) -> Tuple[int, int]:
    """Set `"hard"` on every drop rule line of the rules file (the rest of each line as it is)."""
    lines = rules_path.read_text(encoding="utf8").splitlines()
    out, hard_count, soft_count = [], 0, 0
    for line in lines:
        rule = json.loads(line) if line.strip() else None
        if not rule or rule.get("relabel", "") is not None:
            out.append(line)
            continue
        rows = [t[rule["id"]] for t in tables.values() if rule["id"] in t]
        hard = bool(rows) and all(r["phi"] == 0 for r in rows)
        hard_count += hard
        soft_count += not hard
        value = "true" if hard else "false"
        if '"hard": ' in line:
            line = re.sub(r'"hard": (?:true|false)', f'"hard": {value}', line)
        else:
            line = line.replace('"relabel": null', f'"relabel": null, "hard": {value}', 1)
        out.append(line)
    rules_path.write_text("\n".join(out) + "\n", encoding="utf8")
    return hard_count, soft_count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("--set", nargs=3, action="append", default=[],
                        metavar=("NAME", "PATH", "SCHEME"), help="a set with per-rule rows")
    parser.add_argument("--totals-only", nargs=3, action="append", default=[],
                        metavar=("NAME", "PATH", "SCHEME"), help="a set reported as totals only")
    parser.add_argument("--json", type=Path, help="write the table and totals here")
    parser.add_argument("--write-hard", type=Path, help="a rules JSONL to mark hard/soft")
    args = parser.parse_args()
    nlp = spacy.load(args.model)
    if "deid_confidence" in nlp.pipe_names:
        nlp.get_pipe("deid_confidence").decision = None  # today's vetoes
    tables: Dict[str, Dict[str, Counts]] = {}
    totals: Dict[str, Dict[str, int]] = {}
    for name, path, scheme in args.set:
        tables[name], totals[name] = audit_set(nlp, path, scheme)
    for name, path, scheme in args.totals_only:
        _, totals[name] = audit_set(nlp, path, scheme)
    keys = sorted({k for t in tables.values() for k in t},
                  key=lambda k: (-sum(t.get(k, {}).get("phi", 0) for t in tables.values()), k))
    names = list(tables)
    print("| drop rule | " + " | ".join(f"{n} PHI / other" for n in names) + " |")
    print("|---|" + "---|" * len(names))
    for key in keys:
        cells = [f"{t[key]['phi']} / {t[key]['other']}" if key in t else "-" for t in tables.values()]
        print(f"| {key} | " + " | ".join(cells) + " |")
    print()
    for name, total in totals.items():
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in total.items()))
    if args.json:
        args.json.write_text(json.dumps({"rules": tables, "totals": totals}, indent=1))
    if args.write_hard:
        hard, soft = write_hard(args.write_hard, tables)
        print(f"{args.write_hard}: {hard} drop rules hard, {soft} soft")


if __name__ == "__main__":
    main()
