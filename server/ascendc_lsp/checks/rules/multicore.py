"""Multi-core partitioning: block offsets, tails, launch block counts, atomic add left on."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ascendc_lsp.checks.base import CheckContext, Finding, Related, rule
from ascendc_lsp.checks.limits import limits_for
from ascendc_lsp.checks.rules._common import fmt, fold_node, scan
from ascendc_lsp.syntax.constfold import parse_number_literal
from ascendc_lsp.syntax.positions import Span


@dataclass(frozen=True)
class Launch:
    kernel: str
    blocks_text: str
    blocks: int | None
    span: Span


def _fold_name(context: CheckContext, text: str, at: int) -> int | None:
    text = text.strip()
    value = parse_number_literal(text)
    if isinstance(value, int):
        return value
    if re.fullmatch(r"[A-Za-z_]\w*", text):
        const = context.model.constant(text, at)
        if const is not None and const.is_constant:
            return const.value.as_int()
    return None


def launches(context: CheckContext) -> list[Launch]:
    cached = context.__dict__.get("_launches")
    if isinstance(cached, list):
        return cached
    found: list[Launch] = []
    document = context.document
    data = document.data
    if b"<<<" not in data and b"ICPU_RUN_KF" not in data and b"ACLRT_LAUNCH_KERNEL" not in data:
        context.__dict__["_launches"] = found
        return found
    for node in scan(context).get("call"):
        function = node.child_by_field_name("function")
        if function is None:
            continue
        comment = next((c for c in node.children if c.type == "comment"), None)
        if comment is not None and document.data[comment.start_byte:comment.start_byte + 3] == b"<<<":
            inner = document.data[comment.start_byte + 3:comment.end_byte - 3].decode("utf-8", "replace")
            blocks_text = inner.split(",")[0].strip()
            found.append(Launch(document.node_text(function), blocks_text,
                                _fold_name(context, blocks_text, node.start_byte), document.span(node)))
            continue
        arguments = node.child_by_field_name("arguments")
        if arguments is None or not arguments.named_children:
            continue
        args = [a for a in arguments.named_children if a.type != "comment"]
        name = document.node_text(function)
        if name == "ICPU_RUN_KF" and len(args) >= 2:
            found.append(Launch(document.node_text(args[0]), document.node_text(args[1]),
                                _fold_name(context, document.node_text(args[1]), node.start_byte), document.span(node)))
        elif function.type == "call_expression" and name.startswith("ACLRT_LAUNCH_KERNEL") and args:
            found.append(Launch(name, document.node_text(args[0]),
                                _fold_name(context, document.node_text(args[0]), node.start_byte), document.span(node)))
    context.__dict__["_launches"] = found
    return found


@rule("ASC036")
def block_dim_exceeds_cores(context: CheckContext) -> Iterator[Finding]:
    limits = limits_for(context)
    cores = limits.max_cores
    if cores is None:
        return
    for launch in launches(context):
        if launch.blocks is None or launch.blocks <= cores:
            continue
        yield context.finding(
            "ASC036", launch.span,
            f"{launch.kernel} launches {fmt(launch.blocks)} blocks but {limits.soc_name} has at most {cores} cores: "
            "the extra blocks run in a second wave; size blockDim to the core count and loop inside the kernel",
        )


_BLOCK_COUNT_NAMES = re.compile(r"^(?:USE_CORE_NUM|CORE_NUM|BLOCK_DIM|BLOCK_NUM|NUM_BLOCKS|USED_CORE_NUM)$", re.I)
_TOTAL_NAMES = re.compile(r"^(?:TOTAL_LENGTH|TOTAL_LEN|TOTAL_SIZE|TOTAL_NUM|totalLength)$")
_STRIDE = re.compile(
    r"(?:([A-Za-z_]\w*|\d+)\s*\*\s*(?:AscendC::)?GetBlockIdx\s*\(\s*\)|(?:AscendC::)?GetBlockIdx\s*\(\s*\)\s*\*\s*"
    r"([A-Za-z_]\w*|\d+))"
)


def _named_constant(context: CheckContext, pattern: re.Pattern[str]) -> tuple[str, int] | None:
    values = {}
    for const in context.model.constants:
        if pattern.match(const.name) and const.is_constant and const.scope_start == 0:
            value = const.value.as_int()
            if value is not None:
                values[const.name] = value
    if len(values) != 1:
        return None
    return next(iter(values.items()))


@rule("ASC029")
def block_offset_overrun(context: CheckContext) -> Iterator[Finding]:
    total = _named_constant(context, _TOTAL_NAMES)
    if total is None:
        return
    blocks: int | None = None
    known = [launch.blocks for launch in launches(context) if launch.blocks is not None]
    if len(set(known)) == 1:
        blocks = known[0]
    else:
        named = _named_constant(context, _BLOCK_COUNT_NAMES)
        blocks = named[1] if named is not None else None
    if blocks is None or blocks <= 0:
        return
    for call in context.model.calls_named("SetGlobalBuffer"):
        if len(call.args) < 2:
            continue
        match = _STRIDE.search(call.args[0].text)
        length = call.args[1].folded.as_int()
        if match is None or length is None:
            continue
        stride = _fold_name(context, match.group(1) or match.group(2), call.start_byte)
        if stride is None:
            continue
        end = (blocks - 1) * stride + length
        if end <= total[1]:
            continue
        yield context.finding(
            "ASC029", call.span,
            f"The last block ({blocks - 1} of {blocks}) covers elements [{fmt((blocks - 1) * stride)}, {fmt(end)}) but "
            f"{total[0]} is {fmt(total[1])}: it reads or writes {fmt(end - total[1])} elements past the tensor",
        )


_TAIL_WORDS = re.compile(rb"tail|Tail|TAIL|remain|Remain|REMAIN|\blast|Last|LAST|former|Former|left|Left", re.S)
_PER_BLOCK_DIVISORS = re.compile(r"(?:CORE|BLOCK|TILE)_?(?:NUM|DIM|COUNT)|(?:core|block|tile)(?:Num|Dim|Count)$", re.I)


@rule("ASC030")
def tail_not_handled(context: CheckContext) -> Iterator[Finding]:
    document = context.document
    data = document.data
    has_tail_code = b"%" in data or _TAIL_WORDS.search(data) is not None
    text = document.node_text
    for node in scan(context).get("binary"):
        op = node.child_by_field_name("operator")
        if op is None or op.type != "/":
            continue
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            continue
        right_text = text(right)
        function = context.model.function_at(node.start_byte)
        if re.fullmatch(r"(?:AscendC::)?GetBlockNum\s*\(\s*\)", right_text):
            if has_tail_code or function is None or not function.is_aicore:
                continue
            # The length is a runtime value here, so this is a reminder, not a finding: the official samples
            # split this way and rely on the host choosing a divisible length.
            yield context.finding(
                "ASC030", document.span(node),
                f"{text(left)} is split evenly over GetBlockNum() blocks, but nothing handles the remainder: when the "
                "length is not a multiple of the block count the last elements are never processed",
                severity="information",
            )
            continue
        if not _PER_BLOCK_DIVISORS.search(right_text.split("::")[-1]):
            continue
        numerator = fold_node(context, left)
        divisor = fold_node(context, right)
        if numerator is None or divisor is None or divisor <= 0 or numerator % divisor == 0:
            continue
        remainder = numerator % divisor
        yield context.finding(
            "ASC030", document.span(node),
            f"{text(left)} = {fmt(numerator)} split over {right_text} = {fmt(divisor)} leaves {fmt(remainder)} "
            f"element(s) that no block or tile processes; handle the tail",
        )


@rule("ASC037")
def atomic_add_left_on(context: CheckContext) -> Iterator[Finding]:
    model = context.model
    offs = model.calls_named("SetAtomicNone", "DisableDmaAtomic", "SetAtomicType")
    for call in model.calls_named("SetAtomicAdd"):
        function = call.function
        if function is None:
            continue
        if any(o.function is function and o.start_byte > call.start_byte for o in offs):
            continue
        if any(o.function is not None and o.function is not function and function.class_name is not None
               and o.function.class_name == function.class_name for o in offs):
            continue
        yield context.finding(
            "ASC037", call.span,
            f"SetAtomicAdd is never switched off in {function.name}(): later DataCopy to GM (this kernel's or the "
            "next one's) keeps accumulating; call SetAtomicNone() after the atomic copies",
            related=[Related(function.name_span, "in this function")],
        )
