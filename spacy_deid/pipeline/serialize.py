"""One way for every component to save and load its data.

A component lists the parts it saves, each with the file it is saved in and
how to get its value; `SavedParts` gives it `to_bytes`/`from_bytes`/
`to_disk`/`from_disk` through `spacy.util`'s serializer dicts:

    class MyPipe(SavedParts, Pipe):
        def saved_parts(self) -> Dict[str, Part]:
            return {
                "cfg": Part("cfg", lambda: self.cfg),
                "words": Part("words.jsonl", lambda: self.rows(), read=read_word_rows),
            }

        def load_parts(self, values: Dict[str, Any], source: str) -> None:
            if "cfg" in values:
                self.cfg.update(values["cfg"])
            if "words" in values:
                self.set_rows(values["words"])

The rules it keeps for all of them:

- A part's value is JSON: a `.jsonl` file is written a row per line, any
  other file (`cfg`, `.json`) as one JSON value; in bytes, each part is one
  JSON string under its name (the file name's stem, as spaCy keys it).
- `exclude` takes part names. An excluded part is neither written nor read,
  and the component keeps what it has (`load_parts` gets only the parts read).
- Data arrives through `initialize` or `from_disk` only: a part's file that
  is missing from the component's folder is an error naming the component and
  the file (`MissingPartError`), never filled from the package's data.
- `read` (optional) reads and checks a part's file (names file and line in its
  errors); without it the file is read as written.
- `optional` parts (added after pipelines were first saved) are saved only when
  their value is not None (a file saved there before is removed) and may be
  missing from a folder or bytes: the part is then simply not read.
"""
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, NamedTuple, Optional, Union

import srsly
from spacy import util
from spacy.util import SimpleFrozenList

JSONL_SUFFIX = ".jsonl"
_NONE: Iterable[str] = SimpleFrozenList()  # `exclude` is applied by part name before spaCy's calls


class Part(NamedTuple):
    """One saved part of a component: its file, its value, and how to read the file."""

    file: str
    get: Callable[[], Any]
    read: Optional[Callable[[Path], Any]] = None
    optional: bool = False


class MissingPartError(ValueError):
    """A saved component's folder lacks one of the files it was saved with."""

    def __init__(self, component: str, path: Path) -> None:
        self.component = component
        self.path = path
        super().__init__(
            f"{component}: {path} is missing (a saved component holds every file it "
            "saves; save the pipeline again, or leave the part out with exclude)"
        )


def write_part(path: Path, value: Any) -> None:
    """Write one part's value: a row per line for `.jsonl`, one JSON value otherwise."""
    if path.name.endswith(JSONL_SUFFIX):
        srsly.write_jsonl(path, value)
    else:
        srsly.write_json(path, value)


def _write_or_remove(path: Path, part: Part) -> None:
    """Write a part; an optional part without a value is not saved (nor kept from before)."""
    value = part.get()
    if value is None and part.optional:
        if path.exists():
            path.unlink()
        return
    write_part(path, value)


def read_part(path: Path) -> Any:
    """Read one part's file as `write_part` wrote it."""
    if path.name.endswith(JSONL_SUFFIX):
        return list(srsly.read_jsonl(path))
    return srsly.read_json(path)


class SavedParts:
    """Mixin (before `Pipe`) giving a component the four serialization methods.

    The component defines `saved_parts()` (part name -> `Part`) and
    `load_parts(values, source)` (takes back the values read, a dict of part
    name -> value holding only the parts that were not excluded; `source` says
    where they came from for error messages: the folder, or "bytes of
    '<name>'"). A component with nothing to save returns `{}` and needs no
    `load_parts`.
    """

    name: str

    def saved_parts(self) -> Dict[str, Part]:
        raise NotImplementedError

    def _kept_parts(self, exclude: Iterable[str]) -> Dict[str, Part]:
        excluded = set(exclude)
        return {name: part for name, part in self.saved_parts().items() if name not in excluded}

    def load_parts(self, values: Dict[str, Any], source: str) -> None:
        """Take back the parts read (only those not excluded)."""

    def to_bytes(self, *, exclude: Iterable[str] = SimpleFrozenList()) -> bytes:
        values = {name: part.get() for name, part in self._kept_parts(exclude).items()}
        serializers = {
            name: (lambda value=value: srsly.json_dumps(value))
            for name, value in values.items()
            if value is not None or not self.saved_parts()[name].optional
        }
        return util.to_bytes(serializers, _NONE)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = SimpleFrozenList()):
        values: Dict[str, Any] = {}
        deserializers = {
            name: (lambda data, name=name: values.__setitem__(name, srsly.json_loads(data)))
            for name in self._kept_parts(exclude)
        }
        util.from_bytes(bytes_data, deserializers, _NONE)
        self.load_parts(values, f"bytes of {self.name!r}")
        return self

    def to_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> None:
        serializers = {
            part.file: (lambda file_path, part=part: _write_or_remove(file_path, part))
            for part in self._kept_parts(exclude).values()
        }
        util.to_disk(util.ensure_path(path), serializers, _NONE)

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()):
        values: Dict[str, Any] = {}

        def reader(name: str, part: Part) -> Callable[[Path], None]:
            def read(file_path: Path) -> None:
                if not file_path.exists():
                    if part.optional:
                        return
                    raise MissingPartError(self.name, file_path)
                values[name] = (part.read or read_part)(file_path)

            return read

        parts = self._kept_parts(exclude)
        deserializers = {part.file: reader(name, part) for name, part in parts.items()}
        util.from_disk(util.ensure_path(path), deserializers, _NONE)
        self.load_parts(values, str(path))
        return self
