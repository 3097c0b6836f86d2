"""The package's layout stays readable: small modules, tables as data files."""
import ast
from pathlib import Path

import pytest

import spacy_deid

PACKAGE_DIR = Path(spacy_deid.__file__).parent
MAX_MODULE_LINES = 600
MAX_LITERAL_LINES = 50


def long_literals(path: Path, limit: int = MAX_LITERAL_LINES):
    """(first, last) lines of list/tuple/dict/set literals longer than `limit` lines."""
    tree = ast.parse(path.read_text(encoding="utf8"))
    return [
        (node.lineno, node.end_lineno)
        for node in ast.walk(tree)
        if isinstance(node, (ast.List, ast.Tuple, ast.Dict, ast.Set))
        and node.end_lineno - node.lineno + 1 > limit
    ]


MODULES = sorted(PACKAGE_DIR.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE_DIR)))
def test_module_is_small_and_holds_no_long_literal_table(path):
    assert len(path.read_text(encoding="utf8").splitlines()) <= MAX_MODULE_LINES
    assert not long_literals(path)


def test_the_package_has_modules_to_check():
    assert len(MODULES) > 50


@pytest.mark.parametrize(
    "source,found",
    [
        ("X = (\n" + "".join(f"    {i},\n" for i in range(60)) + ")\n", True),
        ("X = {\n" + "".join(f"    {i}: {i},\n" for i in range(51)) + "}\n", True),
        ("X = [\n" + "".join(f"    {i},\n" for i in range(40)) + "]\n", False),
        ("def f():\n" + "".join(f"    x{i} = {i}\n" for i in range(80)), False),
    ],
)
def test_long_literal_check(tmp_path, source, found):
    module = tmp_path / "m.py"
    module.write_text(source)
    assert bool(long_literals(module)) is found
