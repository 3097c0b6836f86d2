"""spaCy pipeline components of spacy-deid (one module per component)."""
