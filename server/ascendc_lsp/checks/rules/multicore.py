"""Multi-core partitioning: block offsets, tails, launch block counts, atomic add left on."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import tree_sitter

from ascendc_lsp.checks.arith import Affine, Value, arith, related_origins
from ascendc_lsp.checks.base import CheckContext, rule
from ascendc_lsp.checks.limits import limits_for
from ascendc_lsp.checks.rules._common import (
    DATA_MOVES,
    fmt,
    fold_node,
    node_for,
    scan,
    subscript_index,
    tensor_arg,
    tensor_of,
)
from ascendc_lsp.checks.values import merged_origins
from ascendc_lsp.diagnostics import Diagnostic, Related
from ascendc_lsp.syntax.constfold import parse_number_literal
from ascendc_lsp.syntax.document import cpp_language
from ascendc_lsp.syntax.model import ApiCall
from ascendc_lsp.syntax.positions import Span


@dataclass(frozen=True)
class Launch:
    kernel: str
    blocks_text: str
    blocks: int | None
    span: Span
    node: tree_sitter.Node | None = field(default=None, compare=False)  # the call
    direct: bool = False  # `kernel<<<...>>>(args)`: the call's arguments are the kernel's


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
                                _fold_name(context, blocks_text, node.start_byte), document.span(node), node, True))
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
def block_dim_exceeds_cores(context: CheckContext) -> Iterator[Diagnostic]:
    limits = limits_for(context)
    cores = limits.max_cores
    if cores is None or not limits.cores_documented:
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


def block_offset_overrun(context: CheckContext) -> Iterator[Diagnostic]:
    """The last block's end against a total-length constant of the file (TOTAL_LENGTH and the like)."""
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


@dataclass(frozen=True)
class _BlockOffset:
    """A GM offset read as stride * GetBlockIdx() + base, with stride and base free of GetBlockIdx()."""

    stride: Affine
    base: Affine


def _block_linear(context: CheckContext, node: tree_sitter.Node, depth: int = 0) -> _BlockOffset | None:
    text = context.document.node_text(node)
    if depth > 16:
        return None
    if "GetBlockIdx" not in text:
        value = arith(context).value(node)
        return _BlockOffset(Affine(), value.form) if value.form is not None else None
    kind = node.type
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return _block_linear(context, node.named_children[0], depth + 1)
    if kind == "cast_expression":
        inner = node.child_by_field_name("value")
        return _block_linear(context, inner, depth + 1) if inner is not None else None
    if kind == "call_expression":
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        name = context.document.node_text(function) if function is not None else ""
        if re.fullmatch(r"(?:AscendC::)?GetBlockIdx", name.strip()):
            return _BlockOffset(Affine((), 1), Affine())
        if re.fullmatch(r"static_cast\s*<[^<>]*>", name.strip()) and arguments is not None and arguments.named_child_count == 1:
            return _block_linear(context, arguments.named_children[0], depth + 1)
        return None
    if kind != "binary_expression":
        return None
    op = node.child_by_field_name("operator")
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if op is None or left is None or right is None:
        return None
    a, b = _block_linear(context, left, depth + 1), _block_linear(context, right, depth + 1)
    if a is None or b is None:
        return None
    if op.type in ("+", "-"):
        sign = 1 if op.type == "+" else -1
        return _BlockOffset(a.stride.plus(b.stride, sign), a.base.plus(b.base, sign))
    if op.type == "*":
        for x, y in ((a, b), (b, a)):
            if y.stride.terms or y.stride.const:
                continue  # y holds GetBlockIdx too: not linear
            # x * y with x = s*B + c: both s and c must be constants, or y a constant.
            if not x.stride.symbolic and not x.base.symbolic:
                return _BlockOffset(y.base.scaled(x.stride.const), y.base.scaled(x.base.const))
            if not y.base.symbolic:
                return _BlockOffset(x.stride.scaled(y.base.const), x.base.scaled(y.base.const))
        return None
    return None


