"""spacy-deid: find and remove protected health information in clinical notes."""
from .about import __version__
from .extensions import install_extensions

install_extensions()

__all__ = ["__version__", "install_extensions"]
