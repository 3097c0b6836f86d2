"""Seconds per component for one long note, at growing lengths: is the cost linear?

    python scripts/bench/benchmark_long_note.py --chars 25000 50000 100000 200000 --output long_note.json
    python scripts/bench/benchmark_long_note.py --text blob --model en_deid_psych --chars 25000 50000 100000 200000 600000

The note is fictional (`spacy_deid.synth.generate_notes` joined) and, with
--one-line, has its line breaks replaced by spaces (the worst case the
bad-input suite found: a 200,000-character line). With --text blob it is
instead whitespace-free text, base64 of seeded random bytes (a scanned or
encoded attachment pasted into a note; issue 61). The pipeline is the
rules-only one (blank_deid + deid_sections + deid_phi_rules +
deid_reconciler) unless --model names another; `max_length` is raised to
fit. Prints lengths, counts and seconds only, never note text. A linear
component keeps seconds per 100,000 characters about constant. On a shared
machine run it with `nice` and one BLAS thread (OPENBLAS_NUM_THREADS=1):
with a busy core, two BLAS threads waiting on each other swamp the beam's
matrix products.
"""

import argparse
import base64
import json
import platform
import resource
import random
import time
from pathlib import Path
from typing import Dict, List, Optional

import spacy

from spacy_deid.synth import generate_notes
from spacy_deid.tokenizer import blank_deid

RULES_COMPONENTS = ("deid_sections", "deid_phi_rules", "deid_reconciler")


def rules_pipeline():
    nlp = blank_deid()
    for name in RULES_COMPONENTS:
        nlp.add_pipe(name)
    nlp.initialize()
    return nlp


def long_text(chars: int, one_line: bool, seed: int = 11) -> str:
    pieces: List[str] = []
    length = 0
    for note in generate_notes(max(1, chars // 2000 + 2), seed=seed):
        pieces.append(note.text)
        length += len(note.text) + 2
        if length >= chars:
            break
    text = "\n\n".join(pieces)[:chars]
    return " ".join(text.split()) if one_line else text


def blob_text(chars: int, seed: int = 11) -> str:
    """`chars` characters of whitespace-free text: base64 of seeded random bytes."""
    rng = random.Random(seed)
    raw = bytes(rng.getrandbits(8) for _ in range(chars * 3 // 4 + 3))
    return base64.b64encode(raw).decode("ascii")[:chars]


def time_components(nlp, text: str) -> Dict[str, float]:
    seconds: Dict[str, float] = {}
    start = time.perf_counter()
    doc = nlp.make_doc(text)
    seconds["tokenizer"] = time.perf_counter() - start
    for name, component in nlp.pipeline:
        start = time.perf_counter()
        doc = component(doc)
        seconds[name] = time.perf_counter() - start
    seconds["mentions"] = len(doc.ents)
    return seconds


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, nargs="+", default=[25000, 50000, 100000, 200000])
    parser.add_argument("--model", default=None, help="Pipeline name or path (default: rules-only)")
    parser.add_argument("--one-line", action="store_true", help="Replace line breaks by spaces")
    parser.add_argument(
        "--text",
        choices=("notes", "blob"),
        default="notes",
        help="notes: generated notes joined; blob: whitespace-free base64 text",
    )
    parser.add_argument(
        "--max-segment-tokens",
        type=int,
        default=None,
        help="Set deid_ner_scores' max_segment_tokens (0: no cap, the cost before issue 61)",
    )
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args(argv)
    nlp = spacy.load(args.model) if args.model else rules_pipeline()
    nlp.max_length = max(nlp.max_length, max(args.chars) + 1)
    if args.max_segment_tokens is not None and "deid_ner_scores" in nlp.pipe_names:
        nlp.get_pipe("deid_ner_scores").max_segment_tokens = args.max_segment_tokens
    rows = []
    for chars in args.chars:
        text = blob_text(chars) if args.text == "blob" else long_text(chars, args.one_line)
        row = {"chars": len(text), **time_components(nlp, text)}
        row["total"] = sum(v for k, v in row.items() if k not in ("chars", "mentions"))
        rows.append(row)
        timings = ", ".join(
            f"{k} {v:.2f}s" for k, v in row.items() if k not in ("chars", "mentions")
        )
        print(f"{row['chars']} chars, {row['mentions']} mentions: {timings}")
    result = {
        "rows": rows,
        "one_line": args.one_line,
        "text": args.text,
        "model": args.model or "rules-only",
        "max_segment_tokens": args.max_segment_tokens,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "machine": platform.platform(),
        "python": platform.python_version(),
        "spacy": spacy.__version__,
    }
    print(f"peak memory: {result['peak_rss_mb']:.0f} MB")
    if args.output is not None:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
