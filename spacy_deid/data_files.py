"""The package's data folder and the one reader of its JSONL data files.

Patterns, dictionaries, rules and tokenizer exceptions are JSONL files, read
by the registered loaders (`[initialize.components.*]`) and by the
components' `from_disk`. They all go through `read_jsonl`, so a bad line is
reported the same way everywhere: the file, the line number and what is
wrong, never the line's content (a user's file may hold anything).
"""
import warnings
from pathlib import Path
from typing import Any, Callable, List, Type, TypeVar, Union

import srsly

# Shipped in the wheel (package_data in setup.cfg).
DATA_DIR = Path(__file__).resolve().parent / "data"

T = TypeVar("T")


class DataFileError(ValueError):
    """A data file that cannot be used; the message names the file and line."""


def _as_is(entry: Any) -> Any:
    return entry


def read_jsonl(
    path: Union[str, Path],
    validate: Callable[[Any], T] = _as_is,
    *,
    what: str = "data",
    error: Type[ValueError] = DataFileError,
) -> List[T]:
    """Every non-blank line of a JSONL file, parsed and passed through `validate`.

    validate: checks one entry and returns it (filled in); raises ValueError.
    what: the kind of file, for messages ("section dictionary").
    error: the ValueError subclass raised (a component's own error type).
    A missing file raises FileNotFoundError; a byte-order mark is allowed.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{what} file not found: {path}")
    entries: List[T] = []
    with path.open(encoding="utf-8-sig") as lines:
        for line_no, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                entry = srsly.json_loads(line)
            except ValueError:
                raise error(f"{path}, line {line_no}: not valid JSON") from None
            try:
                entries.append(validate(entry))
            except ValueError as err:
                raise error(f"{path}, line {line_no}: {err}") from None
    return entries


class NoDataWarning(UserWarning):
    """A component runs without the patterns or dictionaries it needs."""


def warn_no_data(component: str, what: str, consequence: str = "finds nothing") -> None:
    """Warn that `component` has no `what` loaded (and so `consequence`)."""
    warnings.warn(
        f"{component!r} has no {what} loaded and {consequence}: call nlp.initialize() "
        f"(the data comes from [initialize.components.{component}]) or load a saved pipeline",
        NoDataWarning,
        stacklevel=3,
    )
