"""The SparkSession of the command line."""

import os
import sys
from typing import Optional

from pyspark.sql import SparkSession

DEFAULT_MASTER = "local[*]"


def get_session(
    master: Optional[str] = None, shuffle_partitions: Optional[int] = None
) -> SparkSession:
    """A session on `master`; without one, the master spark-submit was given,
    else local[*]."""
    builder = SparkSession.builder.appName("spacy-deid")
    # spark-submit starts the Python driver with a gateway and its own master;
    # setting one here would override it.
    if master is None and "PYSPARK_GATEWAY_PORT" not in os.environ:
        master = DEFAULT_MASTER
    if master is not None:
        builder = builder.master(master)
    if master is not None and master.startswith("local"):
        # Local workers run this Python (the driver's virtual environment,
        # activated or not) unless the user chose one; PySpark's default is
        # whatever `python3` is first on PATH, often one without the package.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    if shuffle_partitions is not None:
        builder = builder.config("spark.sql.shuffle.partitions", str(shuffle_partitions))
    return builder.getOrCreate()
