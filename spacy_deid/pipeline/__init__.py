"""spaCy pipeline components of spacy-deid, in pipeline order:

- `sections` (`deid_sections`), `lexicon` (`deid_lexicon`), `ontonotes`
  (`deid_ontonotes`, optional) before the NER;
- `ner_scores` (`deid_ner_scores`) after it, and in a site's fine-tuned pipeline
  `source_proposals` (`deid_source_proposals`) between the two;
- `phi_rules/` (`deid_phi_rules`), `reconciler/` (`deid_reconciler`),
  `safety_net/` (`deid_safety_net`), `confidence/` (`deid_confidence`);
- `deid_release` lives in `spacy_deid/deid/component.py`.

One module per small component, one sub-package per large one. All nine
follow one lifecycle (spaCy's span_ruler): data only through `initialize` or
`from_disk`, a `NoDataWarning` when run without it, serializer dicts that
honour `exclude`; `lifecycle.SettingsOnlyPipe` for the three with no data.
`shared_words` holds the word lists more than one component reads.
"""
