"""Fingerprint what a pipeline writes on a set of notes, and compare two fingerprints.

Written for the package layout refactor (issue 26): the same trained
pipeline, run by the code before and after a change, must give the same
entities, span groups, scores and token features. Run each side in its own
interpreter (PYTHONPATH picks the code), then diff:

    python scripts/experiments/compare_outputs.py notes /tmp/notes --n 100 --seed 26
    PYTHONPATH=old python scripts/experiments/compare_outputs.py fingerprint MODEL /tmp/notes old.json
    PYTHONPATH=new python scripts/experiments/compare_outputs.py fingerprint MODEL /tmp/notes new.json
    python scripts/experiments/compare_outputs.py diff old.json new.json --out diff.json

`notes` copies the 15 dev notes and generates `--n` notes with `spacy-deid
synth` (fixed seed) into one folder, so both sides read the same files. The
fingerprint holds offsets, labels, ids and scores, never note text: per note,
the entities (start, end, label, kb_id, ent_id), every span group (its spans
and its attrs, floats rounded to 6 decimals), and a digest of the tokens'
offsets and of each per-token feature. `diff` counts the notes and the
items that differ and exits 1 when anything does.
"""
import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any, Dict, Iterable, List

ROUND = 6


def _rounded(value: Any) -> Any:
    """JSON-ready copy of a span group attr: floats rounded, containers walked."""
    if isinstance(value, float):
        return round(value, ROUND)
    if isinstance(value, dict):
        return {str(k): _rounded(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_rounded(v) for v in value]
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        return _rounded(value.tolist())
    return value


def _digest(values: Iterable[Any]) -> str:
    return hashlib.sha256(json.dumps(list(values), default=str).encode("utf-8")).hexdigest()[:16]


def doc_fingerprint(doc) -> Dict[str, Any]:
    """Offsets, labels, ids and scores of what the pipeline wrote on one Doc (no text)."""
    from spacy_deid.extensions import TOKEN_FEATURES, token_feature_values

    groups = {}
    for key in sorted(doc.spans):
        group = doc.spans[key]
        groups[key] = {
            "spans": [[s.start_char, s.end_char, s.label_, s.id_] for s in group],
            "attrs": _rounded(dict(group.attrs)),
        }
    features = {}
    for name in sorted(TOKEN_FEATURES):
        try:
            features[name] = _digest(token_feature_values(doc, name))
        except Exception as err:  # a feature the code of this side does not know
            features[name] = f"error: {type(err).__name__}"
    return {
        "entities": [[e.start_char, e.end_char, e.label_, e.kb_id_, e.ent_id_] for e in doc.ents],
        "span_groups": groups,
        "tokens": _digest((t.idx, len(t)) for t in doc),
        "token_features": features,
    }


def note_texts(folder: Path) -> Dict[str, str]:
    """note file name -> its text, for every i2b2 XML file in `folder` (sorted)."""
    texts = {}
    for path in sorted(Path(folder).rglob("*.xml")):
        node = ElementTree.parse(path).getroot().find("TEXT")
        if node is None or node.text is None:
            raise SystemExit(f"{path}: no TEXT element")
        texts[str(path.relative_to(folder))] = node.text
    return texts


def fingerprint(model: str, folder: Path) -> Dict[str, Any]:
    """The fingerprint of `model` (a path or package name) on the notes in `folder`."""
    import spacy

    nlp = spacy.load(model)
    texts = note_texts(folder)
    notes = {name: doc_fingerprint(doc) for name, doc in zip(texts, nlp.pipe(texts.values()))}
    return {"model": str(model), "pipeline": nlp.pipe_names, "notes": notes}


def _items(fp: Dict[str, Any]) -> Dict[str, Any]:
    """One flat dict of comparable items per note ("entities", "span_groups/<key>", ...)."""
    items = {}
    for name, note in fp["notes"].items():
        items[(name, "entities")] = note["entities"]
        items[(name, "tokens")] = note["tokens"]
        for key, group in note["span_groups"].items():
            items[(name, f"span_groups/{key}")] = group
        for key, digest in note["token_features"].items():
            items[(name, f"token_features/{key}")] = digest
    return items


def diff(a: Dict[str, Any], b: Dict[str, Any]) -> Dict[str, Any]:
    """Counts of what differs between two fingerprints (names of items, no text)."""
    items_a, items_b = _items(a), _items(b)
    keys = sorted(set(items_a) | set(items_b))
    differing: List[List[str]] = [list(k) for k in keys if items_a.get(k) != items_b.get(k)]
    entities = sum(len(n["entities"]) for n in a["notes"].values())
    groups = [g for n in a["notes"].values() for g in n["span_groups"].values()]
    spans = sum(len(g["spans"]) for g in groups)
    scored = sum(len(g["attrs"].get("scores", [])) for g in groups)
    return {
        "pipeline_a": a["pipeline"],
        "pipeline_b": b["pipeline"],
        "notes_a": len(a["notes"]),
        "notes_b": len(b["notes"]),
        "notes_only_in_one": len(set(a["notes"]) ^ set(b["notes"])),
        "entities_a": entities,
        "spans_a": spans,
        "scores_a": scored,
        "span_groups_a": sorted({k for n in a["notes"].values() for k in n["span_groups"]}),
        "items_compared": len(keys),
        "items_differing": len(differing),
        "notes_differing": len({name for name, _ in differing}),
        "differing": differing[:50],
        "identical": not differing and a["pipeline"] == b["pipeline"],
    }


def make_notes(folder: Path, n: int, seed: int) -> None:
    """The dev notes plus `n` generated notes (seed `seed`) in `folder`/dev, `folder`/synth."""
    from spacy_deid.data_files import DATA_DIR

    folder = Path(folder)
    dev = folder / "dev"
    dev.mkdir(parents=True, exist_ok=True)
    for path in sorted((DATA_DIR / "dev_notes").glob("*.xml")):
        shutil.copy(path, dev / path.name)
    command = [sys.executable, "-c", "from spacy_deid.cli import main; main()"]
    command += ["synth", str(folder / "synth"), "--n", str(n), "--seed", str(seed), "--quiet"]
    subprocess.run(command, check=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    notes = sub.add_parser("notes", help="copy the dev notes and generate notes into a folder")
    notes.add_argument("folder", type=Path)
    notes.add_argument("--n", type=int, default=100)
    notes.add_argument("--seed", type=int, default=26)
    fp = sub.add_parser("fingerprint", help="run a pipeline over the notes, write its fingerprint")
    fp.add_argument("model")
    fp.add_argument("notes", type=Path)
    fp.add_argument("output", type=Path)
    df = sub.add_parser("diff", help="compare two fingerprints (exit 1 if they differ)")
    df.add_argument("a", type=Path)
    df.add_argument("b", type=Path)
    df.add_argument("--out", type=Path, help="also write the counts as JSON")
    args = parser.parse_args(argv)
    if args.command == "notes":
        make_notes(args.folder, args.n, args.seed)
        print(f"notes in {args.folder}: {len(note_texts(args.folder))}")
        return 0
    if args.command == "fingerprint":
        result = fingerprint(args.model, args.notes)
        args.output.write_text(json.dumps(result, sort_keys=True), encoding="utf-8")
        print(f"{args.output}: {len(result['notes'])} notes, pipeline {result['pipeline']}")
        return 0
    result = diff(json.loads(args.a.read_text()), json.loads(args.b.read_text()))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "differing"}, indent=1))
    return 0 if result["identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