def _pointer_term(context: CheckContext, node: tree_sitter.Node) -> bool:
    """`(__gm__ half *)x`, `reinterpret_cast<__gm__ T*>(x)`, a GM_ADDR parameter: the base pointer."""
    text = context.document.node_text(node)
    if node.type == "cast_expression":
        type_node = node.child_by_field_name("type")
        return type_node is not None and "*" in context.document.node_text(type_node)
    if node.type == "call_expression" and re.match(r"\s*reinterpret_cast\s*<[^<>]*\*\s*>", text):
        return True
    if node.type == "identifier":
        function = context.model.function_at(node.start_byte)
        if function is not None:
            param = next((p for p in function.params if p.name == text), None)
            return param is not None and ("*" in param.type_text or "GM_ADDR" in param.type_text)
    return False


def _sum_terms(node: tree_sitter.Node, sign: int = 1) -> list[tuple[tree_sitter.Node, int]]:
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        return _sum_terms(node.named_children[0], sign)
    op = node.child_by_field_name("operator") if node.type == "binary_expression" else None
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if op is not None and op.type in ("+", "-") and left is not None and right is not None:
        return _sum_terms(left, sign) + _sum_terms(right, sign if op.type == "+" else -sign)
    return [(node, sign)]


# `(__gm__ half *)(x) + n * GetBlockIdx()`: C's cast ambiguity makes the grammar read `(x)` as a cast of `+n`,
# so the tree says `((half *)(x)(+n)) * GetBlockIdx()`. Blanking the parentheses around the name gives the
# tree a compiler builds.
_CAST_OF_PARENTHESISED_NAME = re.compile(rb"\*\s*\)\s*(\()\s*[A-Za-z_]\w*\s*(\))\s*[-+]")


def _reparsed_pointer_sum(context: CheckContext, start: int, end: int) -> tree_sitter.Node | None:
    """The argument re-parsed with `(T *)(name) + ...` read as a compiler does, at the same byte offsets (so
    names still resolve in the document); None when the argument has no such cast."""
    data = context.document.parsed  # the dialect-rewritten bytes the tree was parsed from (same offsets)
    match = _CAST_OF_PARENTHESISED_NAME.search(data, start, end)
    if match is None:
        return None
    argument = bytearray(data[start:end])
    for group in (1, 2):
        argument[match.start(group) - start] = ord(" ")
    opening = b"void f(){"  # an expression statement is only valid inside a function
    if start < len(opening):
        return None
    tree = tree_sitter.Parser(cpp_language()).parse(opening + b" " * (start - len(opening)) + bytes(argument) + b";}")
    node = tree.root_node.descendant_for_byte_range(start, end)
    return node if node is not None and node.start_byte == start and not node.has_error else None


def _gm_offset(context: CheckContext, call: ApiCall) -> tuple[_BlockOffset, str | None] | None:
    """The block-dependent offset of `SetGlobalBuffer(ptr + offset, length)` and the pointer's name."""
    node = _reparsed_pointer_sum(context, call.args[0].start_byte, call.args[0].end_byte)
    node = node or node_for(context, call.args[0].start_byte, call.args[0].end_byte)
    if node is None:
        return None
    offset = _BlockOffset(Affine(), Affine())
    pointer: str | None = None
    pointers = 0
    for term, sign in _sum_terms(node):
        if _pointer_term(context, term):
            pointers += 1
            names = re.findall(r"[A-Za-z_]\w*", context.document.node_text(term))
            pointer = names[-1] if names else None
            continue
        part = _block_linear(context, term)
        if part is None:
            return None
        offset = _BlockOffset(offset.stride.plus(part.stride, sign), offset.base.plus(part.base, sign))
    if pointers != 1:
        return None
    return offset, pointer


def _multiple(form: Affine, unit: Affine) -> int | None:
    """k when form == k * unit, else None."""
    if not unit.terms:
        if form.terms or unit.const <= 0 or form.const % unit.const:
            return None
        return form.const // unit.const
    if len(form.terms) != len(unit.terms):
        return None
    key, coef = unit.terms[0]
    k, remainder = divmod(form.coefficient(key), coef)
    if remainder or form != unit.scaled(k):
        return None
    return k


