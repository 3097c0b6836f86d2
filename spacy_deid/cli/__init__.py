"""The `spacy-deid` command line, built on typer like spaCy's own CLI.

Each command lives in its own module, which adds itself to `app` (_app.py)
on import; the imports at the bottom of this file register them.
"""
from ._app import app


def main() -> None:
    """Console-script entry point."""
    app()


# Command modules register themselves on `app` (import for side effect).
from . import convert  # noqa: E402,F401
from . import evaluate  # noqa: E402,F401
from . import compare  # noqa: E402,F401
from . import ablate  # noqa: E402,F401
from . import alignment  # noqa: E402,F401
from . import synth  # noqa: E402,F401
from . import dev_notes  # noqa: E402,F401
from . import deidentify  # noqa: E402,F401
from . import wordnet  # noqa: E402,F401
from . import finetune  # noqa: E402,F401
from . import calibrate  # noqa: E402,F401
from . import review  # noqa: E402,F401
from . import deidentify_spark  # noqa: E402,F401
