"""Where a de-identification run may read and write, judged on real paths.

Every check follows symbolic links first (`real`): a mapping given as
`out/map.json -> ../secure/map.json`, an input holding `outlink -> ../out`,
an output holding `sub -> ../in/sub` are judged by where they really lead,
and by where the link itself lies. The mapping is PHI: neither it nor a link
to it may lie in the release (the output folder), the input (a link there
would be read or listed with the notes) or the audit folder. Released files
are never read as notes, and an original note never counts as released.
Each refusal is a ValueError naming the path and the reason, raised before
any note is processed.
"""

import os
import tempfile
from pathlib import Path
from typing import Iterable, List, Optional, Tuple, Union

PathLike = Union[str, Path]


def real(path: PathLike) -> Path:
    """`path` absolute, with every symbolic link in it followed (also for a
    path that does not exist yet: its existing part is resolved)."""
    return Path(os.path.realpath(os.fspath(path)))


def where_link_lies(path: PathLike) -> Path:
    """The real location of `path` itself: its folder resolved, its last part
    kept (a link is judged by where it lies as well as where it leads)."""
    path = Path(os.path.abspath(os.fspath(path)))
    return real(path.parent) / path.name


def inside(path: PathLike, folder: PathLike) -> bool:
    """Whether the real `path` is the real `folder` or lies inside it."""
    path, folder = real(path), real(folder)
    return path == folder or folder in path.parents


def _inside_real(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _places(
    input_base: Optional[PathLike], output_dir: Optional[PathLike], audit_dir: Optional[PathLike]
) -> List[Tuple[str, Path]]:
    places = []
    for what, folder in (("output folder", output_dir), ("input", input_base),
                         ("--audit-dir", audit_dir)):
        if folder is not None:
            places.append((f"the {what} {folder}", real(folder)))
    return places


def check_mapping_location(
    mapping_path: PathLike,
    output_dir: Optional[PathLike] = None,
    input_base: Optional[PathLike] = None,
    audit_dir: Optional[PathLike] = None,
) -> Path:
    """The real mapping file, or ValueError when the mapping or the link
    given for it lies in the output, the input or the audit folder, or leads
    into one of them, or is a folder. Links are followed for the write (the
    file they lead to is replaced, never the link)."""
    given = Path(mapping_path)
    target, lies = real(given), where_link_lies(given)
    for what, folder in _places(input_base, output_dir, audit_dir):
        if _inside_real(lies, folder) or _inside_real(target, folder):
            how = "lies inside" if _inside_real(lies, folder) else f"is a link to {target}, inside"
            raise ValueError(
                f"the mapping {given} {how} {what}: the mapping is PHI and must never be "
                "released, read or listed with the notes; put it elsewhere"
            )
    if target.is_dir():
        raise ValueError(f"the mapping path {given} is a folder, not a file")
    return target


def check_mapping_writable(mapping_path: PathLike) -> None:
    """ValueError unless a file can be created beside the real mapping file."""
    target = real(mapping_path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=target.parent, prefix=".spacy-deid-check."):
            pass
    except OSError as err:
        raise ValueError(
            f"cannot write the mapping file {mapping_path} ({err.strerror or type(err).__name__})"
        ) from None


def check_inputs_outside(
    files: Iterable[PathLike],
    output_dir: PathLike,
    audit_dir: Optional[PathLike] = None,
    mapping_path: Optional[PathLike] = None,
) -> None:
    """ValueError naming the first input file that is (through a link) a
    released file, an audit file or the mapping: a run would read it as a note."""
    places = _places(None, output_dir, audit_dir)
    mapping = real(mapping_path) if mapping_path is not None else None
    for path in files:
        target = real(path)
        if mapping is not None and target == mapping:
            raise ValueError(
                f"the input {path} is the mapping file {mapping_path} (through a symbolic "
                "link): the mapping would be read as notes; remove the link"
            )
        for what, folder in places:
            if _inside_real(target, folder):
                raise ValueError(
                    f"the input {path} leads into {what} (through a symbolic link, to "
                    f"{target}): released files would be read as notes; remove the link"
                )


def check_output_outside_input(output_file: PathLike, input_base: PathLike) -> None:
    """ValueError when a file's output path leads into the input through a
    link in the output folder (`out/sub -> ../in/sub`): the original note
    would count as released, and a write would replace it."""
    target = real(output_file)
    if _inside_real(target, real(input_base)):
        raise ValueError(
            f"the output path {output_file} leads into the input {input_base} (through a "
            f"symbolic link, to {target}): the original note would count as released; "
            "remove the link from the output folder"
        )
