"""Queue lifecycles: AllocTensor/EnQue/DeQue/FreeTensor pairing, types, use after free, live tensors, depth.

A queue's life spans its class: AllocTensor + EnQue in CopyIn and DeQue + FreeTensor in Compute is the normal
pattern, so pairing (ASC009, ASC010) is counted per queue over all the class's methods, while the path rules
(ASC008, ASC011, ASC012) look inside one function at a time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import tree_sitter

from ascendc_lsp.checks.base import CheckContext, Finding, Fix, Related, rule
from ascendc_lsp.checks.fixes import fix, insert_line_after
from ascendc_lsp.checks.limits import limits_for
from ascendc_lsp.checks.rules._common import (
    DATA_MOVES,
    KNOWN_DTYPES,
    VECTOR_OPS,
    calls_by_function,
    fmt,
    in_constexpr_branch,
    node_for,
    normal_dtype,
    receiver_name,
    resolved_dtype,
    strip_this,
    tensor_of,
)
from ascendc_lsp.checks.rules._flow import COVERED, RETURNED, covers
from ascendc_lsp.syntax.model import ApiCall, BufferDecl, DocumentModel, Function

_QUEUE_KINDS = frozenset({"TQue", "TQueBind"})
# Calls that use a tensor without taking it over; any other call it is passed to may give it back.
_NOT_CONSUMERS = VECTOR_OPS | DATA_MOVES | frozenset({
    "GetValue", "SetValue", "ReinterpretCast", "GetSize", "SetSize", "PipeBarrier", "SetFlag", "WaitFlag",
    "DeQue", "AllocTensor", "GetPhyAddr", "Get",
})
_LIFECYCLE = frozenset({"AllocTensor", "EnQue", "DeQue", "FreeTensor"})


@dataclass
class QueueOp:
    call: ApiCall
    queue: str
    var: str | None  # the tensor variable the call produces (Alloc/DeQue) or takes (EnQue/Free)
    node: tree_sitter.Node | None


def _queue(context: CheckContext, name: str | None) -> BufferDecl | None:
    if name is None:
        return None
    decl = context.model.buffer(name)
    return decl if decl is not None and decl.kind in _QUEUE_KINDS else None


def _assigned_var(node: tree_sitter.Node | None, get: Callable[[tree_sitter.Node], str]) -> str | None:
    """The variable a call's result is stored in: `auto x = q.DeQue<T>();` or `x = q.AllocTensor<T>();`."""
    if node is None:
        return None
    parent = node.parent
    if parent is None:
        return None
    if parent.type == "init_declarator":
        declarator = parent.child_by_field_name("declarator")
        return strip_this(get(declarator)).lstrip("&*").strip() if declarator is not None else None
    if parent.type == "assignment_expression":
        left = parent.child_by_field_name("left")
        right = parent.child_by_field_name("right")
        if left is not None and right is not None and right.id == node.id:
            return strip_this(get(left))
    return None


def _call_node(context: CheckContext, call: ApiCall) -> tree_sitter.Node | None:
    node = node_for(context, call.start_byte, call.end_byte)
    while node is not None and node.type != "call_expression":
        node = node.parent
    return node


def _ops(context: CheckContext) -> list[QueueOp]:
    cached = context.__dict__.get("_queue_ops")
    if isinstance(cached, list):
        return cached
    ops: list[QueueOp] = []
    for call in context.model.calls:
        if call.name not in _LIFECYCLE:
            continue
        queue = receiver_name(call)
        if _queue(context, queue) is None or queue is None:
            continue
        node = _call_node(context, call)
        if call.name in ("AllocTensor", "DeQue"):
            var = _assigned_var(node, context.document.node_text)
        else:
            var = strip_this(call.args[0].text) if call.args else None
        ops.append(QueueOp(call, queue, var, node))
    context.__dict__["_queue_ops"] = ops
    return ops


def _escaping_queues(context: CheckContext) -> set[str]:
    """Queues passed by reference or pointer to other code: their operations may happen out of sight."""
    cached = context.__dict__.get("_escaping_queues")
    if isinstance(cached, set):
        return cached
    names = {b.name for b in context.model.buffers if b.kind in _QUEUE_KINDS}
    escaped: set[str] = set()
    for call in context.model.calls:
        if call.name == "InitBuffer":
            continue
        for arg in call.args:
            text = strip_this(arg.text).lstrip("&*").strip()
            if text in names:
                escaped.add(text)
    context.__dict__["_escaping_queues"] = escaped
    return escaped


_HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".inc", ".inl")


def _shared_with_subclasses(context: CheckContext, queue: str) -> bool:
    """A protected/public queue of a class in a header: subclasses elsewhere may do the other half."""
    if not context.document.path.endswith(_HEADER_SUFFIXES):
        return False
    decl = _queue(context, queue)
    if decl is None:
        return False
    cls = next((c for c in context.model.classes if c.start_byte <= decl.start_byte < c.end_byte), None)
    if cls is None:
        return True
    head = context.document.data[cls.start_byte:decl.start_byte]
    specifiers = re.findall(rb"\b(public|protected|private)\s*:", head)
    access = specifiers[-1].decode() if specifiers else ("public" if cls.is_struct else "private")
    return access != "private"


def _is_local(context: CheckContext, var: str, function: Function) -> bool:
    locals_ = context.__dict__.get("_local_tensors")
    if not isinstance(locals_, set):
        locals_ = {(tensor.name, id(tensor.function)) for tensor in context.model.tensors}
        context.__dict__["_local_tensors"] = locals_
    return (var, id(function)) in locals_


def _body_node(context: CheckContext, function: Function) -> tree_sitter.Node | None:
    node = node_for(context, function.body_start, function.body_end)
    while node is not None and node.type != "compound_statement":
        node = node.parent
    return node


# -- ASC008 --------------------------------------------------------------------------------------------------


@rule("ASC008")
def alloc_without_free(context: CheckContext) -> Iterator[Finding]:
    enqueued: dict[tuple[str | None, int], list[int]] = {}
    for o in _ops(context):
        if o.call.name == "EnQue":
            enqueued.setdefault((o.var, id(o.call.function)), []).append(o.call.end_byte)
    for op in _ops(context):
        if op.call.name not in ("AllocTensor", "DeQue") or op.var is None or op.node is None:
            continue
        function = op.call.function
        if function is None or not _is_local(context, op.var, function):
            continue
        var = op.var
        if op.call.name == "DeQue" and any(
            end < op.call.start_byte for end in enqueued.get((var, id(function)), ())
        ):
            continue  # EnQue/DeQue of a borrowed tensor used as a pipe sync: its owner frees it
        consumers = [
            c for c in calls_by_function(context).get(function.start_byte, [])
            if c.function is function and c.start_byte > op.call.end_byte
            and (
                (c.name in ("EnQue", "FreeTensor") and receiver_name(c) == op.queue)
                or ((c.name in ("EnQue", "FreeTensor") or c.name not in _NOT_CONSUMERS)
                    and any(strip_this(a.text) == var for a in c.args))
            )
        ]
        ranges = [(c.start_byte, c.end_byte) for c in consumers]
        escapes = _escapes(context, var, function, op.call.end_byte)
        body = _body_node(context, function)
        if body is None:
            continue
        result = covers(op.node, body, _consumer(ranges, escapes), _returner(context, var))
        if result.outcome == COVERED:
            continue
        conditional = _conditional(op.node, body)
        if conditional and (consumers or escapes):
            continue  # allocated under a condition: the give-back is usually under the same condition
        source = f"{op.queue}.{op.call.name}"
        give_back = "EnQue or FreeTensor" if op.call.name == "AllocTensor" else "FreeTensor"
        related: list[Related] = []
        fixes: list[Fix | None] = []
        severity: str | None = None
        if result.outcome == RETURNED and result.exit_node is not None:
            line = context.document.lines.line_of(result.exit_node.start_byte) + 1
            message = (
                f"{var} from {source} is not given back ({give_back}) on the path that returns at line {line}: "
                f"the queue's buffer stays taken"
            )
            related.append(Related(context.document.span(result.exit_node), "this return leaks the tensor"))
        elif not consumers and not escapes and op.queue in _orphan_frees(context):
            continue  # another method frees tensors of this queue it did not get itself: ownership crosses methods
        elif not consumers and not escapes:
            repeated = op.call.loop_depth > 0 or function.name in _called_in_loops(context, function.class_name)
            if repeated:
                message = (f"{var} from {source} is never given back with {give_back} in {function.name}(), which "
                           "runs repeatedly: the queue runs out of buffers and AllocTensor/DeQue hangs")
            else:
                message = (f"{var} from {source} is never given back with {give_back} in {function.name}(): the "
                           "kernel ends holding the buffer")
                severity = "warning"
            if op.call.name == "DeQue":
                fixes.append(_free_fix(context, op, function))
        else:
            message = f"{var} from {source} is not given back ({give_back}) on every path through {function.name}()"
            severity = "warning"
        yield context.finding("ASC008", op.call.span, message, related=related, severity=severity,
                              fixes=[f for f in fixes if f is not None])


