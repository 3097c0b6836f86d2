"""Mapping rows of a Spark run: one row per patient (patient_id, seed, state),
the state being the JSON of the same `PatientState` the single-machine
mapping file holds. THE ROWS ARE PHI, like the mapping file (see
docs/spark.md for where they may be written)."""

import json
from typing import Iterable, Optional

from ..deid.mapping import DeidMapping, PatientState


def state_to_json(state: PatientState) -> str:
    # ASCII escapes, as the mapping file: a lone surrogate in a value survives.
    return json.dumps(state.to_dict(), ensure_ascii=True, sort_keys=True)


def state_from_json(text: str) -> PatientState:
    return PatientState.from_dict(json.loads(text))


def mapping_from_rows(rows: Iterable, seed: Optional[str] = None) -> DeidMapping:
    """A `DeidMapping` from mapping rows (Spark Rows or dicts with patient_id,
    seed, state), e.g. to save it with `to_disk` for the single-machine
    command. Raises ValueError when the rows disagree on the seed."""
    mapping = DeidMapping(seed=seed) if seed is not None else None
    for row in rows:
        row = row.asDict() if hasattr(row, "asDict") else row
        if mapping is None:
            mapping = DeidMapping(seed=row["seed"])
        elif row["seed"] != mapping.seed:
            raise ValueError("the mapping rows were made with different seeds")
        if row["patient_id"] in mapping.patients:
            raise ValueError("the mapping rows hold one patient twice")
        mapping.patients[row["patient_id"]] = state_from_json(row["state"])
    return mapping if mapping is not None else DeidMapping()
