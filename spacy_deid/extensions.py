"""Every Doc/Span/Token extension of spacy-deid, installed in one place.

Call `install_extensions()` wherever an extension is needed; it is idempotent
and never overrides an extension someone else registered.
"""
from typing import Any, Dict, Tuple

from spacy.tokens import Doc, Span, Token

# name -> default value. Values are plain strings (or None) so that they
# travel through DocBin (store_user_data=True) and Doc.to_bytes.
DOC_EXTENSIONS: Dict[str, Any] = {
    # Note id: the file stem for i2b2 2014 files ("110-01"), the RECORD ID for
    # i2b2 2006, "pid-note" for PhysioNet.
    "note_id": None,
    # Patient id where the format has one (i2b2 2014 "PPP-RR" names, PhysioNet).
    "patient_id": None,
    # File the note was read from (a path, never text).
    "source_file": None,
}
SPAN_EXTENSIONS: Dict[str, Any] = {}
TOKEN_EXTENSIONS: Dict[str, Any] = {}

_TARGETS: Tuple[Tuple[Any, Dict[str, Any]], ...] = (
    (Doc, DOC_EXTENSIONS),
    (Span, SPAN_EXTENSIONS),
    (Token, TOKEN_EXTENSIONS),
)


def install_extensions() -> None:
    """Register the package's extensions that are not registered yet."""
    for cls, extensions in _TARGETS:
        for name, default in extensions.items():
            if not cls.has_extension(name):
                cls.set_extension(name, default=default)
