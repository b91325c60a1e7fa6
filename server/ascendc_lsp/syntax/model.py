"""The document model: what an AscendC source declares and calls, extracted from its tree.

Rules, hover, symbols and completion read this model, never raw text. Sizes are constant-folded where
the source fixes them; anything else is unknown (`Folded.value is None`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

import tree_sitter

from ascendc_lsp.resources import grammar_dir
from ascendc_lsp.syntax.constfold import SCALAR_SIZES, Folded, Folder, Number, parse_number_literal
from ascendc_lsp.syntax.document import SourceDocument, cpp_language, tree_depth, widest_error
from ascendc_lsp.syntax.positions import LineIndex, Span

# --------------------------------------------------------------------------------------------------
# Model records
# --------------------------------------------------------------------------------------------------

NodeText = Callable[[tree_sitter.Node | None], str]
QUEUE_TYPES = frozenset({"TQue", "TQueBind", "TBuf", "TPipe", "TBufPool", "TSCM"})
TENSOR_TYPES = frozenset({"LocalTensor", "GlobalTensor"})
_QUALIFIER_RE = re.compile(r"\b__([a-z_]+?)__\b")


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type_text: str
    start_byte: int
    end_byte: int
    lines: LineIndex = field(repr=False, compare=False)

    @property
    def span(self) -> Span:
        # Positions on demand (here and in the records below): a model has thousands of records and few spans
        # are ever read (a finding's, a symbol's), so a code edit does not pay for them.
        return self.lines.span(self.start_byte, self.end_byte)


@dataclass(slots=True)
class Function:
    name: str
    qualified_name: str
    class_name: str | None
    start_byte: int
    end_byte: int
    name_start_byte: int
    name_end_byte: int
    body_start: int
    body_end: int
    qualifiers: frozenset[str]
    return_type: str
    params: list[Param]
    lines: LineIndex = field(repr=False, compare=False)
    is_extern_c: bool = False

    @property
    def span(self) -> Span:
        return self.lines.span(self.start_byte, self.end_byte)

    @property
    def name_span(self) -> Span:
        return self.lines.span(self.name_start_byte, self.name_end_byte)

    @property
    def is_aicore(self) -> bool:
        return "aicore" in self.qualifiers or self.is_kernel

    @property
    def is_kernel(self) -> bool:
        return "global" in self.qualifiers or (self.is_extern_c and "aicore" in self.qualifiers)


@dataclass(slots=True)
class ClassInfo:
    name: str
    span: Span
    name_span: Span
    start_byte: int
    end_byte: int
    template_params: list[str] = field(default_factory=list)
    methods: list[Function] = field(default_factory=list)
    is_struct: bool = False


@dataclass(slots=True)
class BufferDecl:
    """A TPipe, TQue, TQueBind, TBuf or TBufPool variable or field."""

    name: str
    kind: str
    position: str | None
    depth: Folded | None
    class_name: str | None
    start_byte: int
    declarator_start: int
    declarator_end: int
    lines: LineIndex = field(repr=False, compare=False)

    @property
    def span(self) -> Span:
        return self.lines.span(self.declarator_start, self.declarator_end)


class Arg:
    """A call argument; its constant value is folded on first use (most are never asked for)."""

    __slots__ = ("_folded", "_folder", "_node", "end_byte", "lines", "start_byte", "text")

    def __init__(self, text: str, node: tree_sitter.Node, folder: Folder, lines: LineIndex) -> None:
        self.text = text
        self.start_byte = node.start_byte
        self.end_byte = node.end_byte
        self.lines = lines
        self._node: tree_sitter.Node | None = node
        self._folder: Folder | None = folder
        self._folded: Folded | None = None

    @property
    def folded(self) -> Folded:
        if self._folded is None:
            assert self._folder is not None and self._node is not None
            self._folded = self._folder.fold(self._node)
            self._folder = None
            self._node = None
        return self._folded

    @property
    def span(self) -> Span:
        # Computed on demand: most arguments never need a position.
        return self.lines.span(self.start_byte, self.end_byte)

    def __repr__(self) -> str:
        return f"Arg({self.text!r})"


@dataclass(slots=True)
class ApiCall:
    """A call expression: `DataCopy(...)`, `AscendC::Add<half>(...)`, `que.AllocTensor<half>()`."""

    name: str
    qualified: str
    receiver: str | None
    template_args: list[str]
    args: list[Arg]
    start_byte: int
    end_byte: int
    name_start_byte: int
    name_end_byte: int
    function: Function | None
    loop_depth: int
    lines: LineIndex = field(repr=False, compare=False)

    @property
    def in_loop(self) -> bool:
        return self.loop_depth > 0

    @property
    def span(self) -> Span:
        return self.lines.span(self.start_byte, self.end_byte)

    @property
    def name_span(self) -> Span:
        return self.lines.span(self.name_start_byte, self.name_end_byte)


@dataclass(slots=True)
class InitBuffer:
    """`pipe.InitBuffer(queue, num, len)` or `pipe.InitBuffer(tbuf, len)` with folded sizes."""

    call: ApiCall
    target: str
    num: Folded | None
    length: Folded

    @property
    def buffer_count(self) -> int | None:
        return 1 if self.num is None else self.num.as_int()

    def bytes_each(self, align: int = 32) -> int | None:
        length = self.length.as_int()
        if length is None:
            return None
        return (length + align - 1) // align * align

    def total_bytes(self, align: int = 32) -> int | None:
        each, count = self.bytes_each(align), self.buffer_count
        return None if each is None or count is None else each * count


@dataclass(slots=True)
class TensorVar:
    name: str
    kind: str  # LocalTensor | GlobalTensor
    dtype: str | None
    start_byte: int
    function: Function | None
    class_name: str | None
    declarator_start: int
    declarator_end: int
    lines: LineIndex = field(repr=False, compare=False)

    @property
    def span(self) -> Span:
        return self.lines.span(self.declarator_start, self.declarator_end)


@dataclass(slots=True)
class TilingStruct:
    name: str
    style: str  # "macro" (BEGIN_TILING_DATA_DEF) | "pod"
    fields: list[tuple[str, str]]
    span: Span


@dataclass(slots=True)
class Constant:
    name: str
    value: Folded
    start_byte: int
    scope_start: int
    scope_end: int
    is_constant: bool  # False: a runtime variable that shadows outer constants
    span_start: int
    span_end: int
    lines: LineIndex = field(repr=False, compare=False)
    # The body of the namespace that declares it. A namespace does not end its members' scope (they are seen after
    # it, through the unnamed namespace, `using namespace` or `N::NAME`), so the scope is the enclosing one; this
    # span tells namesakes from different namespaces apart.
    namespace: tuple[int, int] | None = None

    @property
    def span(self) -> Span:
        return self.lines.span(self.span_start, self.span_end)


@dataclass(slots=True)
class DocumentModel:
    document: SourceDocument
    functions: list[Function] = field(default_factory=list)
    classes: list[ClassInfo] = field(default_factory=list)
    buffers: list[BufferDecl] = field(default_factory=list)
    init_buffers: list[InitBuffer] = field(default_factory=list)
    tensors: list[TensorVar] = field(default_factory=list)
    calls: list[ApiCall] = field(default_factory=list)
    tiling_structs: list[TilingStruct] = field(default_factory=list)
    constants: list[Constant] = field(default_factory=list)
    includes: list[str] = field(default_factory=list)
    using_namespaces: list[str] = field(default_factory=list)
    type_aliases: dict[str, str] = field(default_factory=dict)
    template_bindings: dict[str, dict[str, str]] = field(default_factory=dict)
    too_deep: bool = False  # the tree nests past MAX_TREE_DEPTH: nothing was extracted (see build_model)
    too_wide: bool = False  # an ERROR node has more than MAX_ERROR_WIDTH children: nothing was extracted either
    # the syntax tree's depth as build_model measured it: exact past MAX_TREE_DEPTH, else only known to be within it
    depth: int | None = None
    _indexes: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def kernels(self) -> list[Function]:
        return [f for f in self.functions if f.is_kernel]

    @property
    def block_idx_calls(self) -> list[ApiCall]:
        return [c for c in self.calls if c.name in ("GetBlockIdx", "GetBlockNum")]

    def calls_named(self, *names: str) -> list[ApiCall]:
        index = self._index("calls", self.calls, "name")
        if len(names) == 1:
            return list(index.get(names[0], ()))
        return sorted((c for n in set(names) for c in index.get(n, ())), key=lambda c: c.start_byte)

    def functions_named(self, name: str) -> list[Function]:
        """Every function (free or member, any class or namespace) whose own name is `name`."""
        return list(self._index("functions_by_name", self.functions, "name").get(name, ()))

    def function_starting_at(self, start_byte: int) -> Function | None:
        found = self._index("functions_by_start", self.functions, "start_byte").get(start_byte)
        return found[0] if found else None

    def _index(self, key: str, items: list[Any], attribute: str | Callable[[Any], Any]) -> dict[Any, list[Any]]:
        """Items grouped by an attribute, rebuilt when the list has grown (extraction appends in passes)."""
        cached = self._indexes.get(key)
        done, index = cached if cached is not None else (0, {})
        if done != len(items):
            for item in items[done:]:  # the lists only grow: index the new items
                value = attribute(item) if callable(attribute) else getattr(item, attribute)
                index.setdefault(value, []).append(item)
            self._indexes[key] = (len(items), index)
        return index

    def derived(self, key: str, compute: Callable[[DocumentModel], Any]) -> Any:
        """A value derived from this model only, computed once (budgets are read by two rules, hover, completion,
        the lenses and the status bar). Concurrent first readers may both compute it; the value is the same."""
        cached = self._indexes.get(f"derived:{key}")
        if cached is None:
            cached = (compute(self),)
            self._indexes[f"derived:{key}"] = cached
        return cached[0]

    def buffer(self, name: str) -> BufferDecl | None:
        found = self._index("buffers", self.buffers, "name").get(name)
        return found[0] if found else None

    def init_buffers_for(self, name: str, owner: str | None = None) -> list[InitBuffer]:
        """InitBuffer calls for a queue or buffer; with `owner`, only those in that class's methods
        (several kernel classes in one file often reuse a queue name)."""
        if owner is None:
            return list(self._index("init_buffers", self.init_buffers, "target").get(name, ()))
        by_owner = self._index(
            "init_buffers_by_owner",
            self.init_buffers,
            lambda i: (i.target, i.call.function.class_name if i.call.function is not None else None),
        )
        return sorted([*by_owner.get((name, owner), ()), *by_owner.get((name, None), ())], key=lambda i: i.call.start_byte)

    def tensor(self, name: str, at_byte: int | None = None) -> TensorVar | None:
        """The tensor variable `name` visible at `at_byte` (innermost function first)."""
        best: TensorVar | None = None
        for var in self._index("tensors", self.tensors, "name").get(name, ()):
            if at_byte is not None and var.function is not None:
                if var.function.start_byte <= at_byte <= var.function.end_byte:
                    return var
                continue
            best = best or var
        return best

    def function_at(self, offset: int) -> Function | None:
        """The innermost function containing `offset` (functions are sorted by start)."""
        index = bisect_right(self._function_starts(), offset) - 1
        while index >= 0:
            function = self.functions[index]
            if function.start_byte <= offset <= function.end_byte:
                return function
            if index > 0 and self.functions[index - 1].end_byte < function.start_byte:
                return None  # functions do not nest past a gap: nothing earlier can contain offset
            index -= 1
        return None

    def _function_starts(self) -> list[int]:
        # Extended, not rebuilt, while extraction appends functions (function_at is asked in between: rebuilding on
        # every growth was quadratic in a large file); rebuilt when the list was reordered (sorted after the pass).
        cached = self._indexes.get("function_starts")
        functions = self.functions
        if cached is None or cached[0] > len(functions) or (
            cached[0] and functions[cached[0] - 1].start_byte != cached[1][cached[0] - 1]
        ):
            cached = [0, []]
            self._indexes["function_starts"] = cached
        starts: list[int] = cached[1]
        if cached[0] < len(functions):
            starts.extend(f.start_byte for f in functions[cached[0] :])
            cached[0] = len(functions)
        return starts

    def class_at(self, offset: int) -> ClassInfo | None:
        """The innermost class whose range holds `offset` (start <= offset < end), in O(log n + nesting)."""
        classes = self.classes
        cached = self._indexes.get("class_tree")
        if cached is None or cached[0] != len(classes):
            ordered = sorted(classes, key=lambda c: (c.start_byte, -c.end_byte))
            parents: list[int] = []
            open_stack: list[int] = []
            for i, cls in enumerate(ordered):
                while open_stack and ordered[open_stack[-1]].end_byte <= cls.start_byte:
                    open_stack.pop()
                parents.append(open_stack[-1] if open_stack else -1)
                open_stack.append(i)
            cached = (len(classes), ordered, [c.start_byte for c in ordered], parents)
            self._indexes["class_tree"] = cached
        _, ordered, starts, parents = cached
        # the last class starting at or before offset; if it does not hold offset, only its ancestors can
        index = bisect_right(starts, offset) - 1
        while index >= 0:
            cls = ordered[index]
            if cls.start_byte <= offset < cls.end_byte:
                return cls
            index = parents[index]
        return None

    def _enclosing_class_of(self, cls: ClassInfo) -> ClassInfo | None:
        """The class whose range holds `cls` (a nested class's outer class), else None."""
        if cls.start_byte <= 0:
            return None
        outer = self.class_at(cls.start_byte - 1)
        while outer is not None and not (outer.start_byte <= cls.start_byte and cls.end_byte <= outer.end_byte):
            outer = self._enclosing_class_of(outer)
        return outer

    def constant(self, name: str, at_byte: int) -> Constant | None:
        """The innermost declaration of `name` whose scope contains `at_byte` and precedes it."""
        best: Constant | None = None
        candidates: Sequence[Constant] = self._index("constants", self.constants, "name").get(name, ())
        if len(candidates) > 8:
            candidates = self._constants_around(name, candidates, at_byte)
        for const in candidates:
            if not (const.scope_start <= at_byte <= const.scope_end):
                continue
            if const.start_byte > at_byte and const.scope_start != 0:
                continue
            if best is None or const.scope_end - const.scope_start < best.scope_end - best.scope_start:
                best = const
            elif (const.scope_start, const.scope_end) == (best.scope_start, best.scope_end):
                best = _namesake(best, const, at_byte)
        if best is None or best.scope_start == 0:
            # A method defined outside its class (`void K<T>::Process() {...}`) still sees the class's constants.
            member = self._class_constant(name, at_byte)
            if member is not None:
                return member
        return best

    def _constants_around(self, name: str, candidates: Sequence[Constant], at_byte: int) -> list[Constant]:
        """For a name declared in many scopes (the same constant in every function, or repeated file-scope copies):
        only the first declaration of each scope enclosing `at_byte` can win in `constant`, so look those up
        instead of scanning every declaration on each lookup (a 5 MB file has ~50,000 lookups)."""
        key = f"constant_scopes:{name}"
        cached = self._indexes.get(key)
        if cached is None or cached[0] != len(candidates):
            # the first of each scope, and of each namespace within it (namesakes in two namespaces both count)
            first: dict[tuple[int, int], dict[tuple[int, int] | None, Constant]] = {}
            for const in candidates:
                first.setdefault((const.scope_start, const.scope_end), {}).setdefault(const.namespace, const)
            cached = (len(candidates), first)
            self._indexes[key] = cached
        by_scope: dict[tuple[int, int], dict[tuple[int, int] | None, Constant]] = cached[1]
        whole = (0, len(self.document.data))
        found = list(by_scope[whole].values()) if whole in by_scope else []
        node: tree_sitter.Node | None = self.document.tree.root_node.descendant_for_byte_range(at_byte, at_byte)
        while node is not None:
            for inner in by_scope.get((node.start_byte, node.end_byte), {}).values():
                if all(c is not inner for c in found):
                    found.append(inner)
            node = node.parent
        return found

    def _class_constant(self, name: str, at_byte: int) -> Constant | None:
        by_class = self._class_constants()
        if not any(name in names for names in by_class.values()):
            return None  # the common case, kept cheap: completion and folding ask for every identifier
        function = self.function_at(at_byte)
        if function is None or function.class_name is None:
            return None
        class_name = function.class_name.split("<")[0].strip()  # `K<T>::Process` belongs to K
        if any(c.start_byte <= function.start_byte < c.end_byte for c in self.classes if c.name == class_name):
            return None  # defined inside the class body: the scope lookup already saw its constants
        return by_class.get(class_name, {}).get(name)

    def _class_constants(self) -> dict[str, dict[str, Constant]]:
        """Constants declared in class bodies, by class name then constant name."""
        # Built incrementally: constants are added one by one while the model is extracted (after the classes).
        cached = self._indexes.get("class_constants")
        if cached is None or cached[1] != len(self.classes):
            cached = [0, len(self.classes), {}]
            self._indexes["class_constants"] = cached
        found: dict[str, dict[str, Constant]] = cached[2]
        for const in self.constants[cached[0]:]:
            if not const.is_constant or const.scope_start == 0:
                continue
            # the classes holding the scope: the innermost one holding its start, then its enclosing ones
            cls = self.class_at(const.scope_start)
            while cls is not None:
                if const.scope_end <= cls.end_byte:
                    found.setdefault(cls.name, {}).setdefault(const.name, const)
                cls = self._enclosing_class_of(cls)
        cached[0] = len(self.constants)
        return found

    def resolve_type(self, type_name: str | None, at_byte: int) -> str | None:
        """A type name with aliases and singly-bound class template parameters substituted."""
        if type_name is None:
            return None
        name = type_name.replace("AscendC::", "").strip()
        if name not in self._template_param_names():
            return self.type_aliases.get(name, name)
        for cls in self.classes:
            if cls.start_byte <= at_byte <= cls.end_byte and name in cls.template_params:
                bound = self.template_bindings.get(cls.name, {}).get(name)
                if bound is None:
                    return None
                name = bound
                break
        return self.type_aliases.get(name, name)

    def _template_param_names(self) -> set[str]:
        cached = self._indexes.get("template_params")
        if cached is None or cached[0] != len(self.classes):
            cached = (len(self.classes), {p for cls in self.classes for p in cls.template_params})
            self._indexes["template_params"] = cached
        names: set[str] = cached[1]
        return names

    def dtype_size(self, dtype: str | None, at_byte: int = 0) -> int | None:
        resolved = self.resolve_type(dtype, at_byte)
        return SCALAR_SIZES.get(resolved) if resolved is not None else None


# --------------------------------------------------------------------------------------------------
# Extraction
# --------------------------------------------------------------------------------------------------


@cache
def _model_query() -> tree_sitter.Query:
    return tree_sitter.Query(cpp_language(), (grammar_dir() / "queries" / "model.scm").read_text(encoding="utf-8"))


_TILING_BEGIN = re.compile(r"BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\)")
_TILING_FIELD = re.compile(r"TILING_DATA_FIELD_DEF(?:_ARR|_STRUCT)?\s*\(\s*([\w:]+)\s*,\s*(?:\d+\s*,\s*)?(\w+)\s*\)")
_TILING_END = re.compile(r"END_TILING_DATA_DEF")


class _Extractor:
    def __init__(self, doc: SourceDocument) -> None:
        self.doc = doc
        self.model = DocumentModel(document=doc)
        self.loops: list[tuple[int, int]] = []
        self.class_nodes: list[tuple[int, int, ClassInfo]] = []
        self.folder = Folder(doc.data, self._resolve, self._sizeof)
        self._resolving: set[tuple[str, int]] = set()
        self._loop_starts: list[int] = []
        self._class_starts: list[int] = []
        self._pending_template_params: dict[str, list[str]] = {}

    # -- folding hooks -------------------------------------------------------------------------

    def _resolve(self, name: str, at_byte: int) -> Number | None:
        const = self.model.constant(name, at_byte)
        if const is None:
            if name not in self.model._template_param_names():
                return None  # the common case, without a walk over every class of the file
            # Template parameters bound by the single instantiation of their class.
            for cls in self.model.classes:
                if cls.start_byte <= at_byte <= cls.end_byte and name in cls.template_params:
                    bound = self.model.template_bindings.get(cls.name, {}).get(name)
                    return parse_number_literal(bound) if bound is not None else None
            return None
        return const.value.value if const.is_constant else None

    def _sizeof(self, type_text: str, at_byte: int) -> int | None:
        return self.model.dtype_size(type_text.replace("const", "").strip(), at_byte)

    # -- helpers -------------------------------------------------------------------------------

    def text(self, node: tree_sitter.Node | None) -> str:
        return "" if node is None else self.doc.node_text(node)

    def span(self, node: tree_sitter.Node) -> Span:
        return self.doc.span(node)

    def loop_depth(self, offset: int, function: Function | None) -> int:
        lo = function.body_start if function is not None else 0
        # Loops are sorted by start: only those starting inside this function and before `offset` count.
        first = bisect_right(self._loop_starts, lo - 1)
        last = bisect_right(self._loop_starts, offset)
        return sum(1 for start, end in self.loops[first:last] if start <= offset < end)

    def enclosing_class(self, offset: int) -> ClassInfo | None:
        # Classes are sorted by body start; walking back from the nearest one finds the innermost
        # class containing `offset`. Nesting is shallow, so the walk is bounded.
        index = bisect_right(self._class_starts, offset) - 1
        steps = 0
        while index >= 0 and steps < 64:
            start, end, cls = self.class_nodes[index]
            if start <= offset < end:
                return cls
            index -= 1
            steps += 1
        return None

    def function_at(self, offset: int) -> Function | None:
        return self.model.function_at(offset)

    # -- passes --------------------------------------------------------------------------------

    def run(self) -> DocumentModel:
        captures = tree_sitter.QueryCursor(_model_query()).captures(self.doc.tree.root_node)
        by_start = {name: sorted(nodes, key=lambda n: n.start_byte) for name, nodes in captures.items()}
        for node in by_start.get("loop", []):
            body = node.child_by_field_name("body") or node
            self.loops.append((body.start_byte, body.end_byte))
        self.loops.sort()
        self._loop_starts = [start for start, _ in self.loops]
        for node in by_start.get("include.path", []):
            self.model.includes.append(self.text(node).strip("<>\""))
        for node in by_start.get("using", []):
            text = self.text(node)
            match = re.match(r"using\s+namespace\s+([\w:]+)", text)
            if match:
                self.model.using_namespaces.append(match.group(1))
        for node in by_start.get("alias", []):
            self._alias(node)
        for node in by_start.get("template", []):
            self._template(node)
        for node in by_start.get("class", []):
            self._class(node)
        self.class_nodes.sort(key=lambda item: item[0])
        self._class_starts = [start for start, _, _ in self.class_nodes]
        for node in by_start.get("define", []):
            self._define(node)
        for node in by_start.get("function", []):
            self._function(node)
        self.model.functions.sort(key=lambda f: f.start_byte)
        declarations = by_start.get("declaration", [])
        # Constants first (in source order), so that later ones fold through earlier ones.
        for node in declarations:
            self._constant(node)
        for node in declarations:
            self._typed_declaration(node)
        for node in by_start.get("call", []):
            self._call(node)
        self._tiling_macros()
        return self.model

    def _alias(self, node: tree_sitter.Node) -> None:
        text = self.text(node)
        match = re.match(r"using\s+(\w+)\s*=\s*([\w:]+)\s*;", text) or re.match(
            r"typedef\s+([\w:]+)\s+(\w+)\s*;", text
        )
        if not match:
            return
        if text.startswith("typedef"):
            self.model.type_aliases[match.group(2)] = match.group(1).replace("AscendC::", "")
        else:
            self.model.type_aliases[match.group(1)] = match.group(2).replace("AscendC::", "")

    def _template(self, node: tree_sitter.Node) -> None:
        params = node.child_by_field_name("parameters")
        inner = next((c for c in node.named_children if c.type in ("class_specifier", "struct_specifier")), None)
        if params is None or inner is None:
            return
        names: list[str] = []
        for param in params.named_children:
            declarator = param.child_by_field_name("declarator")
            if declarator is not None:
                names.append(self.text(declarator))
            else:
                ident = next((c for c in param.named_children if c.type in ("type_identifier", "identifier")), None)
                if ident is not None:
                    names.append(self.text(ident))
        name_node = inner.child_by_field_name("name")
        if name_node is not None:
            self._pending_template_params[self.text(name_node)] = names

    def _class(self, node: tree_sitter.Node) -> None:
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name_node is None or body is None:
            return
        name = self.text(name_node)
        info = ClassInfo(
            name=name,
            span=self.span(node),
            name_span=self.span(name_node),
            start_byte=node.start_byte,
            end_byte=node.end_byte,
            template_params=self._pending_template_params.get(name, []),
            is_struct=node.type == "struct_specifier",
        )
        self.model.classes.append(info)
        self.class_nodes.append((body.start_byte, body.end_byte, info))
        if info.is_struct and "Tiling" in name:
            fields: list[tuple[str, str]] = []
            for member in body.named_children:
                if member.type == "field_declaration":
                    type_node = member.child_by_field_name("type")
                    for declarator in member.children_by_field_name("declarator"):
                        fields.append((self.text(type_node), self.text(declarator)))
            self.model.tiling_structs.append(TilingStruct(name, "pod", fields, self.span(node)))

    def _define(self, node: tree_sitter.Node) -> None:
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        if name_node is None or value_node is None:
            return
        value_text = self.text(value_node).strip()
        value = self._fold_text(value_text, node.start_byte)
        self.model.constants.append(
            Constant(
                name=self.text(name_node),
                value=Folded(value_text, value),
                start_byte=node.start_byte,
                scope_start=0,
                scope_end=len(self.doc.data),
                is_constant=value is not None,
                span_start=node.start_byte,
                span_end=node.end_byte,
                lines=self.doc.lines,
            )
        )

    def _fold_text(self, text: str, at_byte: int) -> Number | None:
        """Fold a macro body by parsing it as an expression on its own."""
        if not text or len(text) > 200:
            return None
        wrapped = f"auto __v = {text};".encode()
        tree = tree_sitter.Parser(cpp_language()).parse(wrapped)
        decl = tree.root_node.named_children[0] if tree.root_node.named_children else None
        init = decl.child_by_field_name("declarator") if decl is not None else None
        value = init.child_by_field_name("value") if init is not None else None
        if value is None or tree.root_node.has_error:
            return None
        folder = Folder(wrapped, lambda name, _at: self._resolve(name, at_byte), self._sizeof)
        return folder.fold(value).value

    def _function(self, node: tree_sitter.Node) -> None:
        declarator = node.child_by_field_name("declarator")
        while declarator is not None and declarator.type not in ("function_declarator",):
            declarator = declarator.child_by_field_name("declarator")
        if declarator is None:
            return
        name_node = declarator.child_by_field_name("declarator")
        if name_node is None:
            return
        qualified = self.text(name_node)
        name = qualified.split("::")[-1].strip()  # `K<...>::\n    Compute`: the name may start a new line
        cls = self.enclosing_class(node.start_byte)
        class_name = cls.name if cls is not None else (qualified.split("::")[-2].strip() if "::" in qualified else None)
        # The dialect layer blanked the qualifiers, so they may sit just before the node: include them.
        lead = node.start_byte
        parsed = self.doc.parsed
        while lead > 0 and parsed[lead - 1 : lead] in (b" ", b"\t", b"\n", b"\r"):
            lead -= 1
        prefix = self.doc.data[lead : declarator.start_byte].decode("utf-8", errors="replace")
        suffix_end = node.child_by_field_name("body")
        tail = self.doc.data[declarator.end_byte : suffix_end.start_byte if suffix_end else node.end_byte]
        qualifiers = frozenset(_QUALIFIER_RE.findall(prefix + tail.decode("utf-8", errors="replace")))
        parent = node.parent
        is_extern_c = False
        while parent is not None and parent.type in ("declaration_list", "linkage_specification"):
            if parent.type == "linkage_specification":
                is_extern_c = True
                break
            parent = parent.parent
        type_node = node.child_by_field_name("type")
        params: list[Param] = []
        param_list = declarator.child_by_field_name("parameters")
        if param_list is not None:
            for param in param_list.named_children:
                if param.type not in ("parameter_declaration", "optional_parameter_declaration"):
                    continue
                p_decl = param.child_by_field_name("declarator")
                p_name = self.text(p_decl).lstrip("*&").strip() if p_decl is not None else ""
                p_type = self.text(param)
                if p_decl is not None:
                    p_type = self.doc.data[param.start_byte : p_decl.start_byte].decode("utf-8", "replace").strip()
                    ptr = self.text(p_decl)
                    if ptr.startswith(("*", "&")):
                        p_type += " " + ptr[: len(ptr) - len(ptr.lstrip("*& "))].strip()
                params.append(Param(p_name, " ".join(p_type.split()), param.start_byte, param.end_byte, self.doc.lines))
        body = node.child_by_field_name("body")
        function = Function(
            name=name,
            qualified_name=qualified,
            class_name=class_name,
            start_byte=node.start_byte,
            end_byte=node.end_byte,
            name_start_byte=name_node.start_byte,
            name_end_byte=name_node.end_byte,
            body_start=body.start_byte if body is not None else node.end_byte,
            body_end=body.end_byte if body is not None else node.end_byte,
            qualifiers=qualifiers,
            return_type=self.text(type_node),
            params=params,
            lines=self.doc.lines,
            is_extern_c=is_extern_c,
        )
        self.model.functions.append(function)
        # by the name index: a scan of every class per function was quadratic in a file of many kernels
        named = self.model._index("classes", self.model.classes, "name").get(class_name) if class_name else None
        owner = cls or (named[0] if named else None)
        if owner is not None:
            owner.methods.append(function)

    def _scope_of(self, node: tree_sitter.Node) -> tuple[int, int]:
        return _scope_and_namespace(node, len(self.doc.data))[0]

    def _constant(self, node: tree_sitter.Node) -> None:
        type_node = node.child_by_field_name("type")
        if type_node is None:
            return
        type_text = self.text(type_node)
        base = type_text.replace("AscendC::", "")
        if base not in SCALAR_SIZES and base != "auto" and not base.endswith("_t") and base not in self.model.type_aliases:
            return
        specifiers = self.doc.data[node.start_byte : type_node.start_byte].decode("utf-8", "replace")
        is_const_decl = "constexpr" in specifiers or "const" in specifiers.split() or "const" in type_text.split()
        (scope_start, scope_end), namespace = _scope_and_namespace(node, len(self.doc.data))
        for declarator in node.children_by_field_name("declarator"):
            name_node: tree_sitter.Node | None = declarator
            value_node: tree_sitter.Node | None = None
            if declarator.type == "init_declarator":
                name_node = declarator.child_by_field_name("declarator")
                value_node = declarator.child_by_field_name("value")
            if node.type == "field_declaration":
                value_node = node.child_by_field_name("default_value")
            if name_node is None or name_node.type not in ("identifier", "field_identifier"):
                continue
            folded = self.folder.fold(value_node) if value_node is not None else Folded("", None)
            self.model.constants.append(
                Constant(
                    name=self.text(name_node),
                    value=folded,
                    start_byte=node.start_byte,
                    scope_start=scope_start,
                    scope_end=scope_end,
                    is_constant=is_const_decl and folded.value is not None,
                    span_start=declarator.start_byte,
                    span_end=declarator.end_byte,
                    lines=self.doc.lines,
                    namespace=namespace,
                )
            )

    def _typed_declaration(self, node: tree_sitter.Node) -> None:
        type_node = node.child_by_field_name("type")
        if type_node is None:
            return
        base_name, template_args = _split_template(type_node, self.text)
        short = base_name.split("::")[-1]
        function = self.function_at(node.start_byte)
        cls = self.enclosing_class(node.start_byte)
        class_name = cls.name if cls is not None else (function.class_name if function is not None else None)
        for declarator in node.children_by_field_name("declarator"):
            name_node: tree_sitter.Node | None = declarator
            value_node = None
            if declarator.type == "init_declarator":
                name_node = declarator.child_by_field_name("declarator")
                value_node = declarator.child_by_field_name("value")
            while name_node is not None and name_node.type in ("reference_declarator", "pointer_declarator"):
                name_node = next((c for c in name_node.named_children), None)
            if name_node is None:
                continue
            name = self.text(name_node)
            if short in QUEUE_TYPES:
                position = template_args[0].split("::")[-1] if template_args and short != "TPipe" else None
                depth = None
                # The argument nodes, not the split text: in broken code the two can disagree in count.
                arg_nodes = _template_arg_nodes(type_node)
                if short in ("TQue",) and len(template_args) > 1 and len(arg_nodes) > 1:
                    depth = self.folder.fold(arg_nodes[1])
                elif short == "TQueBind" and len(template_args) > 2:
                    position = template_args[1].split("::")[-1]
                    depth = self.folder.fold(arg_nodes[2]) if len(arg_nodes) > 2 else None
                self.model.buffers.append(
                    BufferDecl(name, short, position, depth, class_name, node.start_byte,
                               declarator.start_byte, declarator.end_byte, self.doc.lines)
                )
            elif short in TENSOR_TYPES:
                dtype = template_args[0] if template_args else None
                self.model.tensors.append(
                    TensorVar(name, short, dtype, node.start_byte, function, class_name,
                              declarator.start_byte, declarator.end_byte, self.doc.lines)
                )
            elif short == "auto" and value_node is not None and value_node.type == "call_expression":
                call_name, call_targs = _call_name(value_node, self.text)
                if call_name in ("AllocTensor", "DeQue", "Get", "GetWithOffset"):
                    self.model.tensors.append(
                        TensorVar(name, "LocalTensor", call_targs[0] if call_targs else None, node.start_byte,
                              function, class_name, declarator.start_byte, declarator.end_byte, self.doc.lines)
                    )
            elif template_args and (cls is None or function is not None) and short in {
                c.name for c in self.model.classes
            }:
                # `KernelAdd<half, 2> op;` binds the class's template parameters for folding.
                self._bind_template(short, template_args)

    def _bind_template(self, class_name: str, args: list[str]) -> None:
        cls = next((c for c in self.model.classes if c.name == class_name), None)
        if cls is None or not cls.template_params:
            return
        binding = dict(zip(cls.template_params, args, strict=False))
        previous = self.model.template_bindings.get(class_name)
        if previous is not None and previous != binding:
            # Instantiated with different arguments: no single binding, so sizes stay unknown.
            self.model.template_bindings[class_name] = {}
        elif previous is None:
            self.model.template_bindings[class_name] = binding

    def _call(self, node: tree_sitter.Node) -> None:
        function_node = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function_node is None or arguments is None:
            return
        name, template_args = _call_name(node, self.text)
        if not name:
            return
        receiver = None
        qualified = name
        name_node = function_node
        if function_node.type == "field_expression":
            argument = function_node.child_by_field_name("argument")
            receiver = self.text(argument)
            field_node = function_node.child_by_field_name("field")
            if field_node is not None:
                name_node = field_node
        elif function_node.type in ("qualified_identifier", "template_function", "identifier"):
            qualified = self.text(function_node).split("<")[0].strip()
        function = self.function_at(node.start_byte)
        args = [
            Arg(self.text(arg), arg, self.folder, self.doc.lines)
            for arg in arguments.named_children
            if arg.type != "comment"
        ]
        call = ApiCall(
            name=name,
            qualified=qualified,
            receiver=receiver,
            template_args=template_args,
            args=args,
            start_byte=node.start_byte,
            end_byte=node.end_byte,
            name_start_byte=name_node.start_byte,
            name_end_byte=name_node.end_byte,
            function=function,
            loop_depth=self.loop_depth(node.start_byte, function),
            lines=self.doc.lines,
        )
        self.model.calls.append(call)
        if name == "InitBuffer" and args:
            if len(args) >= 3:
                self.model.init_buffers.append(InitBuffer(call, args[0].text, args[1].folded, args[2].folded))
            elif len(args) == 2:
                self.model.init_buffers.append(InitBuffer(call, args[0].text, None, args[1].folded))

    def _tiling_macros(self) -> None:
        text = self.doc.text
        if "BEGIN_TILING_DATA_DEF" not in text:
            return
        for begin in _TILING_BEGIN.finditer(text):
            end = _TILING_END.search(text, begin.end())
            stop = end.start() if end else len(text)
            fields = [(m.group(1), m.group(2)) for m in _TILING_FIELD.finditer(text, begin.end(), stop)]
            start_byte = len(text[: begin.start()].encode("utf-8"))
            end_byte = len(text[:stop].encode("utf-8"))
            self.model.tiling_structs.append(
                TilingStruct(begin.group(1), "macro", fields, self.doc.lines.span(start_byte, end_byte))
            )


def _template_arg_nodes(type_node: tree_sitter.Node) -> list[tree_sitter.Node]:
    args = type_node.child_by_field_name("arguments")
    if args is None:
        for child in type_node.named_children:
            if child.type == "template_type":
                return _template_arg_nodes(child)
        return []
    return list(args.named_children)


def _split_template(type_node: tree_sitter.Node, get_text: NodeText) -> tuple[str, list[str]]:
    node = type_node
    if node.type == "qualified_identifier":
        name_node = node.child_by_field_name("name")
        if name_node is not None and name_node.type == "template_type":
            node = name_node
    if node.type == "template_type":
        name_node = node.child_by_field_name("name")
        args = node.child_by_field_name("arguments")
        arg_texts = [(get_text(a)) for a in args.named_children] if args is not None else []
        return (get_text(name_node)) if name_node is not None else "", arg_texts
    return (get_text(type_node)), []


def _call_name(call: tree_sitter.Node, get_text: NodeText) -> tuple[str, list[str]]:
    """The called name (last component) and its explicit template arguments."""
    function = call.child_by_field_name("function")
    node = function
    while node is not None:
        kind = node.type
        if kind == "field_expression":
            node = node.child_by_field_name("field")
        elif kind == "dependent_name":
            node = node.named_children[0] if node.named_children else None
        elif kind == "qualified_identifier":
            node = node.child_by_field_name("name")
        elif kind in ("template_function", "template_method"):
            name = node.child_by_field_name("name")
            args = node.child_by_field_name("arguments")
            targs = [(get_text(a)) for a in args.named_children] if args is not None else []
            return ((get_text(name)) if name is not None else "", targs)
        elif kind in ("identifier", "field_identifier"):
            return (get_text(node)), []
        else:
            return "", []
    return "", []


# Deeper syntax trees are not modelled: tree-sitter finds a node's parent by walking down from the root, so the
# extraction's ancestor walks are quadratic in depth (20,000 nested loops: 30 s in one model build). Every caller
# (check, hover, lenses, completion) then gets an empty model, at once; `check` reports the depth.
MAX_TREE_DEPTH = 5000
# Likewise past an ERROR node this wide (syntax/document.py widest_error: the queries are quadratic in it).
MAX_ERROR_WIDTH = 10_000


def _scope_and_namespace(node: tree_sitter.Node, length: int) -> tuple[tuple[int, int], tuple[int, int] | None]:
    """The byte range a declaration is visible in, and the body of the innermost namespace declaring it (if any).
    A namespace body is passed through: its members stay visible after it (see `Constant.namespace`)."""
    namespace: tuple[int, int] | None = None
    parent = node.parent
    while parent is not None:
        if parent.type == "translation_unit":
            break
        if parent.type == "declaration_list" and parent.parent is not None \
                and parent.parent.type == "namespace_definition":
            if namespace is None:
                namespace = (parent.start_byte, parent.end_byte)
        elif parent.type in ("compound_statement", "field_declaration_list", "declaration_list", "for_statement"):
            return (parent.start_byte, parent.end_byte), namespace
        parent = parent.parent
    return (0, length), namespace


def _namesake(best: Constant, other: Constant, at_byte: int) -> Constant:
    """Of two declarations of one name in the same scope, the one `at_byte` sees: the one whose namespace holds it,
    else either when they agree; namesakes of different namespaces seen from outside both are ambiguous (which one
    `N::NAME` meant is not kept), so the value is unknown rather than a guess."""
    if best.namespace == other.namespace:
        return best
    holding = [c for c in (best, other) if c.namespace is not None and c.namespace[0] <= at_byte <= c.namespace[1]]
    if holding:
        return min(holding, key=lambda c: c.namespace[1] - c.namespace[0] if c.namespace else 0)
    if best.value.value == other.value.value and best.is_constant == other.is_constant:
        return best
    return replace(best, value=Folded(best.value.text, None), is_constant=False)


def build_model(doc: SourceDocument) -> DocumentModel:
    """The document's model; an empty one marked `too_deep` when the code nests past MAX_TREE_DEPTH, or
    `too_wide` when one unparsable run has more than MAX_ERROR_WIDTH tokens (the model's query would be quadratic)."""
    depth = tree_depth(doc.tree.root_node, MAX_TREE_DEPTH)
    if depth > MAX_TREE_DEPTH:
        return DocumentModel(document=doc, too_deep=True, depth=depth)
    if widest_error(doc.tree.root_node, MAX_ERROR_WIDTH) > MAX_ERROR_WIDTH:
        return DocumentModel(document=doc, too_wide=True, depth=depth)
    model = _Extractor(doc).run()
    model.depth = depth
    return model
