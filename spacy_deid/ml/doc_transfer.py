"""Docs sent between processes in one msgpack call each, not a dozen.

Every `srsly.msgpack_dumps` / `msgpack_loads` builds a packer that asks the
catalogue registries `msgpack_encoders` / `msgpack_decoders` for all their
functions, and catalogue answers by scanning the entry points and every
function registered in the process: about 0.3 ms a call once spaCy is
loaded. `Doc.to_bytes` makes one call for the Doc, one per span group, one
for the span groups and two for `user_data`, and `Doc.from_bytes` as many:
with the pipeline's nine span groups, 12.7 ms per Doc there and back on the
dev notes, 8% of the pipeline's own time per Doc (more on short notes).

The multiprocessing pipe (ml/worker_pool.py) sends a Doc as `Doc.to_bytes`
without its span groups and user data (one msgpack call: text, token
attributes, entities, tensor, strings), plus the span groups as plain tuples
(name, attrs, and each span's token offsets and label, kb_id and id hashes)
and `user_data`, pickled with the batch. `doc_from_transfer` builds the same
Doc: the strings of the labels and ids travel in the Doc's own string list.
Pickling keeps tuples in span group attrs and user data as tuples, as in the
Docs the caller makes itself (msgpack would make them lists).
"""
from typing import Any, Dict, List, Tuple

from spacy.tokens import Doc, Span, SpanGroup
from spacy.vocab import Vocab

# (the Doc's bytes without span groups and user data, the span groups, user_data)
Transfer = Tuple[bytes, List[Tuple[str, Dict[str, Any], List[Tuple[int, int, int, int, int]]]], Dict[Any, Any]]
_APART = ["spans", "user_data"]


def doc_to_transfer(doc: Doc) -> Transfer:
    """`doc` as picklable parts (see the module docstring)."""
    groups = [
        (name, dict(group.attrs), [(span.start, span.end, span.label, span.kb_id, span.id) for span in group])
        for name, group in doc.spans.items()
    ]
    return doc.to_bytes(exclude=_APART), groups, dict(doc.user_data)


def doc_from_transfer(vocab: Vocab, transfer: Transfer) -> Doc:
    """The Doc that `doc_to_transfer` took apart."""
    doc_bytes, groups, user_data = transfer
    doc = Doc(vocab).from_bytes(doc_bytes, exclude=_APART)
    for name, attrs, spans in groups:
        doc.spans[name] = SpanGroup(
            doc,
            name=name,
            attrs=attrs,
            spans=[
                Span(doc, start, end, label=label, kb_id=kb_id, span_id=span_id)
                for start, end, label, kb_id, span_id in spans
            ],
        )
    doc.user_data.update(user_data)
    return doc
