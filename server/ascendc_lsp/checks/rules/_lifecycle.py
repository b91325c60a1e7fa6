"""Queue lifecycles as a protocol over a kernel class: AllocTensor -> EnQue -> DeQue -> FreeTensor.

Real kernels spread one tensor's life over methods (`CopyIn` allocates and enqueues, `Compute` dequeues and
frees), helpers, member tensors and loops. This module interprets a class the way it runs: from each root
method (one that no other method of the class calls, such as `Init` and `Process`, in source order), through
the calls to the class's own methods (inlined, arguments bound to parameters), both branches of every `if`,
and loop bodies twice (the second iteration is where a per-iteration imbalance shows). Free functions that
declare their own queues are roots too.

The abstract state holds tokens, one per tensor a queue handed out, each in a state (allocated, queued,
dequeued, freed), the FIFO of every queue, and which variable (local of an inlined frame, or member of the
object) holds which token. A token is *lost* when the last variable holding it dies (its block ends, its
function returns, it is overwritten) while it is allocated or dequeued and neither queued nor freed: the
queue's buffer never comes back. `DeQue` on a queue whose FIFO is known to be empty waits forever.
`FreeTensor`/`EnQue` of a tensor variable declared without any queue behind it gives back something the
queue never handed out.

Anything the interpreter cannot follow becomes unknown and is never reported: a queue passed to other code,
a tensor stored in an array, states that differ between branches, a method it cannot find. Idioms are not
special cases: a VECCALC tensor freed without a queue round trip is just Alloc -> Free; a tensor kept in a
member and freed in the next iteration stays reachable; TQueBind round trips are EnQue/DeQue like any other.

Each finding names the tensor, where the queue handed it out (related information) and where it should have
been given back: the statement of its last use on the path that loses it.
"""

from __future__ import annotations

import re
import warnings
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

import tree_sitter

from ascendc_lsp.checks.base import CheckContext
from ascendc_lsp.checks.rules._common import strip_this
from ascendc_lsp.syntax.model import ApiCall, ClassInfo, Function

ALLOC, QUEUED, DEQUED, FREED = "allocated", "queued", "dequeued", "freed"
_QUEUE_KINDS = frozenset({"TQue", "TQueBind"})
_LIFECYCLE = frozenset({"AllocTensor", "EnQue", "DeQue", "FreeTensor"})
_LOOPS = frozenset({"for_statement", "while_statement", "do_statement", "for_range_loop"})
_MAX_STEPS = 40000  # statements interpreted per analysis: beyond it the analysis gives up (no findings)
_MAX_INLINE_DEPTH = 8
_MAX_LOOP_NESTING = 3  # deeper loops run their body once
_UNKNOWN = -1  # a variable bound to something the analysis cannot follow
_NAME = re.compile(r"[A-Za-z_]\w*")


class _GiveUp(Exception):
    """The class is too big or too strange to follow: report nothing for it."""


class _NoSuchInstantiation(Exception):
    """This run's type instantiation cannot compile (a call no overload takes): its findings say nothing."""


# -- findings --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Site:
    start: int
    end: int


@dataclass
class Problem:
    kind: str  # lost | empty-deque | never-handed-out | never-dequeued | freed-while-queued | used-empty | used-while-queued
    queue: str
    var: str
    site: Site  # the primary location: where the tensor is lost (its scope ends, a return, an overwrite)
    origin: Site | None  # where the queue handed the tensor out (or the EnQue/Free in question)
    state: str = ""  # the lost token's state
    function: str = ""  # where it happened
    repeated: bool = False  # inside a loop (or a method called in a loop): the kernel hangs
    uncertain: bool = False  # the path went through `if constexpr` branches (see Analysis.statement)
    last_use: Site | None = None  # lost tensors: the last statement that used it (the give-back goes after it)
    partial: bool = False  # lost tensors: given back on some paths (a warning: the paths may not both run)
    later_iteration: bool = False  # only from the second iteration of a loop of unknown trip count
    inner_use: Site | None = None  # lost tensors: the last use itself when inside a method last_use calls
    detail: str = ""
    enqueued_at: Site | None = None  # never-handed-out: the statement of this function that put into the queue
    # the tensor the missing DeQue would have taken (a call whose callee enqueued it, or the EnQue itself);
    # empty-deque with no tensor held: the caller's statement that called the function waiting
    next_stage: Function | None = None  # never-dequeued: the kernel's next method after the one that enqueued it


# -- statements, once per function ----------------------------------------------------------------------------


@dataclass
class Event:
    kind: str  # alloc | deque | enque | free | call | decl | assign
    queue: str = ""
    var: str = ""  # the tensor variable taken or produced ("" when none)
    site: Site = Site(0, 0)
    method: str = ""  # call: the class method
    args: tuple[str, ...] = ()  # call: argument texts
    source: str = ""  # decl/assign: the variable it aliases ("" when none)
    typed: bool = False  # decl: a LocalTensor declaration (not `auto` from a call)


@dataclass
class Stmt:
    kind: str  # simple | block | if | loop | switch | return | break | continue
    site: Site
    events: list[Event] = field(default_factory=list)
    names: frozenset[str] = frozenset()
    children: list[Stmt] = field(default_factory=list)  # block: statements; if: [then, else]; switch: cases
    scope: bool = True  # block: its declarations die at its end (not so for `#if` regions)
    constexpr: bool = False  # if: `if constexpr`, decided per template instantiation
    condition: str = ""  # if: the condition's text (decided when it compares a constant parameter); loop: the
    # condition key (see _condition_key) that holds on its last iteration only (`i == n - 1` in `for (i = 0; i < n;
    # i++)`), or ""
    trips: int | None = None  # loop: a constant trip count when the header says so
    returned: str = ""  # return: the variable returned
    assigned: frozenset[str] = frozenset()  # simple: `x = ...` without x on the right: not a use of what x held


