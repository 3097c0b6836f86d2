"""PHICON data augmentation for training: PHI surrogates and context edits."""
from .phicon import PhiconAugmenter, create_phicon_augmenter
from .wordnet import WordNetMissingError, install_wordnet, load_wordnet, locate_wordnet

__all__ = [
    "PhiconAugmenter",
    "create_phicon_augmenter",
    "WordNetMissingError",
    "install_wordnet",
    "load_wordnet",
    "locate_wordnet",
]