def _orphan_frees(context: CheckContext) -> set[str]:
    """Queues with a FreeTensor/EnQue of a tensor that its function did not AllocTensor/DeQue itself."""
    cached = context.__dict__.get("_orphan_frees")
    if isinstance(cached, set):
        return cached
    ops = _ops(context)
    got = {(o.queue, o.var, id(o.call.function)) for o in ops if o.call.name in ("AllocTensor", "DeQue")}
    orphans = {
        o.queue for o in ops
        if o.call.name in ("FreeTensor", "EnQue") and (o.queue, o.var, id(o.call.function)) not in got
    }
    context.__dict__["_orphan_frees"] = orphans
    return orphans


def _called_in_loops(context: CheckContext, class_name: str | None) -> set[str]:
    return {
        c.name for c in context.model.calls
        if c.loop_depth > 0 and c.function is not None and c.function.class_name == class_name
        and c.receiver in (None, "this")
    }


def _conditional(node: tree_sitter.Node, body: tree_sitter.Node) -> bool:
    parent = node.parent
    while parent is not None and parent.id != body.id:
        if parent.type in ("if_statement", "conditional_expression", "switch_statement", "case_statement"):
            return True
        parent = parent.parent
    return False


def _consumer(ranges: list[tuple[int, int]], escapes: list[int]) -> Callable[[int, int], bool]:
    def consumes(start: int, end: int) -> bool:
        return any(start <= s and e <= end for s, e in ranges) or any(start <= p < end for p in escapes)

    return consumes


def _returner(context: CheckContext, var: str) -> Callable[[tree_sitter.Node], bool]:
    pattern = re.compile(rf"\b{re.escape(var)}\b")

    def returns_value(node: tree_sitter.Node) -> bool:
        return pattern.search(context.document.node_text(node)) is not None

    return returns_value


def _escapes(context: CheckContext, var: str, function: Function, after: int) -> list[int]:
    """Offsets where `var` is stored elsewhere (`member = var;`), which hands its ownership on."""
    data = context.document.data[after:function.body_end].decode("utf-8", errors="replace")
    found: list[int] = []
    for match in re.finditer(rf"=\s*{re.escape(var)}\s*;", data):
        found.append(after + len(data[: match.start()].encode()))
    return found


def _free_fix(context: CheckContext, op: QueueOp, function: Function) -> Fix | None:
    """Insert `queue.FreeTensor(var);` after the last statement that uses the tensor."""
    body = _body_node(context, function)
    if body is None or op.var is None:
        return None
    last_use = op.call.end_byte
    pattern = re.compile(rf"\b{re.escape(op.var)}\b")
    text = context.document.data[op.call.end_byte:function.body_end].decode("utf-8", errors="replace")
    for match in pattern.finditer(text):
        last_use = op.call.end_byte + len(text[: match.start()].encode())
    # The statement holding the last use, at the allocation's block level.
    node = node_for(context, last_use, last_use + 1)
    anchor_block = op.node.parent if op.node is not None else None
    while anchor_block is not None and anchor_block.type != "compound_statement":
        anchor_block = anchor_block.parent
    while node is not None and node.parent is not None and (anchor_block is None or node.parent.id != anchor_block.id):
        node = node.parent
    if node is None or node.parent is None:
        return None
    receiver = op.call.receiver or op.queue
    return fix(f"Add {receiver}.FreeTensor({op.var})",
               insert_line_after(context.document, node.end_byte - 1, f"{receiver}.FreeTensor({op.var});"))


