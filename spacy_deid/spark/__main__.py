"""`python -m spacy_deid.spark INPUT OUTPUT ...` or, on a cluster,
`spark-submit .../spacy_deid/spark/__main__.py INPUT OUTPUT ...`: the
`spacy-deid deidentify-spark` command (same options)."""

import typer

from spacy_deid.cli.deidentify_spark import deidentify_spark_cli

if __name__ == "__main__":
    typer.run(deidentify_spark_cli)