@rule("ASC029")
def block_offset_shifted(context: CheckContext) -> Iterator[Diagnostic]:
    """Block offsets read through the arithmetic facts: a block whose slice starts a whole number of slices
    away from where its index puts it, and, with attached values, the last block's end against the tensor (its
    spec's length, or the bytes a direct launch's host code allocated for it)."""
    reported = set()
    for finding in block_offset_overrun(context):
        reported.add(finding.span)
        yield finding
    known = context.known
    for call in context.model.calls_named("SetGlobalBuffer"):
        if len(call.args) < 2 or call.span in reported:
            continue
        per_block = "GetBlockIdx" in call.args[0].text
        if not per_block and (known is None or not known.tensor_bytes):
            continue
        found = _gm_offset(context, call)
        if found is None:
            continue
        offset, pointer = found
        length_node = node_for(context, call.args[1].start_byte, call.args[1].end_byte)
        length = arith(context).value(length_node) if length_node is not None else None
        if length is None or length.form is None:
            continue
        if per_block and offset.stride == length.form and (length.form.symbolic or length.form.const > 0):
            k = _multiple(offset.base, length.form)
            if k:
                shown = call.args[1].text.strip()
                yield context.finding(
                    "ASC029", call.span,
                    f"Block i's slice starts at ({'i + ' if k > 0 else 'i - '}{abs(k)}) x {shown}, not i x {shown}: "
                    f"{'the first' if k > 0 else 'the last'} {abs(k)} slice(s) of {shown} elements are processed by no "
                    f"block and the {'last' if k > 0 else 'first'} block(s) run past the tensor",
                    severity="warning",
                )
                continue
        if known is None or pointer is None or offset.stride.symbolic or offset.base.symbolic or length.form.symbolic:
            continue
        overrun = _past_the_tensor(context, call, offset, pointer, length)
        if overrun is not None:
            yield overrun


def _past_the_tensor(context: CheckContext, call: ApiCall, offset: _BlockOffset, pointer: str,
                     length: Value) -> Diagnostic | None:
    """The last block's slice against the tensor's known length: a spec's element count, or the bytes the host
    allocated for the kernel parameter the pointer comes from, in elements of the GlobalTensor's type."""
    known = context.known
    assert known is not None and length.form is not None
    blocks = known.block_dim if offset.stride.const else 1
    if blocks is None:
        return None
    total = known.tensor_elements.get(pointer)
    allocation = ""
    related: list[Related] = []
    if total is None:
        parameter = kernel_parameter(context, pointer, call.start_byte)
        size = _element_size(context, call)
        nbytes = known.tensor_bytes.get(parameter) if parameter is not None else None
        if nbytes is None or size is None or parameter is None:
            return None
        total = nbytes // size
        allocation = f" ({fmt(nbytes)} bytes allocated by the host for {parameter})"
        related = known.related(parameter)
    last = blocks - 1
    start = last * offset.stride.const + offset.base.const
    end = start + length.form.const
    if start >= 0 and end <= total:
        return None
    used = sorted(set(length.used) | ({"block_dim"} if offset.stride.const else set()))
    who = f"block {last}" if offset.stride.const else "the kernel"
    return context.finding(
        "ASC029", call.span,
        f"With {known.describe(used)}: {who} covers elements [{fmt(start)}, {fmt(end)}) of {pointer}, "
        f"which has {fmt(total)}{allocation}: it reads or writes {fmt(max(end - total, -start))} elements outside "
        "the tensor",
        related=list(dict.fromkeys([*related, *related_origins(length),
                                    *(known.related("block_dim") if offset.stride.const else ())])),
    )


