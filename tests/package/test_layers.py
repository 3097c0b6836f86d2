"""The package's layers import one way: no import cycle between modules, and no
module imports a higher layer (docs/architecture.md, "Layers").

Every `import` of the package is read with `ast`, those inside functions and
`if TYPE_CHECKING:` blocks included (an import deferred into a function is
still a dependency). A unit is a top-level module (`labels.py`) or package
(`corpus/`); units in the same layer may import each other, but not in a loop.
"""
import ast
from pathlib import Path
from typing import Dict, FrozenSet, List, Set, Tuple

import pytest

import spacy_deid

PACKAGE_DIR = Path(spacy_deid.__file__).parent
PACKAGE = "spacy_deid"

# Lowest first. A unit may import its own layer and the layers before it.
LAYERS: List[Tuple[str, ...]] = [
    # data and shared definitions: the label scheme, Doc extensions, package
    # data, surrogate value lists and the word lists built on them
    (
        "",  # spacy_deid/__init__.py
        "about", "labels", "extensions", "data_files", "dev_notes", "prune_strings",
        "tokenizer_rules", "surrogates", "clinical_lexicon",
    ),
    ("ml",),  # model layers, worker processes
    ("tokenizer",),
    ("corpus",),  # reading every input format into notes and Docs
    ("transfer", "synth"),  # training data built from notes
    ("pipeline",),  # the components
    ("deid",),  # releasing notes: operators, surrogates, batch runs
    ("evaluation", "augment"),
    ("review", "spark"),
    ("cli",),
]
# Entry points may import the command line (`python -m spacy_deid.spark`).
ENTRY_POINTS = ("__main__",)
# Known exceptions, each with who removes it, e.g.
#     frozenset({"spacy_deid.ml.matmul", "spacy_deid.ml.maxout"}),  # issue 60
# Delete an entry once it is gone (test_known_exceptions_still_exist fails when
# one no longer is). The last two, ml/matmul <-> ml/maxout and
# pipeline/confidence -> evaluation/calibration, were removed in issues 60 and 59.
KNOWN_CYCLES: Set[FrozenSet[str]] = set()
KNOWN_UPWARD: Set[Tuple[str, str]] = set()


def module_name(path: Path, root: Path, package: str) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([package, *parts])


def import_graph(root: Path, package: str) -> Dict[str, Set[str]]:
    """module -> the package's modules it imports (anywhere in its code)."""
    paths = {module_name(p, root, package): p for p in sorted(root.rglob("*.py"))}

    def known(name: str) -> str:
        while name not in paths:  # an attribute of a module, or a missing module
            name = name.rpartition(".")[0]
        return name

    graph: Dict[str, Set[str]] = {}
    for module, path in paths.items():
        is_package = path.name == "__init__.py"
        here = module if is_package else module.rpartition(".")[0]
        targets: Set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(known(a.name) for a in node.names if _inside(a.name, package))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")[: len(here.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                if not _inside(source, package):
                    continue
                for alias in node.names:  # `from . import labels` imports a module
                    submodule = f"{source}.{alias.name}"
                    targets.add(submodule if submodule in paths else known(source))
        targets.discard(module)
        graph[module] = targets
    return graph


