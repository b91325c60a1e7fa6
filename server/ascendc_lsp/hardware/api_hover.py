"""Hover Markdown for AscendC APIs (from the catalogue) and for API calls (with their folded arguments).

`api_markdown(name, soc)`: signature forms, the one-line description, constraints, data types on the selected SoC,
positions and a docs link. `call_markdown(model, position, soc_name, soc)`: what the document says about the call
under the cursor, e.g. a DataCopy's count folded and whether count x sizeof(T) is a whole number of 32-byte blocks.
"""

from __future__ import annotations

from functools import lru_cache

from ascendc_lsp.hardware.api_catalogue import ApiEntry, load_api_catalogue
from ascendc_lsp.hardware.soc import HardwareDataError, UnknownSocError, get_soc
from ascendc_lsp.syntax.constfold import SCALAR_SIZES
from ascendc_lsp.syntax.model import ApiCall, DocumentModel
from ascendc_lsp.syntax.positions import Position

MAX_FORMS = 6
VECTOR_FAMILIES = frozenset(
    {"vector-binary", "vector-unary", "vector-scalar", "advanced-math", "reduce", "compare-select", "cast"}
)


def _profile_name(soc_name: str) -> str:
    try:
        return get_soc(soc_name).name
    except (UnknownSocError, HardwareDataError, LookupError):
        return soc_name


def _forms(entry: ApiEntry, profile: str) -> list[str]:
    lines: list[str] = []
    shown = 0
    for overload in entry.overloads:
        if shown >= MAX_FORMS:
            break
        only = f" (only {', '.join(overload.socs)})" if overload.socs else ""
        off = overload.socs is not None and profile not in overload.socs
        lines.append(f"// {overload.form} form{only}{' - not on ' + profile if off else ''}")
        lines.append(overload.signature)
        shown += 1
    more = len(entry.overloads) - shown
    if more > 0:
        lines.append(f"// +{more} more overload{'s' if more > 1 else ''}")
    return lines


def _dtype_line(entry: ApiEntry, soc_name: str, profile: str) -> str | None:
    available = entry.available_on(profile)
    if available is False:
        where = ", ".join(entry.socs or ())
        return f"⚠ **Not available on {soc_name}** (documented for {where})"
    types_ = load_api_catalogue().dtypes_supported(entry, soc_name)
    if types_ is None:
        return None
    if entry.name == "Cast" or any("->" in t for t in types_):
        return f"**Conversions on {soc_name}:** {len(types_)} pairs, e.g. " + ", ".join(
            f"`{t}`" for t in sorted(types_)[:8]
        )
    ordered = sorted(types_, key=lambda t: (SCALAR_SIZES.get(t.split("*")[0], 9), t))
    return f"**Data types on {soc_name}:** " + ", ".join(f"`{t}`" for t in ordered)


@lru_cache(maxsize=512)
def api_markdown(name: str, soc_name: str) -> str | None:
    """Markdown for the API `name` (`Add`, `AscendC::Add`, `TQue::AllocTensor`, an alias) on `soc_name`, or None."""
    try:
        catalogue = load_api_catalogue()
    except HardwareDataError:
        return None
    entry = catalogue.by_name(name)
    if entry is None:
        return None
    profile = _profile_name(soc_name)
    title = entry.qualified_name if entry.class_name else f"AscendC::{entry.name}" if entry.kind != "macro" else entry.name
    parts = [f"**`{title}`** · {entry.kind} · {entry.family}", "", entry.description]
    others = sorted({e.class_name for e in catalogue.all_named(entry.name) if e.class_name and e is not entry})
    if others:
        parts.append(f"\nAlso a member of: {', '.join(f'`{c}`' for c in others)}")
    forms = _forms(entry, profile)
    if forms:
        parts += ["", "```cpp", *forms, "```"]
    dtype_line = _dtype_line(entry, soc_name, profile)
    if dtype_line:
        parts += ["", dtype_line]
    if entry.positions:
        parts += ["", "**Positions:** " + ", ".join(entry.positions)]
    if entry.constraints:
        parts += ["", "**Constraints**", *(f"- {c}" for c in entry.constraints)]
    links: list[str] = []
    if entry.docs:
        links.append(f"[Documentation]({entry.docs})")
    if entry.reference:
        links.append(f"Source: {entry.reference}")
    if links:
        parts += ["", " · ".join(links)]
    return "\n".join(parts)


# --------------------------------------------------------------------------------------------- calls


def call_at(model: DocumentModel, position: Position) -> ApiCall | None:
    """The call whose name is under `position` (innermost when calls nest)."""
    best: ApiCall | None = None
    for call in model.calls:
        span = call.name_span
        if _contains(span.start, span.end, position) and (best is None or call.start_byte > best.start_byte):
            best = call
    return best


