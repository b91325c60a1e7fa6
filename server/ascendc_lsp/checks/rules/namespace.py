"""AscendC names without `AscendC::`/`using namespace AscendC;`, and AscendC code without kernel_operator.h."""

from __future__ import annotations

import re
from collections.abc import Iterator

import tree_sitter

from ascendc_lsp.checks.base import CheckContext, rule
from ascendc_lsp.checks.fixes import add_line_after_includes, fix, replace
from ascendc_lsp.checks.rules._common import ancestors, scan, tensor_of, type_of_name
from ascendc_lsp.diagnostics import Diagnostic, Fix, TextEdit
from ascendc_lsp.syntax.model import ApiCall
from ascendc_lsp.syntax.positions import Position, Span

ASCENDC_TYPES = frozenset({
    "TPipe", "TQue", "TQueBind", "TBuf", "TBufPool", "LocalTensor", "GlobalTensor", "TPosition", "QuePosition",
    "HardEvent", "DataCopyParams", "DataCopyExtParams", "DataCopyPadExtParams", "BinaryRepeatParams",
    "UnaryRepeatParams", "RoundMode",
})
ASCENDC_FUNCTIONS = frozenset({
    "DataCopy", "DataCopyPad", "Adds", "Muls", "Exp", "Ln", "Abs", "Duplicate", "Cast", "ReduceSum", "ReduceMax",
    "WholeReduceSum", "WholeReduceMax", "SetFlag", "WaitFlag", "PipeBarrier", "GetBlockIdx", "GetBlockNum",
    "Relu", "Sqrt", "Reciprocal", "Add", "Sub", "Mul", "Div",
})
_HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".inc", ".inl")
_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.MULTILINE)


def _includes(context: CheckContext) -> list[tuple[str, str]]:
    return [(m.group(1).decode(), m.group(2).decode("utf-8", "replace"))
            for m in _INCLUDE.finditer(context.document.data)]


def _project_headers(context: CheckContext) -> bool:
    """Quoted includes other than kernel_operator.h may bring `using namespace AscendC;` with them."""
    return any(kind == '"' and "kernel_operator" not in path for kind, path in _includes(context))


def _inside_ascendc_namespace(context: CheckContext, node: tree_sitter.Node) -> bool:
    for parent in ancestors(node):
        if parent.type == "namespace_definition":
            name = parent.child_by_field_name("name")
            if name is not None and "AscendC" in context.document.node_text(name):
                return True
    return False


def _qualified(context: CheckContext, start: int) -> bool:
    return context.document.data[max(0, start - 2):start] == b"::" or context.document.data[
        max(0, start - 3):start].rstrip() .endswith(b"::")


@rule("ASC031")
def ascendc_namespace(context: CheckContext) -> Iterator[Diagnostic]:
    model = context.model
    document = context.document
    # `using namespace AscendC;`, or any other non-std namespace (old kernels use `using namespace tik2;`,
    # project namespaces may re-export AscendC): stay silent.
    if any(ns.replace(" ", "").lstrip(":") != "std" for ns in model.using_namespaces):
        return
    if document.path.endswith(_HEADER_SUFFIXES) or _project_headers(context):
        return
    declared = b"using AscendC::"
    defined = {f.name for f in model.functions} | {c.name for c in model.classes}
    uses: dict[str, list[tuple[int, int]]] = {}
    for node in scan(context).get("type"):
        name = document.node_text(node)
        if name in ASCENDC_TYPES and name not in defined:
            uses.setdefault(name, []).append((node.start_byte, node.end_byte))
    for call in model.calls:
        if call.name in ASCENDC_FUNCTIONS and call.receiver is None and call.qualified == call.name \
                and call.name not in defined and not _adl_may_find(context, call) and not _in_assert(context, call):
            start = document.lines.offset(call.name_span.start)
            uses.setdefault(call.name, []).append((start, start + len(call.name.encode())))
    for name, spans in sorted(uses.items(), key=lambda item: min(item[1])):
        if declared + name.encode() in document.data:
            continue
        spans = [s for s in sorted(set(spans)) if not _qualified(context, s[0])]
        spans = [s for s in spans if not _in_namespace_at(context, s[0])]
        if not spans:
            continue
        first = spans[0]
        more = f" ({len(spans) - 1} more use(s))" if len(spans) > 1 else ""
        fixes: list[Fix] = [
            fix("Add 'using namespace AscendC;'", add_line_after_includes(document, "using namespace AscendC;")),
            fix(f"Qualify as AscendC::{name}",
                *(replace(document, s, e, f"AscendC::{name}") for s, e in spans)),
        ]
        yield context.finding(
            "ASC031", document.lines.span(*first),
            f"{name} is declared in namespace AscendC: write AscendC::{name} or add 'using namespace AscendC;'{more}",
            fixes=fixes,
        )


_ASSERTS = frozenset({"ASSERT", "assert", "ascendc_assert", "ASCENDC_ASSERT", "static_assert"})


def _adl_may_find(context: CheckContext, call: ApiCall) -> bool:
    """Argument-dependent lookup finds AscendC functions through AscendC-typed arguments (tensors, params)."""
    for arg in call.args:
        text = arg.text.strip()
        if arg.folded.known or re.fullmatch(r"EVENT_ID\d+", text):
            continue
        if tensor_of(context, text, call.start_byte) is not None or "AscendC::" in text:
            return True
        if re.fullmatch(r"[A-Za-z_][\w.>\-\[\]]*", text) and type_of_name(context, text, call.start_byte) is None:
            return True  # a name of unknown type may well be an AscendC object
        if not re.fullmatch(r"[\w\s+\-*/().]*", text):
            return True
    return False


def _in_assert(context: CheckContext, call: ApiCall) -> bool:
    return any(c.name in _ASSERTS and c.start_byte < call.start_byte and call.end_byte <= c.end_byte
               for c in context.model.calls if c.name in _ASSERTS)


def _in_namespace_at(context: CheckContext, offset: int) -> bool:
    node = context.document.tree.root_node.descendant_for_byte_range(offset, offset + 1)
    return node is not None and _inside_ascendc_namespace(context, node)


_ASCENDC_MARKERS = re.compile(rb"\bAscendC::|\b(?:LocalTensor|GlobalTensor|TPipe|TQue|TBuf)\s*<|\bTPipe\b")


@rule("ASC032")
def kernel_operator_include(context: CheckContext) -> Iterator[Diagnostic]:
    document = context.document
    if (document.path or "").endswith(_HEADER_SUFFIXES):
        return
    match = _ASCENDC_MARKERS.search(document.data)
    if match is None:
        return
    includes = _includes(context)
    if any(kind == '"' or "kernel_operator" in path or path.startswith(("lib/", "kernel_", "adv_api", "basic_api"))
           for kind, path in includes):
        return
    if b"#include" in document.data and not includes:
        return  # an include we could not read (macro include): stay silent
    position = Position(0, 0)
    add = fix('Add #include "kernel_operator.h"', TextEdit(Span(position, position), '#include "kernel_operator.h"\n'))
    yield context.finding(
        "ASC032", document.lines.span(match.start(), match.end()),
        "AscendC types are used but kernel_operator.h is not included: add #include \"kernel_operator.h\"",
        fixes=[add],
    )