class _Builder:
    """Turns a function body into Stmt trees with the lifecycle events of each simple statement."""

    def __init__(self, context: CheckContext, queues: set[str], methods: set[str], last_branch: bool = False) -> None:
        self.context = context
        self.last_branch = last_branch  # follow the last branch of every `#if` (the `#else` configuration)
        self.text = context.document.node_text
        self.queues = queues
        self.methods = methods
        # Sorted once per document, not once per class (a file with many classes builds many _Builders).
        cached = context.__dict__.get("_lifecycle_calls")
        if not isinstance(cached, tuple):
            ordered = sorted(context.model.calls, key=lambda c: c.start_byte)
            cached = (ordered, [c.start_byte for c in ordered])
            context.__dict__["_lifecycle_calls"] = cached
        self.calls, self.call_starts = cached

    def calls_in(self, start: int, end: int) -> list[ApiCall]:
        from bisect import bisect_left

        i = bisect_left(self.call_starts, start)
        found = []
        while i < len(self.calls) and self.calls[i].start_byte < end:
            if self.calls[i].end_byte <= end:
                found.append(self.calls[i])
            i += 1
        # Arguments are evaluated before the call that takes them: inner calls (which end first) first.
        return sorted(found, key=lambda c: (c.end_byte, -c.start_byte))

    def build(self, node: tree_sitter.Node) -> Stmt:
        kind = node.type
        site = Site(node.start_byte, node.end_byte)
        if kind in _PREPROC:
            # Not a scope, and one configuration: the first branch (the `#else` one after `#if 0`), as a
            # compiler sees one configuration. Following both would pair one branch's AllocTensor with the
            # other branch's EnQue.
            other = next((c for c in node.named_children if c.type in ("preproc_else", "preproc_elif")), None)
            condition = node.child_by_field_name("condition")
            if self.last_branch and other is not None:
                return self.build(other)
            if other is not None and condition is not None and self.text(condition).strip() in ("0", "false"):
                return self.build(other)
            end = other.start_byte if other is not None else node.end_byte
            kept = [c for c in node.named_children if c.type not in _SKIP and c.start_byte < end
                    and c.type not in ("preproc_else", "preproc_elif") and c.id != (condition.id if condition else -1)]
            return Stmt("block", site, children=[self.build(c) for c in kept], scope=False)
        if kind in ("compound_statement", "translation_unit", "declaration_list"):
            return Stmt("block", site, children=[self.build(c) for c in node.named_children if c.type not in _SKIP])
        if kind == "if_statement":
            condition = node.child_by_field_name("condition")
            consequence = node.child_by_field_name("consequence")
            alternative = node.child_by_field_name("alternative")
            branches = [self.build(consequence) if consequence is not None else Stmt("block", site)]
            if alternative is not None:
                body = next((c for c in alternative.named_children if c.type != "comment"), None)
                branches.append(self.build(body) if body is not None else Stmt("block", site))
            else:
                branches.append(Stmt("block", site))
            head = self.simple(condition) if condition is not None else Stmt("simple", site)
            constexpr = any(c.type == "constexpr" for c in node.children)
            return Stmt("if", site, events=head.events, names=head.names, children=branches, constexpr=constexpr,
                        condition=self.text(condition) if condition is not None else "")
        if kind in _LOOPS:
            body = node.child_by_field_name("body")
            header_end = body.start_byte if body is not None else node.end_byte
            head = self.simple_range(node.start_byte, header_end)
            loop = Stmt("loop", site, events=head.events, names=head.names,
                        children=[self.build(body) if body is not None else Stmt("block", site)],
                        trips=_trip_count(self.context, node) if kind == "for_statement" else None,
                        condition=_last_iteration(self.context.document.data[node.start_byte:header_end].decode(
                            "utf-8", "replace")) if kind == "for_statement" else "")
            return loop
        if kind == "switch_statement":
            body = node.child_by_field_name("body")
            condition = node.child_by_field_name("condition")
            head = self.simple(condition) if condition is not None else Stmt("simple", site)
            cases = []
            if body is not None:
                for case in body.named_children:
                    if case.type == "case_statement":
                        statements = [c for c in case.named_children if c.type not in _SKIP and c.type not in _CASE_LABELS]
                        cases.append(Stmt("block", Site(case.start_byte, case.end_byte),
                                          children=[self.build(c) for c in statements]))
            return Stmt("switch", site, events=head.events, names=head.names, children=cases)
        if kind == "return_statement":
            simple = self.simple(node)
            value = node.named_children[0] if node.named_children else None
            returned = strip_this(self.text(value)) if value is not None and value.type in ("identifier", "field_expression") else ""
            if value is not None and value.type == "call_expression" and any(
                    e.kind in ("alloc", "deque") and not e.var and e.site.start == value.start_byte for e in simple.events) \
                    and self.sole_return(node):
                # `return q.AllocTensor<T>();`, the function's one return: the caller gets what the queue hands out
                # (with several, a TBuf's tensor on another path may be what a correlated condition frees).
                returned = _RETURNED_CALL
            return Stmt("return", site, events=simple.events, names=simple.names, returned=returned)
        if kind == "break_statement":
            return Stmt("break", site)
        if kind == "continue_statement":
            return Stmt("continue", site)
        if kind in ("labeled_statement",):
            inner = node.named_children[-1] if node.named_children else None
            return self.build(inner) if inner is not None else Stmt("simple", site)
        return self.simple(node)

    def sole_return(self, node: tree_sitter.Node) -> bool:
        function = node.parent
        while function is not None and function.type != "function_definition":
            function = function.parent
        return function is not None and len(re.findall(r"\breturn\b", self.text(function))) == 1

    def simple(self, node: tree_sitter.Node) -> Stmt:
        return self.simple_range(node.start_byte, node.end_byte, node)

    def simple_range(self, start: int, end: int, node: tree_sitter.Node | None = None) -> Stmt:
        site = Site(start, end)
        text = self.context.document.data[start:end].decode("utf-8", "replace")
        events: list[Event] = []
        if node is not None and node.type == "declaration":
            events.extend(self.declaration(node))
        for call in self.calls_in(start, end):
            event = self.call_event(call)
            if event is not None:
                events.append(event)
        if _INDIRECT_CALL.search(text):
            # `(obj->*fn)(x)`: some method runs, the analysis cannot tell which.
            events.append(Event("havoc", site=site))
        assigned: frozenset[str] = frozenset()
        if node is not None and node.type == "expression_statement" and node.named_children:
            assign = self.alias_assignment(node.named_children[0])
            if assign is not None:
                events.append(assign)
            assigned = self.overwritten(node.named_children[0])
        return Stmt("simple", site, events=events, names=frozenset(_NAME.findall(text)), assigned=assigned)

    def overwritten(self, node: tree_sitter.Node) -> frozenset[str]:
        """`x = <expression without x>`: the statement overwrites x without reading it."""
        if node.type != "assignment_expression":
            return frozenset()
        op, left, right = (node.child_by_field_name(f) for f in ("operator", "left", "right"))
        if op is None or op.type != "=" or left is None or right is None or left.type not in ("identifier", "field_expression"):
            return frozenset()
        name = strip_this(self.text(left))
        if not re.fullmatch(r"[A-Za-z_]\w*", name) or name in _NAME.findall(self.text(right)):
            return frozenset()
        return frozenset({name})

    def used_tensors(self, call: ApiCall) -> tuple[str, ...]:
        """The variables an AscendC API call reads or writes as tensors: the plain (or indexed) arguments of a
        free API function (`Cast(y, x[8], ...)`), or the tensor whose data `x.GetValue(i)` reads. Helpers and
        unknown functions are not uses (they may fill an empty tensor through a reference)."""
        catalogue = self.context.catalogue
        lookup = getattr(catalogue, "by_name", None)
        if not callable(lookup) or call.name in self.methods:
            return ()
        receiver = call.receiver.strip() if call.receiver is not None else None
        if receiver is not None and call.name in _DATA_ACCESS:
            match = _TENSOR_ARG.fullmatch(receiver)
            return (match.group(1),) if match else ()
        if receiver is not None and receiver not in ("AscendC",):
            return ()
        entry = lookup(call.name)
        if entry is None or getattr(entry, "kind", "") != "function" or getattr(entry, "class_name", None):
            return ()
        # A non-const `LocalTensor<T>&` parameter (Concat's concat, PopStackBuffer's popLocal, per the API
        # catalogue's signatures) may give the variable its buffer: that argument is not a use.
        outputs = {i for overload in getattr(entry, "overloads", ()) for i, p in enumerate(overload.params)
                   if "LocalTensor" in p.type and "&" in p.type and "const" not in p.type}
        names = []
        for index, arg in enumerate(call.args):
            match = _TENSOR_ARG.fullmatch(arg.text)
            if match is not None and index not in outputs:
                names.append(match.group(1))
        return tuple(names)

    def declaration(self, node: tree_sitter.Node) -> list[Event]:
        type_node = node.child_by_field_name("type")
        type_text = self.text(type_node) if type_node is not None else ""
        typed = "LocalTensor" in type_text
        if not typed and type_text != "auto":
            return []
        events = []
        for declarator in node.children_by_field_name("declarator"):
            name_node: tree_sitter.Node | None = declarator
            value = None
            if declarator.type == "init_declarator":
                name_node = declarator.child_by_field_name("declarator")
                value = declarator.child_by_field_name("value")
            while name_node is not None and name_node.type in ("reference_declarator", "pointer_declarator"):
                name_node = next(iter(name_node.named_children), None)
            if name_node is None or name_node.type != "identifier":
                continue
            source = _view_of(value, self.text) if value is not None else ""
            if not typed and not source and (value is None or value.type != "call_expression"):
                continue
            events.append(Event("decl", var=self.text(name_node), site=Site(node.start_byte, node.end_byte),
                                source=source, typed=typed and value is None))
        return events

    def alias_assignment(self, node: tree_sitter.Node) -> Event | None:
        """`a = b;` / `a = b[off];` between plain names: `a` now holds what `b` holds."""
        if node.type != "assignment_expression":
            return None
        op = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if op is None or op.type != "=" or left is None or right is None:
            return None
        source = _view_of(right, self.text)
        if not source or left.type not in ("identifier", "field_expression"):
            return None
        return Event("assign", var=strip_this(self.text(left)), source=source, site=Site(node.start_byte, node.end_byte))

    def call_event(self, call: ApiCall) -> Event | None:
        site = Site(call.start_byte, call.end_byte)
        receiver = call.receiver
        if call.name in _LIFECYCLE and receiver is not None:
            queue = strip_this(receiver)
            if queue not in self.queues:
                return None
            if call.name in ("AllocTensor", "DeQue"):
                var = _assigned_var(self.context, call)
                if var is None and call.args:
                    var = strip_this(call.args[0].text)  # the in-place form `q.AllocTensor<T>(t)`
                return Event("alloc" if call.name == "AllocTensor" else "deque", queue=queue, var=var or "", site=site)
            var = strip_this(call.args[0].text) if call.args else ""
            return Event("enque" if call.name == "EnQue" else "free", queue=queue, var=var, site=site)
        if (receiver is None or receiver.strip() == "this") and call.name in self.methods and "::" not in call.qualified:
            target = _assigned_var(self.context, call) or ""
            return Event("call", method=call.name, args=tuple(strip_this(a.text) for a in call.args), site=site,
                         var=target)
        used = self.used_tensors(call)
        if used:
            return Event("use", method=call.name, args=used, site=site)
        if receiver is not None and receiver.strip() == "this" and len(call.args) == 2:
            # `this->ToView(dst, src)`: a method of a base elsewhere; an empty dst now views src's buffer (two
            # tensors and nothing else: `this->MoveOut(out, gm, tmp, n)` reads `out`, it does not make it a view).
            return Event("view", args=tuple(strip_this(a.text) for a in call.args), site=site)
        return None


_TENSOR_ARG = re.compile(r"\s*(?:this\s*->\s*)?([A-Za-z_]\w*)\s*(?:\[[^;]*\])?\s*")
_DATA_ACCESS = frozenset({"GetValue", "SetValue"})


_RETURNED_CALL = "@call"
_INDIRECT_CALL = re.compile(r"(?:->|\.)\*\s*[A-Za-z_]\w*\s*\)\s*\(")
_PREPROC = frozenset({"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"})
_SKIP = frozenset({"comment", "{", "}", "preproc_call", "preproc_def", "preproc_function_def", "preproc_include",
                   "preproc_directive", "preproc_arg", "identifier", "type_definition", "alias_declaration",
                   "using_declaration", "static_assert_declaration"})
_CASE_LABELS = frozenset({"number_literal", "identifier", "qualified_identifier", "char_literal", "field_expression",
                          "parenthesized_expression", "binary_expression", "call_expression"})


def _view_of(node: tree_sitter.Node, text: Callable[[tree_sitter.Node], str]) -> str:
    """The tensor variable an expression is a view of: `x`, `this->x`, `x[off]`, `x.ReinterpretCast<T>()`
    (the same buffer under another name or type), else ""."""
    while True:
        if node.type in ("identifier", "field_expression") and (
            node.type == "identifier" or text(node.child_by_field_name("argument") or node) == "this"
        ):
            return strip_this(text(node))
        if node.type == "subscript_expression":
            inner = node.child_by_field_name("argument")
        elif node.type == "call_expression" and re.search(r"\bReinterpretCast\b", text(node.child_by_field_name("function") or node)):
            function = node.child_by_field_name("function")
            inner = function.child_by_field_name("argument") if function is not None and function.type == "field_expression" else None
        elif node.type == "parenthesized_expression" and node.named_child_count == 1:
            inner = node.named_children[0]
        else:
            return ""
        if inner is None:
            return ""
        node = inner


def _assigned_var(context: CheckContext, call: ApiCall) -> str | None:
    node = context.document.tree.root_node.descendant_for_byte_range(call.start_byte, call.end_byte)
    while node is not None and node.type != "call_expression":
        node = node.parent
    if node is None or node.parent is None:
        return None
    parent = node.parent
    if parent.type == "init_declarator":
        declarator = parent.child_by_field_name("declarator")
        while declarator is not None and declarator.type in ("reference_declarator", "pointer_declarator"):
            declarator = next(iter(declarator.named_children), None)
        return context.document.node_text(declarator).strip() if declarator is not None else None
    if parent.type == "assignment_expression":
        left = parent.child_by_field_name("left")
        right = parent.child_by_field_name("right")
        if left is not None and right is not None and right.id == node.id and left.type in ("identifier", "field_expression"):
            return strip_this(context.document.node_text(left))
    return None


_FOR_HEADER = re.compile(r"^\s*for\s*\(\s*[\w:]*\s*([A-Za-z_]\w*)\s*=\s*([^;]+);\s*\1\s*(<|<=)\s*([^;]+);")


def _trip_count(context: CheckContext, node: tree_sitter.Node) -> int | None:
    """A constant trip count of `for (i = a; i < b; ...)` when a and b fold."""
    from ascendc_lsp.checks.rules._common import fold_node

    header = context.document.data[node.start_byte : node.end_byte].decode("utf-8", "replace")
    match = _FOR_HEADER.match(header)
    if match is None:
        return None
    init = node.child_by_field_name("initializer")
    condition = node.child_by_field_name("condition")
    if init is None or condition is None:
        return None
    value = init.child_by_field_name("value") if init.type == "declaration" else None
    if init.type == "declaration":
        first = next((c for c in init.children_by_field_name("declarator")), None)
        value = first.child_by_field_name("value") if first is not None else None
    elif init.type == "assignment_expression":
        value = init.child_by_field_name("right")
    bound = condition.child_by_field_name("right")
    lo, hi = fold_node(context, value), fold_node(context, bound)
    if lo is None or hi is None:
        return None
    return max(0, hi - lo + (1 if match.group(3) == "<=" else 0))


# -- the interpreter -----------------------------------------------------------------------------------------


