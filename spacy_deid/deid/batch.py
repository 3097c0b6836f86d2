"""The batch runner behind `spacy-deid deidentify`: files in, released files out.

Notes of all files stream through one `nlp.pipe` (n_process, batch_size);
the Docs come back to this process, where the Deidentifier releases them
with one mapping, so a patient's surrogates agree across files whatever the
number of processes. Finished files are written atomically in checkpoints
(mapping first, then outputs), so an interrupted run resumes by skipping the
outputs that exist. A file that cannot be read is reported by name and
problem and skipped; a JSONL line or CSV row that cannot be released is
reported by file and line and left out of its file's output, whose other
notes are released; the summary counts both. Nothing logged holds note text.
"""

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import Counter
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Set, Tuple

from filelock import FileLock, Timeout
from spacy.language import Language
from spacy.tokens import Doc

from ..corpus.listing import is_hidden, list_input_files
from ..corpus.note_files import read_job, released_note
from ..corpus.note_input import (
    DEFAULT_PATIENT_FIELD,
    DEFAULT_TEXT_FIELD,
    SUFFIXES,
    FileJob,
    InputError,
    NoteIn,
    encoding_name,
)
from .files import atomic_write_text
from .mapping import check_mapping_outside
from .paths import (
    check_inputs_outside,
    check_mapping_location,
    check_mapping_writable,
    check_output_outside_input,
    inside,
    real,
)
from .windows import join_pieces, note_pieces, pipe_bounded, without_tensor
from .release import Deidentifier
from ..corpus.i2b2_2014 import note_to_i2b2_2014


class OutputInUseError(RuntimeError):
    """Another run is writing into the same output folder or mapping file."""


class MappingWriteError(RuntimeError):
    """The mapping file could not be saved (disk full, file size limit): the
    run stops, and the files of that checkpoint are not written."""


class PipelineError(RuntimeError):
    """The pipeline failed on a batch: names the files whose notes were in it
    and the error's type, never its message (which might quote the text)."""


@dataclass
class BatchSummary:
    """Counts of a batch run (file names and numbers only)."""

    files_written: int = 0
    files_resumed: int = 0  # outputs already there from an earlier run
    failed: List[Tuple[str, str]] = field(default_factory=list)  # (file, problem)
    refused_lines: List[str] = field(default_factory=list)  # "file: line n: problem", not released
    encodings: Counter = field(default_factory=Counter)  # text files read per encoding
    other_encodings: List[str] = field(default_factory=list)  # "file: encoding" unless plain UTF-8
    ignored: List[str] = field(default_factory=list)  # files of other types
    hidden: List[str] = field(default_factory=list)  # hidden files and folders, not read
    notes: int = 0
    words: int = 0
    unparsed_dates: int = 0
    replacements: Counter = field(default_factory=Counter)  # (label, operator) -> n
    seconds: float = 0.0

    @property
    def files_failed(self) -> int:
        return len(self.failed)

    @property
    def complete(self) -> bool:
        """Whether every note given was released (no failed file, no refused line)."""
        return not self.failed and not self.refused_lines

    def lines(self) -> List[str]:
        rate = self.notes / self.seconds if self.seconds else 0.0
        words = self.words / self.seconds if self.seconds else 0.0
        out = [
            f"files written: {self.files_written}, already done (resumed): {self.files_resumed}, "
            f"failed: {self.files_failed}, ignored (other types): {len(self.ignored)}, "
            f"hidden (not read): {len(self.hidden)}",
            f"notes: {self.notes} in {self.seconds:.1f}s ({rate:.1f} notes/s, {words:.0f} words/s)",
            f"PHI replaced: {sum(self.replacements.values())}; unreadable dates given a placeholder: "
            f"{self.unparsed_dates}",
        ]
        if self.refused_lines:
            out.append(
                f"lines refused (left out of their file's output): {len(self.refused_lines)}; "
                "fix them and rerun with --overwrite for those files"
            )
        if self.encodings:
            counts = ", ".join(f"{name} {n}" for name, n in sorted(self.encodings.items()))
            out.append(f"encodings (written back the same): {counts}")
        out.extend(f"failed: {problem or name}" for name, problem in self.failed)
        out.extend(f"refused: {problem}" for problem in self.refused_lines)
        out.extend(f"encoding: {line}" for line in self.other_encodings)
        out.extend(f"ignored: {name}" for name in self.ignored)
        out.extend(f"hidden, not read: {name}" for name in self.hidden)
        return out


