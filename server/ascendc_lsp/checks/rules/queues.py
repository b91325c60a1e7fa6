"""Queue lifecycles: AllocTensor/EnQue/DeQue/FreeTensor as a protocol, types, use after free, live tensors, depth.

A queue's life spans its class: AllocTensor + EnQue in CopyIn and DeQue + FreeTensor in Compute is the normal
pattern, so ASC008 (a tensor never given back) and ASC009 (DeQue with nothing enqueued, a tensor given back
that the queue never handed out, one never dequeued) come from interpreting the class's methods in the order
its roots call them (rules/_lifecycle.py); ASC010 compares types per queue, and ASC011/ASC012 look inside one
function at a time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import tree_sitter

from ascendc_lsp.checks.base import CheckContext, rule
from ascendc_lsp.checks.fixes import fix, insert_line_after
from ascendc_lsp.checks.limits import limits_for
from ascendc_lsp.checks.rules._common import (
    KNOWN_DTYPES,
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
from ascendc_lsp.checks.rules._lifecycle import Problem, Site, analyse
from ascendc_lsp.diagnostics import Diagnostic, Fix, Related, Severity
from ascendc_lsp.syntax.model import ApiCall, BufferDecl, DocumentModel, Function
from ascendc_lsp.syntax.positions import Span

_QUEUE_KINDS = frozenset({"TQue", "TQueBind"})
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


# -- ASC008 / ASC009: the protocol over the class (rules/_lifecycle.py) -------------------------------------------


def _span(context: CheckContext, site: Site) -> Span:
    return context.document.lines.span(site.start, site.end)


def _statement_end(context: CheckContext, site: Site) -> int:
    """The end of the statement at `site` (where a give-back line goes)."""
    node = node_for(context, site.start, site.end)
    while node is not None and node.parent is not None and node.parent.type not in ("compound_statement",):
        node = node.parent
    return node.end_byte if node is not None else site.end


def _give_back_fix(context: CheckContext, problem: Problem, call: str) -> Fix | None:
    if not re.fullmatch(r"[A-Za-z_]\w*", problem.var or "") or problem.last_use is None:
        return None
    end = _statement_end(context, problem.last_use)
    return fix(f"Add {problem.queue}.{call}({problem.var})",
               insert_line_after(context.document, end - 1, f"{problem.queue}.{call}({problem.var});"))


_REGION_LINES = 12


def _give_back_region(context: CheckContext, problem: Problem) -> Span:
    """Where the missing give-back belongs: anywhere from the tensor's last use to where it is lost. The
    finding covers that region when it is short, or from the last use to the next give-back run (EnQue or
    FreeTensor, of any queue: `outQ.EnQue(y); inQ.FreeTensor(x);`) when that is near. In a long one it points
    at the first FreeTensor run that follows the last use on its path (a dequeued tensor is freed with the
    stage's others), else at the last use (a producer enqueues what it filled at once)."""
    last = problem.last_use
    lines = context.document.lines
    inner = _inner_give_back_region(context, problem)
    if inner is not None:
        return inner
    if last is None or (problem.detail == "the kernel ends"
                        and lines.line_of(problem.site.end) - lines.line_of(last.start) > _REGION_LINES):
        # Given back before the kernel's last method ends (with the tensors it frees there), when that is far.
        return _span(context, problem.site)
    if context.model.function_at(last.start) is not context.model.function_at(problem.site.start):
        # Lost in a method called after the last use: with the give-backs of a helper called after the last use
        # (`FreeBuffers();`), else where it is lost.
        helper = _helper_give_back_run(context, last, problem.site, problem.partial)
        return lines.span(*helper) if helper is not None else _span(context, problem.site)
    if last.start > problem.site.start:
        # Lost in a later iteration of a loop (overwritten above its last use in the text): the give-back
        # belongs after the last use, before its block ends.
        block = _innermost_block(context, last)
        if lines.line_of(block[1]) - lines.line_of(last.start) <= _REGION_LINES:
            return lines.span(last.start, block[1])
        return _span(context, last)
    last = _last_use_in_other_branch(context, problem, last)
    if problem.partial:
        other = _branch_without_give_back(context, problem, last)
        if other is not None:
            return other
    if lines.line_of(problem.site.end) - lines.line_of(last.start) <= _REGION_LINES:
        return lines.span(last.start, problem.site.end)
    function = context.model.function_at(last.start)
    if function is not None:
        # A near run of give-backs of any kind (the missing one goes between the last use and it); else, far
        # away, a run of FreeTensors for a dequeued tensor. An allocated one is enqueued at once by its producer.
        near = _give_back_run(context, function, problem, ("EnQue", "FreeTensor"))
        if problem.state == "allocated" and _dequeued_somewhere(context, problem.queue):
            # Its EnQue is what is missing: it goes with the stage's EnQues, past a FreeTensor run before them.
            enques = _give_back_run(context, function, problem, ("EnQue",))
            if enques is not None and lines.line_of(enques[1]) - lines.line_of(last.start) <= _REGION_LINES:
                return lines.span(last.start, enques[1])
        if near is not None and lines.line_of(near[1]) - lines.line_of(last.start) <= _REGION_LINES:
            return lines.span(last.start, near[1])
        far = _give_back_run(context, function, problem, ("FreeTensor",)) if problem.state != "allocated" else None
        if far is None and problem.state == "allocated" and near is not None and (
                (_in_loop_body(context, last) and _innermost_block(context, last) != _innermost_block(
                    context, Site(near[0], near[1])))
                or (problem.origin is not None and last.start <= problem.origin.start < last.end)
                or _run_gives_back_one_held_with(context, function, near, last)):
            # The stage's run is where it goes when the tensor was filled inside a loop (given back once after
            # it: `for (...) { y.SetValue(i, v); } outQ.EnQue(y);`), never used, or held together with a tensor
            # the run gives back (allocated before this one's last use): they belong to one stage.
            far = near
        if far is not None:
            return lines.span(far[0], far[1])
    # None follows: the give-back belongs after the last use in its block (before the block closes, or just after).
    block = _innermost_block(context, last)
    if lines.line_of(block[1]) - lines.line_of(last.start) <= _REGION_LINES:
        return lines.span(last.start, block[1])
    return _span(context, last)


def _inner_give_back_region(context: CheckContext, problem: Problem) -> Span | None:
    """Last used inside a method the losing function passed it to (`Finish(x, t)` uses x and frees t): when that
    method gives back tensors passed to it soon after the use, the missing give-back belongs with them there."""
    inner = problem.inner_use
    function = context.model.function_at(inner.start) if inner is not None else None
    if inner is None or function is None:
        return None
    lines = context.document.lines
    params = {p.name for p in function.params}
    calls = [c for c in calls_by_function(context).get(function.start_byte, [])
             if c.name in ("EnQue", "FreeTensor") and c.start_byte >= inner.end and c.args
             and strip_this(c.args[0].text.strip()) in params]
    for index, call in enumerate(calls):
        if lines.line_of(call.start_byte) - lines.line_of(inner.end) > _REGION_LINES:
            return None
        block = _innermost_block(context, Site(call.start_byte, call.end_byte))
        if not block[0] <= inner.start < block[1]:
            continue
        return lines.span(inner.start, _run_end(context, calls[index:]).end_byte)
    return None


def _run_end(context: CheckContext, calls: list[ApiCall]) -> ApiCall:
    """The last call of the run `calls[0]` starts: the following calls on the next lines, without a gap (the
    FreeTensor/EnQue block a give-back belongs with)."""
    lines = context.document.lines
    end = calls[0]
    for following in calls[1:]:
        if lines.line_of(following.start_byte) - lines.line_of(end.end_byte) > 1:
            break
        end = following
    return end


def _helper_give_back_run(context: CheckContext, last: Site, lost: Site, partial: bool) -> tuple[int, int] | None:
    """The first FreeTensor run in a method called after `last` in its block that frees tensors of the queues the
    method where the tensor is lost hands out (a stage's `FreeBuffers()` after its `TakeBuffers()`)."""
    function = context.model.function_at(last.start)
    losing = context.model.function_at(lost.start)
    if function is None or losing is None:
        return None
    handed = {receiver_name(c) for c in calls_by_function(context).get(losing.start_byte, [])
              if c.name in ("AllocTensor", "DeQue")}
    for call in calls_by_function(context).get(function.start_byte, []):
        if call.start_byte < last.end or (call.receiver or "this").strip() != "this":
            continue
        block = _innermost_block(context, Site(call.start_byte, call.end_byte))
        if not block[0] <= last.start < block[1]:
            continue  # on another path than the last use
        if call.name == losing.name and not partial:
            # The call that runs the losing method (or a namesake's): lost there before its give-backs. One
            # given back on its other paths belongs with the losing method's own run.
            continue
        for helper in context.model.functions_named(call.name):
            frees = [c for c in calls_by_function(context).get(helper.start_byte, [])
                     if c.name == "FreeTensor" and receiver_name(c) in handed]
            if helper is function or not frees:
                continue
            return frees[0].start_byte, _run_end(context, frees).end_byte
    return None


def _branch_without_give_back(context: CheckContext, problem: Problem, last: Site) -> Span | None:
    """A tensor given back on some paths only: when a give-back of it after its last use sits in one branch of
    an if/else, the missing one belongs in the other branch (`if (c) { ...; q.FreeTensor(x); } else { }`)."""
    function = context.model.function_at(last.start)
    if function is None:
        return None
    lines = context.document.lines
    for call in calls_by_function(context).get(function.start_byte, []):
        if call.name not in ("EnQue", "FreeTensor") or not call.args or strip_this(call.args[0].text) != problem.var \
                or receiver_name(call) != problem.queue or not last.end <= call.start_byte <= problem.site.start:
            continue
        node = node_for(context, call.start_byte, call.end_byte)
        while node is not None and node.parent is not None:
            parent = node.parent
            if parent.type == "if_statement":
                consequence = parent.child_by_field_name("consequence")
                alternative = parent.child_by_field_name("alternative")
                other = alternative if consequence is not None and node.id == consequence.id else (
                    consequence if alternative is not None and node.id == alternative.id else None)
                if other is not None and alternative is not None:
                    block = next((c for c in other.named_children if c.type == "compound_statement"), other) \
                        if other.type == "else_clause" else other
                    inside = [c for c in block.named_children if c.type != "comment"] if block.type == "compound_statement" else []
                    start = inside[0].start_byte if inside else block.start_byte  # its statements, when it has any
                    if lines.line_of(block.end_byte) - lines.line_of(start) <= _REGION_LINES:
                        return lines.span(start, block.end_byte)
                    return None
            node = parent
    return None


def _dequeued_somewhere(context: CheckContext, queue: str) -> bool:
    return any(c.name == "DeQue" and receiver_name(c) == queue for c in context.model.calls)


_PREPROCESSOR_BRANCH = re.compile(rb"^[ \t]*#[ \t]*(?:else|elif)\b", re.MULTILINE)


def _last_use_in_other_branch(context: CheckContext, problem: Problem, last: Site) -> Site:
    """The analysis follows one `#if` branch; when a `#else`/`#elif` lies between the last use it saw and where
    the tensor is lost, the other branch's later uses of the tensor count too (the give-back follows them)."""
    data = context.document.data
    branch = _PREPROCESSOR_BRANCH.search(data, last.end, problem.site.start)
    if not re.fullmatch(r"[A-Za-z_]\w*", problem.var or "") or branch is None:
        return last
    word = re.compile(rb"(?<![\w.])" + re.escape(problem.var.encode()) + rb"\b")
    give_back = re.compile(rb"\.\s*(?:EnQue|FreeTensor)\s*(?:<[^>]*>)?\s*\(\s*$")
    if any(give_back.search(data, max(0, m.start() - 40), m.start())
           for m in word.finditer(data, branch.end(), problem.site.start)):
        return last  # the other branch gives the tensor back itself: the loss is on the followed one
    later = last
    # Only uses inside the other branch (from its `#else` on): ones before it are on the path already followed.
    for match in word.finditer(data, branch.end(), problem.site.start):
        if not give_back.search(data, max(0, match.start() - 40), match.start()):
            later = Site(match.start(), match.end())
    return later


def _run_gives_back_one_held_with(context: CheckContext, function: Function, run: tuple[int, int], last: Site) -> bool:
    """A call in the give-back run names a tensor that was handed out (AllocTensor/DeQue) before `last`."""
    data = context.document.data
    for call in calls_by_function(context).get(function.start_byte, []):
        if not (run[0] <= call.start_byte < run[1] and call.name in ("EnQue", "FreeTensor") and call.args):
            continue
        name = call.args[0].text.strip()
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            continue
        handed = re.compile(rb"(?<![\w.])" + re.escape(name.encode()) + rb"\s*=[^;=][^;]*\b(?:AllocTensor|DeQue)\b")
        if handed.search(data, function.start_byte, last.start):
            return True
    return False


_LOOPS = ("for_statement", "for_range_loop", "while_statement", "do_statement")


def _enclosing_loops(context: CheckContext, call: ApiCall) -> list[tuple[int, int]]:
    node = node_for(context, call.start_byte, call.end_byte)
    loops = []
    while node is not None:
        if node.type in _LOOPS:
            loops.append((node.start_byte, node.end_byte))
        node = node.parent
    return loops


def _in_loop_body(context: CheckContext, site: Site) -> bool:
    node = node_for(context, site.start, site.end)
    while node is not None and node.type != "compound_statement":
        node = node.parent
    return node is not None and node.parent is not None and node.parent.type in _LOOPS


def _give_back_run(context: CheckContext, function: Function, problem: Problem,
                   kinds: tuple[str, ...]) -> tuple[int, int] | None:
    """The first run of `kinds` calls after the last use, on its path (in a block that holds the last use)."""
    last = problem.last_use
    assert last is not None
    calls = [c for c in calls_by_function(context).get(function.start_byte, []) if c.name in kinds]
    for index, call in enumerate(calls):
        if not last.end <= call.start_byte <= problem.site.start:
            continue
        # Only a give-back on the path of the last use: one in another branch is on another path.
        block = _innermost_block(context, Site(call.start_byte, call.end_byte))
        if not block[0] <= last.start < block[1]:
            continue
        # Nor one inside a loop the tensor was handed out before: that would give it back on every iteration.
        if problem.origin is not None and any(not loop[0] <= problem.origin.start < loop[1]
                                              for loop in _enclosing_loops(context, call)):
            continue
        return call.start_byte, _run_end(context, calls[index:]).end_byte
    return None


def _enque_region(context: CheckContext, last_use: Site, deque: Site) -> Span:
    """Where a missing EnQue belongs: after the tensor's last use, before the DeQue that waits for it; the
    whole stretch when both are in one function and near, else the last use."""
    lines = context.document.lines
    function = context.model.function_at(last_use.start)
    if function is not None and function.body_start <= deque.start < function.body_end and last_use.start <= deque.start \
            and lines.line_of(deque.start) - lines.line_of(last_use.start) <= _REGION_LINES:
        return lines.span(last_use.start, deque.end)
    return _span(context, last_use)


def _first_use_between(context: CheckContext, var: str, start: int, end: int) -> ApiCall | None:
    """The first call of the function around `start` that names `var` in its arguments, within [start, end)."""
    function = context.model.function_at(start)
    if function is None or not var:
        return None
    word = re.compile(rf"(?<![\w.]){re.escape(var)}\b")
    for call in calls_by_function(context).get(function.start_byte, []):
        if start <= call.start_byte < end and call.name not in ("EnQue", "FreeTensor") \
                and (any(word.search(a.text) for a in call.args) or strip_this(call.receiver or "") == var):
            return call
    return None


def _missing_deque_region(context: CheckContext, problem: Problem, start: int, end: int) -> Span:
    """A DeQue is missing: it belongs before the first use of the tensor after `start` (its empty declaration,
    or the function's start); the finding spans from there to the give-back at `end` when that is short."""
    lines = context.document.lines
    if re.fullmatch(r"[A-Za-z_]\w*", problem.var or ""):
        # `LocalTensor<T> x;` in between: the DeQue that should fill x belongs at its declaration or after.
        declared = re.compile(rb"\bLocalTensor\s*<[^;{}()]*>\s+" + re.escape(problem.var.encode()) + rb"\s*;")
        match = declared.search(context.document.data, start, end)
        if match is not None:
            start = match.start()
    first = _first_use_between(context, problem.var, start, end)
    begin = first.start_byte if first is not None else start
    if first is not None and lines.line_of(first.end_byte) - lines.line_of(start) <= _REGION_LINES:
        # Between where the tensor went in (or was declared empty) and its first use.
        return lines.span(min(start, problem.site.start), max(first.end_byte, problem.site.end))
    if 0 <= lines.line_of(end) - lines.line_of(begin) <= _REGION_LINES:
        return lines.span(min(begin, problem.site.start), max(end, problem.site.end))
    return _span(context, problem.site)


def _short_region(context: CheckContext, start: int, end: int) -> Span | None:
    """The range from `start` to `end` when it is short enough to underline as the place of a problem
    (forward, at most _REGION_LINES lines), else None."""
    lines = context.document.lines
    if 0 <= lines.line_of(end) - lines.line_of(start) <= _REGION_LINES:
        return lines.span(start, end)
    return None


def _innermost_block(context: CheckContext, site: Site) -> tuple[int, int]:
    node = node_for(context, site.start, site.end)
    while node is not None and node.type != "compound_statement":
        node = node.parent
    return (node.start_byte, node.end_byte) if node is not None else (0, len(context.document.data))


@rule("ASC008")
def alloc_without_free(context: CheckContext) -> Iterator[Diagnostic]:
    for problem in analyse(context):
        if problem.kind != "lost":
            continue
        where = f" in {problem.function}()" if problem.function else ""
        queue, var = problem.queue, problem.var or "the tensor"
        hang = problem.repeated and not problem.later_iteration and not problem.partial
        if problem.state == "allocated":
            give_back = "EnQue or FreeTensor"
            head = f"{var} from {queue}.AllocTensor() is neither enqueued nor freed"
        else:
            give_back = "FreeTensor"
            head = f"{var} dequeued from {queue} is never freed"
        if hang and not problem.uncertain:
            consequence = "; this runs repeatedly, so the queue runs out of buffers and AllocTensor/DeQue hangs"
        elif hang:
            consequence = "; if these `if constexpr` branches go together, the queue runs out of buffers and hangs"
        elif problem.detail == "the kernel ends":
            # docs/zh/api/SIMD-API/基础API/资源管理/Pipe和Que框架/TQue/FreeTensor.md: AllocTensor and FreeTensor pair up.
            consequence = "; every tensor a queue hands out goes back to it (AllocTensor/FreeTensor pair up)"
        else:
            consequence = "; its buffer never comes back" + (
                " (from the second iteration of the loop on)" if problem.later_iteration else "")
        how = {"its scope ends": "it goes out of scope", "the function returns": "a return leaves with it"}.get(
            problem.detail, problem.detail)
        paths = " on some paths" if problem.partial else ""
        message = f"{head}{paths}{where}: {how} without {give_back}; give it back after its last use{consequence}"
        related = [Related(_span(context, problem.origin), f"{queue} handed out {var} here")] if problem.origin else []
        if problem.last_use is not None and problem.last_use != problem.origin:
            related.append(Related(_span(context, problem.last_use), f"last use of {var}"))
        related.append(Related(_span(context, problem.site), f"{var} is lost here ({how})"))
        fixes: list[Fix] = []
        has_deque = _dequeued_somewhere(context, queue)
        made = _give_back_fix(context, problem, "EnQue" if problem.state == "allocated" and has_deque else "FreeTensor")
        if made is not None:
            fixes.append(made)
        yield context.finding("ASC008", _give_back_region(context, problem), message, related=related, fixes=fixes,
                              severity=None if hang and not problem.uncertain else "warning")


@rule("ASC009")
def enque_deque_unpaired(context: CheckContext) -> Iterator[Diagnostic]:
    # An empty tensor that is also given back is said once, as never handed out (that names its queue).
    given_back = {p.site.start for p in analyse(context) if p.kind == "never-handed-out"}
    for problem in analyse(context):
        if problem.kind == "used-empty" and problem.site.start in given_back:
            continue
        queue, var = problem.queue, problem.var or "the tensor"
        severity: Severity | None = "warning" if problem.later_iteration or problem.uncertain else None
        related: list[Related] = []
        span = _span(context, problem.site)
        if problem.kind == "empty-deque":
            message = (f"{queue}.DeQue() waits forever: no EnQue on {queue} reaches it"
                       + (" from the second iteration of the loop on" if problem.later_iteration else "")
                       + f" (in {problem.function}())")
            if problem.last_use is not None and problem.origin is not None:
                # A tensor of that queue is still held, allocated: its EnQue is what is missing.
                message = (f"{var} from {queue}.AllocTensor() is never enqueued, so {queue}.DeQue() in "
                           f"{problem.function}() waits forever: EnQue it after its last use")
                related.append(Related(_span(context, problem.origin), f"{queue} handed out {var} here"))
                related.append(Related(span, f"{queue}.DeQue() waits here"))
                span = _enque_region(context, problem.last_use, problem.site)
            elif problem.enqueued_at is not None:
                # In a stage called from elsewhere (`CopyOut(i)`): the EnQue belongs before that call.
                related.append(Related(span, f"{queue}.DeQue() waits here"))
                span = _span(context, problem.enqueued_at)
        elif problem.kind == "never-handed-out":
            message = (f"{var} holds no tensor from {queue} but the code {problem.detail} it to {queue}: the "
                       f"{queue}.DeQue() (or AllocTensor) that should fill it is missing")
            if problem.origin is not None:
                related.append(Related(_span(context, problem.origin), f"{problem.detail} here"))
                if problem.origin.start > problem.site.start:
                    # The DeQue belongs after what put the tensor in the queue, when that is in between.
                    put = problem.enqueued_at
                    start = put.end if put is not None and problem.site.start < put.start < problem.origin.start \
                        else problem.site.start
                    span = _missing_deque_region(context, problem, start, problem.origin.end)
        elif problem.kind == "used-empty":
            message = (f"{var} is declared without a tensor and {problem.detail}() uses it: the DeQue (or AllocTensor) "
                       f"that should fill it is missing")
            if problem.origin is not None:
                related.append(Related(_span(context, problem.origin), f"{problem.detail}() uses {var} here"))
                span = _short_region(context, problem.site.start, problem.origin.end) or span
        elif problem.kind == "used-while-queued":
            message = (f"{var} is used by {problem.detail}() while it is in {queue}: EnQue handed it over and no DeQue "
                       f"took it back (in {problem.function}()); DeQue it before this use")
            if problem.origin is not None:
                related.append(Related(_span(context, problem.origin), f"{var} went into {queue} here"))
                span = _short_region(context, problem.origin.start, problem.site.end) or span
        elif problem.kind == "freed-while-queued":
            message = (f"{queue}.FreeTensor({var}) frees a tensor that is still in {queue}: it was enqueued and no "
                       f"DeQue took it out (in {problem.function}()); DeQue it before using and freeing it")
            if problem.origin is not None:
                related.append(Related(_span(context, problem.origin), f"{var} was enqueued here"))
            function = context.model.function_at(problem.site.start)
            if function is not None:
                # The DeQue belongs before the tensor's first use after its EnQue (or in this function).
                enqueued = problem.origin
                start = enqueued.end if enqueued is not None and function.body_start <= enqueued.start < problem.site.start \
                    else function.body_start
                span = _missing_deque_region(context, problem, start, problem.site.end)
        elif problem.kind == "never-dequeued":
            message = (f"{var} is enqueued on {queue} but never dequeued: it never reaches the next stage"
                       + (" and, since this repeats, the queue runs out of buffers" if problem.repeated else ""))
            severity = None if problem.repeated and not problem.uncertain else "warning"
            if problem.origin is not None:
                related.append(Related(_span(context, problem.origin), f"{queue} handed it out here"))
            if problem.next_stage is not None:
                # Enqueued by Init, nothing later takes it: the DeQue belongs in the method the kernel runs next.
                message += f"; its DeQue belongs in {problem.next_stage.name}(), which runs next"
                related.append(Related(span, f"{var} went into {queue} here"))
                start = problem.next_stage.start_byte
                span = context.document.lines.span(start, max(start, problem.next_stage.body_start))
        else:
            continue
        yield context.finding("ASC009", span, message, related=related, severity=severity)


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
def deque_type_mismatch(context: CheckContext) -> Iterator[Diagnostic]:
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
def use_after_free(context: CheckContext) -> Iterator[Diagnostic]:
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
def live_tensors_exceed_buffers(context: CheckContext) -> Iterator[Diagnostic]:
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
def tque_depth_vs_buffers(context: CheckContext) -> Iterator[Diagnostic]:
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