def _contains(start: Position, end: Position, position: Position) -> bool:
    return (start.line, start.character) <= (position.line, position.character) <= (end.line, end.character)


def _tensor_dtype(model: DocumentModel, text: str, at_byte: int) -> str | None:
    name = text.split("[")[0].strip().removeprefix("this->")
    tensor = model.tensor(name, at_byte)
    if tensor is None:
        return None
    return model.resolve_type(tensor.dtype, tensor.start_byte) or tensor.dtype


def _fmt(value: int | float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


def _datacopy_lines(model: DocumentModel, call: ApiCall, soc: object | None) -> list[str]:
    if len(call.args) != 3:
        return []
    count = call.args[2]
    dtype = call.template_args[0] if call.template_args else None
    dtype = dtype or _tensor_dtype(model, call.args[0].text, call.start_byte) or _tensor_dtype(
        model, call.args[1].text, call.start_byte
    )
    size = SCALAR_SIZES.get(dtype or "")
    value = count.folded.as_int()
    if value is None:
        if count.folded.value is not None or not count.text:
            return []
        hint = f" (a multiple of {32 // size} for `{dtype}`)" if size else ""
        return [f"count `{count.text}` is not a compile-time constant: it must be a whole number of 32-byte blocks{hint}"]
    block = 32
    alignment = getattr(soc, "alignment", None)
    if alignment is not None and getattr(alignment, "datacopy_len_bytes", None):
        block = int(alignment.datacopy_len_bytes)
    head = f"count **{_fmt(value)}**" if count.text.strip() == str(value) else f"count `{count.text}` = **{_fmt(value)}**"
    if size is None:
        return [head + " elements (element type unknown)"]
    total = value * size
    if total % block == 0:
        return [f"{head} x {size} B (`{dtype}`) = {_fmt(total)} B ✓ a multiple of {block} B"]
    moved = total // block * block
    has_pad = getattr(getattr(soc, "features", None), "datacopypad", None)
    fix = " Use DataCopyPad." if has_pad is not False else ""
    return [
        f"{head} x {size} B (`{dtype}`) = {_fmt(total)} B ⚠ not a multiple of {block} B: "
        f"only {_fmt(moved)} B are moved.{fix}"
    ]


def _vector_lines(model: DocumentModel, call: ApiCall, soc_name: str) -> list[str]:
    lines: list[str] = []
    dtype = call.template_args[0] if call.template_args else None
    if dtype is None and call.args:
        dtype = _tensor_dtype(model, call.args[0].text, call.start_byte)
    if dtype:
        supported = load_api_catalogue().dtypes_supported(call.name, soc_name)
        if supported is not None and call.name != "Cast":
            ok = dtype in supported
            lines.append(f"`{dtype}` {'✓ supported' if ok else '⚠ not supported'} by {call.name} on {soc_name}")
    if call.args:
        last = call.args[-1]
        value = last.folded.as_int()
        if value is not None and last.text != str(value) and len(call.args) in (3, 4):
            lines.append(f"count `{last.text}` = **{_fmt(value)}**")
    return lines


def _init_buffer_lines(call: ApiCall) -> list[str]:
    if not call.args or len(call.args) < 2:
        return []
    length = call.args[-1]
    value = length.folded.as_int()
    if value is None:
        return []
    rounded = (value + 31) // 32 * 32
    line = f"length `{length.text}` = **{_fmt(value)} B**"
    if rounded != value:
        line += f" → {_fmt(rounded)} B (rounded up to 32 B)"
    if len(call.args) >= 3:
        num = call.args[1].folded.as_int()
        if num is not None:
            line += f"; {num} buffer(s) = {_fmt(num * rounded)} B"
    return [line]


def call_markdown(model: DocumentModel, position: Position, soc_name: str, soc: object | None = None) -> str | None:
    """Markdown about the API call whose name is under `position` (folded counts, alignment, dtype support)."""
    call = call_at(model, position)
    if call is None:
        return None
    entry = load_api_catalogue().by_name(call.name)
    if entry is None:
        return None
    lines: list[str] = []
    if call.name in ("DataCopy",):
        lines = _datacopy_lines(model, call, soc)
    elif call.name == "InitBuffer":
        lines = _init_buffer_lines(call)
    elif entry.family in VECTOR_FAMILIES:
        lines = _vector_lines(model, call, soc_name)
    if not lines:
        return None
    return f"**This call** (line {call.span.start.line + 1}):\n" + "\n".join(f"- {line}" for line in lines)
