"""The recall safety net (`deid_safety_net`): flags likely PHI the NER and the rules missed."""
from ..shared_words import load_job_heads
from .component import (
    DEFAULT_SPANS_KEY,
    SafetyNet,
    load_clinical_vocabulary,
    make_safety_net,
)
from .cues import RELATIONS

__all__ = [
    "DEFAULT_SPANS_KEY",
    "RELATIONS",
    "SafetyNet",
    "load_clinical_vocabulary",
    "load_job_heads",
    "make_safety_net",
]
