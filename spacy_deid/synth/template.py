"""A small template language for sentences and lines, and the template registry.

    "{pt_first} [reports|describes] [low mood|feeling down] since {date}."

- `{slot}` or `{slot:arg}`: filled by a slot function (see the slots package) that
  returns text segments, PHI or not;
- `[a|b|c]`: one alternative at random (nestable; `[a|]` makes `a` optional).

Every template has an id (`pool.NNN`) and a half, A or B, so train notes can
be generated from half A and test notes from half B (held-out templates).
Halves alternate inside each pool, so both halves cover every pool; new
templates are appended at the end of a pool to keep ids and halves stable.
"""
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Dict, List, Sequence, Tuple, Union

from .assembler import Seg

HALVES = ("A", "B")


@dataclass(frozen=True)
class Template:
    id: str
    half: str
    source: object  # a template string, or (attribute, value) for field lines


def make_pool(name: str, sources: Sequence[str]) -> List[Template]:
    return [Template(f"{name}.{i:03d}", HALVES[i % 2], src) for i, src in enumerate(sources)]


def select(templates: Sequence[Template], half: str) -> List[Template]:
    """Templates of one half ("A" or "B"), or all of them ("all")."""
    if half == "all":
        return list(templates)
    chosen = [t for t in templates if t.half == half]
    return chosen or list(templates)


# --- parsing -------------------------------------------------------------------
Node = Union[str, Tuple[str, str, str], list]  # literal | ("slot", name, arg) | alternatives
_TOKEN = re.compile(r"\{(\w+)(?::([^}]*))?\}|\[|\]|\||[^{}\[\]|]+")


@lru_cache(maxsize=None)
def parse(source: str) -> tuple:
    """Parse a template into a tuple of nodes; alternatives are lists of tuples."""
    tokens = [m for m in _TOKEN.finditer(source)]
    if sum(len(m.group(0)) for m in tokens) != len(source):
        raise ValueError(f"template has stray braces: {source!r}")
    nodes, position = _parse_sequence(tokens, 0, source, top=True)
    return nodes


def _parse_sequence(tokens, i, source, top=False):
    sequence: list = []
    while i < len(tokens):
        text = tokens[i].group(0)
        if text == "[":
            alternatives: List[tuple] = []
            i += 1
            while True:
                branch, i = _parse_sequence(tokens, i, source)
                alternatives.append(branch)
                if i >= len(tokens):
                    raise ValueError(f"unclosed [ in template: {source!r}")
                if tokens[i].group(0) == "]":
                    i += 1
                    break
                i += 1  # "|"
            sequence.append(alternatives)
        elif text in ("]", "|"):
            if top:
                raise ValueError(f"unbalanced {text} in template: {source!r}")
            return tuple(sequence), i
        elif tokens[i].group(1):
            sequence.append(("slot", tokens[i].group(1), tokens[i].group(2) or ""))
            i += 1
        else:
            sequence.append(text)
            i += 1
    return tuple(sequence), i


SlotFunction = Callable[[object, str], List[Seg]]


def render(source: str, ctx, slots: Dict[str, SlotFunction], rng: random.Random) -> List[Seg]:
    """Render a template to segments (slots are resolved in order, left to right)."""
    out: List[Seg] = []
    _render_nodes(parse(source), ctx, slots, rng, out)
    return out


def _render_nodes(nodes, ctx, slots, rng, out):
    for node in nodes:
        if isinstance(node, str):
            out.append(Seg(node))
        elif isinstance(node, list):
            _render_nodes(node[rng.randrange(len(node))], ctx, slots, rng, out)
        else:
            _, name, arg = node
            try:
                slot = slots[name]
            except KeyError:
                raise KeyError(f"unknown template slot {{{name}}}") from None
            out.extend(slot(ctx, arg))
