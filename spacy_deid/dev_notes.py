"""The fictional development notes shipped with the package.

15 US psychiatric and behavioural-health intake and consult notes, written
for this project independently of its code and generator, with gold PHI in
i2b2 2014 XML. They are the default evaluation set of `spacy project run all`
when the user supplies no data. Never train on them: they measure how the
pipeline does on notes it was not built from.
"""
import shutil
from pathlib import Path
from typing import List

from .data_files import DATA_DIR

DEV_NOTES_DIR = DATA_DIR / "dev_notes"


def dev_note_files() -> List[Path]:
    """The XML files of the shipped development notes, sorted."""
    return sorted(DEV_NOTES_DIR.glob("*.xml"))


def copy_dev_notes(output_dir: Path) -> List[Path]:
    """Copy the development notes' XML files into `output_dir`."""
    output_dir.mkdir(parents=True, exist_ok=True)
    return [Path(shutil.copy2(path, output_dir / path.name)) for path in dev_note_files()]