@dataclass
class Token:
    queue: str
    state: str
    origin: Site
    var: str
    last_use: Site
    known: bool = True  # False once branches disagree about it
    looped: bool = False  # enqueued inside a loop
    partial: bool = False  # given back on some paths only (conditions the analysis cannot correlate)
    enqueued_as: str = ""  # the name that held it when EnQue handed it to its queue
    holders: tuple[tuple[int, str], ...] = ()  # (frame depth, or -1 for a member; name) that held it at EnQue
    use_calls: tuple[Site, ...] = ()  # the calls (outermost first) through which last_use was reached
    guard: tuple[tuple[str, bool], ...] = ()  # handed out only where these conditions have these values
    inner_use: Site | None = None  # when last_use is a call it was passed to: its last use inside that call
    holder_keys: frozenset[str] = frozenset()  # the same names as holder_key spells them (function-qualified)
    enqueue_path: tuple[tuple[int, Site], ...] = ()  # per frame at EnQue: (its function, the statement it ran)
    queued_use: Problem | None = None  # the first API use while queued (reported if it is freed still queued)


@dataclass
class Frame:
    function: Function
    locals: dict[str, int] = field(default_factory=dict)  # name -> token id (or _UNKNOWN / 0 for none)
    declared_none: dict[str, Site] = field(default_factory=dict)  # tensors declared with nothing behind them
    returned: int | None = None
    returned_none: Site | None = None  # returns a tensor declared with nothing behind it (declared there)
    references: dict[str, str] = field(default_factory=dict)  # reference parameter -> the caller's variable
    constants: dict[str, int] = field(default_factory=dict)  # parameters called with a constant argument
    call_site: Site = Site(0, 0)  # where the caller called it (fixed for the frame's life)
    site: Site = Site(0, 0)  # the statement it is running (a call's, while its callee runs)


@dataclass
class State:
    tokens: dict[int, Token]
    fifo: dict[str, list[int] | None]  # None: unknown contents
    members: dict[str, int]
    frames: list[Frame]
    signal: str = ""  # "", "return", "break", "continue"
    constexpr_taken: bool = False  # the path went through an `if constexpr`
    trait_decided: bool = False  # the path took a branch this run's type instantiation decided

    def copy(self) -> State:
        return State(
            tokens={k: Token(**vars(v)) for k, v in self.tokens.items()},
            fifo={k: (list(v) if v is not None else None) for k, v in self.fifo.items()},
            members=dict(self.members),
            frames=[Frame(f.function, dict(f.locals), dict(f.declared_none), f.returned, f.returned_none,
                          f.references, f.constants, f.call_site, f.site) for f in self.frames],
            signal=self.signal,
            constexpr_taken=self.constexpr_taken,
            trait_decided=self.trait_decided,
        )