def patient_key(note: NoteIn, relative: Path) -> str:
    """The patient a note's surrogates and date shift belong to: its patient
    id, else the note alone (by its id field, else by file and line)."""
    return note.patient_key(relative)


def output_path(output_dir: Path, relative: Path) -> Path:
    return output_dir / relative


def audit_path(
    audit_dir: Path, relative: Path, xml_beside: bool = False
) -> Callable[[int], Path]:
    """Where the audit XML of each note of a file goes: `a/b.txt` -> `a/b.xml`
    (the i2b2 scorer pairs files by name), `a/c.jsonl` -> `a/c-jsonl-0001.xml`, ...
    A .txt with an input .xml of the same stem beside it (`xml_beside`) gets
    `a/b-txt.xml`, so neither audit file overwrites the other."""
    stem = relative.with_suffix("")
    suffix = relative.suffix.lower()
    if suffix == ".xml" or (suffix == ".txt" and not xml_beside):
        return lambda index: audit_dir / stem.parent / f"{stem.name}.xml"
    if suffix == ".txt":
        return lambda index: audit_dir / stem.parent / f"{stem.name}-txt.xml"
    kind = suffix.lstrip(".")
    return lambda index: audit_dir / stem.parent / f"{stem.name}-{kind}-{index + 1:04d}.xml"


LOCK_NAME = ".spacy-deid.lock"


class OutputLock:
    """Locks held for a run: the output folder and the mapping file, so two
    runs never interleave their files (released when the process ends).
    Each lock is keyed on the real path (links followed): a run given a link
    to the mapping or the output waits for one given the file itself."""

    def __init__(self, output_dir: Path, mapping_path: Optional[Path]) -> None:
        self.targets = [(output_dir, real(output_dir) / LOCK_NAME)]
        if mapping_path is not None:
            mapping_file = real(mapping_path)
            self.targets.append((mapping_path, mapping_file.with_name(mapping_file.name + ".lock")))
        self._stack = ExitStack()

    def __enter__(self) -> "OutputLock":
        try:
            for target, lock_file in self.targets:
                lock = FileLock(str(lock_file), timeout=0)
                try:
                    lock_file.parent.mkdir(parents=True, exist_ok=True)
                    lock.acquire()
                except Timeout:
                    raise OutputInUseError(
                        f"{target}: another spacy-deid run is using it; wait for it to end"
                    ) from None
                except OSError as err:  # a read-only folder, a file where a folder should be
                    raise ValueError(
                        f"cannot write into {lock_file.parent} ({_reason(err)})"
                    ) from None
                self._stack.callback(_release, lock, lock_file)
        except BaseException:
            self._stack.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self._stack.close()


def _release(lock: FileLock, lock_file: Path) -> None:
    lock.release()
    lock_file.unlink(missing_ok=True)


def _reason(err: OSError) -> str:
    return err.strerror or type(err).__name__


def check_folders(input_base: Path, output_dir: Path, audit_dir: Optional[Path]) -> None:
    """Input, output and audit folders that cannot mix, checked before any
    work (ValueError naming the paths): the release never in the input (a rerun
    would read it as notes), the input never in the release (the original notes
    would be released with it), audit files never in the input, and an output
    that is a folder (or can be made one). Judged on real paths (links followed)."""
    if inside(output_dir, input_base):
        raise ValueError("the output folder must not be the input folder or inside it")
    if inside(input_base, output_dir):
        raise ValueError(
            f"the input {input_base} is inside the output folder {output_dir}: the original "
            "notes would end up in the release; choose an output folder outside the input"
        )
    if audit_dir is not None and inside(Path(audit_dir), input_base):
        raise ValueError(
            f"the --audit-dir {audit_dir} is inside the input {input_base}: a later run would "
            "read the audit files as notes; put it elsewhere"
        )
    for folder, what in ((output_dir, "output"), (audit_dir, "--audit-dir")):
        if folder is not None and Path(folder).exists() and not Path(folder).is_dir():
            raise ValueError(f"the {what} path {folder} is a file, not a folder")


