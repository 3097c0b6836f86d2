"""Model architectures of spacy-deid (registered as `spacy-deid.<Name>.v1`)."""