# -- ASC009 / ASC010 --------------------------------------------------------------------------------------------


@rule("ASC009")
def enque_deque_unpaired(context: CheckContext) -> Iterator[Finding]:
    escaped = _escaping_queues(context)
    by_queue: dict[str, dict[str, list[QueueOp]]] = {}
    for op in _ops(context):
        by_queue.setdefault(op.queue, {}).setdefault(op.call.name, []).append(op)
    for queue, ops in by_queue.items():
        if queue in escaped or _shared_with_subclasses(context, queue):
            continue
        enq, deq = ops.get("EnQue", []), ops.get("DeQue", [])
        if enq and not deq:
            yield context.finding(
                "ASC009", enq[0].call.span,
                f"{queue} is enqueued ({len(enq)} EnQue call(s)) but never dequeued: the tensor never reaches the "
                "next stage and the queue fills up",
            )
        elif deq and not enq:
            yield context.finding(
                "ASC009", deq[0].call.span,
                f"{queue} is dequeued ({len(deq)} DeQue call(s)) but nothing is ever enqueued: DeQue waits forever",
            )


def _concrete(model: DocumentModel, raw: str, at_byte: int) -> str | None:
    """An element type spelled out concretely (`half`, `float16_t`); None for template parameters and positions."""
    spelled = normal_dtype(raw.replace("AscendC::", "").strip())
    if spelled not in KNOWN_DTYPES:
        return None
    return spelled if resolved_dtype(model, raw, at_byte) == spelled else None


def _alloc_dtype(context: CheckContext, op: QueueOp) -> str | None:
    if op.call.template_args:
        return op.call.template_args[0].strip()
    if op.var is not None:
        var = tensor_of(context, op.var, op.call.start_byte)
        if var is not None:
            return var.dtype
    return None


@rule("ASC010")
def deque_type_mismatch(context: CheckContext) -> Iterator[Finding]:
    escaped = _escaping_queues(context)
    by_queue: dict[str, list[QueueOp]] = {}
    for op in _ops(context):
        by_queue.setdefault(op.queue, []).append(op)
    model = context.model
    for queue, ops in by_queue.items():
        if queue in escaped:
            continue
        allocs = [o for o in ops if o.call.name == "AllocTensor"]
        if not allocs or not any(o.call.name == "EnQue" for o in ops):
            continue
        alloc_types = {_alloc_dtype(context, o) for o in allocs}
        if None in alloc_types or len(alloc_types) != 1:
            continue
        raw = next(iter(alloc_types))
        assert raw is not None
        alloc_resolved = _concrete(model, raw, allocs[0].call.start_byte)
        if alloc_resolved is None:
            continue
        for op in ops:
            if op.call.name != "DeQue" or not op.call.template_args:
                continue
            got = op.call.template_args[0].strip()
            got_resolved = _concrete(model, got, op.call.start_byte)
            if got_resolved is None or got_resolved == alloc_resolved:
                continue
            if in_constexpr_branch(context, op.call.start_byte, op.call.end_byte):
                continue
            yield context.finding(
                "ASC010", op.call.span,
                f"{queue}.DeQue<{got}> reads a tensor allocated and enqueued as {raw}"
                + (f" ({alloc_resolved})" if alloc_resolved != raw else "")
                + ": the element type must match (use ReinterpretCast on purpose)",
                related=[Related(allocs[0].call.span, f"allocated as {raw} here")],
            )


# -- ASC011 ----------------------------------------------------------------------------------------------------


