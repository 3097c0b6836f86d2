"""Narrative sentence templates, by pool (see template.py for the syntax).

The templates live in `data/synth/sentences.jsonl`, one record per template
(`pool`, `id`, `half`, `template`), read once. A template's id is `pool.NNN`
by position and its half alternates A/B, so new templates are appended at the
end of a pool. Slots are documented in the `slots` package. Sentences stay
generic: no sentence, name, place or number in them is taken from any
evaluation note or corpus.
"""
from .tables import sentence_pools

POOLS = sentence_pools()
