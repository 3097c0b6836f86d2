"""The recall safety net (`deid_safety_net`): flags likely PHI the NER and the rules missed."""
from .component import (
    DEFAULT_SPANS_KEY,
    RELATIONS,
    SafetyNet,
    load_clinical_vocabulary,
    load_job_heads,
    make_safety_net,
)

__all__ = [
    "DEFAULT_SPANS_KEY",
    "RELATIONS",
    "SafetyNet",
    "load_clinical_vocabulary",
    "load_job_heads",
    "make_safety_net",
]
