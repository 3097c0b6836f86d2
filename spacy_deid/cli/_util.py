"""Helpers shared by the command modules."""
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional, Union

import spacy.util
import typer
from spacy.language import Language
from wasabi import color, msg

from ..corpus.problems import CorpusFormatError
from ..deid import operators as ops
from .release_options import CONFIG_SECTION, check_seed

if TYPE_CHECKING:
    from ..deid.mapping import DeidMapping
    from ..deid.release import Deidentifier


def fail_on_corpus_error(error: Exception) -> "typer.Exit":
    """Print a corpus error (file, tag, problem; never note text) and exit 1."""
    # Printed whole: wasabi would wrap a long file path across lines.
    print(color(f"\u2718 {error}", fg="red"))
    return typer.Exit(code=1)


def load_tokenizer_pipeline(base: Optional[str]) -> Language:
    """The pipeline whose tokenizer converts text: a name/path, a .cfg, or the default."""
    import spacy

    from ..corpus.docs import default_tokenizer_nlp

    if base is None:
        return default_tokenizer_nlp()
    if base.endswith(".cfg"):
        config = spacy.util.load_config(Path(base))
        return spacy.util.load_model_from_config(config, auto_fill=True, validate=True)
    return spacy.load(base, exclude=[], disable=[])


def check_pipeline_source(source: str) -> None:
    """Exit 1 unless SOURCE is a pipeline folder or the name of an installed pipeline package."""
    if not Path(source).is_dir() and not spacy.util.is_package(source):
        msg.fail(f"{source}: neither a pipeline folder nor an installed pipeline package", exits=1)


def corpus_path_or_default(value: str, if_empty: Optional[Path]) -> Path:
    """A corpus path argument; an empty one (a project var left empty) means `if_empty`."""
    if value.strip():
        path = Path(value)
    elif if_empty is not None:
        path = if_empty
        msg.info(f"No corpus path given: using {path}")
    else:
        msg.fail("the corpus path is empty (and no --if-empty corpus was given)", exits=1)
    if not path.exists():
        msg.fail(f"corpus path does not exist: {path}", exits=1)
    return path


IF_EMPTY_HELP = "Corpus to use when the path is an empty string (as the project's data vars are by default)"


def warn_lines(summary: str) -> None:
    """A multi-line summary as a warning, its lines kept (wasabi would re-wrap them)."""
    first, *rest = summary.splitlines()
    msg.warn(first)
    for line in rest:
        print(line)


CORPUS_ERRORS = (CorpusFormatError, FileNotFoundError)




def build_deidentifier(
    *,
    config: Optional[Path],
    operator: str,
    subtype_operator: List[str],
    seed: Optional[str],
    date_shift_min: int,
    date_shift_max: int,
    mapping: "Optional[DeidMapping]" = None,
    mapping_path: Optional[Union[str, Path]] = None,
    output: Optional[Union[str, Path]] = None,
) -> "Deidentifier":
    """The `Deidentifier` the command-line options describe, for `deidentify`
    and `deidentify-spark` alike: from the [deidentifier] block of `config`,
    else from the operator options; the command line's mapping and seed get
    the constructor's checks (an empty seed is refused). With `mapping_path`
    and `output`, also refuses a mapping inside the output. Raises ValueError
    naming the problem."""
    from spacy.util import load_config, registry

    from ..deid.mapping import check_mapping_outside
    from ..deid.release import Deidentifier

    check_seed(seed)
    if mapping_path is not None and output is not None:  # before any note is processed
        check_mapping_outside(mapping_path, output)
    if config is None:
        overrides = ops.parse_overrides(subtype_operator)
        return Deidentifier(
            operator, overrides, seed, date_shift_min, date_shift_max, mapping=mapping
        )
    if not config.is_file():
        raise ValueError(f"--config {config}: no such file")
    # The config block sets these; silently ignoring them would release with
    # settings the user did not choose.
    given = [
        name
        for name, value, default in (
            ("--operator", operator, ops.PLACEHOLDER),
            ("--subtype-operator", list(subtype_operator), []),
            ("--date-shift-min", date_shift_min, ops.DATE_SHIFT_MIN_DAYS),
            ("--date-shift-max", date_shift_max, ops.DATE_SHIFT_MAX_DAYS),
        )
        if value != default
    ]
    if given:
        raise ValueError(
            f"{', '.join(given)} cannot be combined with --config: set them in its "
            f"[{CONFIG_SECTION}] block"
        )
    loaded = load_config(config)
    if CONFIG_SECTION not in loaded:
        raise ValueError(f"{config}: no [{CONFIG_SECTION}] block")
    deid = registry.resolve({CONFIG_SECTION: loaded[CONFIG_SECTION]})[CONFIG_SECTION]
    deid.use_mapping(mapping, seed)
    return deid