class Analysis:
    def __init__(self, context: CheckContext, owner: ClassInfo | None, functions: list[Function],
                 queues: set[str], skip_end_checks: set[str], last_branch: bool = False) -> None:
        self.context = context
        self.owner = owner
        self.functions: dict[str, list[Function]] = {}
        for function in functions:
            self.functions.setdefault(function.name, []).append(function)
        self.queues = queues
        self.skip_end_checks = skip_end_checks
        self.builder = _Builder(context, queues, set(self.functions), last_branch)
        self.bodies: dict[int, Stmt] = {}
        self.problems: dict[tuple[str, int, str, str], Problem] = {}
        self.steps = 0
        self.next_token = 1
        self.lost_alloc_queues: set[str] = set()
        self.unhanded_queues: set[str] = set()
        self.loop_depth = 0
        self.iteration = 0  # >0 while re-running a loop body whose trip count is not known to be >= 2
        self.plain_give_backs: bool | None = None  # every EnQue/FreeTensor of the file names a plain variable
        self.instantiation: dict[str, str] = {}  # type parameter -> the type this run assumes for it
        self.guard_words: set[str] = set()  # the names in any token's guard conditions
        self.last_iteration: dict[str, bool] = {}  # condition key -> whether this run is an enclosing loop's last
        self.compared: dict[str, list[str]] = {}  # type parameter -> the types its `is_same` tests name

    # -- entry ------------------------------------------------------------------------------------------------

    def run(self, sequence: list[Function], others: list[Function]) -> list[Problem]:
        """`sequence`: the methods a kernel in this file calls on an object, in order (Init, Process), run on
        one state from empty queues. `others`: roots nobody here calls, each run on its own with queues
        whose earlier contents are unknown (code elsewhere may enqueue before them)."""
        # Constructors and `Init` first (they run before the others): what they leave in members is where
        # the other roots start from.
        owner = re.sub(r"<.*", "", self.owner.name, flags=re.S) if self.owner is not None else None
        setup = [r for r in others if r.name == owner] + [r for r in others if r.name.lower().startswith("init")]
        # A queue that Init gives its memory (`pipe.InitBuffer(q, ...)`) starts empty there: nothing can be
        # in a queue before its InitBuffer.
        fresh = self.initialised_in(setup)
        start = State({}, {q: [] if q in fresh else None for q in self.queues}, {}, [])
        for root in setup:
            start = self.call(start, root, (), "", Site(root.start_byte, root.start_byte))
            start.signal = ""
        rest = [r for r in others if all(r is not f for f in setup)]
        # The kernel calls Init, then Process: when Process is the one other root, it starts from the queues
        # as Init left them. Other roots may run after code elsewhere, so their queues' contents are unknown.
        after_init = len(rest) == 1 and rest[0].name.startswith("Process") and bool(setup)
        for root in rest:
            state = start.copy()
            if not after_init:
                state.fifo = {q: None for q in self.queues}
                for queued in state.tokens.values():
                    if queued.state == QUEUED:
                        queued.known = False  # code elsewhere may have dequeued it before this root runs
            state = self.call(state, root, (), "", Site(root.start_byte, root.start_byte))
            if after_init:
                self.left_in_queues(state, [*setup, root])
                self.left_held(state, root)
        if not sequence:
            return list(self.problems.values())
        state = State({}, {q: [] for q in self.queues}, {}, [])
        for root in sequence:
            state = self.call(state, root, (), "", Site(root.start_byte, root.start_byte))
            state.signal = ""
        self.left_in_queues(state, sequence)
        self.left_held(state, sequence[-1])
        return list(self.problems.values())

    def left_in_queues(self, state: State, roots: list[Function]) -> None:
        """After the kernel's last call (`roots` ran in this order): a tensor still in a queue was never
        dequeued."""
        for queue, contents in state.fifo.items():
            if not contents or queue in self.skip_end_checks or queue in self.unhanded_queues:
                continue
            token = state.tokens[contents[0]]
            if token.known and token.queue == queue:
                # Enqueued by one method of the kernel (Init): the DeQue belongs in the one it runs next.
                ran = [i for i, r in enumerate(roots) if r.start_byte <= token.last_use.start < r.end_byte]
                following = roots[ran[0] + 1] if ran and ran[0] + 1 < len(roots) else None
                self.report(Problem("never-dequeued", queue, token.var, token.last_use, token.origin,
                                    repeated=token.looped, uncertain=state.constexpr_taken, next_stage=following))

    def left_held(self, state: State, last: Function) -> None:
        """After the kernel's last call: a tensor a member still holds after DeQue was never freed (one it
        allocated and kept from Init to the end without a queue round trip is an idiom, not reported)."""
        for name, token_id in state.members.items():
            token = self.token(state, token_id)
            if token is None or not token.known or token.state != DEQUED or token.partial \
                    or token.queue in self.skip_end_checks:
                continue  # (one given back on some paths is reported where its other paths lose it)
            inside = [u for u in (*token.use_calls, token.last_use) if last.start_byte <= u.start < last.end_byte]
            self.report(Problem("lost", token.queue, name, Site(last.body_end - 1, last.body_end), token.origin,
                                token.state, last.name, detail="the kernel ends", uncertain=state.constexpr_taken,
                                last_use=inside[-1] if inside else token.last_use, partial=token.partial))
            token.known = False

    def initialised_in(self, roots: list[Function]) -> set[str]:
        """Queues whose InitBuffer call is in the body of one of `roots`."""
        by_function = _init_targets_by_function(self.context)
        found: set[str] = set()
        for root in roots:
            found.update(by_function.get(id(root), ()))
        return found & self.queues

    def report(self, problem: Problem) -> None:
        key = (problem.kind, problem.site.start, problem.queue, problem.var)
        current = self.problems.get(key)
        if current is None or (current.later_iteration and not problem.later_iteration) or (
            current.uncertain and not problem.uncertain
        ):
            self.problems[key] = problem

    def body(self, function: Function) -> Stmt | None:
        cached = self.bodies.get(function.start_byte)
        if cached is not None:
            return cached
        node = self.context.document.tree.root_node.descendant_for_byte_range(function.body_start, function.body_end)
        while node is not None and node.type != "compound_statement":
            node = node.parent
        if node is None:
            return None
        built = self.builder.build(node)
        self.bodies[function.start_byte] = built
        return built

    # -- calls --------------------------------------------------------------------------------------------------

    def call(self, state: State, function: Function, args: tuple[str, ...], target: str, site: Site) -> State:
        if len(state.frames) >= _MAX_INLINE_DEPTH or any(f.function is function for f in state.frames):
            return self.forget_args(state, args)
        body = self.body(function)
        if body is None:
            return self.forget_args(state, args)
        frame = Frame(function, call_site=site)
        caller = state.frames[-1] if state.frames else None
        for param, arg in zip(function.params, args, strict=False):
            frame.locals[param.name] = self.lookup(state, arg) if arg else _UNKNOWN
            if caller is not None and arg in caller.declared_none and frame.locals[param.name] == 0:
                frame.declared_none[param.name] = caller.declared_none[arg]
            if "&" in param.type_text and re.fullmatch(r"[A-Za-z_]\w*", arg or ""):
                frame.references[param.name] = arg
            value = _int_literal(arg) if arg else None
            if value is None and caller is not None and arg in caller.constants:
                value = caller.constants[arg]
            if value is not None:
                frame.constants[param.name] = value
        state.frames.append(frame)
        result = self.block(state, body, function_body=True)
        frame = result.frames.pop()
        returned = frame.returned
        if returned is not None and returned > 0:
            if target and caller is not None:
                self.bind(result, target, returned, site)
                handed = self.token(result, returned)
                if handed is not None and not handed.var:
                    handed.var = strip_this(target)
            elif (token := self.token(result, returned)) is not None:
                token.known = False  # handed to an expression the analysis does not follow
        elif frame.returned_none is not None and target and caller is not None and self.lookup(result, target) <= 0:
            # `LocalTensor<T> Get() { LocalTensor<T> t; return t; }`: the caller's tensor has no queue behind
            # it either; a give-back of it names where it was declared with nothing.
            self.bind(result, target, 0, site)
            caller.declared_none[strip_this(target)] = frame.returned_none
        self.end_scope(result, frame, list(frame.locals), Site(body.site.end - 1, body.site.end), final=True)
        result.signal = ""
        if caller is not None:
            # The call is a use of every tensor passed to it: a give-back belongs after the call.
            for arg in args:
                token = self.token(result, self.lookup(result, arg))
                if token is not None:
                    inside = function.start_byte <= token.last_use.start < function.end_byte
                    token.inner_use = (token.inner_use or token.last_use) if inside else None
                    token.last_use, token.use_calls = site, _call_sites(result)
        return result

    def forget_args(self, state: State, args: tuple[str, ...]) -> State:
        """A call the analysis cannot follow: tensors passed to it are no longer known."""
        for arg in args:
            token = self.token(state, self.lookup(state, arg))
            if token is not None:
                token.known = False
        return state

    # -- variables --------------------------------------------------------------------------------------------

    @staticmethod
    def token(state: State, token_id: int) -> Token | None:
        return state.tokens.get(token_id) if token_id > 0 else None

    def lookup(self, state: State, name: str) -> int:
        name = strip_this(name)
        base = re.match(r"[A-Za-z_]\w*", name)
        if base is None or base.group(0) != name:
            return _UNKNOWN
        if state.frames and name in state.frames[-1].locals:
            return state.frames[-1].locals[name]
        return state.members.get(name, _UNKNOWN)

    def is_local(self, state: State, name: str) -> bool:
        return bool(state.frames) and name in state.frames[-1].locals

    def bind(self, state: State, name: str, token: int, site: Site) -> None:
        name = strip_this(name)
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            if token > 0 and not (re.fullmatch(r"[A-Za-z_]\w*\.[A-Za-z_]\w*", name) and self.gives_back_plain_names()):
                state.tokens[token].known = False  # stored in an array or another object's field
            # A copy in a struct's field (`info.x = x;`) when every EnQue/FreeTensor names a plain variable:
            # the field cannot give it back, the variable still holds it.
            return
        old = self.lookup(state, name)
        if self.is_local(state, name) or (state.frames and name in _local_names(state.frames[-1])):
            frame = state.frames[-1]
            frame.locals[name] = token
            frame.declared_none.pop(name, None)
            depth = len(state.frames) - 1
            while name in frame.references and depth > 0:
                # A reference parameter: the caller's variable changes with it.
                name = frame.references[name]
                depth -= 1
                frame = state.frames[depth]
                if self.owner is not None and name not in _local_names(frame):
                    state.members[name] = token  # the caller passed a member of the object
                    break
                frame.locals[name] = token
                frame.declared_none.pop(name, None)
        elif self.owner is not None:
            state.members[name] = token
        elif state.frames:
            state.frames[-1].locals[name] = token
        if old > 0 and old != token:
            self.check_lost(state, old, site, f"{name} is overwritten")

    def gives_back_plain_names(self) -> bool:
        if self.plain_give_backs is None:
            self.plain_give_backs = all(
                re.fullmatch(r"\s*(?:this\s*->\s*)?[A-Za-z_]\w*\s*", c.args[0].text if c.args else "") is not None
                for c in self.context.model.calls if c.name in ("EnQue", "FreeTensor"))
        return self.plain_give_backs

    def holders(self, state: State, token: int, ignore: Frame | None = None) -> int:
        count = sum(1 for v in state.members.values() if v == token)
        for frame in state.frames:
            if frame is not ignore:
                count += sum(1 for v in frame.locals.values() if v == token)
            if frame.returned == token:
                count += 1
        return count

    def check_lost(self, state: State, token_id: int, site: Site, why: str, ignore: Frame | None = None,
                   dying: Frame | None = None) -> None:
        token = self.token(state, token_id)
        if token is None or not token.known or token.state not in (ALLOC, DEQUED):
            return
        if self.holders(state, token_id, ignore) > 0 or site.end <= 0:
            return
        where = dying or (state.frames[-1] if state.frames else None)
        function = where.function.name if where is not None else ""
        # The give-back goes in the innermost function on the path to the loss that also led to the last use:
        # after that use, or after the call that reached it (a member read inside a method).
        last_use = token.last_use
        for frame in ([dying] if dying is not None else []) + state.frames[::-1]:
            inside = [u for u in (*token.use_calls, token.last_use)
                      if frame.function.start_byte <= u.start < frame.function.end_byte]
            if inside:
                last_use = inside[-1]
                break
        if token.state == ALLOC:
            self.lost_alloc_queues.add(token.queue)
        self.report(Problem("lost", token.queue, token.var, site, token.origin, token.state, function,
                            repeated=self.loop_depth > 0, later_iteration=self.iteration > 0, detail=why,
                            uncertain=state.constexpr_taken, last_use=last_use, partial=token.partial,
                            inner_use=token.inner_use if last_use == token.last_use else token.last_use))
        token.known = False

    def end_scope(self, state: State, frame: Frame, names: Iterable[str], at: Site, final: bool = False) -> None:
        """`names` of `frame` die (their block ends, or with `final` the whole frame, already popped)."""
        dying = [n for n in names if n in frame.locals]
        tokens = [frame.locals.pop(n) for n in dying]
        if final:
            frame.locals.clear()
        for token in tokens:
            if token > 0:
                self.check_lost(state, token, at, "its scope ends", dying=frame)

    # -- statements -------------------------------------------------------------------------------------------

    def block(self, state: State, stmt: Stmt, function_body: bool = False) -> State:
        depth = len(state.frames)
        before = set(state.frames[-1].locals) if state.frames else set()
        for child in stmt.children:
            if state.signal:
                break
            state = self.statement(state, child)
        # By depth, not identity: the branches of an `if` run on copies of the frame, and the join keeps one.
        if depth and not function_body and stmt.scope and len(state.frames) == depth and not state.signal:
            frame = state.frames[-1]
            self.end_scope(state, frame, [n for n in frame.locals if n not in before], Site(stmt.site.end - 1, stmt.site.end))
        return state

    def statement(self, state: State, stmt: Stmt) -> State:
        self.steps += 1
        if self.steps > _MAX_STEPS:
            raise _GiveUp()
        kind = stmt.kind
        if kind == "block":
            return self.block(state, stmt)
        if kind == "simple":
            return self.simple(state, stmt)
        if kind == "if":
            state = self.simple(state, stmt)
            if stmt.constexpr:
                # Branches chosen per instantiation may correlate with other `if constexpr`s this analysis
                # cannot pair up: what it finds after this point is reported as a warning, not an error.
                state.constexpr_taken = True
            decided = _decide(stmt.condition, state.frames[-1].constants) if state.frames and stmt.condition else None
            if decided is None and self.instantiation and stmt.condition:
                # `if (std::is_same<T, half>::value)`: fixed by the instantiation this run follows.
                decided = _decide_traits(stmt.condition, self.instantiation)
                state.trait_decided = state.trait_decided or decided is not None
            key = _condition_key(stmt.condition) if stmt.condition else None
            if decided is None and key is not None and key[0] in self.last_iteration:
                decided = self.last_iteration[key[0]] == key[1]
            if decided is None and stmt.condition:
                decided = self.decide_has_tensor(state, stmt.condition)
            if decided is not None:
                # `if (direction == 0)` in a helper called with a constant: only one branch runs.
                chosen = stmt.children[0] if decided else (stmt.children[1] if len(stmt.children) > 1 else None)
                return self.statement(state, chosen) if chosen is not None else state
            born = self.next_token
            then, other = state.copy(), state
            if key is not None:
                # A tensor handed out under an earlier `if` of the same condition exists in one branch only.
                self.prune(then, key[0], key[1])
                self.prune(other, key[0], not key[1])
            then = self.statement(then, stmt.children[0])
            other = self.statement(other, stmt.children[1]) if len(stmt.children) > 1 else other
            if key is not None:
                self.guard_born(then, other, born, (key[0], key[1]))
                self.guard_born(other, then, born, (key[0], not key[1]))
            return self.join([then, other])
        if kind == "switch":
            state = self.simple(state, stmt)
            outcomes = [self.statement(state.copy(), case) for case in stmt.children]
            for outcome in outcomes:
                if outcome.signal == "break":
                    outcome.signal = ""
            return self.join([*outcomes, state])
        if kind == "loop":
            return self.loop(state, stmt)
        if kind == "return":
            first_new = self.next_token
            state = self.simple(state, stmt)
            if state.frames:
                frame = state.frames[-1]
                if stmt.returned == _RETURNED_CALL:
                    made = [t for t in state.tokens if t >= first_new and state.tokens[t].state in (ALLOC, DEQUED)]
                    frame.returned = made[-1] if made else None
                elif stmt.returned:
                    token = self.lookup(state, stmt.returned)
                    frame.returned = token if token > 0 else None
                    if token == 0 and stmt.returned in frame.declared_none:
                        frame.returned_none = frame.declared_none[stmt.returned]
                # Everything the function's own variables still hold is lost on this path.
                for token in set(frame.locals.values()):
                    if token > 0 and token != frame.returned:
                        self.check_lost(state, token, stmt.site, "the function returns", ignore=frame)
            state.signal = "return"
            return state
        if kind in ("break", "continue"):
            state.signal = kind
            return state
        return state

    def guard_born(self, mine: State, theirs: State, born: int, guard: tuple[str, bool]) -> None:
        """Tensors handed out in this branch only (`if (c) x = q.DeQue<T>();`) exist where `guard` holds: a
        later `if` on the same condition gives them back in its matching branch (see prune)."""
        for token_id, token in mine.tokens.items():
            if token_id < born or token_id in theirs.tokens or _bound(theirs, token_id) \
                    or token.state not in (ALLOC, DEQUED) or not token.known or not _bound(mine, token_id):
                continue
            if (guard[0], not guard[1]) in token.guard:
                token.known = False
                continue
            token.guard = (*token.guard, guard)
            self.guard_words.update(_NAME.findall(guard[0]))

    def prune(self, state: State, condition: str, value: bool) -> None:
        """On a path where `condition` has `value`: the tensors handed out only where it has the other value
        do not exist."""
        for token_id, token in list(state.tokens.items()):
            if (condition, not value) not in token.guard or token.state not in (ALLOC, DEQUED):
                continue
            del state.tokens[token_id]
            _unbind(state, token_id)

    def unguard_written(self, state: State, stmt: Stmt) -> None:
        """A statement that writes a variable of a guard's condition: the guard no longer says which branch
        of a later `if` holds the tensor, so the tensor is no longer followed."""
        words = stmt.names & self.guard_words
        if not words:
            return
        text = self.context.document.data[stmt.site.start:stmt.site.end].decode("utf-8", "replace")
        written = {w for w in words if re.search(
            rf"(?:\b{w}\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)|(?:\+\+|--)\s*{w}\b|\b{w}\s*(?:\+\+|--))", text)}
        if not written:
            return
        for token in state.tokens.values():
            if any(written & set(_NAME.findall(condition)) for condition, _ in token.guard):
                token.known = False

    def overload_fits(self, function: Function, args: tuple[str, ...], site: Site) -> bool:
        """No tensor argument whose element type, as this run instantiates it, differs from the parameter's."""
        from ascendc_lsp.checks.rules._common import tensor_of

        for param, arg in zip(function.params, args, strict=False):
            wanted = _ELEMENT.search(param.type_text)
            tensor = tensor_of(self.context, arg, site.start) if wanted is not None else None
            if wanted is None or tensor is None or not tensor.dtype:
                continue
            want, have = wanted.group(1).split("::")[-1], tensor.dtype.split("::")[-1].strip()
            if self.instantiation.get(have) == "" and want in self.compared.get(have, ()):
                return False  # this run's T is none of the types it is compared with, so not this one either
            want, have = self.instantiation.get(want, want), self.instantiation.get(have, have)
            if want in _SCALAR_TYPES and have in _SCALAR_TYPES and want != have:
                return False
        return True

    def only_read(self, function: Function, name: str) -> bool:
        """`name` is never assigned, its address never taken, and every call naming it is a data API use."""
        body = self.context.document.data[function.body_start:function.body_end]
        word = re.escape(name.encode())
        if re.search(rb"(?<![\w.])" + word + rb"\s*=(?!=)|&\s*" + word + rb"\b", body):
            return False
        pattern = re.compile(rf"(?<![\w.]){re.escape(name)}\b")
        for call in calls_of(self.context, function):
            named = any(pattern.search(a.text) for a in call.args) or pattern.search(call.receiver or "")
            if named and name not in self.builder.used_tensors(call):
                return False
        return True

    def decide_has_tensor(self, state: State, condition: str) -> bool | None:
        """`if (q.HasTensorInQue())` / `if (!q.HasTensorInQue())` when q's contents are known (docs/zh/api/SIMD-API/
        基础API/资源管理/Pipe和Que框架/TQue/HasTensorInQue.md: whether the queue holds an enqueued tensor)."""
        match = _HAS_TENSOR.match(condition.strip())
        if match is None:
            return None
        contents = state.fifo.get(strip_this(match.group(2)))
        if contents is None:
            return None
        return bool(contents) != bool(match.group(1))

    def loop(self, state: State, stmt: Stmt) -> State:
        state = self.simple(state, stmt)
        body = stmt.children[0]
        runs = 2 if self.loop_depth < _MAX_LOOP_NESTING and stmt.trips != 1 else 1
        last = stmt.condition if stmt.condition and stmt.condition not in self.last_iteration else ""
        if last:
            # `if (i == n - 1) q.FreeTensor(t);` gives back on the last iteration: the last run is that one, an
            # earlier run an earlier iteration (no extra run: nested loops would multiply the steps).
            self.last_iteration[last] = False
        self.loop_depth += 1
        previous_iteration = self.iteration
        outcomes = []
        try:
            for run in range(runs):
                if run == 1 and (stmt.trips is None or stmt.trips < 2):
                    self.iteration += 1
                if last and run == runs - 1:
                    self.last_iteration[last] = True
                state = self.statement(state, body)
                if state.signal in ("break", "return"):
                    outcomes.append(state)
                    state = state.copy()
                    break
                state.signal = ""
        finally:
            self.loop_depth -= 1
            self.iteration = previous_iteration
            self.last_iteration.pop(last, None)
        for outcome in outcomes:
            if outcome.signal == "break":
                outcome.signal = ""
        return self.join([state, *[o for o in outcomes if not o.signal]]) if outcomes else state

    def simple(self, state: State, stmt: Stmt) -> State:
        if self.guard_words:
            self.unguard_written(state, stmt)
        if state.frames:
            state.frames[-1].site = stmt.site
        # `x = q.AllocTensor<T>();` / `x = q.DeQue<T>();` writes x without using what it held: the old
        # tensor's last use is earlier.
        written = {e.var for e in stmt.events if e.kind in ("alloc", "deque", "assign") and e.var}
        self.mark_uses(state, stmt, skip=written | stmt.assigned)
        if stmt.events:
            for event in stmt.events:
                state = self.event(state, event, stmt)
                if state.signal:
                    break
            self.mark_uses(state, stmt)
        return state

    def mark_uses(self, state: State, stmt: Stmt, skip: set[str] | frozenset[str] = frozenset()) -> None:
        """Every tensor named in the statement is used here: its give-back belongs after it (not one the
        statement overwrites: `x = q.DeQue<T>()` is no use of the tensor x held before)."""
        if not state.frames:
            return
        for name in (stmt.names - skip) & (state.frames[-1].locals.keys() | state.members.keys()):
            token = self.token(state, self.lookup(state, name))
            if token is not None and token.state != FREED:
                if not stmt.site.start <= token.last_use.start < stmt.site.end:
                    token.inner_use = None  # (kept for the call this statement made with it)
                token.last_use, token.use_calls = stmt.site, _call_sites(state)

    def event(self, state: State, event: Event, stmt: Stmt) -> State:
        kind = event.kind
        if kind == "decl":
            if not state.frames:
                return state
            frame = state.frames[-1]
            if event.source:
                frame.locals[event.var] = self.lookup(state, event.source)
            else:
                frame.locals.setdefault(event.var, 0)
                if event.typed:
                    frame.declared_none[event.var] = stmt.site
            return state
        if kind == "assign":
            source = self.lookup(state, event.source)
            if source > 0 or event.source in _all_names(state):
                self.bind(state, event.var, source, stmt.site)
            return state
        if kind == "use":
            if not state.frames:
                return state
            frame = state.frames[-1]
            for name in event.args:
                # Only a tensor the function never assigns nor hands to anything but data APIs is surely empty (a
                # `x = buf.Get<T>()` or `PopStackBuffer(x)` fills it out of this analysis's sight).
                declared = frame.declared_none.get(name)
                if frame.locals.get(name) == 0 and declared is not None and \
                        frame.function.body_start <= declared.start < frame.function.body_end and \
                        self.only_read(frame.function, name):  # declared here, not a caller's (filled out of sight)
                    self.report(Problem("used-empty", "", name, frame.declared_none[name], event.site,
                                        function=frame.function.name, repeated=self.loop_depth > 0,
                                        later_iteration=self.iteration > 0, detail=event.method,
                                        uncertain=state.constexpr_taken))
                elif frame.locals.get(name, state.members.get(name)) == 0:
                    self.used_while_queued(state, name, event)
            return state
        if kind == "view":
            current = state.frames[-1] if state.frames else None
            target = event.args[0]
            if current is None or target not in current.declared_none or current.locals.get(target) != 0:
                return state
            sources = {self.lookup(state, a) for a in event.args[1:]}
            viewed = [t for t in sources if (tok := self.token(state, t)) is not None and tok.known and tok.state in (ALLOC, DEQUED)]
            if len(viewed) == 1:
                current.locals[target] = viewed[0]
                current.declared_none.pop(target, None)
            return state
        if kind == "havoc":
            for queue in state.fifo:
                state.fifo[queue] = None
            for token_held in state.tokens.values():
                token_held.known = False
            return state
        if kind == "call":
            overloads = self.functions.get(event.method, [])
            by_arity = [f for f in overloads if len(f.params) == len(event.args)]
            candidates = by_arity or overloads
            if len(candidates) > 1 and self.instantiation:
                # `ComputeY(i, gammaLocal)` with `LocalTensor<T> gammaLocal` and overloads taking LocalTensor<half>
                # and LocalTensor<float>: this run's T chooses one.
                fitting = [f for f in candidates if self.overload_fits(f, event.args, event.site)]
                if not fitting:
                    raise _NoSuchInstantiation()  # no overload takes this run's types: the kernel never has them
                candidates = fitting
            if len(candidates) <= 1:
                return self.call(state, candidates[0], event.args, event.var, event.site) if candidates else state
            # Overloads the analysis cannot choose between (they differ in parameter types): each may be the
            # one called, so each runs, as the branches of an `if` do.
            outcomes = [self.call(state.copy(), f, event.args, event.var, event.site) for f in candidates]
            return self.join(outcomes)
        queue = event.queue
        if kind == "alloc":
            token = self.new_token(state, queue, ALLOC, event.site, event.var, stmt.site)
            if event.var:
                self.bind(state, event.var, token, stmt.site)
            return state
        if kind == "deque":
            contents = state.fifo.get(queue)
            if contents is None:
                # Whatever it is, the tensor DeQue hands out is this code's to give back; it may be one this
                # code enqueued, so those are no longer known to be in the queue.
                for queued in state.tokens.values():
                    if queued.queue == queue and queued.state == QUEUED:
                        queued.known = False
                token = self.new_token(state, queue, DEQUED, event.site, event.var, stmt.site)
            elif not contents:
                if queue not in self.lost_alloc_queues and queue not in self.unhanded_queues \
                        and queue not in self.skip_end_checks:
                    # The tensor that should have been enqueued: one of this queue still held, allocated.
                    waiting = [t for t in state.tokens.values()
                               if t.queue == queue and t.state == ALLOC and t.known]
                    held: Token | None = max(waiting, key=lambda t: t.last_use.start) if waiting else None
                    if held is not None and len(state.frames) > 1 and held.last_use == state.frames[-2].site:
                        # Last used by the call that runs this function (`CopyOut(t)`): its EnQue belongs in
                        # here, before the DeQue.
                        body = state.frames[-1].function.body_start
                        held.last_use = Site(body, body + 1)
                    self.report(Problem("empty-deque", queue, held.var if held else event.var, event.site,
                                        held.origin if held else None,
                                        function=state.frames[-1].function.name if state.frames else "",
                                        repeated=self.loop_depth > 0, later_iteration=self.iteration > 0,
                                        uncertain=state.constexpr_taken,
                                        last_use=held.last_use if held else None,
                                        # nothing held: the EnQue is missing before the call that led here
                                        enqueued_at=state.frames[-2].site if held is None and len(state.frames) > 1
                                        else None))
                state.fifo[queue] = None
                token = self.new_token(state, queue, DEQUED, event.site, event.var, stmt.site)
            else:
                token = contents.pop(0)
                popped = self.token(state, token)
                if popped is not None:
                    popped.state = DEQUED
                    popped.var = event.var or popped.var
                    popped.last_use, popped.use_calls = stmt.site, _call_sites(state)
            if event.var:
                self.bind(state, event.var, token, stmt.site)
                popped = self.token(state, token)
                path = popped.enqueue_path if popped is not None else ()
                if popped is not None and len(path) == len(state.frames) and path[-1][0] == state.frames[-1].function.start_byte:
                    # `q.EnQue(b); a = q.DeQue<T>();` in one function (a sync): the same buffer is back, so the
                    # aliases that held it at EnQue (a caller's variable, a view) hold it again. Not so when a
                    # later stage dequeues it: the producer's names are stale handles.
                    for depth, name in popped.holders:
                        if 0 <= depth < len(state.frames) and state.frames[depth].locals.get(name) == 0 and \
                                f"{state.frames[depth].function.start_byte}:{name}" in popped.holder_keys:
                            state.frames[depth].locals[name] = token
                        elif depth < 0 and state.members.get(name) == 0:
                            state.members[name] = token
            else:
                # A bare `q.DeQue<T>()` (a sync): the tensor is back under the names that held it at EnQue (a
                # caller's variable too, when a callee enqueued its by-value copy).
                popped = self.token(state, token)
                if popped is not None and popped.holders:
                    for depth, name in popped.holders:
                        if depth < 0:
                            if state.members.get(name) == 0:
                                state.members[name] = token
                        elif depth < len(state.frames) and state.frames[depth].locals.get(name) == 0:
                            state.frames[depth].locals[name] = token
                elif popped is not None and popped.var and self.lookup(state, popped.var) == 0:
                    self.bind(state, popped.var, token, stmt.site)
            return state
        token = self.lookup(state, event.var)
        if kind == "enque":
            if token <= 0:
                if token == 0 and self.never_handed_out(state, event, stmt):
                    state.fifo[queue] = None
                    return state
                # Something the analysis does not follow goes in: the queue's contents are unknown.
                contents = state.fifo.get(queue)
                if contents is not None:
                    unfollowed = self.new_token(state, queue, QUEUED, event.site, event.var, stmt.site, known=False)
                    state.tokens[unfollowed].enqueue_path = tuple((f.function.start_byte, f.site) for f in state.frames)
                    contents.append(unfollowed)
                return state
            tok = self.token(state, token)
            if tok is None:
                return state
            tok.state = QUEUED
            tok.guard = ()
            tok.last_use, tok.use_calls = stmt.site, _call_sites(state)
            tok.looped = self.loop_depth > 0
            tok.enqueued_as = self.holder_key(state, event.var)
            # The queue owns it now: the names that held it no longer do (a DeQue hands it out again).
            holders = _unbind(state, token)
            tok.holders = tuple(holders)
            tok.holder_keys = frozenset(name if depth < 0 else f"{state.frames[depth].function.start_byte}:{name}"
                                        for depth, name in holders) | {tok.enqueued_as}
            tok.enqueue_path = tuple((f.function.start_byte, f.site) for f in state.frames)
            contents = state.fifo.get(queue)
            if contents is not None:
                if token in contents:
                    tok.known = False
                else:
                    contents.append(token)
            # Queued tensors are owned by the queue, not by the variables that named them.
            return state
        if kind == "free":
            if token <= 0:
                if token == 0 and not self.never_handed_out(state, event, stmt):
                    self.freed_while_queued(state, event, stmt)
                return state
            tok = self.token(state, token)
            if tok is None:
                return state
            if tok.state == QUEUED:
                contents = state.fifo.get(tok.queue)
                if contents is not None and token in contents:
                    contents.remove(token)
            del state.tokens[token]  # freed: nothing more to follow (bindings to it read as nothing)
            return state
        return state

    def holder_key(self, state: State, name: str) -> str:
        """A member by its name; a local or parameter by its name in its function (equal names in two
        functions are two variables)."""
        frame = state.frames[-1] if state.frames else None
        if frame is None or (name in state.members and name not in frame.locals):
            return name
        return f"{frame.function.start_byte}:{name}"

    def used_while_queued(self, state: State, name: str, event: Event) -> None:
        """An API call uses a tensor its queue holds (EnQue handed it over, no DeQue took it back). Real kernels
        do touch a tensor between its EnQue and a later DeQue; only one then freed still in the queue (the DeQue
        never came) is reported, at this first use."""
        holder = self.holder_key(state, name)
        queued = [t for t in state.tokens.values() if t.known and t.state == QUEUED and holder in t.holder_keys]
        if len(queued) != 1 or queued[0].queued_use is not None:
            return
        held = queued[0]
        held.queued_use = Problem("used-while-queued", held.queue, name, event.site, self.enqueued_here(state, held),
                                  function=state.frames[-1].function.name, repeated=self.loop_depth > 0,
                                  later_iteration=self.iteration > 0, detail=event.method,
                                  uncertain=state.constexpr_taken)

    def freed_while_queued(self, state: State, event: Event, stmt: Stmt) -> None:
        """FreeTensor(x) where x's tensor went into the queue by EnQue and no DeQue took it out: the DeQue
        that should hand it back is missing (the tensor is freed while the queue still holds it)."""
        holder = self.holder_key(state, event.var)
        queued = [t for t in state.tokens.values() if t.known and t.state == QUEUED and t.queue == event.queue
                  and holder in t.holder_keys]
        if len(queued) != 1:
            return
        held = queued[0]
        if held.queued_use is not None:
            self.report(held.queued_use)  # used while queued, then freed without a DeQue: said at the first use
            return
        # Where it went in, as this function sees it: the EnQue, or the call whose callee enqueued it.
        origin = self.enqueued_here(state, held) or held.last_use
        self.report(Problem("freed-while-queued", event.queue, event.var, event.site, origin,
                            function=state.frames[-1].function.name if state.frames else "",
                            repeated=self.loop_depth > 0, later_iteration=self.iteration > 0,
                            uncertain=state.constexpr_taken))

    def never_handed_out(self, state: State, event: Event, stmt: Stmt) -> bool:
        """EnQue/FreeTensor of a LocalTensor declared in this function with no queue behind it."""
        frame = state.frames[-1] if state.frames else None
        if frame is None or event.var not in frame.declared_none:
            return False
        declared = frame.declared_none[event.var]
        self.unhanded_queues.add(event.queue)
        action = "frees" if event.kind == "free" else "enqueues"
        contents = state.fifo.get(event.queue)
        waiting = self.token(state, contents[0]) if contents else None
        self.report(Problem("never-handed-out", event.queue, event.var, declared, event.site,
                            function=frame.function.name, repeated=self.loop_depth > 0,
                            later_iteration=self.iteration > 0, detail=action, uncertain=state.constexpr_taken,
                            enqueued_at=self.enqueued_here(state, waiting) if waiting is not None else None))
        return True

    @staticmethod
    def enqueued_here(state: State, token: Token) -> Site | None:
        """The statement of the current function that enqueued `token` (itself, or a call that led to it)."""
        depth = len(state.frames) - 1
        if depth < 0 or depth >= len(token.enqueue_path) or token.state != QUEUED:
            return None
        function, site = token.enqueue_path[depth]
        return site if function == state.frames[depth].function.start_byte else None

    def new_token(self, state: State, queue: str, kind: str, site: Site, var: str, stmt_site: Site,
                  known: bool = True) -> int:
        token = self.next_token
        self.next_token += 1
        state.tokens[token] = Token(queue, kind, site, var, stmt_site, known, use_calls=_call_sites(state))
        return token

    # -- joins ------------------------------------------------------------------------------------------------

    def join(self, states: list[State]) -> State:
        live = [s for s in states if s.signal not in ("return",)]
        if not live:
            result = states[0]
            return result
        # A path that returned has already been checked at its return; the others continue.
        result = live[0]
        for other in live[1:]:
            result = self.join_two(result, other)
        if any(s.signal in ("break", "continue") for s in live) and not all(s.signal for s in live):
            result.signal = ""
        return result

    def join_two(self, a: State, b: State) -> State:
        if a.signal and not b.signal:
            return b
        if b.signal and not a.signal:
            return a
        a.constexpr_taken = a.constexpr_taken or b.constexpr_taken
        a.trait_decided = a.trait_decided or b.trait_decided
        for token_id, token in a.tokens.items():
            if token_id not in b.tokens and _bound(b, token_id):
                token.partial = True
        for queue in set(a.fifo) | set(b.fifo):
            fa, fb = a.fifo.get(queue), b.fifo.get(queue)
            if fa is None or fb is None or len(fa) != len(fb):
                a.fifo[queue] = None
                continue
            for ta, tb in zip(fa, fb, strict=True):
                if ta != tb:
                    # The same shape of queue from two branches: the branch's token stands for both.
                    self.merge_tokens(a, b, ta, tb)
        for token_id, token in b.tokens.items():
            mine = a.tokens.get(token_id)
            if mine is None:
                if _bound(a, token_id):
                    token.partial = True  # freed on one path, still held on the other
                a.tokens[token_id] = token
            elif mine.state != token.state:
                held = {ALLOC, DEQUED}
                if (mine.state in held) != (token.state in held) and mine.known and token.known:
                    # Given back (queued or freed) on one path only: a maybe-leak, kept as a warning.
                    if token.state in held:
                        a.tokens[token_id] = token
                        mine = token
                    mine.partial = True
                elif mine.state in held and token.state in held and mine.known and token.known:
                    # Held on both paths, round-tripped through its queue on one (`if (c) { q.EnQue(t);
                    # q.DeQue<T>(); }`): still this code's to give back.
                    if token.last_use.start > mine.last_use.start:
                        mine.last_use, mine.use_calls = token.last_use, token.use_calls
                else:
                    mine.known = False
            elif token.last_use.start > mine.last_use.start:
                mine.last_use, mine.use_calls = token.last_use, token.use_calls
        for name, bound in b.members.items():
            a.members[name] = self.join_binding(a, b, a.members.get(name, bound), bound)
        for fa_frame, fb_frame in zip(a.frames, b.frames, strict=False):
            for name, bound in fb_frame.locals.items():
                fa_frame.locals[name] = self.join_binding(a, b, fa_frame.locals.get(name, bound), bound)
            for name, site in fb_frame.declared_none.items():
                fa_frame.declared_none.setdefault(name, site)
        return a

    def join_binding(self, a: State, b: State, mine: int, theirs: int) -> int:
        if mine == theirs:
            return mine
        ta, tb = a.tokens.get(mine), a.tokens.get(theirs)
        if ta is not None and tb is not None and ta.queue == tb.queue and ta.state == tb.state and ta.known and tb.known:
            return mine  # the same kind of tensor from either branch (`x = q.AllocTensor()` in both)
        held = (ALLOC, DEQUED)
        # Given back (the name now holds nothing) on one path, still held on the other: the name keeps the held
        # tensor, marked partial by the token join, so a missing EnQue/FreeTensor in one branch is reported.
        if theirs == 0 and ta is not None and ta.state in held and ta.partial and ta.known:
            return mine
        if mine == 0 and tb is not None and tb.state in held and tb.partial and tb.known:
            return theirs
        # Handed out on one path only, under a condition a later `if` repeats: the name holds it there.
        if theirs == 0 and ta is not None and ta.state in held and ta.guard and ta.known:
            return mine
        if mine == 0 and tb is not None and tb.state in held and tb.guard and tb.known:
            return theirs
        # Given back on one path, holding nothing on the other: nothing.
        if min(mine, theirs) == 0 and max(mine, theirs) > 0 and ta is None and tb is None:
            return 0
        if (mine == 0 and tb is not None and tb.state == FREED) or (theirs == 0 and ta is not None and ta.state == FREED):
            return 0
        self.forget_binding(a, mine, theirs)
        return _UNKNOWN

    def merge_tokens(self, a: State, b: State, ta: int, tb: int) -> None:
        token_b = b.tokens.get(tb)
        token_a = a.tokens.get(ta)
        if token_a is None or token_b is None or token_a.state != token_b.state:
            if token_a is not None:
                token_a.known = False
            return
        for frame in b.frames:
            for name, value in frame.locals.items():
                if value == tb:
                    frame.locals[name] = ta
        for name, value in b.members.items():
            if value == tb:
                b.members[name] = ta
        b.tokens.pop(tb, None)

    @staticmethod
    def forget_binding(state: State, *tokens: int) -> None:
        for token in tokens:
            found = state.tokens.get(token) if token > 0 else None
            if found is not None:
                found.known = False


