__title__ = "spacy-deid"
__version__ = "0.1.0"
__summary__ = "De-identification of clinical notes (psychiatric intake notes first) for spaCy"