def check_mapping_path(
    mapping_path: Path,
    output_dir: Path,
    input_base: Optional[Path] = None,
    audit_dir: Optional[Path] = None,
) -> None:
    """The mapping (PHI) never in the release, the input or the audit folder,
    nor a link that lies in or leads into one of them (paths.py), and
    writable before any note is processed. Raises ValueError naming the path."""
    check_mapping_location(mapping_path, output_dir, input_base, audit_dir)
    check_mapping_outside(mapping_path, output_dir)  # the same for the output, as Spark checks it
    check_mapping_writable(mapping_path)


def check_run_paths(
    input_path: Path,
    output_dir: Path,
    audit_dir: Optional[Path] = None,
    mapping_path: Optional[Path] = None,
) -> None:
    """Every check on where a run reads and writes, before any work (the
    command line calls it before loading the pipeline and before the first
    pass of --corpus-aware): the folders, the mapping, and no input file that
    is a released or audit file or the mapping through a link. ValueError
    (FileNotFoundError for a missing input) naming the path and the reason."""
    input_path, output_dir = Path(input_path), Path(output_dir)
    if not input_path.exists():
        raise FileNotFoundError(f"input path does not exist: {input_path}")
    base = input_path.parent if input_path.is_file() else input_path
    check_folders(base, output_dir, audit_dir)
    if mapping_path is not None:
        check_mapping_path(Path(mapping_path), output_dir, base, audit_dir)
    check_inputs_outside(list_input_files(input_path).files, output_dir, audit_dir, mapping_path)


# Seconds a run stopped by SIGTERM has to exit before it is ended outright.
EXIT_GRACE_SECONDS = 5.0


