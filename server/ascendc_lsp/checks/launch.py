"""A direct-launch sample's own host code as the concrete context of its kernel.

A file whose host function launches a kernel of the same file (`kernel<<<blocks, ubuf, stream>>>(args)`, or
`<<<blocks, threads, ubuf, stream>>>` for SIMT) says, statically, what the kernel runs with:

* block_dim: the launch's first operand, folded;
* for each pointer argument, the bytes `aclrtMalloc(&p, size, ...)` gave it and the bytes the host copies back
  from it (`aclrtMemcpy(dst, max, p, count, ACL_MEMCPY_DEVICE_TO_HOST)`), by the kernel's parameter name;
* tiling fields set on a TilingData (`BEGIN_TILING_DATA_DEF` ... `TILING_DATA_FIELD_DEF(type, name)`) with
  `set_name(v)` anywhere in the host code of the file, `v` followed through the helper calls of the file by the
  arithmetic analysis (a parameter is the join of its arguments at every call), or assigned to a plain struct
  passed to the kernel by value (`t.name = v;` in the launching function).

Scalars passed by value need nothing here: the analysis reads a kernel parameter as the join of the arguments
of its calls, the launch among them. Unknown stays unknown: a value that does not fold is absent, and a file
with more than one launch (which kernel gets which values?) or with a spec attached gets nothing from here.
Every value keeps where it was defined (`KnownValues.where`), so findings show the host lines that set it.
"""

from __future__ import annotations

import logging
import re

import tree_sitter

from ascendc_lsp.checks.arith import Arith, Value, unvalued_arith
from ascendc_lsp.checks.base import CheckContext
from ascendc_lsp.checks.values import KnownValues, known_values, merged_origins
from ascendc_lsp.diagnostics import Related
from ascendc_lsp.syntax.model import ApiCall, Function

_FIELD_DEF = re.compile(rb"TILING_DATA_FIELD_DEF\s*\(\s*[\w:\s]+?\s*,\s*([A-Za-z_]\w*)\s*\)")
_ADDRESS_OF = re.compile(r"^(?:\(\s*void\s*\*\s*\*\s*\)|reinterpret_cast\s*<\s*void\s*\*\s*\*\s*>)?\s*\(?\s*&\s*([A-Za-z_]\w*)\s*\)?$")
_NAME = re.compile(r"^[A-Za-z_]\w*$")
log = logging.getLogger(__name__)


def launch_values(context: CheckContext) -> KnownValues | None:
    """The values the file's single direct launch passes its kernel (None: no such launch, or nothing folds)."""
    if b"<<<" not in context.document.data:
        return None
    try:
        return _launch_values(context)
    except (RecursionError, ValueError, IndexError) as exc:  # a reading this module cannot make is no values
        log.warning("cannot read the launch of %s: %s", context.document.path or "<buffer>", exc)
        return None


def _launch_values(context: CheckContext) -> KnownValues | None:
    document = context.document
    from ascendc_lsp.checks.rules.multicore import launches

    direct = [launch for launch in launches(context) if launch.node is not None and launch.direct]
    if len(direct) != 1 or len(launches(context)) != 1:
        return None
    launch = direct[0]
    node = launch.node
    assert node is not None
    kernels = [f for f in context.model.functions_named(launch.kernel.split("<")[0].strip()) if f.is_kernel]
    host = context.model.function_at(node.start_byte)
    if len(kernels) != 1 or host is None or host.is_aicore:
        return None
    kernel = kernels[0]
    analysis = unvalued_arith(context)  # the rules' own analysis (`arith`) must see the values this returns
    line = document.span(node).start.line + 1
    origin = f"the launch in {host.name}() at line {line}"
    launch_related = Related(document.span(node), f"launched here ({origin})")
    where: dict[str, tuple[Related, ...]] = {}

    block_dim: int | None = None
    blocks = _fold_text(analysis, launch.blocks_text, node.start_byte)
    if blocks is not None and blocks.fact.value is not None and blocks.fact.value > 0:
        block_dim = blocks.fact.value
        where["block_dim"] = merged_origins((launch_related,), blocks.origins)

    arguments = node.child_by_field_name("arguments")
    args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
    host_calls = [c for c in context.model.calls if c.function is host]
    allocated: dict[str, int] = {}
    read_back: dict[str, int] = {}
    for arg, param in zip(args, kernel.params, strict=False):
        name = document.node_text(arg).strip()
        if not _NAME.match(name):
            continue
        size = _single(analysis, [c for c in host_calls if c.name == "aclrtMalloc" and len(c.args) >= 2
                                  and _address_of(c.args[0].text) == name], 1, node.start_byte)
        if size is not None:
            allocated[param.name] = size[0]
            where[param.name] = size[1]
        copied = _single(analysis, [c for c in host_calls if c.name == "aclrtMemcpy" and len(c.args) >= 5
                                    and c.args[2].text.strip() == name
                                    and c.args[4].text.strip().endswith("DEVICE_TO_HOST")], 3, None)
        if copied is not None:
            read_back[param.name] = copied[0]
            where[f"{param.name} read back"] = copied[1]

    fields = _tiling_fields(context, analysis, where)
    fields.update(_plain_struct_fields(context, analysis, host, args, where))
    if block_dim is None and not allocated and not fields:
        return None
    values = known_values(origin, fields, block_dim=block_dim, kernel=kernel.name)
    return KnownValues(origin=values.origin, fields=values.fields, block_dim=block_dim, kernel=kernel.name,
                       where=where, tensor_bytes=allocated, read_back_bytes=read_back)


