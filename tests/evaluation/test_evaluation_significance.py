"""Approximate randomization: s near 1 for identical systems, small for a clearly better one."""
import pytest

from spacy_deid.evaluation import Counts, approximate_randomization


def test_identical_systems_give_s_one():
    docs = [Counts(5, 1, 2), Counts(3, 0, 1), Counts(7, 2, 0), Counts(0, 1, 1)]
    results = approximate_randomization(docs, list(docs), iterations=199, seed=1)
    for metric in ("f", "p", "r"):
        assert results[metric].difference == 0.0
        assert results[metric].s == 1.0


def test_clearly_better_system_gives_small_s():
    better = [Counts(9, 0, 1) for _ in range(20)]
    worse = [Counts(4, 5, 6) for _ in range(20)]
    results = approximate_randomization(better, worse, iterations=999, seed=0)
    for metric in ("f", "p", "r"):
        assert results[metric].difference > 0.3
        assert results[metric].s < 0.01
        assert results[metric].significant(0.1)
    # No shuffle beats the observed difference: s = 1 / (N + 1).
    assert results["f"].s == pytest.approx(1 / 1000)


def test_a_small_difference_on_few_documents_is_not_significant():
    a = [Counts(5, 1, 1), Counts(4, 1, 2), Counts(6, 0, 1)]
    b = [Counts(5, 1, 1), Counts(4, 2, 2), Counts(6, 0, 1)]
    results = approximate_randomization(a, b, iterations=500, seed=3)
    assert results["f"].s > 0.1 and not results["f"].significant(0.1)


def test_seed_makes_the_test_reproducible_and_s_is_n_plus_one_over_n_plus_one():
    a = [Counts(5, 1, 1), Counts(2, 3, 2), Counts(6, 0, 1), Counts(1, 1, 4)]
    b = [Counts(4, 2, 2), Counts(3, 1, 1), Counts(5, 1, 2), Counts(2, 0, 3)]
    first = approximate_randomization(a, b, iterations=300, seed=7)
    second = approximate_randomization(a, b, iterations=300, seed=7)
    assert first["f"].to_dict() == second["f"].to_dict()
    assert first["f"].s == (first["f"].at_least_as_large + 1) / 301


def test_document_level_shuffling_with_one_document_cannot_be_significant():
    """With one document, half the shuffles swap it and reproduce the observed gap."""
    results = approximate_randomization([Counts(9, 0, 0)], [Counts(0, 9, 9)], iterations=999)
    assert results["f"].s > 0.3


def test_mismatched_lengths_are_an_error():
    with pytest.raises(ValueError, match="3 and 2 documents"):
        approximate_randomization([Counts()] * 3, [Counts()] * 2, iterations=10)
