"""Memory-bounded processing (spacy_deid/deid/windows.py): windows, word batches, pieces."""

import numpy
import pytest
import spacy

from spacy_deid.deid.windows import (
    WindowedTok2Vec,
    batches_for_workers,
    bound_tok2vec_memory,
    encoder_reach,
    piece_points,
    pipe_bounded,
    plan_windows,
    windowed_predict,
    word_batches,
)

# (lengths, max_tokens, margin)
PLANS = [
    ([5, 7, 3], 20, 2),
    ([50], 20, 2),
    ([50, 1, 49, 0], 20, 4),
    ([21], 20, 2),
    ([20, 20], 20, 2),
    ([1000], 100, 32),
]


@pytest.mark.parametrize("lengths,max_tokens,margin", PLANS)
def test_windows_keep_every_token_once_within_the_budget(lengths, max_tokens, margin):
    batches = plan_windows(lengths, max_tokens, margin)
    kept = {index: [] for index in range(len(lengths))}
    for batch in batches:
        assert sum(end - start for _, start, end, _, _ in batch) <= max_tokens
        for index, start, end, keep_start, keep_end in batch:
            assert 0 <= start <= keep_start <= keep_end <= end <= lengths[index]
            # context on each cut side, none needed at the note's own edges
            assert keep_start - start >= min(margin, keep_start)
            assert end - keep_end >= min(margin, lengths[index] - keep_end)
            kept[index].extend(range(keep_start, keep_end))
    for index, length in enumerate(lengths):
        assert kept[index] == list(range(length))


def test_windows_refuse_a_budget_under_twice_the_margin():
    with pytest.raises(ValueError):
        plan_windows([100], 10, 5)


@pytest.fixture(scope="module")
def tok2vec_nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("tok2vec")
    nlp.initialize()
    return nlp


def test_windowed_vectors_equal_whole_doc_vectors(tok2vec_nlp):
    texts = [" ".join(f"word{i % 37} Smith{i % 11}" for i in range(n)) for n in (400, 3, 90, 0)]
    docs = [tok2vec_nlp.make_doc(text) for text in texts]
    model = tok2vec_nlp.get_pipe("tok2vec").model
    reach = encoder_reach(model)
    assert reach > 0
    whole = [model.predict([doc])[0] if len(doc) else None for doc in docs]
    for max_tokens in (2 * reach + 3, 64, 5000):
        windowed = windowed_predict(model, docs, max_tokens, reach)
        for doc, a, b in zip(docs, whole, windowed):
            assert b.shape == (len(doc), model.get_dim("nO"))
            if len(doc):
                # float rounding only (as batching notes differently gives)
                numpy.testing.assert_allclose(a, b, atol=1e-5)


def test_bounding_is_switched_on_off_and_idempotent():
    nlp = spacy.blank("en")
    nlp.add_pipe("tok2vec")
    nlp.initialize()
    texts = [" ".join(["x", "Smith"] * 250), "a b c"]
    plain = [doc.tensor for doc in nlp.pipe(texts)]
    weights = nlp.get_pipe("tok2vec").model.to_bytes()
    assert bound_tok2vec_memory(nlp, 100) == ["tok2vec"]
    pipe = nlp.get_pipe("tok2vec")
    assert isinstance(pipe, WindowedTok2Vec) and pipe.max_tokens == 100
    assert pipe.model.to_bytes() == weights  # the same model
    assert nlp.config["components"]["tok2vec"]["factory"] == "deid_windowed_tok2vec"
    assert bound_tok2vec_memory(nlp, 200) == ["tok2vec"]
    assert nlp.get_pipe("tok2vec") is pipe and pipe.max_tokens == 200  # not replaced twice
    assert "predict" not in vars(pipe)  # a subclass, no method set on the instance
    for doc, tensor in zip(nlp.pipe(texts), plain):
        numpy.testing.assert_allclose(doc.tensor, tensor, atol=1e-5)
    assert bound_tok2vec_memory(nlp, 0) == []
    assert pipe.max_tokens == 0 and not pipe.windowed
    with pytest.raises(ValueError):
        bound_tok2vec_memory(nlp, 50)  # under twice the margin