_ELEMENT = re.compile(r"LocalTensor\s*<\s*([\w:]+)\s*>")
_HAS_TENSOR = re.compile(r"^\(*\s*(!?)\s*((?:this\s*->\s*)?[A-Za-z_]\w*)\s*\.\s*HasTensorInQue\s*\(\s*\)\s*\)*$")
_COMPARISON = re.compile(r"^\(*\s*(!?)\s*([A-Za-z_]\w*)\s*(?:(==|!=|<=|>=|<|>)\s*(-?\d+)[uUlL]*)?\s*\)*$")


def _int_literal(text: str) -> int | None:
    match = re.fullmatch(r"\s*(-?\d+)[uUlL]*\s*", text)
    return int(match.group(1)) if match else None


def _decide(condition: str, constants: dict[str, int]) -> bool | None:
    """The value of `(name OP literal)` / `(name)` / `(!name)` when `name` is a constant parameter."""
    if not constants:
        return None
    match = _COMPARISON.match(condition.strip())
    if match is None or match.group(2) not in constants:
        return None
    value = constants[match.group(2)]
    if match.group(3) is None:
        return (value == 0) if match.group(1) else (value != 0)
    if match.group(1):
        return None
    other = int(match.group(4))
    return {"==": value == other, "!=": value != other, "<": value < other, ">": value > other,
            "<=": value <= other, ">=": value >= other}[match.group(3)]


