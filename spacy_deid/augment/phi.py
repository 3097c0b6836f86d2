"""PHI augmentation (PHICON): every PHI mention becomes a same-subtype surrogate.

The surrogates are those of de-identified output (`spacy_deid.deid`): drawn
from the package's surrogate lists in the original's format (an ID keeps its
shape, a phone number stays a phone number, a name keeps its order, case and
initials), consistent within the note (the same person or value gets the same
surrogate each time it is mentioned), and never one of the note's real values.
Dates are shifted by a random number of days in their own format; a date no
format can read gets a fresh date of the same shape instead of a placeholder.
"""
import random
from typing import List, Sequence, Tuple

from .. import labels
from ..deid import operators as ops
from ..deid.release import Deidentifier
from ..surrogates import SurrogateGenerator

Span3 = Tuple[int, int, str]

# Every subtype gets a surrogate (DATE: shifted); AGE is kept by default in
# released text (HIPAA), here it changes too.
SURROGATE_EVERYTHING = {labels.AGE: ops.SURROGATE}


def augment_phi(text: str, spans: Sequence[Span3], seed: str) -> Tuple[str, List[Span3]]:
    """`text` with each PHI span replaced by a surrogate, and the new spans."""
    deidentifier = Deidentifier(ops.SURROGATE, SURROGATE_EVERYTHING, seed=seed)
    released = deidentifier.release(text, spans)
    originals = sorted(spans)
    unreadable = [
        index for index, span in enumerate(released.spans) if span.operator == ops.PLACEHOLDER
    ]
    if not unreadable:
        return released.text, [(s.start, s.end, s.label) for s in released.spans]
    # Rebuild with a same-shape surrogate where a date could not be shifted.
    generator = SurrogateGenerator(rng=random.Random(f"{seed}:unreadable"))
    pieces: List[str] = []
    new_spans: List[Span3] = []
    position = length = 0
    for index, span in enumerate(released.spans):
        piece = released.text[position : span.start]
        pieces.append(piece)
        length += len(piece)
        value = released.text[span.start : span.end]
        if index in unreadable:
            start, end, label = originals[index]
            value = generator.generate(label, like=text[start:end])
        pieces.append(value)
        new_spans.append((length, length + len(value), span.label))
        length += len(value)
        position = span.end
    pieces.append(released.text[position:])
    return "".join(pieces), new_spans