@contextmanager
def _stop_on_sigterm():
    """SIGTERM stops the run like Ctrl-C, with one process or several: worker
    processes are terminated (not left orphaned or waited for), the finished
    files and the mapping are still written and the locks removed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    owner = os.getpid()

    def stop(signum, frame):
        if os.getpid() != owner:
            # A worker forked inside this block inherited the handler: end it
            # at once, as SIGTERM would. Raising SystemExit there could block
            # its exit on a queue the caller no longer reads.
            os._exit(128 + signum)
        children = multiprocessing.active_children()
        for child in children:
            child.terminate()
        if children:
            # Exiting can block for good in multiprocessing's queue feeder
            # threads (data for the workers just terminated): end the process
            # anyway soon after. SystemExit first, so a file being written is
            # cleaned up. One process has no feeder: it always finishes its writes.
            deadline = threading.Timer(EXIT_GRACE_SECONDS, os._exit, args=(128 + signum,))
            deadline.daemon = True
            deadline.start()
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class BatchRunner:
    def __init__(
        self,
        nlp: Language,
        deid: Deidentifier,
        *,
        n_process: int = 1,
        batch_size: int = 32,
        text_field: str = DEFAULT_TEXT_FIELD,
        patient_field: str = DEFAULT_PATIENT_FIELD,
        mapping_path: Optional[Path] = None,
        audit_dir: Optional[Path] = None,
        overwrite: bool = False,
        checkpoint_files: int = 50,
        progress: bool = True,
        adjust_doc: Optional[Callable[[Doc, str], Doc]] = None,
    ) -> None:
        self.nlp, self.deid = nlp, deid
        # Called on each Doc, with its patient key, before release (corpus_evidence.py).
        self.adjust_doc = adjust_doc
        self.n_process, self.batch_size = n_process, batch_size
        self.text_field, self.patient_field = text_field, patient_field
        self.mapping_path, self.audit_dir = mapping_path, audit_dir
        self.overwrite, self.checkpoint_files, self.progress = overwrite, checkpoint_files, progress
        self._xml_beside: Set[Path] = set()  # .txt inputs with an input .xml of the same stem
        self._input_base: Optional[Path] = None  # set by run: no write may lead into it

    def run(self, input_path: Path, output_dir: Path) -> BatchSummary:
        input_path, output_dir = Path(input_path), Path(output_dir)
        if not input_path.exists():
            raise FileNotFoundError(f"input path does not exist: {input_path}")
        base = input_path.parent if input_path.is_file() else input_path
        check_folders(base, output_dir, self.audit_dir)
        if self.mapping_path is not None:
            check_mapping_path(Path(self.mapping_path), output_dir, base, self.audit_dir)
        self._input_base = base
        with _stop_on_sigterm(), self.lock(output_dir, self.mapping_path):
            return self._run(input_path, base, output_dir)

    def lock(self, output_dir: Path, mapping_path: Optional[Path]) -> OutputLock:
        """The locks a run holds (OutputInUseError when another run holds one)."""
        return OutputLock(Path(output_dir), None if mapping_path is None else Path(mapping_path))

    def _run(self, input_path: Path, base: Path, output_dir: Path) -> BatchSummary:
        summary = BatchSummary()
        pending: List[Tuple[Path, Path]] = []
        inputs: List[Path] = []
        listing = list_input_files(input_path)  # every path read or reported (corpus/listing.py)
        # No released file, audit file or mapping read as a note through a link.
        check_inputs_outside(listing.files, output_dir, self.audit_dir, self.mapping_path)
        for path, problem in listing.problems:
            hidden = is_hidden(Path(path), input_path)
            summary.hidden.append(path) if hidden else summary.failed.append((path, problem))
        for path in listing.files:
            relative = path.relative_to(base)
            if is_hidden(path, input_path):
                summary.hidden.append(str(path))
                continue
            if path.suffix.lower() not in SUFFIXES:
                summary.ignored.append(str(path))
                continue
            inputs.append(relative)
            # No original counted as released through a link in the output.
            check_output_outside_input(output_path(output_dir, relative), base)
            if output_path(output_dir, relative).exists() and not self.overwrite:
                summary.files_resumed += 1
            else:
                pending.append((path, relative))
        names = {relative.as_posix().lower() for relative in inputs}
        self._xml_beside = {
            relative
            for relative in inputs
            if relative.suffix.lower() == ".txt"
            and relative.with_suffix(".xml").as_posix().lower() in names
        }
        started = time.perf_counter()
        jobs: Dict[int, FileJob] = {}
        ready: List[FileJob] = []
        parts: Dict[Tuple[int, int], List[Optional[Tuple[int, Doc]]]] = {}
        bar = _progress_bar(self.progress)
        try:
            stream = self._notes(pending, jobs, ready, summary)
            # Batches bounded by words, the tok2vec on windows (windows.py).
            docs = pipe_bounded(self.nlp, stream, n_process=self.n_process, batch_size=self.batch_size)
            for doc, (job_index, note_index, part, n_parts, start) in docs:
                if n_parts > 1:  # a long note, processed in overlapping pieces (windows.py)
                    pieces = parts.setdefault((job_index, note_index), [None] * n_parts)
                    # the release reads text and entities
                    pieces[part] = (start, without_tensor(doc))
                    if any(piece is None for piece in pieces):
                        continue
                    doc = join_pieces(parts.pop((job_index, note_index)))
                job = jobs[job_index]
                note = job.notes[note_index]
                if doc.text != note.text:  # a pipeline that changed the text cannot be released
                    raise RuntimeError(f"{job.source}: the pipeline changed the note text")
                patient = patient_key(note, job.relative)
                if self.adjust_doc is not None:
                    doc = self.adjust_doc(doc, patient)
                released = self.deid.release_doc(doc, patient_key=patient)
                job.released[note_index] = released
                summary.notes += 1
                summary.words += len(note.text.split())
                summary.unparsed_dates += released.unparsed_dates
                summary.replacements.update(released.counts)
                if bar is not None:
                    bar.update(1)
                if job.complete:
                    ready.append(jobs.pop(job_index))
                    if len(ready) >= self.checkpoint_files:
                        self._flush(ready, output_dir, summary)
        except Exception as err:
            if isinstance(err, (InputError, OutputInUseError, MappingWriteError)):
                raise
            unfinished = ", ".join(str(job.source) for job in jobs.values()) or "none"
            raise PipelineError(
                f"the pipeline failed ({type(err).__name__}) on a batch with notes of: "
                f"{unfinished}; finished files were written, rerun to resume"
            ) from err
        finally:
            # Whatever finished before an interruption is kept, so a rerun resumes after it.
            self._flush(ready, output_dir, summary)
            if bar is not None:
                bar.close()
            summary.seconds = time.perf_counter() - started
        return summary

    def _notes(
        self, pending, jobs, ready, summary
    ) -> Iterator[Tuple[str, Tuple[int, int, int, int, int]]]:
        """(text, (file, note, part, parts, start character)) for every note of
        every readable file, in order; a long note comes in overlapping parts
        split at paragraph, line or word boundaries (windows.note_pieces; a
        file with a note that has none is reported and skipped)."""
        for job_index, (path, relative) in enumerate(pending):
            try:
                job = read_job(path, relative, self.text_field, self.patient_field)
            except InputError as err:
                summary.failed.append((str(path), str(err)))
                continue
            except Exception as err:  # noqa: BLE001 - one bad file must not stop the batch
                # Only the error's type: its message might quote the content.
                summary.failed.append((str(path), f"{path}: cannot read ({type(err).__name__})"))
                continue
            summary.refused_lines.extend(job.refused)
            if job.source.suffix.lower() != ".xml":
                summary.encodings[encoding_name(job)] += 1
                if encoding_name(job) != "utf-8":
                    summary.other_encodings.append(f"{path}: {encoding_name(job)}")
            if not job.notes and job.refused:  # nothing left to release: no output
                summary.failed.append(
                    (str(path), f"{path}: no line could be released ({len(job.refused)} refused)")
                )
                continue
            if not job.notes:
                ready.append(job)  # an empty JSONL/CSV file is written back as it is
                continue
            limit = self.nlp.max_length
            splits = [note_pieces(note.text, limit) for note in job.notes]
            if None in splits:
                index = splits.index(None)
                summary.failed.append(
                    (
                        str(path),
                        f"{path}: note {job.notes[index].note_id} is longer than the pipeline's "
                        f"max_length ({limit} characters) and has no line or word break to "
                        "split it at; raise nlp.max_length or split the note",
                    )
                )
                continue
            jobs[job_index] = job
            for note_index, (note, bounds) in enumerate(zip(job.notes, splits)):
                for part, (start, end) in enumerate(bounds):
                    yield note.text[start:end], (job_index, note_index, part, len(bounds), start)

    def _flush(self, ready: List[FileJob], output_dir: Path, summary: BatchSummary) -> None:
        """Save the mapping, then write the finished files (in that order, so a
        crash in between leaves outputs to redo, never outputs the mapping lacks)."""
        if not ready:
            return
        if self.mapping_path is not None:
            try:
                self.deid.mapping.to_disk(self.mapping_path)
            except OSError as err:  # disk full, file size limit: stop, write none of them
                for job in ready:
                    summary.failed.append(
                        (str(job.source), f"{job.source}: not written (the mapping was not saved)")
                    )
                ready.clear()
                raise MappingWriteError(
                    f"cannot write the mapping file {self.mapping_path} ({_reason(err)}): the "
                    "run stopped and the files of its last checkpoint were not written; "
                    "make room (or raise the file size limit) and rerun to resume"
                ) from None
        for job in ready:
            try:
                if self.audit_dir is not None:
                    self._write_audit(job)
                self._write(
                    output_path(output_dir, job.relative),
                    job.render(job.released),
                    encoding=job.encoding,
                )
                summary.files_written += 1
            except ValueError as err:  # a path that leads into the input (paths.py)
                summary.failed.append((str(job.source), str(err)))
            except OSError as err:
                summary.failed.append(
                    (str(job.source), f"{job.source}: cannot write output ({_reason(err)})")
                )
        ready.clear()

    def _write(self, path: Path, text: str, encoding: str = "utf-8") -> None:
        """Write a released or audit file: never into the input, whatever
        links lie on the way (checked at the write, as a link can appear
        during a run); a link is written through, never replaced."""
        if self._input_base is not None:
            check_output_outside_input(path, self._input_base)
        atomic_write_text(path, text, encoding=encoding)

    def _write_audit(self, job: FileJob) -> None:
        paths = audit_path(self.audit_dir, job.relative, job.relative in self._xml_beside)
        for index, (note, released) in enumerate(zip(job.notes, job.released)):
            path = paths(index)
            xml = note_to_i2b2_2014(released_note(path.stem, released, note.patient_id))
            self._write(path, xml)


def _progress_bar(enabled: bool):
    """A notes/s progress bar on stderr (counts only, never text)."""
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(unit=" notes", file=sys.stderr, desc="deidentify", dynamic_ncols=True)


def run_batch(
    nlp: Language, deid: Deidentifier, input_path: Path, output_dir: Path, **settings
) -> BatchSummary:
    """De-identify the files under `input_path` into `output_dir` (see BatchRunner)."""
    return BatchRunner(nlp, deid, **settings).run(input_path, output_dir)
