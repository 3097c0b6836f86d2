"""srsly's msgpack codecs looked up once per registration, not once per call.

Every `srsly.msgpack_dumps` / `msgpack_loads` builds a packer that asks the
catalogue registries `msgpack_encoders` / `msgpack_decoders` for all their
functions, and `Registry.get_all` scans every installed entry point and the
whole catalogue registry each time: about 0.3 ms per call once spaCy is
loaded. `Doc.to_bytes` and `Doc.from_bytes` make one such call per span
group and one for the Doc, so with the pipeline's nine span groups the lookup
cost more than the serialisation itself: `nlp.pipe(n_process=2)` spent about a
fifth of its CPU time on it (its workers send every Doc back as bytes).

`cache_msgpack_codecs()` gives the two registries a `get_all` that answers
from a cache, and computes it again when catalogue's registry gains, loses
or replaces an entry of the namespace (its size or the registered
functions change). The entry points themselves cannot change: catalogue reads
them once, at import. The answer is the same dict `Registry.get_all` gives,
in the same order.
"""
from typing import Any, Dict, Optional, Tuple

import catalogue
import srsly.msgpack


class _CachedGetAll:
    """Stands in for `registry.get_all` (an instance attribute, so only these registries change)."""

    def __init__(self, registry: catalogue.Registry) -> None:
        self.registry = registry
        self.entry_points: Optional[Dict[str, Any]] = None
        # (fingerprint, the namespace's keys, the answer), replaced as one
        # tuple so that a thread never reads a key list of one state with the
        # answer of another.
        self.state: Optional[Tuple[Tuple[Any, ...], Tuple[Tuple[str, ...], ...], Dict[str, Any]]] = None

    @staticmethod
    def _fingerprint(keys: Tuple[Tuple[str, ...], ...]) -> Tuple[Any, ...]:
        registered = catalogue.REGISTRY
        return (len(registered),) + tuple(id(registered.get(key)) for key in keys)

    def __call__(self) -> Dict[str, Any]:
        state = self.state
        if state is None or state[0] != self._fingerprint(state[1]):
            state = self._compute()
            self.state = state
        return dict(state[2])

    def _compute(self) -> Tuple[Tuple[Any, ...], Tuple[Tuple[str, ...], ...], Dict[str, Any]]:
        registry = self.registry
        if self.entry_points is None:
            self.entry_points = registry.get_entry_points() if registry.entry_points else {}
        functions = dict(self.entry_points)
        depth = len(registry.namespace) + 1
        keys = []
        for key, value in catalogue.REGISTRY.copy().items():
            if len(key) == depth and key[:-1] == registry.namespace:
                functions[key[-1]] = value
                keys.append(key)
        return self._fingerprint(tuple(keys)), tuple(keys), functions


def cache_msgpack_codecs() -> None:
    """Make srsly's msgpack codec registries answer from a cache (idempotent, process-wide)."""
    for registry in (srsly.msgpack.msgpack_encoders, srsly.msgpack.msgpack_decoders):
        if not isinstance(registry.__dict__.get("get_all"), _CachedGetAll):
            registry.get_all = _CachedGetAll(registry)  # type: ignore[method-assign]
