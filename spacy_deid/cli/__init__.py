"""The `spacy-deid` command line, built on typer like spaCy's own CLI.

Each command lives in its own module, which adds itself to `app` on import;
the imports at the bottom of this file register them.
"""
import typer

app = typer.Typer(
    name="spacy-deid",
    help="De-identification of clinical notes with spaCy.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,  # locals may hold note text
)


@app.callback()
def _root() -> None:
    """De-identification of clinical notes with spaCy."""


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
