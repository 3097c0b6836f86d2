"""Where released and redacted words come from: per final entity's source, the
binary-token units it redacts that are gold PHI and that are not.

The companion of `veto_audit.py` (which counts what the drop rules remove):
here every final entity (`doc.ents`) counts under its label, the first step of
its provenance trail (`ner`, `rule:<pattern id>`, `safety_net:<cue>`,
`propagate`, `decision`, `source_proposals`) and whether it is one word or
several. Gold and predictions are read in each set's scheme (`physionet`:
professions, ages under 90 and weekday names left out), so the non-PHI units
of a source are its share of the set's false positives; gold units no entity
covers are counted as missed.

Aggregates only: labels, source ids and counts, never note text. That is what
the nursing `sealed/` half allows (its notes and leaks stay unread), and it
shows which component a precision loss on unread notes comes from.

    python scripts/experiments/error_sources.py MODEL \\
        --set dev spacy_deid/data/dev_notes i2b2-2014 \\
        --set sealed /work/shared/corpus/physionet-dev/sealed physionet \\
        --top 20 --json /tmp/error_sources.json
"""
import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, List, Sequence, Tuple

from spacy_deid.evaluation.schemes import Scheme, get_scheme
from spacy_deid.evaluation.systems import read_notes
from spacy_deid.pipeline.confidence.reliability import gold_token_set, units

Entity = Tuple[int, int, str, str]  # start, end, label, provenance trail


def source_of(provenance: str) -> str:
    """The first step of a provenance trail ("ner", "rule:date-weekday", "safety_net:call_out")."""
    first = provenance.split("|")[0] if provenance else ""
    return first or "unknown"


def count_note(text: str, gold: Sequence[Tuple[int, int, str]], entities: Iterable[Entity],
               scheme: Scheme) -> Tuple[Counter, Counter, int]:
    """(PHI units per key, non-PHI units per key, gold units missed) of one note."""
    gold_units = gold_token_set(text, scheme.map_units(text, gold))
    phi, other = Counter(), Counter()
    covered = set()
    for start, end, label, provenance in entities:
        mapped = scheme.map_units(text, [(start, end, label)])
        if not mapped:
            continue  # left out in this scheme (a profession, an age under 90)
        words = "several" if len(text[start:end].split()) > 1 else "one"
        key = (label, source_of(provenance), words)
        for unit in {u for s, e, _ in mapped for u in units(text, s, e)}:
            if unit in covered:
                continue
            covered.add(unit)
            if unit in gold_units:
                phi[key] += 1
            else:
                other[key] += 1
    return phi, other, len(gold_units - covered)


def entities_of(doc) -> List[Entity]:
    trail = {(s.start_char, s.end_char): s.id_ for s in doc.spans.get("phi_provenance", [])}
    return [(e.start_char, e.end_char, e.label_, trail.get((e.start_char, e.end_char), ""))
            for e in doc.ents]


def count_set(nlp, path: str, scheme_name: str, batch_size: int = 8) -> Dict[str, object]:
    scheme = get_scheme(scheme_name)
    notes = read_notes(path)
    phi, other, missed = Counter(), Counter(), 0
    for note, doc in zip(notes, nlp.pipe((n.text for n in notes), batch_size=batch_size)):
        p, o, m = count_note(note.text, [mention.key() for mention in note.mentions],
                             entities_of(doc), scheme)
        phi.update(p)
        other.update(o)
        missed += m
    rows = [{"label": k[0], "source": k[1], "words": k[2], "phi": phi[k], "other": other[k]}
            for k in sorted(set(phi) | set(other))]
    rows.sort(key=lambda r: (-r["other"], -r["phi"], r["label"], r["source"]))
    return {"notes": len(notes), "scheme": scheme_name, "missed": missed,
            "phi": sum(phi.values()), "other": sum(other.values()), "rows": rows}


def render(name: str, result: Dict[str, object], top: int) -> str:
    lines = [f"{name}: {result['notes']} notes, redacted PHI units {result['phi']}, "
             f"redacted non-PHI units {result['other']}, missed PHI units {result['missed']}",
             "| label | source | words | PHI | not PHI |", "|---|---|---|---:|---:|"]
    for row in result["rows"][:top]:
        lines.append(f"| {row['label']} | {row['source']} | {row['words']} | {row['phi']} | {row['other']} |")
    return "\n".join(lines)


def main() -> None:
    import spacy

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("--set", nargs=3, action="append", default=[], required=True,
                        metavar=("NAME", "PATH", "SCHEME"))
    parser.add_argument("--top", type=int, default=25, help="rows printed per set (all in --json)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--package-rules", action="store_true",
                        help="score with today's packaged rules, as seed_figures.py does")
    args = parser.parse_args()
    if args.package_rules:
        from seed_figures import with_package_rules

        nlp = with_package_rules(args.model)
    else:
        nlp = spacy.load(args.model)
    results = {name: count_set(nlp, path, scheme) for name, path, scheme in args.set}
    for name, result in results.items():
        print(render(name, result, args.top))
        print()
    if args.json:
        args.json.write_text(json.dumps({"model": str(args.model), "sets": results}, indent=1) + "\n")


if __name__ == "__main__":
    main()
