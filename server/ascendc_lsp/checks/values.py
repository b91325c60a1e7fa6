"""Concrete values attached to a kernel (a spec's tiling fields, block_dim, tensor sizes; the values an op test
case's host TilingFunc computed): the record every producer (checks/project.py, checks/concrete.py) returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ascendc_lsp.diagnostics import Related

_MAX_ORIGINS = 3  # definitions a value remembers (nearest first): enough to show where a number came from


def merged_origins(*groups: tuple[Related, ...]) -> tuple[Related, ...]:
    """The origins of several values, nearest (first operand's) first, without repeats, at most _MAX_ORIGINS."""
    if len(groups) == 1 or not any(groups[1:]):
        return groups[0] if groups else ()
    out: list[Related] = []
    for group in groups:
        for origin in group:
            if origin not in out:
                out.append(origin)
    return tuple(out[:_MAX_ORIGINS])


@dataclass(frozen=True)
class KnownValues:
    """Concrete values attached to a kernel (a spec's tiling fields, block_dim and tensor sizes)."""

    origin: str  # file name the values came from, for messages
    fields: Mapping[str, int | float] = field(default_factory=dict)
    block_dim: int | None = None
    tensor_elements: Mapping[str, int] = field(default_factory=dict)
    kernel: str | None = None
    # Where each value was defined, when a document of ours holds it (a direct launch's host code): by field
    # name, "block_dim" or tensor name; shown as related locations next to findings that use the value.
    where: Mapping[str, tuple[Related, ...]] = field(default_factory=dict)
    # A direct launch's host code (checks/launch.py), by the kernel's parameter name: the bytes `aclrtMalloc`
    # gave the pointer passed there, and the bytes the host copies back from it (ACL_MEMCPY_DEVICE_TO_HOST).
    tensor_bytes: Mapping[str, int] = field(default_factory=dict)
    read_back_bytes: Mapping[str, int] = field(default_factory=dict)

    def field_value(self, name: str) -> int | float | None:
        return self.fields.get(name)

    def origins_of(self, name: str) -> tuple[Related, ...]:
        return tuple(self.where.get(name, ()))

    def related(self, *names: str) -> list[Related]:
        """Where the named values were defined, for a finding that used them: the nearest definitions of each
        (all of them for one value, two each for several: the call that set it and the line it came from)."""
        if len(names) == 1:
            return list(self.origins_of(names[0]))
        return list(dict.fromkeys(origin for name in names for origin in self.origins_of(name)[:2]))

    def describe(self, names: list[str] | None = None) -> str:
        """`totalLength=16384, tileNum=8 from spec.yaml` (only `names` when given)."""
        shown = [(k, v) for k, v in self.fields.items() if names is None or k in names]
        if names is not None and "block_dim" in names and self.block_dim is not None:
            shown.append(("block_dim", self.block_dim))
        values = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in shown)
        return f"{values} from {self.origin}" if values else self.origin


def known_values(
    origin: str,
    fields: Mapping[str, object] | None = None,
    block_dim: int | None = None,
    tensor_elements: Mapping[str, int] | None = None,
    kernel: str | None = None,
) -> KnownValues:
    """A KnownValues record from plain values (numbers only; nested or text fields are dropped).

    The one entry point for every producer of concrete values: specs here, op-project test cases (the
    values their host TilingFunc computed) later."""
    numbers: dict[str, int | float] = {}
    for name, value in (fields or {}).items():
        if isinstance(value, bool):
            numbers[name] = int(value)
        elif isinstance(value, int | float):
            numbers[name] = value
    return KnownValues(
        origin=origin,
        fields=MappingProxyType(numbers),
        block_dim=block_dim,
        tensor_elements=MappingProxyType(dict(tensor_elements or {})),
        kernel=kernel,
    )