def _fold_text(analysis: Arith, text: str, at_byte: int) -> Value | None:
    text = text.strip()
    if re.fullmatch(r"\d+[uUlL]*", text):
        return Value.const(int(re.sub(r"[uUlL]+$", "", text)))
    if _NAME.match(text):
        return analysis.name_value(text, at_byte, 0)
    return None


def _address_of(text: str) -> str | None:
    match = _ADDRESS_OF.match(text.strip())
    return match.group(1) if match else None


def _single(analysis: Arith, calls: list[ApiCall], index: int, before: int | None) -> tuple[int, tuple[Related, ...]] | None:
    """The one value argument `index` of the calls folds to (None: no call, a call that does not fold, or two
    calls that disagree), with the call and the definitions it came from as its origins."""
    if before is not None:
        calls = [c for c in calls if c.start_byte < before]
    found: set[int] = set()
    origins: tuple[Related, ...] = ()
    for call in calls:
        node = _node(analysis, call.args[index].start_byte, call.args[index].end_byte)
        value = analysis.value(node) if node is not None else None
        if value is None or value.fact.value is None or value.fact.value <= 0:
            return None
        found.add(value.fact.value)
        shown = f"{call.args[index].text.strip()} = {value.fact.value}"
        here = Related(call.span, f"{call.name}({shown if len(call.args) == 1 else '..., ' + shown + ', ...'}) here")
        origins = merged_origins(origins, (here,), value.origins)
    if len(found) != 1:
        return None
    return found.pop(), origins


def _node(analysis: Arith, start: int, end: int) -> tree_sitter.Node | None:
    from ascendc_lsp.checks.rules._common import node_for

    return node_for(analysis.context, start, end)


def _tiling_fields(context: CheckContext, analysis: Arith, where: dict[str, tuple[Related, ...]]) -> dict[str, int]:
    """`set_name(v)` on the file's TilingData fields, in host code, where every call folds to one value."""
    names = {m.group(1).decode() for m in _FIELD_DEF.finditer(context.document.data)}
    fields: dict[str, int] = {}
    for name in sorted(names):
        calls = [c for c in context.model.calls_named(f"set_{name}")
                 if c.receiver is not None and len(c.args) == 1 and (c.function is None or not c.function.is_aicore)]
        value = _single(analysis, calls, 0, None)
        if value is not None:
            fields[name] = value[0]
            where[name] = value[1]
    return fields


def _plain_struct_fields(context: CheckContext, analysis: Arith, host: Function, args: list[tree_sitter.Node],
                         where: dict[str, tuple[Related, ...]]) -> dict[str, int]:
    """`t.name = v;` in the launching function, for a struct `t` passed to the kernel by value."""
    document = context.document
    passed = {document.node_text(a).strip() for a in args}
    from ascendc_lsp.checks.rules._common import scan

    writes: dict[str, list[tuple[tree_sitter.Node, tree_sitter.Node]]] = {}
    for node in scan(context).get("assign"):
        if not (host.body_start <= node.start_byte < host.body_end):
            continue
        left, right, op = (node.child_by_field_name(k) for k in ("left", "right", "operator"))
        if left is None or right is None or op is None or left.type != "field_expression":
            continue
        target = left.child_by_field_name("argument")
        field_node = left.child_by_field_name("field")
        if target is None or field_node is None or document.node_text(target).strip() not in passed:
            continue
        writes.setdefault(document.node_text(field_node), []).append((node, right) if op.type == "=" else (node, node))
    fields: dict[str, int] = {}
    for name, sites in writes.items():
        values = {analysis.value(right).fact.value if right is not site else None for site, right in sites}
        if len(values) != 1 or None in values:
            continue
        value = values.pop()
        assert value is not None
        fields[name] = value
        site, right = sites[0]
        where[name] = merged_origins((Related(document.span(site), f"{name} = {value} here"),),
                                     analysis.value(right).origins)
    return fields
