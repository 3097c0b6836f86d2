"""Synthetic psychiatric intake notes with gold PHI: the default training corpus.

    from spacy_deid.synth import generate_notes
    for note in generate_notes(600, seed=0):   # spacy_deid.corpus Note objects
        ...

`spacy-deid synth OUT_DIR --n 600 --seed 0` writes them as i2b2 2014 XML.
The surrogate values come from `spacy_deid.surrogates.SurrogateGenerator`, which
PHI augmentation and surrogate replacement reuse.
"""
from .generate import NoteInfo, generate_notes, generate_notes_with_info
from ..surrogates import Person, SurrogateGenerator

__all__ = ["generate_notes", "generate_notes_with_info", "NoteInfo", "SurrogateGenerator", "Person"]