def _element_size(context: CheckContext, call: ApiCall) -> int | None:
    """Bytes per element of the GlobalTensor a SetGlobalBuffer sets (its template argument, resolved)."""
    if call.receiver is None:
        return None
    tensor = tensor_of(context, call.receiver, call.start_byte)
    if tensor is None or tensor.kind != "GlobalTensor" or tensor.dtype is None:
        return None
    size = context.model.dtype_size(tensor.dtype, call.start_byte)
    return size if size else None


def kernel_parameter(context: CheckContext, name: str, at_byte: int, depth: int = 0) -> str | None:
    """The kernel parameter a pointer parameter comes from, followed back through the one call of each
    function on the way (`op.Init(dstGm, ...)` in the kernel); None when a step is not that plain: the
    function has several callers or the parameter is written on the way."""
    function = context.model.function_at(at_byte)
    if function is None or depth > 4:
        return None
    index = next((i for i, p in enumerate(function.params) if p.name == name), None)
    if index is None:
        return None
    analysis = arith(context)
    if analysis.assignments().sites.get(f"fn:{function.start_byte}.{name}"):
        return None
    if function.is_kernel:
        known = context.known
        return name if known is None or known.kernel in (None, function.name) else None
    calls = analysis.calls_to(function)
    if len(calls) != 1:
        return None
    arguments = calls[0].child_by_field_name("arguments")
    args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
    if index >= len(args) or args[index].type != "identifier":
        return None
    return kernel_parameter(context, context.document.node_text(args[index]), args[index].start_byte, depth + 1)


# Words of tail handling; checks/incremental.py reads them too (ASC030 looks for them in the whole file).
TAIL_WORDS = re.compile(rb"tail|Tail|TAIL|remain|Remain|REMAIN|\blast|Last|LAST|former|Former|left|Left", re.S)
_PER_BLOCK_DIVISORS = re.compile(r"(?:CORE|BLOCK|TILE)_?(?:NUM|DIM|COUNT)|(?:core|block|tile)(?:Num|Dim|Count)$", re.I)


@rule("ASC030")
def tail_not_handled(context: CheckContext) -> Iterator[Diagnostic]:
    document = context.document
    data = document.data
    has_tail_code = b"%" in data or TAIL_WORDS.search(data) is not None
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
    yield from _tile_holes(context)
    yield from _unwritten_read_back(context)


@dataclass(frozen=True)
class _TileCopy:
    call: ApiCall
    tile: str  # the atom the GM offset steps with (the tile index), scope-qualified
    stride: int  # elements between consecutive tiles
    start: int  # the copy's first element within its tile
    count: int
    origins: tuple[Related, ...] = ()  # the definitions its stride, start and count were folded from


def _tile_copies(context: CheckContext) -> dict[tuple[str, bool], list[_TileCopy] | None]:
    """Every DataCopy touching each GM tensor, by (tensor, written): None for a tensor with a copy that is not
    `DataCopy(x, gm[k * i + c], n)` with constant k, c, n (a DataCopyPad, a copy with parameters, an offset of
    two unknowns), since such a copy may cover anything."""
    analysis = arith(context)
    found: dict[tuple[str, bool], list[_TileCopy] | None] = {}
    moves = [call for call in context.model.calls_named(*DATA_MOVES) if call.receiver is None and len(call.args) >= 2]
    whole = _whole_tile_groups(moves)
    for call in moves:
        for arg, written in ((call.args[0], True), (call.args[1], False)):
            parsed = tensor_arg(arg.text.strip())
            if parsed is None or (parsed[0], written) in whole:
                continue
            tensor = tensor_of(context, parsed[0], call.start_byte)
            if tensor is None or tensor.kind != "GlobalTensor":
                continue
            key = (parsed[0], written)
            copy = None
            if call.name == "DataCopy" and len(call.args) == 3 and parsed[1] is not None:
                index = subscript_index(context, arg.start_byte, arg.end_byte)
                offset_value = analysis.value(index) if index is not None else None
                offset = offset_value.form if offset_value is not None else None
                count_node = node_for(context, call.args[2].start_byte, call.args[2].end_byte)
                count_value = analysis.value(count_node) if count_node is not None else None
                count = count_value.form if count_value is not None else None
                if (offset is not None and count is not None and not count.symbolic and count.const > 0
                        and len(offset.terms) == 1 and offset.terms[0][1] > 0):
                    atom, stride = offset.terms[0]
                    origins = merged_origins(count_value.origins if count_value else (),
                                             offset_value.origins if offset_value else ())
                    copy = _TileCopy(call, atom, stride, offset.const, count.const, origins)
            copies = found.get(key, [])
            found[key] = None if copy is None or copies is None else [*copies, copy]
    return found