_TRAIT = re.compile(r"(?:\b(?:std|AscendC)\s*::\s*)?\b(?:is_same_v|is_same|IsSameType|IsSame)\s*<\s*([\w:]+)\s*,\s*([\w:]+)\s*>"
                    r"(?:\s*::\s*value)?(?:\s*\(\s*\))?")
_MAX_INSTANTIATIONS = 6


def _trait_pairs(text: str) -> Iterator[tuple[str, str]]:
    """(type parameter, concrete type) of every `std::is_same<T, half>::value` in `text`: the parameter is the
    side that is a bare name other than a known scalar type."""
    for match in _TRAIT.finditer(text):
        a, b = match.group(1).split("::")[-1], match.group(2).split("::")[-1]
        if a in _SCALAR_TYPES and b not in _SCALAR_TYPES:
            a, b = b, a
        if a not in _SCALAR_TYPES:
            yield a, b


def _instantiations(context: CheckContext, functions: list[Function]) -> list[dict[str, str]]:
    """The instantiations a run per type parameter tested by `is_same` in these functions follows: one per
    type it is compared with, and one where it is none of them. Conditions on the same trait in two places go
    together in a real instantiation (`if (is_same<T, half>) x = q.DeQue(); ... if (is_same<T, half>)
    q.FreeTensor(x);`), which one run over both branches cannot see. Too many combinations: one run, as before."""
    candidates = _compared_types(context, functions)
    runs: list[dict[str, str]] = [{}]
    for param, types in candidates.items():
        runs = [{**run, param: t} for run in runs for t in [*types, ""]]
        if len(runs) > _MAX_INSTANTIATIONS:
            return [{}]
    return runs


