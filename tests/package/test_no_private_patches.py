"""No run-time patches of spaCy, Thinc or srsly in the package (issue 60).

The package must not assign to private attributes (`_name`) of objects it does
not own, nor replace methods on instances (or classes) of spaCy, Thinc, srsly
or catalogue: each speed-up goes through a public extension point instead (a
registered layer or callback, a config setting, a helper the user calls).

`private_patches` is an AST scan, so it sees what a reviewer would look for:

1. an assignment (`=`, `+=`, annotated) or `del` of an attribute whose name
   starts with `_` on anything but `self`, `cls` or a class or function the
   module defines itself (`nlp._multiprocessing_pipe = ...`, `node._func = ...`);
2. `setattr(obj, "_name", ...)` / `object.__setattr__(obj, "_name", ...)` and
   writes into another object's `__dict__`;
3. an assignment or `setattr` that gives an object other than `self` an
   attribute named like a method of a spaCy, Thinc, srsly or catalogue class
   (`tok2vec.predict = ...`, `registry.get_all = ...`): the scan has no types,
   so the method's name stands for the class.

Each rule has snippets it must flag and snippets it must accept.
"""
import ast
import inspect
from pathlib import Path
from typing import List, Set, Tuple

import pytest

import spacy_deid

PACKAGE_DIR = Path(spacy_deid.__file__).parent
OWN = {"self", "cls"}


def library_method_names() -> Set[str]:
    """Public method names of the spaCy, Thinc, srsly and catalogue classes a
    pipeline is made of (the names whose replacement on an instance is a patch)."""
    import catalogue
    import spacy.pipeline
    import thinc.api
    from spacy.language import Language
    from spacy.tokenizer import Tokenizer
    from spacy.tokens import Doc, DocBin, Span, SpanGroup, Token
    from spacy.vocab import Vocab
    from spacy.strings import StringStore

    classes = [Language, Tokenizer, Vocab, StringStore, Doc, DocBin, Span, SpanGroup, Token]
    classes += [thinc.api.Model, thinc.api.Ops, thinc.api.NumpyOps, catalogue.Registry]
    classes += [
        value
        for value in vars(spacy.pipeline).values()
        if inspect.isclass(value) and value.__module__.startswith("spacy.")
    ]
    names = set()
    for cls in classes:
        for name, member in inspect.getmembers(cls):
            if not name.startswith("_") and inspect.isroutine(member):
                names.add(name)
    return names


METHOD_NAMES = library_method_names()


def module_own_names(tree: ast.Module) -> Set[str]:
    """Classes and functions the module defines at its top level."""
    return {
        node.name
        for node in tree.body
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
    }


def is_own(target: ast.expr, own: Set[str]) -> bool:
    return isinstance(target, ast.Name) and target.id in own


def private_patches(source: str, filename: str = "<snippet>") -> List[Tuple[int, str]]:
    """(line, what) of every patch the three rules of the module docstring find."""
    tree = ast.parse(source, filename)
    own = OWN | module_own_names(tree)
    found: List[Tuple[int, str]] = []

    def check_attribute(node: ast.Attribute, how: str, value: ast.AST = None) -> None:
        if is_own(node.value, own):
            return
        name = node.attr
        if name.startswith("_"):
            found.append((node.lineno, f"{how} private attribute .{name}"))
        elif how == "assigns" and name in METHOD_NAMES:
            found.append((node.lineno, f"replaces method .{name}"))

    def check_setattr(call: ast.Call) -> None:
        func = call.func
        is_setattr = isinstance(func, ast.Name) and func.id == "setattr"
        is_dunder = isinstance(func, ast.Attribute) and func.attr == "__setattr__"
        if not (is_setattr or is_dunder) or len(call.args) < 2:
            return
        obj, name = call.args[0], call.args[1]
        if is_own(obj, own) or not isinstance(name, ast.Constant) or not isinstance(name.value, str):
            return
        if name.value.startswith("_"):
            found.append((call.lineno, f"setattr of private attribute {name.value}"))
        elif name.value in METHOD_NAMES:
            found.append((call.lineno, f"setattr replaces method {name.value}"))

    def check_target(target: ast.expr, how: str) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                check_target(element, how)
        elif isinstance(target, ast.Starred):
            check_target(target.value, how)
        elif isinstance(target, ast.Attribute):
            check_attribute(target, how)
        elif isinstance(target, ast.Subscript):
            inner = target.value
            if isinstance(inner, ast.Attribute) and inner.attr == "__dict__" and not is_own(inner.value, own):
                found.append((target.lineno, f"{how} through another object's __dict__"))

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                check_target(target, "assigns")
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            check_target(node.target, "assigns")
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                check_target(target, "deletes")
        elif isinstance(node, ast.Call):
            check_setattr(node)
    return sorted(found)


