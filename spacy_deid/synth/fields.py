"""Attribute-value line templates ("MRN: 1234567", "Cocaine: no"), by pool.

The templates live in `data/synth/fields.jsonl`, one record per line template
(`pool`, `id`, `half`, `attribute`, `value`), with the conventions of
sentences.py: ids by position, halves alternate, append at the end. A field
line is "<attribute><separator><value>"; the separator (": ", ":", " - ",
tab) is chosen per note; "|" inside [] chooses the attribute spelling.
"""
from .tables import field_pools

FIELD_POOLS = field_pools()