def _compared_types(context: CheckContext, functions: list[Function]) -> dict[str, list[str]]:
    """Per type parameter, the types `is_same` compares it with in these functions."""
    data = context.document.data
    candidates: dict[str, list[str]] = {}
    for function in functions:
        body = data[function.body_start:function.body_end].decode("utf-8", "replace")
        for param, concrete in _trait_pairs(body):
            types = candidates.setdefault(param, [])
            if concrete not in types:
                types.append(concrete)
    return candidates


def _decide_traits(condition: str, instantiation: dict[str, str]) -> bool | None:
    """The value of a condition made only of `is_same` traits of the instantiated parameters, `!`, `&&`, `||`."""
    undecided = False

    def value(match: re.Match[str]) -> str:
        nonlocal undecided
        a, b = match.group(1).split("::")[-1], match.group(2).split("::")[-1]
        if a in _SCALAR_TYPES and b not in _SCALAR_TYPES:
            a, b = b, a
        if a not in instantiation:
            undecided = True
            return "False"
        return "True" if instantiation[a] == b else "False"

    expression = _TRAIT.sub(value, condition)
    expression = expression.replace("&&", " and ").replace("||", " or ")
    expression = re.sub(r"!(?!=)", " not ", expression)
    if undecided or not re.fullmatch(r"[\s()]*(?:(?:True|False|and|or|not)[\s()]*)+", expression):
        return None
    try:  # only True/False/and/or/not/parens remain; a malformed or too deeply nested mix stays undecided
        with warnings.catch_warnings():  # "True (False)" compiles with a SyntaxWarning before its TypeError
            warnings.simplefilter("ignore")
            return bool(eval(expression, {"__builtins__": {}}, {}))
    except (SyntaxError, TypeError, RecursionError, MemoryError):
        return None


_SCALAR_TYPES = frozenset({
    "half", "float", "double", "bfloat16_t", "float16_t", "float32_t", "int8_t", "uint8_t", "int16_t", "uint16_t",
    "int32_t", "uint32_t", "int64_t", "uint64_t", "bool", "int", "char", "hifloat8_t", "fp8_e4m3fn_t",
    "fp8_e5m2_t", "int4b_t",
})


def _unbind(state: State, token: int) -> list[tuple[int, str]]:
    """Every name bound to `token` now holds nothing; returns them as (frame depth, name), -1 for a member."""
    holders: list[tuple[int, str]] = []
    for depth, frame in enumerate(state.frames):
        for name, value in frame.locals.items():
            if value == token:
                frame.locals[name] = 0
                holders.append((depth, name))
    for name, value in state.members.items():
        if value == token:
            state.members[name] = 0
            holders.append((-1, name))
    return holders


def _bound(state: State, token: int) -> bool:
    return token in state.members.values() or any(token in frame.locals.values() for frame in state.frames)


_CALL_OR_WRITE = re.compile(r"\w\s*\(|(?<![=!<>])=(?!=)|\+\+|--")


@lru_cache(maxsize=4096)  # every `if` runs many times per analysis (loops twice, each instantiation)
def _condition_key(condition: str) -> tuple[str, bool] | None:
    """An `if` condition as (text, value) so that `if (!x)` / `if (x)` and `a != b` / `a == b` name the same
    condition with opposite values; None for one with calls or writes (it may not be the same twice)."""
    text = re.sub(r"\bthis\s*->\s*", "", condition)
    if _CALL_OR_WRITE.search(text.replace("()", "")):
        return None
    text = re.sub(r"\s+", "", text)
    value = True
    while True:
        text = _strip_parens(text)
        if text.startswith("!") and not text.startswith("!="):
            rest = text[1:]
            if re.fullmatch(r"[\w.:>-]+", rest) or _strip_parens(rest) != rest:
                text, value = rest, not value
                continue
        break
    if "&&" not in text and "||" not in text and len(re.findall(r"==|!=", text)) == 1 and "!=" in text:
        text, value = text.replace("!=", "=="), not value
    return (text, value) if text else None


def _last_iteration(header: str) -> str:
    """The condition key of `i == n - 1` for `for (T i = 0; i < n; ...)` (`i == n` for `i <= n`)."""
    match = _FOR_HEADER.match(header)
    if match is None:
        return ""
    bound = re.sub(r"\s+", "", re.sub(r"\bthis\s*->\s*", "", match.group(4)))
    bound = _strip_parens(bound)
    if not bound or _CALL_OR_WRITE.search(bound):
        return ""
    return f"{match.group(1)}=={bound}" + ("-1" if match.group(3) == "<" else "")


def _strip_parens(text: str) -> str:
    """`(a)` -> `a` when the parentheses enclose the whole text."""
    while text.startswith("(") and text.endswith(")"):
        depth = 0
        for index, char in enumerate(text):
            depth += char == "("
            depth -= char == ")"
            if depth == 0 and index < len(text) - 1:
                return text
        text = text[1:-1]
    return text


def _call_sites(state: State) -> tuple[Site, ...]:
    """The calls (outermost first) that led to the current statement."""
    return tuple(f.call_site for f in state.frames[1:])


def _local_names(frame: Frame) -> set[str]:
    return set(frame.locals) | {p.name for p in frame.function.params}


def _all_names(state: State) -> set[str]:
    names = set(state.members)
    for frame in state.frames:
        names |= set(frame.locals)
    return names


# -- classes and roots -------------------------------------------------------------------------------------------


def _class_name(function: Function) -> str | None:
    name = function.class_name
    return re.sub(r"<.*", "", name, flags=re.S).strip() if name else None  # template arguments may span lines


def _bases(context: CheckContext, cls: ClassInfo) -> list[str]:
    head = context.document.data[cls.start_byte : cls.start_byte + 400].decode("utf-8", "replace")
    match = re.match(r"[^{;]*?\b(?:class|struct)\s+\w+[^:{;]*:([^{;]*)\{", head, re.S)
    if match is None:
        return []
    return [re.sub(r"<.*", "", b, flags=re.S).split("::")[-1].strip() for b in re.findall(
        r"(?:public|protected|private)?\s*([\w:]+(?:<[^{}]*?>)?)", match.group(1)) if b.strip()]


_HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".inc", ".inl")


def _init_targets_by_function(context: CheckContext) -> dict[int, set[str]]:
    """InitBuffer targets per function that calls it (by identity), once per document: each analysis unit asked
    over all of the file's InitBuffer calls, quadratic in a large file."""
    cached = context.__dict__.get("_init_targets_by_function")
    if isinstance(cached, dict):
        return cached
    index: dict[int, set[str]] = {}
    for init in context.model.init_buffers:
        function = init.call.function
        if function is not None:
            index.setdefault(id(function), set()).add(strip_this(init.target))
    context.__dict__["_init_targets_by_function"] = index
    return index


