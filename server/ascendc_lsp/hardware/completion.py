"""Hardware-aware completion: API names and signatures from the catalogue, filtered by what is being completed, with
details that depend on the chosen SoC (UB left for `InitBuffer`, aligned `DataCopy` counts, data-type support of
vector ops), and kernel skeleton snippets from `knowledge/snippets/*.yaml`.

Plain records only (`Candidate`); the LSP feature converts them. Everything derived from the catalogue is computed
once per SoC and cached: a request only filters and annotates.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path

from ascendc_lsp.hardware.api_catalogue import POSITIONS, ApiEntry, load_api_catalogue
from ascendc_lsp.hardware.budget import class_budgets, ub_capacity
from ascendc_lsp.hardware.soc import HardwareDataError, HardwareProblem, listed_items
from ascendc_lsp.hardware.yaml_cache import read_folder
from ascendc_lsp.resources import knowledge_dir
from ascendc_lsp.syntax.completion_context import CompletionContext, completion_context
from ascendc_lsp.syntax.constfold import SCALAR_SIZES
from ascendc_lsp.syntax.document import SourceDocument
from ascendc_lsp.syntax.model import DocumentModel
from ascendc_lsp.syntax.positions import Position

# Completion item kinds (mapped to LSP kinds by the feature).
KIND_METHOD, KIND_FUNCTION, KIND_CLASS, KIND_MACRO = "method", "function", "class", "macro"
KIND_SNIPPET, KIND_ENUM_MEMBER, KIND_VARIABLE, KIND_FIELD, KIND_TYPE = "snippet", "enum-member", "variable", "field", "type"

DTYPES: tuple[str, ...] = (
    "half", "float", "bfloat16_t", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t",
    "uint64_t",
)
HARD_EVENTS: tuple[str, ...] = (
    "MTE2_V", "V_MTE3", "MTE3_V", "V_MTE2", "MTE2_MTE3", "MTE3_MTE2", "S_V", "V_S", "MTE2_S", "S_MTE2", "MTE3_S",
    "S_MTE3", "V_V", "MTE2_MTE1", "MTE1_MTE2", "MTE1_M", "M_MTE1", "M_V", "V_M", "M_FIX", "FIX_M", "FIX_S",
    "MTE3_MTE1", "MTE1_MTE3",
)
ROUND_MODES: tuple[str, ...] = ("CAST_NONE", "CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC", "CAST_ODD")
VECTOR_FAMILIES = frozenset(
    {"vector-binary", "vector-unary", "vector-scalar", "advanced-math", "reduce", "compare-select", "rearrange", "sort"}
)
_DTYPE_TEMPLATES = frozenset(
    {"AllocTensor", "DeQue", "EnQue", "FreeTensor", "Get", "GetWithOffset", "ReinterpretCast", "LocalTensor",
     "GlobalTensor", "DataCopyPadExtParams"}
)
_POSITION_TEMPLATES = {"TQue": (0,), "TBuf": (0,), "TQueBind": (0, 1), "TSCM": (0,)}
_EVENT_TEMPLATES = frozenset({"SetFlag", "WaitFlag", "AllocEventID", "ReleaseEventID"})
_POSITION_SCOPES = frozenset({"TPosition", "QuePosition"})
# Member calls whose result is a LocalTensor of the call's template argument (or of the receiver's element type).
_TENSOR_RESULTS = frozenset({"AllocTensor", "DeQue", "Get", "GetWithOffset", "ReinterpretCast"})
_CLASS_NAMES = ("TPipe", "TQueBind", "TQue", "TBuf", "TBufPool", "LocalTensor", "GlobalTensor", "Matmul", "MatmulImpl")
_PLACEHOLDER = re.compile(r"\$\{(\d+)|\$(\d+)")
_SEGMENT = re.compile(r"\s*(?:(?:\.|->|::)\s*)?([A-Za-z_]\w*)")

SNIPPET_CONTEXTS: tuple[str, ...] = ("toplevel", "class_body", "statement")
SNIPPET_SCHEMA = 1
_SNIPPET_KEYS = {"id", "label", "contexts", "description", "body"}


@dataclass(frozen=True, slots=True)
class Candidate:
    """One completion candidate. `insert_text` is LSP snippet syntax when `snippet` is set."""

    label: str
    kind: str
    detail: str = ""
    documentation: str = ""
    insert_text: str | None = None
    snippet: bool = False
    group: int = 5  # sort group: lower first
    deprecated: bool = False
    api: str | None = None  # the catalogue entry (qualified name) whose docs resolve lazily

    @property
    def sort_text(self) -> str:
        return f"{self.group}{self.label.lower()}"


# ------------------------------------------------------------------------------------------- snippet text


@dataclass(frozen=True, slots=True)
class ParsedSnippet:
    text: str  # defaults substituted
    tabstops: tuple[int, ...]  # in order of appearance (with repeats)


def parse_snippet(body: str) -> ParsedSnippet:
    """Expand an LSP snippet with its defaults; raises ValueError on malformed syntax."""
    out: list[str] = []
    stops: list[int] = []

    def parse(i: int, inside: bool) -> int:
        while i < len(body):
            ch = body[i]
            if ch == "\\" and i + 1 < len(body) and body[i + 1] in "$}\\":
                out.append(body[i + 1])
                i += 2
            elif ch == "}" and inside:
                return i + 1
            elif ch == "$":
                m = re.match(r"\$(\d+)|\$\{(\d+)(:|\||\})", body[i:])
                if m is None:
                    raise ValueError(f"stray `$` at {i} (write \\$ for a literal dollar)")
                if m.group(1) is not None:
                    stops.append(int(m.group(1)))
                    i += m.end()
                    continue
                stops.append(int(m.group(2)))
                i += m.end()
                if m.group(3) == "}":
                    continue
                if m.group(3) == "|":
                    end = body.find("|}", i)
                    if end < 0:
                        raise ValueError("unterminated choice ${N|...|}")
                    out.append(body[i:end].split(",")[0])
                    i = end + 2
                    continue
                i = parse(i, True)
            else:
                out.append(ch)
                i += 1
        if inside:
            raise ValueError("unterminated ${N:...} placeholder")
        return i

    parse(0, False)
    return ParsedSnippet("".join(out), tuple(stops))


def check_snippet_body(body: str) -> str | None:
    """None when `body` is a valid snippet with tab stops 1..n without gaps, else the problem."""
    try:
        parsed = parse_snippet(body)
    except ValueError as exc:
        return str(exc)
    numbers = sorted({n for n in parsed.tabstops if n != 0})
    if numbers != list(range(1, len(numbers) + 1)):
        return f"tab stops must be numbered 1..n without gaps, got {numbers}"
    return None


def strip_receiver(snippet: str) -> str:
    """`${1:que}.AllocTensor<${2:half}>()` -> `AllocTensor<${1:half}>()` (the receiver is already typed)."""
    m = re.match(r"\$\{1:[^{}]*\}(?:\.|->)", snippet)
    if m is None:
        return snippet
    rest = snippet[m.end():]
    return _PLACEHOLDER.sub(
        lambda p: "${" + str(int(p.group(1)) - 1) if p.group(1) else "$" + str(max(int(p.group(2)) - 1, 0)), rest
    )


def _without_semicolon(snippet: str) -> str:
    return snippet[:-1] if snippet.endswith(";") else snippet


# ------------------------------------------------------------------------------------------- snippet templates


@dataclass(frozen=True, slots=True)
class SnippetTemplate:
    id: str
    label: str
    contexts: tuple[str, ...]
    description: str
    body: str
    file: str


def _load_templates(folder: Path) -> tuple[SnippetTemplate, ...]:
    problems: list[HardwareProblem] = []
    templates: list[SnippetTemplate] = []
    for parsed in read_folder(folder):
        file = str(parsed.path)
        for i, raw in enumerate(listed_items(parsed, "snippets", SNIPPET_SCHEMA, problems) or []):
            where = f"snippets[{i}]"
            if not isinstance(raw, dict):
                problems.append(HardwareProblem(file, where, "expected a mapping"))
                continue
            for key in sorted(set(raw) - _SNIPPET_KEYS):
                problems.append(HardwareProblem(file, f"{where}.{key}", "unknown field"))
            values: dict[str, str] = {}
            for key in ("id", "label", "description", "body"):
                value = raw.get(key)
                if not isinstance(value, str) or not value.strip():
                    problems.append(HardwareProblem(file, f"{where}.{key}", "expected a non-empty string"))
                else:
                    values[key] = value
            contexts = raw.get("contexts")
            if (
                not isinstance(contexts, list)
                or not contexts
                or not all(isinstance(c, str) and c in SNIPPET_CONTEXTS for c in contexts)
            ):
                problems.append(
                    HardwareProblem(file, f"{where}.contexts", f"expected a list of {', '.join(SNIPPET_CONTEXTS)}")
                )
                continue
            if len(values) < 4:
                continue
            body = values["body"].rstrip("\n")
            problem = check_snippet_body(body)
            if problem is not None:
                problems.append(HardwareProblem(file, f"{where}({values['id']}).body", problem))
                continue
            templates.append(
                SnippetTemplate(values["id"], values["label"], tuple(contexts), values["description"].strip(), body, file)
            )
    seen: set[str] = set()
    for template in templates:
        for key in (template.id, "label:" + template.label):
            if key in seen:
                problems.append(HardwareProblem(template.file, template.id, f"duplicate {key}"))
            seen.add(key)
    if problems:
        raise HardwareDataError(problems)
    return tuple(templates)


@cache
def _templates_cached(folder: Path) -> tuple[SnippetTemplate, ...]:
    return _load_templates(folder)


def load_snippet_templates(directory: Path | str | None = None) -> tuple[SnippetTemplate, ...]:
    """The kernel skeleton snippets (cached per folder). Raises HardwareDataError listing every problem."""
    folder = Path(directory) if directory is not None else knowledge_dir() / "snippets"
    return _templates_cached(folder.resolve())


# ------------------------------------------------------------------------------------------- catalogue candidates


def signature_detail(entry: ApiEntry) -> str:
    """A short signature for `detail`: the first overload without `__aicore__ inline` and the template header."""
    if not entry.overloads:
        return entry.description
    sig = entry.overloads[0].signature
    sig = re.sub(r"^template\s*<.*?>\s*(?=__aicore__|\w)", "", sig) if sig.startswith("template") else sig
    sig = sig.replace("__aicore__ ", "").replace("inline ", "").strip()
    more = len(entry.overloads) - 1
    return sig + (f"  (+{more} overload{'s' if more > 1 else ''})" if more > 0 else "")


def _entry_candidate(entry: ApiEntry, member: bool) -> Candidate:
    snippet = entry.snippet
    if member:
        snippet = strip_receiver(snippet)
    kind = {
        "member": KIND_METHOD, "function": KIND_FUNCTION, "macro": KIND_MACRO, "class": KIND_CLASS,
        "struct": KIND_CLASS, "enum": KIND_TYPE,
    }.get(entry.kind, KIND_FUNCTION)
    group = 3 if entry.kind in ("function", "member") else 4
    return Candidate(
        label=entry.name,
        kind=kind,
        detail=signature_detail(entry),
        insert_text=snippet or entry.name,
        snippet="$" in snippet,
        group=group,
        api=entry.qualified_name,
    )


@lru_cache(maxsize=64)
def member_candidates(class_name: str) -> tuple[Candidate, ...]:
    entries = load_api_catalogue().members_of(class_name)
    seen: set[str] = set()
    out: list[Candidate] = []
    for entry in entries:
        if entry.name.startswith("operator") or entry.name in seen:
            continue
        seen.add(entry.name)
        out.append(_entry_candidate(entry, member=True))
    return tuple(out)


@cache
def global_candidates() -> tuple[Candidate, ...]:
    """Free functions, classes and macros (what may start a statement or appear in an expression)."""
    catalogue = load_api_catalogue()
    return tuple(_entry_candidate(e, member=False) for e in catalogue if e.kind != "member")


@cache
def namespace_candidates() -> tuple[Candidate, ...]:
    """What follows `AscendC::`: free functions, classes, structs and enums (macros are not namespaced)."""
    return tuple(c for c in global_candidates() if c.kind != KIND_MACRO)


@lru_cache(maxsize=1024)
def _supported(api: str, soc_name: str) -> frozenset[str] | None:
    try:
        types_ = load_api_catalogue().dtypes_supported(api, soc_name)
    except Exception:
        return None
    return None if types_ is None else frozenset(types_)


@lru_cache(maxsize=256)
def _entry(api: str) -> ApiEntry | None:
    return load_api_catalogue().by_name(api)


# ------------------------------------------------------------------------------------------- receiver types


@dataclass(frozen=True, slots=True)
class ValueType:
    """What a receiver expression is: an API class (`TQue`, `LocalTensor`, ...) or a class of the document."""

    name: str
    dtype: str | None = None
    user_class: bool = False


@dataclass(slots=True)
class _Segment:
    name: str
    template_arg: str | None = None
    call: bool = False
    index: bool = False


def _segments(receiver: str) -> list[_Segment]:
    """`this->q.AllocTensor<half>()[8]` -> [this, q, AllocTensor<half>() , [..]]."""
    segments: list[_Segment] = []
    i = 0
    text = receiver.strip()
    while i < len(text):
        ch = text[i]
        if ch in " \t\r\n":
            i += 1
            continue
        if ch in "([<":
            close = {"(": ")", "[": "]", "<": ">"}[ch]
            depth, j = 0, i
            while j < len(text):
                if text[j] == ch:
                    depth += 1
                elif text[j] == close:
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            inner = text[i + 1 : j].strip()
            if segments:
                if ch == "(":
                    segments[-1].call = True
                elif ch == "[":
                    segments.append(_Segment("[]", index=True))
                else:
                    segments[-1].template_arg = inner.split(",")[0].strip() or None
            i = j + 1
            continue
        m = _SEGMENT.match(text, i)
        if m is None:
            i += 1
            continue
        segments.append(_Segment(m.group(1)))
        i = m.end()
    return segments


def _declared_type(model: DocumentModel, name: str, at_byte: int) -> ValueType | None:
    """The type of variable `name` at `at_byte`: queues/pipes/buffers, tensors, parameters, then a text search."""
    decl = model.buffer(name)
    if decl is not None:
        return ValueType(decl.kind)
    tensor = model.tensor(name, at_byte)
    if tensor is not None:
        return ValueType(tensor.kind, model.resolve_type(tensor.dtype, tensor.start_byte) or tensor.dtype)
    function = model.function_at(at_byte)
    if function is not None:
        for param in function.params:
            if param.name == name:
                return _type_from_text(model, param.type_text, at_byte)
    return _search_declaration(model, name, at_byte)


def _type_from_text(model: DocumentModel, type_text: str, at_byte: int) -> ValueType | None:
    text = type_text.replace("const", " ").replace("&", " ").replace("*", " ").strip()
    text = re.sub(r"\b(?:AscendC|matmul)::", "", text)
    m = re.match(r"([A-Za-z_]\w*)\s*(?:<\s*([^,<>]+(?:<[^<>]*>)?)?)?", text)
    if m is None:
        return None
    base = m.group(1)
    if base in _CLASS_NAMES:
        arg = m.group(2).strip() if m.group(2) else None
        dtype = model.resolve_type(arg, at_byte) or arg if base in ("LocalTensor", "GlobalTensor") else None
        return ValueType("Matmul" if base == "MatmulImpl" else base, dtype)
    if any(c.name == base for c in model.classes):
        return ValueType(base, user_class=True)
    return None


def _search_declaration(model: DocumentModel, name: str, at_byte: int) -> ValueType | None:
    """A declaration `Type<...> name` anywhere before the cursor (Matmul objects, user classes, tiling structs)."""
    text = model.document.text
    known = [*_CLASS_NAMES, *(c.name for c in model.classes)]
    if not known:
        return None
    pattern = re.compile(
        r"\b(?:(?:AscendC|matmul)::)?(" + "|".join(re.escape(k) for k in known) + r")\b\s*(<[^;{}]*?>)?[\s&*]*"
        + re.escape(name) + r"\s*[;,=({\[)]"
    )
    found = None
    for m in pattern.finditer(text):
        found = m
    if found is None:
        return None
    return _type_from_text(model, found.group(1) + (found.group(2) or ""), at_byte)


def receiver_type(model: DocumentModel, receiver: str, at_byte: int) -> ValueType | None:
    """The type of a receiver expression through the model: fields, locals, parameters, and member-call results."""
    segments = _segments(receiver)
    if not segments:
        return None
    current: ValueType | None
    first = segments[0]
    rest = segments[1:]
    if first.name == "this":
        cls = _class_at(model, at_byte)
        if cls is None:
            return None
        current = ValueType(cls, user_class=True)
    elif first.name in ("GetTPipePtr",) and first.call:
        current = ValueType("TPipe")
    else:
        current = _declared_type(model, first.name, at_byte)
        if current is None and any(c.name == first.name for c in model.classes):
            current = ValueType(first.name, user_class=True)
    for segment in rest:
        if current is None:
            return None
        if segment.index:
            if current.name not in ("LocalTensor", "GlobalTensor"):
                return None
            continue
        if current.user_class:
            current = _declared_type(model, segment.name, at_byte) if not segment.call else None
            continue
        if segment.name in _TENSOR_RESULTS and segment.call:
            if current.name == "GlobalTensor" and segment.name == "ReinterpretCast":
                current = ValueType("GlobalTensor", segment.template_arg or current.dtype)
            else:
                current = ValueType("LocalTensor", segment.template_arg or current.dtype)
        else:
            return None
    return current


def _class_at(model: DocumentModel, at_byte: int) -> str | None:
    function = model.function_at(at_byte)
    if function is not None and function.class_name:
        return function.class_name
    best = None
    for cls in model.classes:
        if cls.start_byte <= at_byte <= cls.end_byte and (best is None or cls.start_byte > best.start_byte):
            best = cls
    return best.name if best is not None else None


# ------------------------------------------------------------------------------------------- hardware details


def dtype_size(dtype: str) -> int | None:
    return SCALAR_SIZES.get(dtype)


def aligned_count_note(dtype: str, block: int = 32) -> str | None:
    size = dtype_size(dtype)
    if not size:
        return None
    return f"count must be a multiple of {block // size} for {dtype} ({block} B / {size} B)"


def _function_dtypes(model: DocumentModel, at_byte: int) -> list[str]:
    """Element types of the LocalTensors visible in the function at `at_byte` (parameters included)."""
    function = model.function_at(at_byte)
    found: dict[str, None] = {}
    if function is None:
        return []
    for tensor in model.tensors:
        if tensor.kind == "LocalTensor" and tensor.function is function:
            dtype = model.resolve_type(tensor.dtype, tensor.start_byte)
            if dtype:
                found.setdefault(dtype, None)
    for param in function.params:
        if "LocalTensor" in param.type_text:
            value = _type_from_text(model, param.type_text, at_byte)
            if value is not None and value.dtype:
                found.setdefault(value.dtype, None)
    return list(found)


def _ub_detail(model: DocumentModel, at_byte: int, soc_name: str, soc: object | None) -> str:
    owner = _class_at(model, at_byte)
    ub_bytes, reserved = ub_capacity(soc, soc_name)
    usable = ub_bytes - reserved
    used = 0
    unknown = 0
    for budget in class_budgets(model):
        if budget.owner == owner:
            used = budget.total("UB")
            unknown = budget.unknown("UB")
    left = usable - used
    who = f"{owner} uses {used:,} B" if owner else f"{used:,} B used"
    extra = f", +{unknown} of unknown size" if unknown else ""
    return f"UB left on {soc_name}: {left:,} B of {usable:,} B usable ({who}{extra})"


def _datacopy_detail(dtypes: Sequence[str], soc: object | None) -> str:
    block = 32
    alignment = getattr(soc, "alignment", None)
    if alignment is not None and getattr(alignment, "datacopy_len_bytes", None):
        block = int(alignment.datacopy_len_bytes)
    notes = [n for n in (aligned_count_note(d, block) for d in dtypes) if n]
    if not notes:
        notes = [f"count x sizeof(T) must be a multiple of {block} B (half: {block // 2}, float: {block // 4})"]
    features = getattr(soc, "features", None)
    if getattr(features, "datacopypad", None) is False:
        notes.append("no DataCopyPad on this SoC")
    return "; ".join(notes)


def _annotate_vector(candidate: Candidate, dtypes: Sequence[str], soc_name: str) -> Candidate:
    if candidate.api is None:
        return candidate
    supported = _supported(candidate.api, soc_name)
    if supported is None:
        return candidate
    if not supported:
        return replace(candidate, detail=f"⚠ not available on {soc_name} · {candidate.detail}", deprecated=True, group=9)
    if not dtypes:
        return replace(candidate, detail=f"{soc_name}: {', '.join(sorted(supported))} · {candidate.detail}")
    bad = [d for d in dtypes if d not in supported]
    good = [d for d in dtypes if d in supported]
    if not good:
        return replace(
            candidate,
            detail=f"⚠ {', '.join(bad)} not supported on {soc_name} (only {', '.join(sorted(supported))}) · {candidate.detail}",
            deprecated=True,
            group=9,
        )
    note = f"✓ {', '.join(good)} on {soc_name}" + (f"; ⚠ not {', '.join(bad)}" if bad else "")
    return replace(candidate, detail=f"{note} · {candidate.detail}")


def _annotate(
    candidates: Iterable[Candidate], model: DocumentModel, at_byte: int, soc_name: str, soc: object | None,
    statement: bool,
) -> list[Candidate]:
    dtypes: list[str] | None = None
    out: list[Candidate] = []
    for candidate in candidates:
        if not statement and candidate.insert_text and candidate.insert_text.endswith(";"):
            candidate = replace(candidate, insert_text=_without_semicolon(candidate.insert_text))
        entry = _entry(candidate.api) if candidate.api else None
        if entry is not None:
            if entry.name == "InitBuffer":
                candidate = replace(candidate, detail=_ub_detail(model, at_byte, soc_name, soc))
            elif entry.name in ("DataCopy",):
                if dtypes is None:
                    dtypes = _function_dtypes(model, at_byte)
                candidate = replace(candidate, detail=f"{_datacopy_detail(dtypes, soc)} · {candidate.detail}")
            elif entry.family in VECTOR_FAMILIES:
                if dtypes is None:
                    dtypes = _function_dtypes(model, at_byte)
                candidate = _annotate_vector(candidate, dtypes, soc_name)
        out.append(candidate)
    return out


# ------------------------------------------------------------------------------------------- contexts


def _template_candidates(ctx: CompletionContext, model: DocumentModel, soc_name: str) -> list[Candidate]:
    name = ctx.template or ""
    index = ctx.template_index
    if name in _POSITION_TEMPLATES and index in _POSITION_TEMPLATES[name]:
        return [Candidate(f"TPosition::{p}", KIND_ENUM_MEMBER, detail=_position_detail(p), group=2) for p in POSITIONS
                if p != "GM"]
    if name in _EVENT_TEMPLATES and index == 0:
        return [Candidate(f"HardEvent::{e}", KIND_ENUM_MEMBER, detail=_event_detail(e), group=2) for e in HARD_EVENTS]
    entry = _entry(name) if name not in _DTYPE_TEMPLATES else None
    takes_type = name in _DTYPE_TEMPLATES or (
        entry is not None and entry.kind == "function" and any(
            ov.template_params and ov.template_params[0].kind in ("typename", "class") for ov in entry.overloads
        )
    )
    if not takes_type or index != 0:
        return []
    supported = _supported(entry.qualified_name, soc_name) if entry is not None else None
    out: list[Candidate] = []
    for dtype in DTYPES:
        size = SCALAR_SIZES[dtype]
        detail = f"{size} B · {32 // size} per 32-B block"
        bad = supported is not None and dtype not in supported
        if bad:
            detail = f"⚠ {name} has no {dtype} on {soc_name} · " + detail
        out.append(Candidate(dtype, KIND_TYPE, detail=detail, group=9 if bad else 2, deprecated=bad))
    # Template parameters and aliases in scope.
    at = ctx.offset
    for cls in model.classes:
        if cls.start_byte <= at <= cls.end_byte:
            for param in cls.template_params:
                bound = model.template_bindings.get(cls.name, {}).get(param)
                out.append(Candidate(param, KIND_TYPE, detail=f"template parameter of {cls.name}"
                                     + (f" (= {bound})" if bound else ""), group=1))
    for alias, target in model.type_aliases.items():
        out.append(Candidate(alias, KIND_TYPE, detail=f"= {target}", group=1))
    return out


def _position_detail(position: str) -> str:
    from ascendc_lsp.hardware.budget import POSITION_MEMORY

    memory = POSITION_MEMORY.get(position)
    return f"buffers in {memory}" if memory else "position"


def _event_detail(event: str) -> str:
    src, _, dst = event.partition("_")
    return f"{dst} waits for {src}"


def _scope_candidates(ctx: CompletionContext) -> list[Candidate]:
    scope = ctx.scope or ""
    if scope in _POSITION_SCOPES:
        return [Candidate(p, KIND_ENUM_MEMBER, detail=_position_detail(p), group=2) for p in POSITIONS]
    if scope == "HardEvent":
        return [Candidate(e, KIND_ENUM_MEMBER, detail=_event_detail(e), group=2) for e in HARD_EVENTS]
    if scope == "RoundMode":
        return [Candidate(r, KIND_ENUM_MEMBER, detail="Cast rounding mode", group=2) for r in ROUND_MODES]
    if scope == "AscendC":
        return list(namespace_candidates())
    return []


def _user_class_members(model: DocumentModel, class_name: str) -> list[Candidate]:
    out: list[Candidate] = []
    seen: set[str] = set()
    for cls in model.classes:
        if cls.name != class_name:
            continue
        for method in cls.methods:
            if method.name in seen or method.name == class_name:
                continue
            seen.add(method.name)
            params = ", ".join(f"{p.type_text} {p.name}".strip() for p in method.params)
            out.append(Candidate(method.name, KIND_METHOD, detail=f"{method.return_type} {method.name}({params})",
                                 insert_text=f"{method.name}($1)" if method.params else f"{method.name}()",
                                 snippet=bool(method.params), group=1))
    for decl in model.buffers:
        if decl.class_name == class_name and decl.name not in seen:
            seen.add(decl.name)
            out.append(Candidate(decl.name, KIND_FIELD, detail=_buffer_detail(decl.kind, decl.position), group=1))
    for tensor in model.tensors:
        if tensor.class_name == class_name and tensor.function is None and tensor.name not in seen:
            seen.add(tensor.name)
            out.append(Candidate(tensor.name, KIND_FIELD, detail=f"{tensor.kind}<{tensor.dtype or '?'}>", group=1))
    for struct in model.tiling_structs:
        if struct.name == class_name:
            for type_text, name in struct.fields:
                if name not in seen:
                    seen.add(name)
                    out.append(Candidate(name, KIND_FIELD, detail=type_text, group=1))
    return out


def _buffer_detail(kind: str, position: str | None) -> str:
    return f"{kind}<{position}>" if position else kind


def _scope_variables(model: DocumentModel, at_byte: int) -> list[Candidate]:
    """Queues, buffers and tensors visible at `at_byte` (fields of the enclosing class, locals of the function)."""
    owner = _class_at(model, at_byte)
    function = model.function_at(at_byte)
    out: list[Candidate] = []
    seen: set[str] = set()
    for decl in model.buffers:
        if decl.class_name == owner and decl.name not in seen:
            seen.add(decl.name)
            out.append(Candidate(decl.name, KIND_FIELD, detail=_buffer_detail(decl.kind, decl.position), group=1))
    for tensor in model.tensors:
        visible = tensor.function is function if tensor.function is not None else tensor.class_name == owner
        if visible and tensor.start_byte <= at_byte and tensor.name not in seen:
            seen.add(tensor.name)
            out.append(Candidate(tensor.name, KIND_VARIABLE, detail=f"{tensor.kind}<{tensor.dtype or '?'}>", group=1))
    return out


def _template_snippets(context: str) -> list[Candidate]:
    return list(_template_snippets_cached(context))


@lru_cache(maxsize=8)
def _template_snippets_cached(context: str) -> tuple[Candidate, ...]:
    try:
        templates = load_snippet_templates()
    except HardwareDataError:
        return ()
    return tuple(
        Candidate(t.label, KIND_SNIPPET, detail=t.description, documentation=f"```cpp\n{parse_snippet(t.body).text}\n```",
                  insert_text=t.body, snippet=True, group=0)
        for t in templates
        if context in t.contexts
    )


def _where(
    ctx: CompletionContext, document: SourceDocument, model: DocumentModel, fallback: DocumentModel | None
) -> str:
    """The tree's answer, unless the tree is broken and a model knows better."""
    if ctx.where == "function" or not document.tree.root_node.has_error:
        return ctx.where
    for candidate in (model, fallback):
        if candidate is None:
            continue
        if candidate.function_at(ctx.offset) is not None:
            return "function"
        if candidate is fallback and any(c.start_byte < ctx.offset < c.end_byte for c in candidate.classes):
            return "class"
    return ctx.where