_WHOLE_TILE = re.compile(r"^\s*(?:(?P<a>[A-Za-z_][\w.>-]*)\s*\*\s*(?P<n1>[A-Za-z_]\w*)"
                         r"|(?P<n2>[A-Za-z_]\w*)\s*\*\s*(?P<b>[A-Za-z_][\w.>-]*))\s*$")


def _whole_tile_groups(moves: list[ApiCall]) -> set[tuple[str, bool]]:
    """(tensor, written) groups with a copy `DataCopy(.., gm[i * N], N)`: that copy moves its whole tile, so the
    group can have no hole and its arithmetic need not run (the common case, and the costly part of the rule)."""
    whole: set[tuple[str, bool]] = set()
    for call in moves:
        if call.name != "DataCopy" or len(call.args) != 3:
            continue
        count = call.args[2].text.strip()
        for arg, written in ((call.args[0], True), (call.args[1], False)):
            parsed = tensor_arg(arg.text.strip())
            match = _WHOLE_TILE.match(parsed[1]) if parsed is not None and parsed[1] is not None else None
            if parsed is not None and match is not None and count in (match.group("n1"), match.group("n2")):
                whole.add((parsed[0], written))
    return whole


def _tile_holes(context: CheckContext) -> Iterator[Diagnostic]:
    """Tiles of a GM tensor that the copies do not cover: each copy at `tensor[i * STRIDE + c]` moves n elements;
    when all the copies of the tensor step with the same tile index and stride and together cover less than
    STRIDE elements of each tile, the rest of every tile is never read (or written): a tail left unhandled."""
    for (tensor, written), copies in _tile_copies(context).items():
        if not copies or len({(c.tile, c.stride) for c in copies}) != 1:
            continue
        stride = copies[0].stride
        covered = [False] * stride if stride <= 1 << 16 else None
        if covered is None:
            continue
        for copy in copies:
            for element in range(max(copy.start, 0), min(copy.start + copy.count, stride)):
                covered[element] = True
        missing = covered.count(False)
        if missing == 0:
            continue
        first = covered.index(False)
        call = copies[0].call
        verb = "written" if written else "read"
        yield context.finding(
            "ASC030", call.span,
            f"The copies of {tensor} step {fmt(stride)} elements per tile but move only "
            f"{fmt(stride - missing)} of them: {fmt(missing)} element(s) of every tile (from element {fmt(first)}) "
            f"are never {verb}; handle the tail",
            severity="warning",
            related=[*(Related(c.call.span, f"copies {fmt(c.count)} element(s) from tile element {fmt(c.start)}")
                       for c in copies[1:]),
                     *merged_origins(*(c.origins for c in copies))],
        )


