"""srsly's msgpack codecs answered from a cache (spacy_deid/ml/msgpack_codecs.py):
the same functions, in the same order, as catalogue's own lookup, whatever is
registered, replaced or removed after the cache was made."""
import catalogue
import numpy
import pytest
import srsly
import srsly.msgpack
from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from spacy_deid.ml.msgpack_codecs import _CachedGetAll, cache_msgpack_codecs

REGISTRIES = [srsly.msgpack.msgpack_encoders, srsly.msgpack.msgpack_decoders]


def _uncached(registry):
    return catalogue.Registry.get_all(registry)


def _encode_marker(obj, chain=None):
    return chain(obj) if chain is not None else obj


def _other_marker(obj, chain=None):
    return chain(obj) if chain is not None else obj


@pytest.fixture()
def cached():
    cache_msgpack_codecs()
    yield
    for registry in REGISTRIES:
        for name in ("spacy_deid_test_marker", "spacy_deid_test_other"):
            key = registry.namespace + (name,)
            if key in catalogue.REGISTRY:
                catalogue._remove(key)


# (what happens after the cache is made, the name looked up, the function expected or None)
CHANGES = [
    ("nothing", lambda r: None, "numpy", "original"),
    ("register", lambda r: r.register("spacy_deid_test_marker", func=_encode_marker), "spacy_deid_test_marker", _encode_marker),
    (
        "replace",
        lambda r: (
            r.register("spacy_deid_test_marker", func=_encode_marker),
            r.get_all(),
            r.register("spacy_deid_test_marker", func=_other_marker),
        ),
        "spacy_deid_test_marker",
        _other_marker,
    ),
    (
        "remove",
        lambda r: (
            r.register("spacy_deid_test_marker", func=_encode_marker),
            r.get_all(),
            catalogue._remove(r.namespace + ("spacy_deid_test_marker",)),
        ),
        "spacy_deid_test_marker",
        None,
    ),
    (
        "register elsewhere",
        lambda r: catalogue.create("spacy_deid_test", "elsewhere").register("x", func=_other_marker),
        "numpy",
        "original",
    ),
]


@pytest.mark.parametrize("registry", REGISTRIES, ids=["encoders", "decoders"])
@pytest.mark.parametrize("change,name,expected", [c[1:] for c in CHANGES], ids=[c[0] for c in CHANGES])
def test_the_cache_answers_as_catalogue_does(cached, registry, change, name, expected):
    registry.get_all()  # fill the cache first
    change(registry)
    got = registry.get_all()
    assert isinstance(registry.__dict__["get_all"], _CachedGetAll)
    assert got == _uncached(registry)
    assert list(got) == list(_uncached(registry))  # the order decides how codecs chain
    if expected is None:
        assert name not in got
    elif expected == "original":
        assert got[name] is _uncached(registry)[name]
    else:
        assert got[name] is expected


def test_the_answer_is_a_fresh_dict_each_time(cached):
    registry = srsly.msgpack.msgpack_encoders
    first = registry.get_all()
    first["spacy_deid_test_other"] = _other_marker
    assert "spacy_deid_test_other" not in registry.get_all()


def test_caching_twice_keeps_one_cache():
    cache_msgpack_codecs()
    caches = [registry.__dict__["get_all"] for registry in REGISTRIES]
    cache_msgpack_codecs()
    assert [registry.__dict__["get_all"] for registry in REGISTRIES] == caches


def test_docs_and_numpy_arrays_round_trip_through_the_cached_codecs(cached):
    array = numpy.arange(6, dtype="float32").reshape(2, 3)
    assert (srsly.msgpack_loads(srsly.msgpack_dumps({"a": array}))["a"] == array).all()
    doc = Doc(Vocab(), words=["Seen", "by", "Dr", "Quennell", "today"])
    doc.spans["phi"] = [Span(doc, 3, 4, label="DOCTOR")]
    doc.tensor = numpy.ones((5, 4), dtype="float32")
    copy = Doc(doc.vocab).from_bytes(doc.to_bytes())
    assert [(s.start, s.end, s.label_) for s in copy.spans["phi"]] == [(3, 4, "DOCTOR")]
    assert (copy.tensor == doc.tensor).all()


def test_a_pipe_with_two_processes_caches_the_codecs():
    from spacy_deid.tokenizer import blank_deid

    for registry in REGISTRIES:
        registry.__dict__.pop("get_all", None)
    nlp = blank_deid()
    docs = list(nlp.pipe(["Seen by Dr Quennell.", "Call 555-0199."], n_process=2, batch_size=1))
    assert [doc.text for doc in docs] == ["Seen by Dr Quennell.", "Call 555-0199."]
    assert all(isinstance(registry.__dict__.get("get_all"), _CachedGetAll) for registry in REGISTRIES)