@dataclass
class CompletionResult:
    context: CompletionContext
    candidates: list[Candidate] = field(default_factory=list)


def complete(
    document: SourceDocument,
    model: DocumentModel,
    position: Position,
    soc_name: str,
    soc: object | None = None,
    trigger: str | None = None,
    fallback: DocumentModel | None = None,
) -> CompletionResult:
    """Candidates at `position`. `model` may be one edit older than `document` (it is only used for lookups);
    `fallback` is an older model of a version that parsed cleanly, asked where the cursor is when the tree is broken
    around it (`for (i = 0; i < n|` leaves the function unclosed)."""
    ctx = completion_context(document, position)
    at = ctx.offset
    result = CompletionResult(ctx)
    if ctx.kind == "none":
        return result
    expected = {".": "member", ">": "member", ":": "scope", "<": "template"}.get(trigger or "")
    if expected is not None and ctx.kind != expected:
        return result
    where = _where(ctx, document, model, fallback)
    statement = ctx.at_statement_start
    if ctx.kind == "member":
        value = receiver_type(model, ctx.receiver or "", at)
        if value is None:
            return result
        if value.user_class:
            result.candidates = _user_class_members(model, value.name)
            return result
        result.candidates = _annotate(member_candidates(value.name), model, at, soc_name, soc, statement)
        return result
    if ctx.kind == "scope":
        result.candidates = _annotate(_scope_candidates(ctx), model, at, soc_name, soc, statement)
        return result
    if ctx.kind == "template":
        candidates = _template_candidates(ctx, model, soc_name)
        if candidates or trigger == "<":
            result.candidates = candidates
            return result
        # `i < n|`: a comparison, not a template argument.
        statement = False
    if where == "function":
        base = list(global_candidates())
        if statement:
            base = _template_snippets("statement") + base
        result.candidates = _scope_variables(model, at) + _annotate(base, model, at, soc_name, soc, statement)
    elif where == "class":
        classes = [c for c in global_candidates() if c.kind == KIND_CLASS]
        result.candidates = _template_snippets("class_body") + classes
    else:
        macros = [c for c in global_candidates() if c.kind == KIND_MACRO]
        result.candidates = _template_snippets("toplevel") + macros
    return result