def test_windowed_tok2vec_in_a_config_round_trips(tmp_path):
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_windowed_tok2vec", name="tok2vec", config={"max_tokens": 300})
    nlp.initialize()
    doc = nlp(" ".join(["word"] * 700))
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    assert isinstance(loaded.get_pipe("tok2vec"), WindowedTok2Vec)
    assert loaded.get_pipe("tok2vec").max_tokens == 300
    numpy.testing.assert_allclose(loaded(doc.text).tensor, doc.tensor, atol=1e-5)
    with pytest.raises(ValueError):
        spacy.blank("en").add_pipe("deid_windowed_tok2vec", config={"max_tokens": 10})


# (words per text, max_words, max_items, expected batch sizes)
WORD_BATCHES = [
    ([3, 3, 3], 6, 10, [2, 1]),
    ([3, 3, 3], 100, 2, [2, 1]),
    ([50, 1, 1], 10, 10, [1, 2]),
    ([1, 50, 1], 10, 10, [1, 1, 1]),
    ([], 10, 10, []),
    ([0, 0, 0], 1, 10, [3]),
]


@pytest.mark.parametrize("words,max_words,max_items,sizes", WORD_BATCHES)
def test_word_batches(words, max_words, max_items, sizes):
    items = [(" ".join(["w"] * n), i) for i, n in enumerate(words)]
    batches = list(word_batches(iter(items), max_words, max_items))
    assert [len(b) for b in batches] == sizes
    assert [item for batch in batches for item in batch] == items


def test_pipe_bounded_keeps_order_and_context(tok2vec_nlp):
    stream = [(f"note {i} " + "w " * (i * 7), i) for i in range(12)]
    out = list(pipe_bounded(tok2vec_nlp, iter(stream), batch_size=4, max_words=30, max_tokens=100))
    assert [context for _, context in out] == list(range(12))
    assert [doc.text for doc, _ in out] == [text for text, _ in stream]


# (notes, n_process, batch_size, expected batch size): spaCy deals whole batches
# to the workers in turn, so a small workload is cut finer; a long one is not.
WORKER_BATCHES = [
    (15, 2, 32, 2),  # one batch of 32 would leave a worker idle
    (15, 2, 8, 2),
    (100, 2, 32, 13),
    (3, 4, 32, 1),
    (0, 2, 32, 1),
    (128, 2, 32, 32),  # two rounds of batches: kept
    (1000, 2, 32, 32),
    (15, 1, 32, 32),  # one process: nothing to balance
]


@pytest.mark.parametrize("notes,n_process,batch_size,expected", WORKER_BATCHES)
def test_batches_for_workers(notes, n_process, batch_size, expected):
    items = [(f"note {i}", i) for i in range(notes)]
    stream, size = batches_for_workers(iter(items), n_process, batch_size)
    assert size == expected
    assert list(stream) == items  # nothing read ahead is lost or reordered


def test_pipe_bounded_with_workers_keeps_every_note_in_order(tok2vec_nlp):
    stream = [(f"note {i} " + "w " * i, i) for i in range(7)]
    out = list(pipe_bounded(tok2vec_nlp, iter(stream), n_process=2, batch_size=32, max_tokens=100))
    assert [context for _, context in out] == list(range(7))
    assert [doc.text for doc, _ in out] == [text for text, _ in stream]


# (text, max_length, piece_chars, expected points)
PIECES = [
    ("a b c d e f", 100, 4, [4, 8]),
    ("a b c d e f", 100, 0, []),
    ("short", 100, 4, None),  # no break within 4 characters, and fits max_length
    ("abcdefgh ij", 9, 4, [9]),  # no break within 4: cut by max_length instead
    ("abcdefghijkl", 5, 4, None),
]


@pytest.mark.parametrize("text,max_length,piece_chars,points", PIECES)
def test_piece_points(text, max_length, piece_chars, points):
    if points is None and len(text) <= max_length:
        points = []
    assert piece_points(text, max_length, piece_chars) == points


def test_pieces_joined_without_tensors_keep_text_and_entities(tok2vec_nlp):
    from spacy.tokens import Doc, Span

    from spacy_deid.deid.windows import without_tensor

    pieces = [tok2vec_nlp("Seen by Lee.\n\n"), tok2vec_nlp("Call Ann today.")]
    pieces[0].ents = [Span(pieces[0], 2, 3, label="DOCTOR")]
    pieces[1].ents = [Span(pieces[1], 1, 2, label="PATIENT")]
    joined = Doc.from_docs([without_tensor(p) for p in pieces], ensure_whitespace=False)
    assert joined.text == "Seen by Lee.\n\nCall Ann today."
    assert [(e.text, e.label_) for e in joined.ents] == [("Lee", "DOCTOR"), ("Ann", "PATIENT")]
