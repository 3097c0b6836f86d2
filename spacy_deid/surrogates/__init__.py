"""Surrogate PHI values, shared by the note generator (`synth`), released text
(`deid`) and PHI augmentation (`augment`).

- `generator`: `SurrogateGenerator`, fictional values for every subtype, format-aware;
- `formats`: named surface forms of dates, ages and phone numbers;
- `lists`: the value lists in `spacy_deid/data/surrogates/`, loaded once.
"""
from . import formats, lists
from .generator import Person, SurrogateGenerator

__all__ = ["Person", "SurrogateGenerator", "formats", "lists"]