def analyse(context: CheckContext) -> list[Problem]:
    """Every lifecycle problem of the document (cached on the context)."""
    cached = context.__dict__.get("_lifecycle")
    if isinstance(cached, list):
        return cached
    problems: list[Problem] = []
    for units in _units(context):
        owner, functions, queues, skip_end = units
        roots = _roots(context, functions)
        sequence = _driven(context, owner, functions) if owner is not None else roots
        others = [r for r in roots if all(r is not f for f in sequence)]
        if not sequence and not others:
            continue
        compared = _compared_types(context, functions)
        found = _follow(context, owner, functions, queues, skip_end, sequence, others, compared, False)
        regions = _else_regions(context, functions)
        if regions:
            # The configuration of every `#if`'s last branch: only its tensors lost after a last use under
            # `#else`/`#elif` (a give-back there only), which the first configuration never follows; its other
            # problems mix branches of different SoCs and are not reported.
            for key, problem in _follow(context, owner, functions, queues, skip_end, sequence, others, compared,
                                        True).items():
                if problem.kind == "lost" and problem.last_use is not None and key not in found and any(
                        a <= problem.last_use.start < b for a, b in regions):
                    found[key] = problem
        problems.extend(found.values())
    context.__dict__["_lifecycle"] = problems
    return problems


def _follow(context: CheckContext, owner: ClassInfo | None, functions: list[Function], queues: set[str],
            skip_end: set[str], sequence: list[Function], others: list[Function], compared: dict[str, list[str]],
            last_branch: bool) -> dict[tuple[str, int, str, str], Problem]:
    """The problems of one unit in one preprocessor configuration, over every instantiation (none when the
    analysis gives up)."""
    found: dict[tuple[str, int, str, str], Problem] = {}
    for instantiation in _instantiations(context, functions):
        analysis = Analysis(context, owner, functions, queues, skip_end, last_branch)
        analysis.instantiation = instantiation
        analysis.compared = compared
        try:
            for problem in analysis.run(sequence, others):
                # The same problem in several instantiations: the give-back must follow every one's last
                # use (a use under `if constexpr (!is_same<T, double>)` counts though `double` skips it).
                key = (problem.kind, problem.site.start, problem.queue, problem.var)
                if problem.kind == "used-while-queued" and problem.origin is not None:
                    # One per tensor that went in: its first use in any instantiation.
                    key = (f"{problem.kind}:{problem.var}", problem.origin.start, "", "")
                    earlier = found.get(key)
                    if earlier is None or problem.site.start < earlier.site.start:
                        found[key] = problem
                    continue
                seen = found.get(key)
                if seen is None or (problem.last_use is not None and (
                        seen.last_use is None or problem.last_use.start > seen.last_use.start)):
                    found[key] = problem
        except _NoSuchInstantiation:
            continue
        except (_GiveUp, RecursionError):
            return {}
    return found


_PREPROCESSOR_BRANCH = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b", re.MULTILINE)


def _else_regions(context: CheckContext, functions: list[Function]) -> list[tuple[int, int]]:
    """The byte ranges of `#else`/`#elif` branches (to their `#endif`) inside the unit's function bodies."""
    data = context.document.data
    regions: list[tuple[int, int]] = []
    for function in functions:
        opened: list[int | None] = []  # per open `#if`: where its first `#else`/`#elif` began
        for match in _PREPROCESSOR_BRANCH.finditer(data, function.body_start, function.body_end):
            word = match.group(1)
            if word.startswith(b"if"):
                opened.append(None)
            elif word in (b"elif", b"else") and opened:
                if opened[-1] is None:
                    opened[-1] = match.start()
            elif word == b"endif" and opened:
                began = opened.pop()
                if began is not None:
                    regions.append((began, match.start()))
    return regions


def _units(context: CheckContext) -> Iterator[tuple[ClassInfo | None, list[Function], set[str], set[str]]]:
    model = context.model
    queue_decls = [b for b in model.buffers if b.kind in _QUEUE_KINDS]
    if not queue_decls:
        return
    escaped = _escaping_queues(context, {b.name for b in queue_decls})
    is_header = (context.document.path or "").endswith(_HEADER_SUFFIXES)
    classes = {c.name: c for c in model.classes}
    # Methods defined in a class body carry its exact name (`KernelAdd<half, 1>` for a specialisation);
    # out-of-line ones (`KernelAdd<T>::Process`) belong to the primary template.
    by_class: dict[str | None, list[Function]] = {}
    for function in model.functions:
        in_body = model.class_at(function.start_byte) is not None
        key = function.class_name if in_body else _class_name(function)
        by_class.setdefault(key, []).append(function)
    bases = {cls.name: [b for b in _bases(context, cls) if b in classes and b != cls.name] for cls in model.classes}
    # Queue names per owning class, under its exact and its template-stripped name (one pass, not one per class).
    queues_of: dict[str, set[str]] = {}
    for b in queue_decls:
        for owner_name in {b.class_name, re.sub(r"<.*", "", b.class_name or "", flags=re.S).strip()}:
            if owner_name is not None:
                queues_of.setdefault(owner_name, set()).add(b.name)
    extended = {b for names in bases.values() for b in names}
    for cls in model.classes:
        if cls.name in extended:
            continue  # followed as part of its subclasses, whose methods complete its protocol
        chain = [cls.name]
        for base in bases.get(cls.name, []):
            if base not in chain:
                chain.append(base)
            for grand in bases.get(base, []):
                if grand not in chain:
                    chain.append(grand)
        queues = {name for owner_name in chain for name in queues_of.get(owner_name, ())} - escaped
        if not queues:
            continue
        functions: list[Function] = []
        seen: set[str] = set()
        for name in chain:  # own methods first: they hide the bases' ones of the same name
            own = [f for f in by_class.get(name, []) if f.name not in seen and f.body_end > f.body_start]
            functions.extend(own)  # overloads of one class are all kept: a call may reach any of them
            seen.update(f.name for f in own)
        shared: set[str] = set()
        if is_header:
            shared = {q for q in queues if _non_private(context, cls, q)}
        yield cls, functions, queues, shared
    # Free functions with queues of their own (or global ones).
    free_queues = {b.name for b in queue_decls if b.class_name is None} - escaped
    if free_queues:
        functions = [f for f in by_class.get(None, []) if f.body_end > f.body_start]
        if functions:
            yield None, functions, free_queues, set()


def _non_private(context: CheckContext, cls: ClassInfo, queue: str) -> bool:
    decl = next((b for b in context.model.buffers if b.name == queue and cls.start_byte <= b.start_byte < cls.end_byte), None)
    if decl is None:
        return True
    head = context.document.data[cls.start_byte : decl.start_byte]
    specifiers = re.findall(rb"\b(public|protected|private)\s*:", head)
    access = specifiers[-1].decode() if specifiers else ("public" if cls.is_struct else "private")
    return access != "private"


def _escaping_queues(context: CheckContext, names: set[str]) -> set[str]:
    """Queues handed to other code (as an argument, or stored by reference/pointer)."""
    escaped: set[str] = set()
    for call in context.model.calls:
        if call.name == "InitBuffer":
            continue
        for arg in call.args:
            text = strip_this(arg.text).lstrip("&*").strip()
            if text in names:
                escaped.add(text)
    data = context.document.data
    for name in names - escaped:
        if re.search(rb"&\s*(?:this\s*->\s*)?" + re.escape(name.encode()) + rb"\b", data):
            escaped.add(name)
    return escaped


def _driven(context: CheckContext, owner: ClassInfo, functions: list[Function]) -> list[Function]:
    """The methods a function of this file calls, in order, on an object of the class (`KernelAdd<half> op;
    op.Init(...); op.Process();`): the real order of the roots. The first such object decides."""
    by_name = {f.name: f for f in functions}
    declaration = re.compile(rb"\b" + re.escape(owner.name.encode()) + rb"\s*(?:<[^;(){}]*>)?\s+([A-Za-z_]\w*)\s*[;({]")
    data = context.document.data
    for function in _free_functions_naming(context, owner.name):
        first = declaration.search(data, function.body_start, function.body_end)
        if first is None:
            continue
        # Only the calls on that object: from its declaration to the end of its block. A kernel that picks its
        # class by tiling key declares one `op` per branch; taking the calls on every branch's `op` ran
        # Init/Process once per branch, each on the state the previous left (26 times, tokens piling up: `check`
        # on cann-ops' dequant_swiglu_quant with its headers, 98 KB, took 190 s).
        name, end = first.group(1).decode(), _block_end(context, first.start(1), function.body_end)
        calls = [c for c in calls_of(context, function) if c.receiver is not None
                 and c.receiver.strip() == name and c.name in by_name and first.end() <= c.start_byte < end]
        if calls:
            return [by_name[c.name] for c in calls]
    return []


def _block_end(context: CheckContext, at_byte: int, default: int) -> int:
    """Where the innermost block holding `at_byte` ends (`default` outside any block)."""
    node = context.document.tree.root_node.descendant_for_byte_range(at_byte, at_byte)
    while node is not None and node.type != "compound_statement":
        node = node.parent
    return node.end_byte if node is not None else default


def _free_functions_naming(context: CheckContext, class_name: str) -> list[Function]:
    """The free functions (bodies outside any class) whose body holds the class's name as a word, in file order:
    the only ones where a declaration of an object of the class can be. One scan of the file's words serves every
    class (a regex per class over every function was quadratic in a large file)."""
    base = re.match(r"[A-Za-z_]\w*", class_name)
    if base is None:
        return []
    cached = context.__dict__.get("_class_word_sites")
    if not isinstance(cached, tuple):
        model = context.model
        words = {m.group(0).encode() for c in model.classes if (m := re.match(r"[A-Za-z_]\w*", c.name))}
        sites: dict[bytes, list[int]] = {}
        for word in re.finditer(rb"\b[A-Za-z_]\w*", context.document.data):
            if word.group(0) in words:
                sites.setdefault(word.group(0), []).append(word.start())
        free = [f for f in model.functions if f.class_name is None and f.body_end > f.body_start]
        cached = (sites, free, [f.body_start for f in free])
        context.__dict__["_class_word_sites"] = cached
    sites, free, starts = cached
    found: set[int] = set()
    for at in sites.get(base.group(0).encode(), ()):
        index = bisect_right(starts, at) - 1
        # free functions do not nest: only the last one starting before `at` can hold it
        if index >= 0 and at < free[index].body_end:
            found.add(index)
    return [free[i] for i in sorted(found)]


def calls_of(context: CheckContext, function: Function) -> list[ApiCall]:
    from ascendc_lsp.checks.rules._common import calls_by_function

    return calls_by_function(context).get(function.start_byte, [])


def _roots(context: CheckContext, functions: list[Function]) -> list[Function]:
    names = {f.name for f in functions}
    starts = {f.start_byte for f in functions}
    called: set[str] = set()
    for call in (c for f in functions for c in calls_of(context, f)):  # the unit's own calls, not the file's
        caller = call.function
        if caller is None or caller.start_byte not in starts or call.name not in names or caller.name == call.name:
            continue
        if call.receiver is None or call.receiver.strip() == "this":
            called.add(call.name)
    roots = [f for f in functions if f.name not in called]
    return sorted(roots, key=lambda f: f.start_byte)
