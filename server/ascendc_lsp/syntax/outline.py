"""The outline of a document (document symbols): kernels, classes with methods, queues and buffers."""

from __future__ import annotations

from dataclasses import dataclass, field

from ascendc_lsp.syntax.model import DocumentModel
from ascendc_lsp.syntax.positions import Span


@dataclass
class OutlineItem:
    name: str
    kind: str  # kernel | class | struct | method | function | queue | buffer | pipe | tiling
    detail: str
    span: Span
    selection: Span
    children: list[OutlineItem] = field(default_factory=list)


def _buffer_detail(kind: str, position: str | None, depth: str | None) -> str:
    if kind == "TPipe":
        return "TPipe"
    args = [a for a in (position, depth) if a]
    return f"{kind}<{', '.join(args)}>" if args else kind


def build_outline(model: DocumentModel) -> list[OutlineItem]:
    items: list[OutlineItem] = []
    by_class: dict[str, OutlineItem] = {}
    for cls in model.classes:
        item = OutlineItem(cls.name, "struct" if cls.is_struct else "class", "", cls.span, cls.name_span)
        by_class.setdefault(cls.name, item)
        items.append(item)
    for decl in model.buffers:
        kind = "pipe" if decl.kind == "TPipe" else ("queue" if decl.kind in ("TQue", "TQueBind") else "buffer")
        depth = decl.depth.text if decl.depth is not None else None
        item = OutlineItem(decl.name, kind, _buffer_detail(decl.kind, decl.position, depth), decl.span, decl.span)
        parent = by_class.get(decl.class_name or "")
        (parent.children if parent is not None else items).append(item)
    for function in model.functions:
        if function.is_kernel:
            detail = "kernel " + " ".join(f"__{q}__" for q in sorted(function.qualifiers))
            items.append(OutlineItem(function.name, "kernel", detail, function.span, function.name_span))
            continue
        parent = by_class.get(function.class_name or "")
        kind = "method" if parent is not None else "function"
        item = OutlineItem(function.name, kind, "", function.span, function.name_span)
        (parent.children if parent is not None else items).append(item)
    for tiling in model.tiling_structs:
        if tiling.style == "macro":
            items.append(OutlineItem(tiling.name, "tiling", "tiling data", tiling.span, tiling.span))
    items.sort(key=lambda i: (i.span.start.line, i.span.start.character))
    for item in items:
        item.children.sort(key=lambda c: (c.span.start.line, c.span.start.character))
    return items
