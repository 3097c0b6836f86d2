"""The `spacy-deid` typer app the command modules add themselves to.

Apart from `cli/__init__.py` so that a command module imports the app
without importing the package that imports it (no import cycle)."""
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