def _inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def cycles(graph: Dict[str, Set[str]]) -> List[FrozenSet[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found: List[FrozenSet[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def unit(module: str, package: str) -> str:
    """The top-level module or package a module belongs to ("" for the package itself)."""
    return module[len(package) + 1 :].split(".")[0] if module != package else ""


def layer_of(layers: List[Tuple[str, ...]]) -> Dict[str, int]:
    return {name: i for i, names in enumerate(layers) for name in names}


def upward_imports(graph, package: str, layers) -> List[Tuple[str, str]]:
    """(module, imported module) pairs where a module imports a higher layer."""
    level = layer_of(layers)
    return sorted(
        (module, target)
        for module, targets in graph.items()
        for target in targets
        if module.rpartition(".")[2] not in ENTRY_POINTS
        and level[unit(target, package)] > level[unit(module, package)]
    )


def unit_cycles(graph, package: str) -> List[FrozenSet[str]]:
    """Loops between top-level units (two packages of one layer importing each other)."""
    units: Dict[str, Set[str]] = {}
    for module, targets in graph.items():
        if module.rpartition(".")[2] in ENTRY_POINTS:
            continue
        source = unit(module, package)
        units.setdefault(source, set()).update(
            unit(t, package) for t in targets if unit(t, package) != source
        )
    return cycles(units)


GRAPH = import_graph(PACKAGE_DIR, PACKAGE)


def test_every_unit_has_a_layer():
    placed = layer_of(LAYERS)
    assert sorted({unit(m, PACKAGE) for m in GRAPH} - set(placed)) == []
    assert sorted(set(placed) - {unit(m, PACKAGE) for m in GRAPH}) == []  # no stale names


def test_no_import_cycle_between_modules():
    assert [sorted(c) for c in cycles(GRAPH) if c not in KNOWN_CYCLES] == []


def test_no_import_cycle_between_packages():
    assert [sorted(c) for c in unit_cycles(GRAPH, PACKAGE)] == []


def test_no_module_imports_a_higher_layer():
    assert [pair for pair in upward_imports(GRAPH, PACKAGE, LAYERS) if pair not in KNOWN_UPWARD] == []


def test_known_exceptions_still_exist():
    """An exception that is gone is taken off the list, so it cannot come back."""
    assert KNOWN_CYCLES <= set(cycles(GRAPH))
    assert KNOWN_UPWARD <= set(upward_imports(GRAPH, PACKAGE, LAYERS))


# --- the checks find what they look for (a small package written to tmp_path) ---

TOY_LAYERS = [("", "base"), ("low",), ("high",)]


@pytest.mark.parametrize(
    "files,found_cycles,found_upward",
    [
        ({"low/a.py": "from ..base import x\n"}, [], []),
        (
            {"low/a.py": "from . import b\n", "low/b.py": "def f():\n    from .a import g\n"},
            [["toy.low.a", "toy.low.b"]],
            [],
        ),
        ({"low/a.py": "def f():\n    from ..high.c import g\n"}, [], [("toy.low.a", "toy.high.c")]),
        ({"low/a.py": "import toy.high.c as c\n"}, [], [("toy.low.a", "toy.high.c")]),
        ({"low/__main__.py": "from ..high import c\n"}, [], []),  # an entry point
        (
            {"low/a.py": "from toy.low import b\n", "low/b.py": "from toy.low.a import f\n"},
            [["toy.low.a", "toy.low.b"]],
            [],
        ),
    ],
)
def test_the_checks_find_cycles_and_upward_imports(tmp_path, files, found_cycles, found_upward):
    root = tmp_path / "toy"
    for name in ("__init__.py", "base.py", "low/__init__.py", "high/__init__.py", "high/c.py"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("", encoding="utf-8")
    for name, source in files.items():
        (root / name).write_text(source, encoding="utf-8")
    graph = import_graph(root, "toy")
    assert sorted(sorted(c) for c in cycles(graph)) == found_cycles
    assert upward_imports(graph, "toy", TOY_LAYERS) == found_upward


def test_the_check_finds_two_packages_of_one_layer_importing_each_other(tmp_path):
    root = tmp_path / "toy"
    files = {"__init__.py": "", "a/__init__.py": "C = 1\n", "a/x.py": "from ..b.y import f\n",
             "b/__init__.py": "", "b/y.py": "def f():\n    from ..a import C\n"}
    for name, source in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(source, encoding="utf-8")
    graph = import_graph(root, "toy")
    assert cycles(graph) == [] and [sorted(c) for c in unit_cycles(graph, "toy")] == [["a", "b"]]