@rule("ASC011")
def use_after_free(context: CheckContext) -> Iterator[Finding]:
    for op in _ops(context):
        if op.call.name != "FreeTensor" or op.var is None or op.node is None:
            continue
        if not re.fullmatch(r"[A-Za-z_]\w*", op.var):
            continue
        statement = op.node
        while statement.parent is not None and statement.parent.type != "compound_statement":
            statement = statement.parent
        block = statement.parent
        if block is None:
            continue
        start, end = statement.end_byte, block.end_byte
        text = context.document.data[start:end].decode("utf-8", errors="replace")
        pattern = re.compile(rf"\b{re.escape(op.var)}\b(\s*=(?!=))?")
        for match in pattern.finditer(text):
            offset = start + len(text[: match.start()].encode())
            node = node_for(context, offset, offset + len(op.var))
            if node is None or node.type not in ("identifier", "field_identifier"):
                continue
            if match.group(1) or _is_declaration(node):
                break  # reassigned: a new tensor
            if re.match(r"\s*\.\s*(GetSize|GetLength|GetPosition)\s*\(", text[match.end():]):
                continue  # metadata of the handle, not the freed buffer
            yield context.finding(
                "ASC011", context.document.span(node),
                f"{op.var} is used after {op.queue}.FreeTensor({op.var}) gave its buffer back; the queue may "
                "already have handed that buffer to another tensor",
                related=[Related(op.call.span, "freed here")],
            )
            break


def _is_declaration(node: tree_sitter.Node) -> bool:
    parent = node.parent
    return parent is not None and parent.type in ("init_declarator", "declaration")


# -- ASC012 ----------------------------------------------------------------------------------------------------


@rule("ASC012")
def live_tensors_exceed_buffers(context: CheckContext) -> Iterator[Finding]:
    limits = limits_for(context)
    model = context.model
    by_fn_queue: dict[tuple[int, str], list[QueueOp]] = {}
    for op in _ops(context):
        if op.call.name in ("AllocTensor", "FreeTensor") and op.call.function is not None:
            by_fn_queue.setdefault((op.call.function.start_byte, op.queue), []).append(op)
    for (_fn, queue), ops in by_fn_queue.items():
        owner = ops[0].call.function.class_name if ops[0].call.function is not None else None
        # The queue's InitBuffer in the same class (several kernel classes may reuse a queue name).
        inits = model.init_buffers_for(queue, owner)
        counts = {i.buffer_count for i in inits if i.call.loop_depth == 0}
        if len(counts) != 1:
            continue
        buffers = next(iter(counts))
        if buffers is None:
            continue
        limit = min(buffers, limits.max_live_tensors_per_position)
        # Allocations count together only when they sit in the same block (not in exclusive branches).
        blocks: dict[int, list[QueueOp]] = {}
        for op in ops:
            if op.call.name == "AllocTensor" and op.node is not None:
                block = op.node.parent
                while block is not None and block.type != "compound_statement":
                    block = block.parent
                if block is not None:
                    blocks.setdefault(block.id, []).append(op)
        frees = [o.call.start_byte for o in ops if o.call.name == "FreeTensor"]
        for allocs in blocks.values():
            live = 0
            previous = -1
            for op in sorted(allocs, key=lambda o: o.call.start_byte):
                if any(previous < f < op.call.start_byte for f in frees):
                    live = 0
                live += 1
                previous = op.call.start_byte
                if live > limit:
                    what = (f"{limits.max_live_tensors_per_position} per position on {limits.soc_name}"
                            if limit < buffers else f"InitBuffer gave it {buffers}")
                    yield context.finding(
                        "ASC012", op.call.span,
                        f"{fmt(live)} tensors allocated from {queue} at once, but {what}: this AllocTensor waits "
                        "forever for a free buffer",
                    )
                    break


# -- ASC013 ----------------------------------------------------------------------------------------------------


@rule("ASC013")
def tque_depth_vs_buffers(context: CheckContext) -> Iterator[Finding]:
    model = context.model
    for decl in model.buffers:
        if decl.kind != "TQue" or decl.depth is None:
            continue
        depth = decl.depth.as_int()
        if depth is None or depth < 2:
            continue
        inits = [i for i in model.init_buffers_for(decl.name, decl.class_name) if i.call.loop_depth == 0]
        counts = {i.buffer_count for i in inits}
        if len(counts) != 1:
            continue
        buffers = next(iter(counts))
        if buffers is None or depth <= buffers:
            continue
        message = (
            f"{decl.name} has queue depth {depth} but InitBuffer gives it {buffers} buffer(s): the depth is how many "
            f"EnQue may be pending, not the double-buffer count; use depth 1 and InitBuffer({decl.name}, "
            f"{depth}, len) for double buffering"
        )
        yield context.finding("ASC013", decl.span, message,
                              related=[Related(inits[0].call.span, f"InitBuffer gives {buffers} buffer(s)")])