def _unwritten_read_back(context: CheckContext) -> Iterator[Diagnostic]:
    """An output the host reads back (a direct launch's `aclrtMemcpy(..., DEVICE_TO_HOST)`, checks/launch.py) of
    which the kernel's blocks write only a prefix: every GlobalTensor set on the parameter has a folded block
    offset, and every write to it is a `DataCopy(t[c], x, n)` with c and n folded; the elements past the last
    one written come back as whatever the buffer held."""
    known = context.known
    if known is None or not known.read_back_bytes:
        return
    setters: dict[str, list[tuple[ApiCall, str, _BlockOffset]]] = {}
    for call in context.model.calls_named("SetGlobalBuffer"):
        found = _gm_offset(context, call) if len(call.args) >= 1 and call.receiver is not None else None
        if found is None or found[1] is None:
            return  # a tensor set from a pointer this cannot follow may be any of them
        parameter = kernel_parameter(context, found[1], call.start_byte)
        if parameter is None:
            continue
        assert call.receiver is not None
        setters.setdefault(parameter, []).append((call, call.receiver.strip(), found[0]))
    for parameter, nbytes in known.read_back_bytes.items():
        sets = setters.get(parameter)
        if not sets:
            continue
        sizes = {_element_size(context, call) for call, _, _ in sets}
        size = sizes.pop() if len(sizes) == 1 else None
        if size is None or any(o.stride.symbolic or o.base.symbolic for _, _, o in sets):
            continue
        per_block = any(o.stride.const for _, _, o in sets)
        blocks = known.block_dim if per_block else 1
        if blocks is None or blocks > 4096:
            continue
        writes = _folded_writes(context, {tensor for _, tensor, _ in sets})
        if not writes:
            continue
        end = max(o.stride.const * block + o.base.const + start + count
                  for _, _, o in sets for block in range(blocks) for _, start, count, _ in writes)
        total = nbytes // size
        if end >= total:
            continue
        first = writes[0][0]
        used = sorted({name for *_, value in writes for name in value.used} | ({"block_dim"} if per_block else set()))
        with_values = f" (with {known.describe(used)})" if used else ""
        yield context.finding(
            "ASC030", first.span,
            f"The host reads back {fmt(total)} elements of {parameter} ({fmt(nbytes)} bytes) but the kernel's "
            f"{fmt(blocks)} block(s) write only its first {fmt(end)}{with_values}: elements [{fmt(end)}, "
            f"{fmt(total)}) are never written",
            related=list(dict.fromkeys([*(r for *_, value in writes for r in related_origins(value)),
                                        *known.related(f"{parameter} read back")])),
        )


_GM_READS = frozenset({"GetValue", "GetSize", "SetL2CacheHint", "SetShapeInfo", "GetShapeInfo"})


def _folded_writes(context: CheckContext, tensors: set[str]) -> list[tuple[ApiCall, int, int, Value]] | None:
    """Every call writing one of the GM tensors as `DataCopy(t[c], x, n)` with c and n folded: (call, c, n, the
    count's value); None when some call may write them otherwise (another API, a helper they are passed to)."""
    data = context.document.data
    for tensor in tensors:
        # Copied into another tensor (`GlobalTensor<T> g = gm;`) or its address taken: written through the alias.
        if re.search(rb"(?:[^=!<>]=|&)\s*(?:this->)?" + re.escape(tensor.encode()) + rb"\s*[;,)]", data):
            return None
    analysis = arith(context)
    writes: list[tuple[ApiCall, int, int, Value]] = []
    for call in context.model.calls:
        if call.name == "SetGlobalBuffer":
            continue
        if call.receiver is not None and call.receiver.strip() in tensors and call.name not in _GM_READS:
            return None  # `gm.SetValue(i, v)`, `gm.GetPhyAddr()`: written some other way
        for position, arg in enumerate(call.args):
            parsed = tensor_arg(arg.text.strip())
            if parsed is None or parsed[0] not in tensors:
                continue
            if call.name in DATA_MOVES and position == 1:
                continue  # read from
            if call.name != "DataCopy" or position != 0 or len(call.args) != 3:
                return None
            start = 0
            if parsed[1] is not None:
                index = subscript_index(context, arg.start_byte, arg.end_byte)
                offset = analysis.value(index).fact.value if index is not None else None
                if offset is None:
                    return None
                start = offset
            count_node = node_for(context, call.args[2].start_byte, call.args[2].end_byte)
            count = analysis.value(count_node) if count_node is not None else None
            if count is None or count.fact.value is None or count.fact.value <= 0:
                return None
            writes.append((call, start, count.fact.value, count))
    return writes


@rule("ASC037")
def atomic_add_left_on(context: CheckContext) -> Iterator[Diagnostic]:
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