# (snippet, number of patches the scan must find)
SNIPPETS = [
    # rule 1: private attributes of objects the module does not own
    ("nlp._multiprocessing_pipe = stand_in", 1),
    ("node._func = forward", 1),
    ("doc._context = context", 1),
    ("model.layers[0]._func = forward", 1),
    ("counter._calls += 1", 1),
    ("del nlp._pipe_meta", 1),
    ("a._x, b._y = 1, 2", 2),
    ("nlp.__call__ = fast_call", 1),
    ("self._cache = {}", 0),
    ("cls._instances = []", 0),
    ("class Pipe:\n    pass\nPipe._registry = {}", 0),
    ("def f():\n    pass\nf._calls = 0", 0),
    ("doc._.section_name = 'HPI'", 0),  # spaCy's public extension attributes
    ("token._.set('feature', 1)", 0),
    ("value = nlp._multiprocessing_pipe", 0),  # reading is not patching
    ("node.ops = NumpyOps(use_blis=False)", 0),  # a public attribute
    ("doc.tensor = array", 0),
    ("_private = 1", 0),
    # rule 2: setattr and __dict__
    ("setattr(nlp, '_multiprocessing_pipe', stand_in)", 1),
    ("object.__setattr__(doc, '_context', None)", 1),
    ("registry.__dict__['_cache'] = {}", 1),
    ("setattr(self, '_cache', {})", 0),
    ("setattr(config, 'width', 96)", 0),
    ("setattr(obj, name, value)", 0),  # unknown name: not judged
    ("self.__dict__['_cache'] = {}", 0),
    # rule 3: methods of spaCy, Thinc, srsly or catalogue classes replaced
    ("tok2vec.predict = windowed_predict", 1),
    ("registry.get_all = cached_get_all", 1),
    ("nlp.pipe = my_pipe", 1),
    ("Language.pipe = my_pipe", 1),
    ("setattr(component, 'predict', windowed_predict)", 1),
    ("model.begin_update = fast", 1),
    ("self.predict = self.windowed", 0),
    ("component.cfg = {}", 0),
    ("result = tok2vec.predict(docs)", 0),
    ("class Pipe:\n    pass\nPipe.pipe = pipe", 0),
]


@pytest.mark.parametrize("source,count", SNIPPETS, ids=[s for s, _ in SNIPPETS])
def test_the_scan_flags_patches_and_accepts_the_rest(source, count):
    assert len(private_patches(source)) == count


def test_the_method_names_come_from_the_libraries():
    assert {"predict", "pipe", "get_all", "begin_update", "to_bytes"} <= METHOD_NAMES
    assert not {"cfg", "model", "ops", "name", "tensor"} & METHOD_NAMES


MODULES = sorted(PACKAGE_DIR.rglob("*.py"))


def test_the_package_has_no_private_patches():
    assert len(MODULES) > 50
    found = [
        f"{path.relative_to(PACKAGE_DIR)}:{line}: {what}"
        for path in MODULES
        for line, what in private_patches(path.read_text(encoding="utf8"), str(path))
    ]
    assert found == []
