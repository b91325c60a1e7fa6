"""What the model knows about the symbol under the cursor, as Markdown for hover (with the UB budget of a class,
hence in hardware/: syntax knows nothing of hardware)."""

from __future__ import annotations

from ascendc_lsp.hardware.budget import budget_table_markdown, class_budgets, ub_capacity
from ascendc_lsp.syntax.document import SourceDocument
from ascendc_lsp.syntax.model import DocumentModel
from ascendc_lsp.syntax.positions import Position

_IDENTIFIER_NODES = frozenset({"identifier", "field_identifier", "type_identifier", "namespace_identifier"})


def identifier_at(document: SourceDocument, position: Position) -> tuple[str, int] | None:
    node = document.node_at(position)
    if node is None or node.type not in _IDENTIFIER_NODES:
        return None
    return document.node_text(node), node.start_byte


def _format_value(value: int | float | None) -> str:
    if value is None:
        return "unknown (not a compile-time constant)"
    if isinstance(value, float):
        return f"{value:g}"
    return f"{value:,}" if abs(value) >= 10000 else str(value)


def describe(
    model: DocumentModel,
    position: Position,
    soc_name: str,
    soc: object | None = None,
    api_doc: str | None = None,
) -> str | None:
    """Hover Markdown for the identifier at `position`, or None when there is nothing to say."""
    found = identifier_at(model.document, position)
    if found is None:
        return None
    name, at_byte = found
    decl = model.buffer(name)
    if decl is not None:
        lines = [f"**{name}**: `{decl.kind}`" + (f" at `{decl.position}`" if decl.position else "")]
        if decl.depth is not None:
            lines.append(f"- depth {_format_value(decl.depth.value)} (`{decl.depth.text}`): consecutive EnQue without DeQue")
        for init in model.init_buffers_for(name, decl.class_name):
            count = init.buffer_count
            each = init.bytes_each()
            total = init.total_bytes()
            length = init.length
            lines.append(
                f"- `InitBuffer` line {init.call.span.start.line + 1}: "
                f"{'?' if count is None else count} buffer(s) x "
                f"{'?' if each is None else f'{each:,}'} B"
                + (f" (`{length.text}` = {_format_value(length.value)})" if length.text else "")
                + (f" = **{total:,} B**" if total is not None else "")
            )
            if init.call.loop_depth:
                lines.append("- ⚠ called inside a loop: each iteration carves new space")
        return "\n".join(lines)
    for cls in model.classes:
        if cls.name == name and cls.name_span.start.line == position.line:
            budgets = [b for b in class_budgets(model) if b.owner == cls.name]
            if not budgets:
                return f"**{'struct' if cls.is_struct else 'class'} {name}**"
            ub_bytes, reserved = ub_capacity(soc, soc_name)
            return f"**class {name}**: on-chip buffers\n\n" + budget_table_markdown(budgets[0], soc_name, ub_bytes, reserved)
    tensor = model.tensor(name, at_byte)
    if tensor is not None:
        dtype = model.resolve_type(tensor.dtype, tensor.start_byte) or tensor.dtype or "?"
        size = model.dtype_size(tensor.dtype, tensor.start_byte)
        extra = f" ({size} B per element)" if size else ""
        return f"**{name}**: `{tensor.kind}<{tensor.dtype or '?'}>`" + (
            f" — element type `{dtype}`{extra}" if dtype != tensor.dtype or extra else ""
        )
    constant = model.constant(name, at_byte)
    if constant is not None:
        value = constant.value.value if constant.is_constant else None
        return f"**{name}** = `{constant.value.text or '?'}` → **{_format_value(value)}**"
    for function in model.functions:
        if function.name == name and function.is_kernel:
            params = ", ".join(f"{p.type_text} {p.name}" for p in function.params)
            quals = " ".join(f"__{q}__" for q in sorted(function.qualifiers))
            extern = 'extern "C" ' if function.is_extern_c else ""
            return f"**kernel** `{extern}{quals} {function.return_type} {name}({params})`"
    if api_doc:
        return api_doc
    return None
