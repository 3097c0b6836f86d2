"""The experiment scripts' config variants are valid configs."""
from pathlib import Path

import pytest
from spacy.util import load_model_from_config, registry

from tiny_configs import tiny_config

REPO = Path(__file__).resolve().parents[2]

import augmentation_table
import feature_ablation


@pytest.mark.parametrize("kind,alpha", [("none", 0), ("phi", 1), ("both", 2)])
def test_augmentation_variants_resolve(kind, alpha, tmp_path):
    config = tiny_config("cpu")
    augmentation_table.augmentation(kind, alpha, seed=3).edit(config)
    block = config["corpora"]["train"]["augmenter"]
    if kind == "none":
        assert block is None
        return
    augmenter = registry.resolve({"a": block})["a"]
    assert (augmenter.alpha, augmenter.phi, augmenter.context) == (
        alpha, kind in ("phi", "both"), kind == "both")


@pytest.mark.parametrize(
    "name,structure,lexicon",
    [("all", True, True), ("no-lexical", False, False),
     ("no-structure", False, True), ("no-lexicon", True, False)],
)
def test_feature_variants_build(name, structure, lexicon):
    pytest.importorskip("spacy_transformers")
    config = tiny_config("transformer")
    feature_ablation.VARIANTS[name].edit(config)
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    tok2vec = nlp.get_pipe("ner").model.get_ref("tok2vec")
    layers = {layer.name for layer in tok2vec.walk()}
    assert ("hashembed" in layers) == (name != "no-lexical")
    read = {name for layer in tok2vec.walk() if layer.name == "extension_ids"
            for name in layer.attrs["extensions"]}
    assert ("section_name" in read) == structure
    assert ("lexicon" in read) == lexicon


@pytest.mark.parametrize(
    "name,width,depth,pieces,scoring",
    [
        ("default", 128, 4, 3, True),
        ("width-96", 96, 4, 3, True),
        ("pieces-2", 128, 4, 2, True),
        ("fast", 64, 2, 3, False),
    ],
)
def test_speed_options_build(name, width, depth, pieces, scoring):
    import speed_options
    from spacy.util import load_config

    config = load_config(REPO / "configs" / "cpu.cfg")
    speed_options.OPTIONS[name].edit(config)
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    encode = config["components"]["tok2vec"]["model"]["encode"]
    assert (encode["width"], encode["depth"], encode["maxout_pieces"]) == (width, depth, pieces)
    encoder = nlp.get_pipe("tok2vec").model.get_ref("encode")
    maxouts = [layer for layer in encoder.walk() if layer.name == "maxout"]
    assert len(maxouts) == depth and {m.get_dim("nP") for m in maxouts} == {pieces}
    assert ("deid_confidence" in nlp.pipe_names) == scoring
    assert ("deid_ner_scores" in nlp.pipe_names) == scoring
    assert {"ner", "deid_phi_rules", "deid_reconciler"} <= set(nlp.pipe_names)


def test_fast_config_is_the_cpu_config_plus_the_fast_edit():
    """configs/cpu_fast.cfg = configs/cpu.cfg + speed_options.fast (no drift)."""
    import speed_options
    from spacy.util import load_config

    config = load_config(REPO / "configs" / "cpu.cfg", interpolate=False)
    speed_options.fast(config)
    assert config == load_config(REPO / "configs" / "cpu_fast.cfg", interpolate=False)


def _curve_row(notes, **extra):
    row = {"notes": notes, "patients": notes // 5, "site_binary_p": 0.8, "site_binary_r": 0.97,
           "site_binary_f": 0.88, "dev_strict_f": 0.92, "evaluate_s": 10}
    return {**row, **extra}


@pytest.mark.parametrize("rows, aware_header, cells", [
    ([_curve_row(0), _curve_row(50)], False, 11),
    ([_curve_row(0, aware_binary_p=0.805, aware_binary_r=0.973), _curve_row(50)], True, 13),
])
def test_learning_curve_table_shows_corpus_aware_columns_only_when_measured(rows, aware_header, cells):
    import learning_curve

    table = learning_curve.markdown_table({"settings": {"recipe": "r"}, "rows": rows})
    header, rule, first, second = table.splitlines()
    assert ("corpus-aware: P" in header) == aware_header
    for line in (header, rule, first, second):
        assert line.count("|") - 1 == cells
    if aware_header:
        assert "| 80.5 | 97.3 |" in first and "| – | – |" in second


@pytest.mark.parametrize("settings, name", [
    ({"recipe": "mine", "order": "uncertainty"}, "mine"),
    ({"order": "uncertainty", "steps": 300, "learn_rate": 0.0002, "phi_free_share": None},
     "whole notes, uncertainty order, 300 steps, learn rate 0.0002"),
    ({"order": "patient", "steps": 200, "learn_rate": None, "phi_free_share": 0.1},
     "PHI lines, 0.1 of the others, patient order, 200 steps"),
])
def test_learning_curve_names_an_unnamed_run_by_its_settings(settings, name):
    import learning_curve

    assert learning_curve.recipe_name({"settings": settings}) == name


def _split_run(seed, rows, **settings):
    return {"settings": {"seed": seed, "recipe": f"split seed {seed}", "steps": 300,
                         **settings},
            "corpus": {"held_out_patients": 40 + seed, "held_out_notes": 600 + seed},
            "rows": rows}


def test_learning_curve_split_table_gives_each_split_and_their_mean():
    import learning_curve

    runs = [_split_run(0, [_curve_row(0), _curve_row(50, site_binary_p=0.86)]),
            _split_run(1, [_curve_row(0), _curve_row(50, site_binary_p=0.84,
                                                      site_binary_r=0.99)]),
            _split_run(2, [_curve_row(0)])]
    header, _, first, second, third, mean = learning_curve.split_table(runs).splitlines()
    assert "50 notes: P / R" in header
    assert first.startswith("| 0 | 40 (600) |") and "| 86.0 / 97.0 |" in first
    assert "| 84.0 / 99.0 |" in second
    assert third.count("–") == 2  # split 2 has no 50-note row
    # The mean of a size is over the splits that have it: 85.0 / 98.0, not over three.
    assert mean.startswith("| mean |") and "| 85.0 / 98.0 |" in mean


@pytest.mark.parametrize("other, differing", [
    ({"steps": 150}, "steps"),
    ({"nursing": 0.5}, "nursing"),
])
def test_learning_curve_split_table_refuses_runs_of_different_recipes(other, differing):
    import learning_curve

    runs = [_split_run(0, [_curve_row(0)]), _split_run(1, [_curve_row(0)], **other)]
    with pytest.raises(ValueError, match=differing):
        learning_curve.split_table(runs)
