"""De-identify notes on Apache Spark with the same pipeline and the same
surrogates as `spacy-deid deidentify` (pip install "spacy-deid[spark]").

    from spacy_deid.spark import DeidSettings, deidentify_dataframe
    result = deidentify_dataframe(notes_df, DeidSettings(model=..., seed=...))
    result.notes, result.mapping

See docs/spark.md. `spacy-deid deidentify-spark INPUT OUTPUT` runs it on
Parquet or JSONL files; `spark-submit .../spacy_deid/spark/__main__.py` too.
"""

try:
    import pyspark  # noqa: F401
except ImportError as err:  # pragma: no cover - depends on the install
    raise ImportError(
        'spacy_deid.spark needs pyspark, pandas and pyarrow: pip install "spacy-deid[spark]"'
    ) from err

from . import status
from .job import SparkRelease, deidentify_dataframe, pending, status_counts
from .mapping import mapping_from_rows
from .settings import Columns, DeidSettings

__all__ = [
    "Columns",
    "DeidSettings",
    "SparkRelease",
    "deidentify_dataframe",
    "mapping_from_rows",
    "pending",
    "status",
    "status_counts",
]
