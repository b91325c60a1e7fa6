"""Mutation benchmark of the static checks on public kernels nobody here wrote.

Known-correct public kernels (chosen by provenance before any check runs: the official samples and
operator repositories, and the reference answers of a kernel benchmark) get one realistic bug planted at a
time; `check` (the product's `check_document`, with the file's real project around it, so its SoC and
attached specs apply) must report the right category within 3 lines of the planted line (the finding's
range, which for a tensor never given back spans its last use to where it is lost, reaches that close, or one of
its related locations does: the editor shows those with the finding, e.g. the constant a hole's size came from).
Each mutation keeps the line count, so line numbers compare directly.

Operators (the expected categories in brackets):

  del-free          a `q.FreeTensor(t);` statement blanked                              [queue-misuse]
  del-enque         a `q.EnQue(t);` statement blanked                                   [queue-misuse]
  del-deque         `T x = q.DeQue<T>();` becomes `T x;` (a bare DeQue is blanked)      [queue-misuse]
  del-waitflag      a `WaitFlag<E>(id);` statement blanked                              [sync-deadlock, sync-missing]
  swap-event        `WaitFlag<A_B>(id)` becomes `WaitFlag<B_A>(id)`                     [sync-deadlock, sync-missing]
  perturb-count     `DataCopy(d, s, n)` becomes `DataCopy(d, s, (n) + 1)`               [misaligned-access, ub-out-of-bounds, gm-out-of-bounds]
  inflate-initbuf   `InitBuffer(q, k, len)` becomes `InitBuffer(q, k, (len) * F)`        [ub-overflow]
  tail-floor        a ceiling division `(a + b - 1) / b` becomes `(a) / b`              [multicore-partition, gm-out-of-bounds]
  blockidx-offset   `GetBlockIdx()` in a SetGlobalBuffer offset becomes `(GetBlockIdx() + 1)`  [gm-out-of-bounds, multicore-partition]

Whether a planted bug is *decidable from the file* is settled by this script alone, before checking, with
its own small evaluator of the file's integer constants (`#define`, `constexpr`/`const` integers,
`sizeof` of scalar types), never with the product's analyses:

  * queue deletions: the queue is declared in the file as a TQue/TQueBind, never passed to other code,
    and (for EnQue/DeQue) the other half of the round trip is in the file;
  * flag mutations: the event is a concrete `A_B` name and, after the mutation, no WaitFlag (or, for a swap,
    no SetFlag of the new event; the intrinsic `wait_flag(PIPE_A, PIPE_B, id)` counts alike) is left that may hold the same id (the same id text, or a computed id on
    either side: two different literals are the only ids known to differ);
  * perturb-count: the count folds to a constant that is 32-byte aligned for the copied type, or another
    DataCopy of the same element size copies the same count text holding the same value (a class member or a
    constant in both, or a local of the same function): n and n + 1 elements cannot both be 32-byte multiples;
  * inflate-initbuf: the count and length fold to constants (the factor makes that one buffer > 2 MiB);
  * tail-floor: both operands fold to constants and do not divide;
  * blockidx-offset: the offset is `S * GetBlockIdx()` with the buffer length S (block 0 then skips the
    first S elements, whatever S is), or every number involved folds to a constant.

Recall counts error and warning findings (information such as "needs the tiling values" is counted apart).
Of the error and warning findings a mutant has and its original has not (same code on the same line), those
of an expected category further than 3 lines away are "misplaced" (the bug found, reported elsewhere), and
those of any other category are false alarms; rates are per mutant. The originals' own findings (on the
unchanged known-correct files) are printed first.

Measured (seed 0, all nine operators, 1,350 mutants on 1,538 known-correct files, 217 s at --jobs 2, launch10):
recall on the decidable mutants del-free 147/150, del-enque 147, del-deque 146, del-waitflag 148, swap-event 150,
perturb-count 149, inflate-initbuf 150, blockidx-offset 138/138, tail-floor 2/2 (abs_gather_mask.cpp's hole is
found at the copy, with a related location at the floored constant; arange.asc's floored host line reaches the
kernel through its direct launch, checks/launch.py); false alarms 0; originals: 0 files with an error finding
(excluding 1 with a genuine syntax error), 75 queue warnings. Choosing a subset with --operators draws a different sample.

Usage:
    .venv/bin/python bench/mutants.py [--per-operator N] [--per-file K] [--seed S] [--jobs J] [--json OUT]
                                      [--show-misses N] [--operators a,b]
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import multiprocessing
import multiprocessing.pool
import os
import random
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import corpus_dir, corpus_missing_message, trees_dir

# -- which public files are known-correct (provenance only) ---------------------------------------------------

# (repository, path prefix or None for all, required path part or None): official samples and operator
# repositories, and the reference answers of NPUKernelBench. LLM-generated collections are left out.
KNOWN_CORRECT: tuple[tuple[str, str | None, str | None], ...] = (
    ("cannmirror+asc-devkit", None, None),
    ("Ascend+samples", None, None),
    ("LnickOne+Ascend", None, None),
    ("Hayden727+cann-ops", None, None),
    ("KernelHive+ascendc-skill", "skills/ascend-kernel-generator/reference/ref_repositories/cann-ops/", None),
    ("weich97+NPUKernelBench", None, "/answer/"),
)


def known_correct(rel: Path) -> bool:
    repo, rest = rel.parts[0], "/".join(rel.parts[1:])
    for name, prefix, part in KNOWN_CORRECT:
        if repo == name and (prefix is None or rest.startswith(prefix)) and (part is None or part in "/" + rest):
            return True
    return False


# -- the generator's own constant evaluator --------------------------------------------------------------------

_SIZES = {
    "half": 2, "float16_t": 2, "bfloat16_t": 2, "float": 4, "float32_t": 4, "int8_t": 1, "uint8_t": 1,
    "int16_t": 2, "uint16_t": 2, "int32_t": 4, "uint32_t": 4, "int64_t": 8, "uint64_t": 8, "int": 4,
    "char": 1, "bool": 1, "double": 8,
}
_DEFINE = re.compile(r"(?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^\n\\]+)$")
_CONST = re.compile(
    r"\b(?:constexpr|const)\s+(?:static\s+)?(?:[\w:]+\s+){0,2}?(?:u?int(?:8|16|32|64)_t|int|unsigned|size_t|long)"
    r"\s+([A-Za-z_]\w*)\s*=\s*([^;{}]+);"
)


_TEMPLATE_PARAMS = re.compile(r"\btemplate\s*<([^<>;{}]*(?:<[^<>;{}]*>[^<>;{}]*)*)>")
_INT_TYPE = r"(?:u?int(?:8|16|32|64)_t|int|unsigned|size_t|long)"


def _ambiguous_names(text: str) -> set[str]:
    """Names that are not one constant throughout the file: template parameters (a value per instantiation)
    and variables declared without const somewhere."""
    names: set[str] = set()
    for m in _TEMPLATE_PARAMS.finditer(text):
        names.update(re.findall(rf"\b{_INT_TYPE}\s+([A-Za-z_]\w*)", m.group(1)))
    for m in re.finditer(rf"(?<![\w:])(const\s+|constexpr\s+|static\s+)*{_INT_TYPE}\s+([A-Za-z_]\w*)\s*[=;,)]", text):
        if not m.group(1) or "const" not in m.group(0).split(m.group(2))[0]:
            names.add(m.group(2))
    return names


def constants(text: str) -> dict[str, int]:
    """Integer constants of the file; a name defined twice with different values, a template parameter or a
    variable declared without const somewhere is left out."""
    raw: dict[str, set[str]] = defaultdict(set)
    for m in _DEFINE.finditer(text):
        raw[m.group(1)].add(m.group(2).split("//")[0].strip())
    for m in _CONST.finditer(text):
        raw[m.group(1)].add(m.group(2).strip())
    for name in _ambiguous_names(text):
        raw.pop(name, None)
    values: dict[str, int] = {}
    for _ in range(6):  # chains: TILE = BLOCK / BUFFER_NUM
        for name, exprs in raw.items():
            if name in values or len(exprs) != 1:
                continue
            value = evaluate(next(iter(exprs)), values)
            if value is not None:
                values[name] = value
    return values


def evaluate(expr: str, names: dict[str, int]) -> int | None:
    text = re.sub(r"\bsizeof\s*\(\s*([\w:]+)\s*\)", lambda m: str(_SIZES.get(m.group(1).split("::")[-1], "?")), expr)
    text = re.sub(r"\bstatic_cast\s*<[^<>]*>", "", text)
    text = re.sub(r"\((?:u?int(?:8|16|32|64)_t|int|unsigned|size_t)\)", "", text)
    text = re.sub(r"(?<=\d)[uUlL]+\b", "", text).replace("this->", "").strip()
    if not text or "?" in text or len(text) > 200:
        return None
    try:
        tree = ast.parse(text.replace("/", "//"), mode="eval")
    except SyntaxError:
        return None
    return _eval(tree.body, names)


def _eval(node: ast.AST, names: dict[str, int]) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _eval(node.operand, names)
        return None if inner is None else -inner
    if isinstance(node, ast.BinOp):
        a, b = _eval(node.left, names), _eval(node.right, names)
        if a is None or b is None:
            return None
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
        if isinstance(node.op, ast.Mult):
            return a * b
        if isinstance(node.op, ast.FloorDiv) and b != 0 and a >= 0 and b > 0:
            return a // b
        if isinstance(node.op, ast.LShift) and 0 <= b < 64:
            return a << b
    return None


# -- mutation sites --------------------------------------------------------------------------------------------


@dataclass
class Mutant:
    operator: str
    file: str  # path relative to the corpus
    line: int  # 0-based line of the mutation
    start: int  # byte range replaced
    end: int
    replacement: str
    decidable: bool
    note: str = ""
    expected: tuple[str, ...] = ()


EXPECTED: dict[str, tuple[str, ...]] = {
    "del-free": ("queue-misuse",),
    "del-enque": ("queue-misuse",),
    "del-deque": ("queue-misuse",),
    "del-waitflag": ("sync-deadlock", "sync-missing"),
    "swap-event": ("sync-deadlock", "sync-missing"),
    "perturb-count": ("misaligned-access", "ub-out-of-bounds", "gm-out-of-bounds"),
    "inflate-initbuf": ("ub-overflow",),
    "tail-floor": ("multicore-partition", "gm-out-of-bounds"),
    "blockidx-offset": ("gm-out-of-bounds", "multicore-partition"),
}
OPERATORS = tuple(EXPECTED)

_CODE_MASK = re.compile(r"R\"([^()\\\s]{0,16})\(.*?\)\1\"|//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|^[ \t]*#(?:\\\n|[^\n])*", re.S | re.M)


def mask(text: str) -> str:
    """Comments, literals (raw strings too: a kernel compiled at run time is text, not code) and directive
    lines blanked (same length): sites are only looked for in code."""
    return _CODE_MASK.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def statement_at(code: str, pos: int) -> tuple[int, int] | None:
    """The statement holding offset `pos`: from after the previous `;`, `{` or `}` to its `;` (None inside a
    `for (...)` header or when the parentheses do not balance)."""
    start = max(code.rfind(c, 0, pos) for c in ";{}") + 1
    while start < pos and code[start].isspace():
        start += 1
    end = code.find(";", pos)
    if end < 0:
        return None
    body = code[start : end + 1]
    if body.count("(") != body.count(")") or code[start:pos].count("(") != code[start:pos].count(")"):
        return None
    return start, end + 1


def replace_statement(text: str, start: int, end: int, new: str) -> str:
    """`new` in place of text[start:end], padded so that every line break stays where it was."""
    blanked = _blank(text[start:end])
    first = blanked.split("\n", 1)[0]
    if len(new) <= len(first):
        return new + blanked[len(new) :]
    return new + "\n" * blanked.count("\n")


def _balanced_args(code: str, open_paren: int) -> tuple[list[tuple[int, int]], int] | None:
    """Argument spans of the call whose `(` is at `open_paren`, and the offset of its `)`."""
    depth = 0
    args: list[tuple[int, int]] = []
    start = open_paren + 1
    for i in range(open_paren, min(len(code), open_paren + 2000)):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append((start, i))
                return [(a, b) for a, b in args if code[a:b].strip()], i
        elif c == "," and depth == 1:
            args.append((start, i))
            start = i + 1
        elif c == ";" and depth <= 1:
            return None
    return None


def _queues(code: str) -> dict[str, str]:
    """Queue variables declared in the file: name -> TQue | TQueBind."""
    found: dict[str, str] = {}
    for m in re.finditer(r"\b(TQue|TQueBind)\s*<[^;(){}]*?>\s*([^;(){}]+);", code):
        for name in re.findall(r"[A-Za-z_]\w*", re.sub(r"\[[^\]]*\]", "", m.group(2))):
            found[name] = m.group(1)
    return found


def _escapes(code: str, queue: str) -> bool:
    """The queue is handed to other code (an argument, a reference or a pointer)."""
    pattern = rf"[(,]\s*&?\s*(?:this\s*->\s*)?{re.escape(queue)}\s*[,)]"
    for m in re.finditer(pattern, code):
        before = code[max(0, m.start() - 40) : m.start() + 1]
        if "InitBuffer" not in before:
            return True
    return bool(re.search(rf"[=&]\s*(?:this\s*->\s*)?{re.escape(queue)}\s*;", code)) or bool(
        re.search(rf"&\s*(?:this\s*->\s*)?{re.escape(queue)}\b", code)
    )


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset)


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def queue_sites(rel: str, text: str, code: str) -> Iterator[Mutant]:
    queues = _queues(code)
    call = re.compile(r"(?:this\s*->\s*)?([A-Za-z_]\w*)\s*\.\s*(?:template\s+)?(FreeTensor|EnQue|DeQue)\b")
    escapes: dict[str, bool] = {}  # per queue: one scan of the file each, not one per call site
    for m in call.finditer(code):
        queue, method = m.group(1), m.group(2)
        statement = statement_at(code, m.start())
        if statement is None:
            continue
        s, e = statement
        stmt = code[s:e]
        if queue in queues and queue not in escapes:
            escapes[queue] = _escapes(code, queue)
        decidable = queue in queues and not escapes[queue]
        whole = re.fullmatch(r"(?:this\s*->\s*)?\w+\s*\.\s*(?:template\s+)?\w+\s*(?:<[^;]*>)?\s*\([^;]*\)\s*;", stmt)
        if method == "EnQue" and whole:
            decidable = decidable and re.search(rf"\b{re.escape(queue)}\s*\.\s*(?:template\s+)?DeQue\b", code) is not None
            yield Mutant("del-enque", rel, _line(text, s), s, e, _blank(text[s:e]), decidable)
        elif method == "FreeTensor" and whole:
            yield Mutant("del-free", rel, _line(text, s), s, e, _blank(text[s:e]), decidable)
        elif method == "DeQue":
            decidable = decidable and re.search(rf"\b{re.escape(queue)}\s*\.\s*(?:template\s+)?EnQue\b", code) is not None
            decl = re.match(r"(?:const\s+)?((?:AscendC::)?LocalTensor\s*<[^;=]*>)\s*&?\s*([A-Za-z_]\w*)\s*=", stmt)
            auto = re.match(r"(?:const\s+)?auto\s*&?\s*([A-Za-z_]\w*)\s*=\s*[\w\->.\s]*DeQue\s*<\s*([^<>;]+?)\s*>", stmt)
            if decl:
                new = f"{decl.group(1)} {decl.group(2)};"
            elif auto:
                new = f"AscendC::LocalTensor<{auto.group(2)}> {auto.group(1)};"
            elif whole or re.match(r"(?:this\s*->\s*)?[A-Za-z_]\w*\s*=[^=]", stmt):
                new = ""
            else:
                continue
            yield Mutant("del-deque", rel, _line(text, s), s, e, replace_statement(text, s, e, new), decidable)


_FLAG = re.compile(r"\b(SetFlag|WaitFlag)\s*<\s*(?:AscendC::)?(?:HardEvent::)?([A-Z0-9]+)_([A-Z0-9]+)\s*>\s*\(")


def _flags(code: str) -> list[tuple[str, str, str, int, int]]:
    """(Set|Wait, event, id text, start, end of the call) for every SetFlag/WaitFlag<HardEvent::A_B>(id)."""
    found = []
    for m in _FLAG.finditer(code):
        parsed = _balanced_args(code, m.end() - 1)
        if parsed is None:
            continue
        args, close = parsed
        id_text = re.sub(r"\s+|this->|AscendC::|static_cast<event_t>|\(event_t\)", "", code[args[0][0] : args[0][1]]) if args else ""
        found.append((m.group(1), f"{m.group(2)}_{m.group(3)}", id_text, m.start(), close + 1))
    # The intrinsic form `wait_flag(PIPE_S, PIPE_MTE3, id)` pairs with `SetFlag<HardEvent::S_MTE3>(id)` alike: it
    # is never mutated, but it may hold the same id as a mutated call.
    for m in _PIPE_FLAG.finditer(code):
        id_text = re.sub(r"\s+|this->|AscendC::|static_cast<event_t>|\(event_t\)", "", m.group(4))
        kind = "SetFlag" if m.group(1) == "set_flag" else "WaitFlag"
        found.append((kind + "/intrinsic", f"{m.group(2)}_{m.group(3)}", id_text, m.start(), m.end()))
    return found


_PIPE_FLAG = re.compile(r"\b(set_flag|wait_flag)\s*\(\s*PIPE_([A-Z0-9]+)\s*,\s*PIPE_([A-Z0-9]+)\s*,\s*([^()]*(?:\([^()]*\))?[^()]*)\)")


_LITERAL_ID = re.compile(r"^(?:EVENT_ID\d+|\d+)$")


def _may_be_same_id(a: str, b: str) -> bool:
    """Two event id texts can hold the same id: equal text, or either one computed (two different literals
    cannot)."""
    return a == b or not (_LITERAL_ID.match(a) and _LITERAL_ID.match(b))


def flag_sites(rel: str, text: str, code: str) -> Iterator[Mutant]:
    flags = _flags(code)
    for kind, event, id_text, start, _end in flags:
        if kind != "WaitFlag":
            continue
        a, b = event.split("_", 1)
        sets = [f for f in flags if f[0].startswith("SetFlag") and f[1] == event and f[2] == id_text]
        other_waits = [f for f in flags if f[0].startswith("WaitFlag") and f[1] == event and f[3] != start
                       and _may_be_same_id(f[2], id_text)]
        statement = statement_at(code, start)
        if statement is not None and statement[0] == start:
            s, e = statement
            yield Mutant("del-waitflag", rel, _line(text, s), s, e, _blank(text[s:e]), bool(sets) and not other_waits)
        if a != b:
            swapped = f"{b}_{a}"
            new_sets = [f for f in flags if f[0].startswith("SetFlag") and f[1] == swapped and _may_be_same_id(f[2], id_text)]
            m = _FLAG.match(code, start)
            if m is None:
                continue
            s, e = m.start(2), m.end(3)
            yield Mutant("swap-event", rel, _line(text, s), s, e, swapped, bool(sets) and not other_waits and not new_sets)


_TYPE_OF = re.compile(r"\b(?:LocalTensor|GlobalTensor)\s*<\s*([\w:]+)\s*>\s*&?\s*([A-Za-z_]\w*)")


_QUALIFIERS = ("const", "override", "noexcept", "final")


def _after_parameter_list(code: str, start: int) -> bool:
    """The `{` at `start` follows a `)` and qualifiers only. Stripped backwards word by word: a regex anchored
    at the end of the whole prefix retries at every blank and made selection quadratic in masked comments."""
    end = start
    while True:
        while end > 0 and code[end - 1].isspace():
            end -= 1
        for word in _QUALIFIERS:
            if code.endswith(word, 0, end) and not (end > len(word) and (code[end - len(word) - 1].isalnum()
                                                                          or code[end - len(word) - 1] == "_")):
                end -= len(word)
                break
        else:
            return end > 0 and code[end - 1] == ")"


def function_body(code: str, pos: int) -> tuple[int, int] | None:
    """The body `{...}` of the function holding `pos`: the outermost enclosing block opened right after a `)`
    (and qualifiers such as const or override), so namespaces and classes are skipped."""
    depth = 0
    opens: list[int] = []
    for i in range(pos - 1, -1, -1):
        c = code[i]
        if c == "}":
            depth += 1
        elif c == "{":
            if depth == 0:
                opens.append(i)
            else:
                depth -= 1
    for start in reversed(opens):  # outermost first
        if _after_parameter_list(code, start):
            depth = 0
            for j in range(start, len(code)):
                if code[j] == "{":
                    depth += 1
                elif code[j] == "}":
                    depth -= 1
                    if depth == 0:
                        return start, j + 1
            return None
    return None


def _local_to(code: str, body: tuple[int, int], name: str) -> bool:
    """`name` is declared in the function (its body, or its parameter list just before the body)."""
    header_start = code.rfind("(", 0, code.rfind(")", 0, body[0]) + 1)
    region = code[max(0, header_start - 1) : body[1]]
    return re.search(rf"[\w>&*]\s+&?\s*{re.escape(name)}\s*(?:[=;,)({{\[]|$)", region) is not None


def _written_once(code: str, body: tuple[int, int] | None, name: str) -> bool:
    """`name` is written at most once (a local: in its function; else: in the file outside Init functions and
    constructors, where members are set up once)."""
    writes = [m.start() for m in re.finditer(rf"(?<![\w.>])(?:this\s*->\s*)?{re.escape(name)}\s*(?:[-+*/%|&^]?=(?!=)|\+\+|--)", code)]
    writes += [m.start() for m in re.finditer(rf"(?:\+\+|--)\s*(?:this\s*->\s*)?{re.escape(name)}\b", code)]
    if body is not None:
        return sum(body[0] <= w < body[1] for w in writes) <= 1
    outside = 0
    for w in writes:
        around = function_body(code, w)
        header = code[max(0, (around[0] if around else w) - 300) : around[0] if around else w]
        names = re.findall(r"([A-Za-z_]\w*)\s*\([^()]*\)[^()]*$", header)
        if not (names and (names[-1].startswith("Init") or (names[-1][:1].isupper() and "::" + names[-1] in header))):
            outside += 1
    return outside <= 1


def constexpr_branches(code: str, pos: int) -> tuple[tuple[str, int], ...]:
    """The `if constexpr` branches holding `pos`, outermost first: (condition text, 0 then / 1 else). Blocks
    are found by their braces; a branch without braces is not seen (then nothing is excluded for it)."""
    chain: list[tuple[str, int]] = []
    depth = 0
    for i in range(pos - 1, -1, -1):
        c = code[i]
        if c == "}":
            depth += 1
        elif c == "{":
            if depth:
                depth -= 1
                continue
            before = code[:i].rstrip()
            branch = 0
            if re.search(r"\belse$", before):
                close = before[: -len("else")].rstrip()
                if not close.endswith("}"):
                    continue
                opening = _matching_open(code, len(close) - 1, "{", "}")
                if opening is None:
                    continue
                before, branch = code[:opening].rstrip(), 1
            if before.endswith(")"):
                start = _matching_open(code, len(before) - 1, "(", ")")
                if start is not None and re.search(r"\bif\s+constexpr\s*$", code[:start]):
                    chain.append((re.sub(r"\s+", "", code[start + 1 : len(before) - 1]), branch))
    return tuple(reversed(chain))


def _matching_open(code: str, close: int, opener: str, closer: str) -> int | None:
    depth = 0
    for i in range(close, max(-1, close - 20000), -1):
        if code[i] == closer:
            depth += 1
        elif code[i] == opener:
            depth -= 1
            if depth == 0:
                return i
    return None


def _compiled_together(a: tuple[tuple[str, int], ...], b: tuple[tuple[str, int], ...]) -> bool:
    shorter = min(len(a), len(b))
    return a[:shorter] == b[:shorter]


_NOT_TYPES = {"return", "else", "case", "throw", "delete", "new", "sizeof", "co_return", "goto", "typedef", "using"}


def _not_a_count(code: str, count_text: str) -> bool:
    """The argument is a parameter struct (`DataCopyParams p`, DataCopy's other overload), not a number of
    elements: `p + 1` is a compile error, not a perturbed count."""
    name = re.fullmatch(r"\s*(?:this\s*->\s*)?([A-Za-z_]\w*)\s*", count_text)
    if name is None:
        return False
    for m in re.finditer(rf"\b([A-Za-z_][\w:]*(?:<[^<>;]*>)?)\s*&?\s*\b{re.escape(name.group(1))}\s*[;={{(,)]", code):
        declared = m.group(1).split("::")[-1]
        if declared in _NOT_TYPES or re.fullmatch(rf"{_INT_TYPE}|auto|const|constexpr|static|volatile|unsigned|signed|short|char", declared):
            continue
        return True
    return False


def datacopy_sites(rel: str, text: str, code: str, names: dict[str, int]) -> Iterator[Mutant]:
    types = {m.group(2): m.group(1).split("::")[-1] for m in _TYPE_OF.finditer(code)}
    copies: list[tuple[int, str, int | None]] = []  # (offset, normalised count text, element size)
    found: list[tuple[tuple[int, int], str, int | None, int | None]] = []
    for m in re.finditer(r"\bDataCopy\s*(?:<[^<>;()]*>)?\s*\(", code):
        parsed = _balanced_args(code, m.end() - 1)
        if parsed is None or len(parsed[0]) != 3:
            continue
        args = parsed[0]
        count_text = code[args[2][0] : args[2][1]].strip()
        if not count_text or "{" in count_text or _not_a_count(code, count_text):
            continue
        value = evaluate(count_text, names)
        sizes = []
        for a, b in args[:2]:
            name = re.match(r"\s*(?:this\s*->\s*)?([A-Za-z_]\w*)", code[a:b])
            size = _SIZES.get(types.get(name.group(1), "")) if name else None
            if size:
                sizes.append(size)
        size = sizes[0] if sizes else None
        copies.append((m.start(), re.sub(r"\s+|this->", "", count_text), size))
        found.append((args[2], count_text, value, size))
    for index, ((s, e), _count_text, value, size) in enumerate(found):
        aligned = value is not None and value > 0 and (value * size % 32 == 0 if size else value % 32 == 0)
        note = "constant" if value is not None else "runtime count"
        if value is None and size is not None and size < 32:
            # Another DataCopy of the same count and element size that holds the same value: the count and the
            # count + 1 cannot both be 32-byte multiples. The same value: a name of the class (or a constant),
            # or a local of the same function.
            at, key, _ = copies[index]
            body = function_body(code, at)
            idents = re.findall(r"[A-Za-z_]\w*", key)
            local = body is not None and any(_local_to(code, body, n) for n in idents)
            if not all(_written_once(code, body if local else None, n) for n in idents):
                idents = []  # a name written again may hold another value at the other copy
            for j, (other_at, other_key, other_size) in enumerate(copies):
                if not idents or j == index or other_key != key or other_size != size:
                    continue
                if local and (body is None or not body[0] <= other_at < body[1]):
                    continue
                if not local and any(body is not None and _local_to(code, b, n) for n in idents
                                     for b in [function_body(code, other_at)] if b is not None):
                    continue
                if not _compiled_together(constexpr_branches(code, at), constexpr_branches(code, other_at)):
                    continue  # the two branches of one `if constexpr`: never in the same instantiation
                aligned, note = True, "runtime count, also copied unchanged"
                break
        inner = text[s:e]
        lead = len(inner) - len(inner.lstrip())
        trail = len(inner.rstrip())
        yield Mutant("perturb-count", rel, _line(text, s), s + lead, s + trail, f"({inner.strip()}) + 1", aligned, note)


def initbuffer_sites(rel: str, text: str, code: str, names: dict[str, int]) -> Iterator[Mutant]:
    for m in re.finditer(r"\bInitBuffer\s*\(", code):
        parsed = _balanced_args(code, m.end() - 1)
        if parsed is None or len(parsed[0]) not in (2, 3):
            continue
        args = parsed[0]
        count = evaluate(code[args[1][0] : args[1][1]], names) if len(args) == 3 else 1
        length = evaluate(code[args[-1][0] : args[-1][1]], names)
        factor = 64
        decidable = count is not None and length is not None and count > 0 and length > 0
        if decidable:
            assert count is not None and length is not None
            factor = 2
            while count * length * factor <= 2 * 1024 * 1024:
                factor *= 2
        s, e = args[-1]
        inner = text[s:e]
        lead = len(inner) - len(inner.lstrip())
        yield Mutant("inflate-initbuf", rel, _line(text, s), s + lead, s + len(inner.rstrip()),
                     f"({inner.strip()}) * {factor}", decidable, "constant" if decidable else "runtime size")


_CEIL = re.compile(r"\(\s*([A-Za-z_][\w.>-]*|\d+)\s*\+\s*([A-Za-z_][\w.>-]*|\d+)\s*-\s*1\s*\)\s*/\s*([A-Za-z_][\w.>-]*|\d+)")


def tail_sites(rel: str, text: str, code: str, names: dict[str, int]) -> Iterator[Mutant]:
    for m in _CEIL.finditer(code):
        a, b, divisor = m.group(1), m.group(2), m.group(3)
        if b.replace("this->", "") != divisor.replace("this->", ""):
            continue
        va, vb = evaluate(a, names), evaluate(divisor, names)
        decidable = va is not None and vb is not None and vb > 0 and va % vb != 0
        # `(a + b - 1)` -> `(a)` padded: the division after it stays as written.
        close = code.index(")", m.end(2))
        replacement = f"({a})" + " " * (close + 1 - m.start() - len(a) - 2)
        yield Mutant("tail-floor", rel, _line(text, m.start()), m.start(), close + 1, replacement, decidable,
                     "constant" if decidable else "runtime operands")


def blockidx_sites(rel: str, text: str, code: str, names: dict[str, int]) -> Iterator[Mutant]:
    for m in re.finditer(r"\bSetGlobalBuffer\s*\(", code):
        parsed = _balanced_args(code, m.end() - 1)
        if parsed is None or len(parsed[0]) < 2:
            continue
        (a0, b0), (a1, b1) = parsed[0][0], parsed[0][1]
        first = code[a0:b0]
        idx = re.search(r"(?:AscendC::)?GetBlockIdx\s*\(\s*\)", first)
        if idx is None:
            continue
        length = re.sub(r"\s+|this->", "", code[a1:b1])
        stride = re.search(r"([\w.>-]+)\s*\*\s*(?:AscendC::)?GetBlockIdx\s*\(\s*\)|(?:AscendC::)?GetBlockIdx\s*\(\s*\)\s*\*\s*([\w.>-]+)", first)
        stride_text = re.sub(r"this->", "", (stride.group(1) or stride.group(2))) if stride else None
        decidable = stride_text is not None and stride_text == length
        s, e = a0 + idx.start(), a0 + idx.end()
        yield Mutant("blockidx-offset", rel, _line(text, s), s, e, f"({text[s:e]} + 1)", decidable,
                     "stride is the length" if decidable else "stride vs length unknown")


def sites(rel: str, text: str) -> Iterator[Mutant]:
    code = mask(text)
    names = constants(code + "\n" + "\n".join(m.group(0) for m in _DEFINE.finditer(text)))
    for generator in (queue_sites(rel, text, code), flag_sites(rel, text, code), datacopy_sites(rel, text, code, names),
                      initbuffer_sites(rel, text, code, names), tail_sites(rel, text, code, names),
                      blockidx_sites(rel, text, code, names)):
        for mutant in generator:
            mutant.expected = EXPECTED[mutant.operator]
            yield mutant


# -- checking ----------------------------------------------------------------------------------------------------

# (code, severity, category, line, message, end line, the related locations' (first, last) lines)
Found = tuple[str, str, str | None, int, str, int, tuple[tuple[int, int], ...]]


def check_text(text: str, path: str) -> list[Found]:
    from ascendc_lsp.checks.engine import CheckOptions, check_document
    from ascendc_lsp.syntax.document import SourceDocument

    document = SourceDocument(text, path=path)
    return [
        (f.code, f.severity, f.category, f.span.start.line, f.message, f.span.end.line,
         tuple((r.span.start.line, r.span.end.line) for r in f.related))
        for f in check_document(document, CheckOptions())
    ]


def project_path(rel: str) -> str:
    """The file in its extracted repository tree (its CMake, op_host and specs around it), else the corpus."""
    tree = trees_dir() / rel
    return str(tree if tree.is_file() else corpus_dir() / rel)


@dataclass
class Outcome:
    mutant: Mutant
    hit: bool
    info: bool  # an information finding of the right category near the line ("needs the tiling values")
    false_alarms: list[tuple[str, str]] = field(default_factory=list)  # (category, message)
    misplaced: int = 0
    seconds: float = 0.0
    hit_message: str = ""


def apply(text: str, mutant: Mutant) -> str:
    return text[: mutant.start] + mutant.replacement + text[mutant.end :]


def judge(mutant: Mutant, original: list[Found], found: list[Found]) -> Outcome:
    def near(f: Found) -> bool:
        # The finding's range, or one of its related locations, reaches within 3 lines of the planted line.
        spans = ((f[3], f[5]), *f[6])
        return f[2] in mutant.expected and any(first - 3 <= mutant.line <= last + 3 for first, last in spans)

    hits = [f for f in found if f[1] in ("error", "warning") and near(f)]
    info = any(f[1] == "information" and near(f) for f in found)
    before = Counter((f[0], f[3]) for f in original if f[1] in ("error", "warning"))
    alarms = []
    misplaced = 0
    for f in found:
        if f[1] not in ("error", "warning") or f in hits:
            continue
        key = (f[0], f[3])
        if before[key] > 0:
            before[key] -= 1
            continue
        if f[2] in mutant.expected:
            misplaced += 1
        else:
            alarms.append((f[2] or f[0], f"{f[0]} line {f[3] + 1}: {f[4]}"))
    return Outcome(mutant, bool(hits), info, alarms, misplaced, hit_message=hits[0][4] if hits else "")


def _work(job: tuple[str, str, list[Mutant]]) -> tuple[list[Found], list[Outcome], float]:
    rel, text, mutants = job
    path = project_path(rel)
    t0 = time.perf_counter()
    original = check_text(text, path)
    t_original = time.perf_counter() - t0
    outcomes = []
    for mutant in mutants:
        t0 = time.perf_counter()
        found = check_text(apply(text, mutant), path)
        outcome = judge(mutant, original, found)
        outcome.seconds = time.perf_counter() - t0
        outcomes.append(outcome)
    return original, outcomes, t_original


# -- main --------------------------------------------------------------------------------------------------------


def _sites_cache_salt() -> bytes:
    """What the cached sites depend on besides the file: this script and the product's parser (parse-clean
    decides whether a file gets mutants)."""
    import ascendc_lsp.syntax as syntax

    digest = hashlib.sha256(Path(__file__).read_bytes())
    for source in sorted(Path(syntax.__file__).parent.glob("*.py")):
        digest.update(source.read_bytes())
    return digest.digest()


def file_sites(job: tuple[str, str, bytes]) -> list[Mutant]:
    """The mutation sites of one file ([] when the parser cannot read it: its mutants would say nothing),
    cached per file content in the user's cache dir: selection reads every known-correct file of the corpus."""
    from ascendc_lsp.paths import cache_dir
    from ascendc_lsp.syntax.document import SourceDocument

    rel, text, salt = job
    key = hashlib.sha256(salt + rel.encode() + b"\0" + text.encode("utf-8", "surrogatepass")).hexdigest()
    cached = cache_dir("bench-mutants", key[:2]) / f"{key}.json"
    try:
        return [Mutant(**{**row, "expected": tuple(row["expected"])}) for row in json.loads(cached.read_text("utf-8"))]
    except (OSError, ValueError, TypeError, KeyError):
        pass
    found: list[Mutant] = []
    if "__aicore__" in text and not SourceDocument(text).syntax_errors(1):
        found = list(sites(rel, text))
    cached.parent.mkdir(parents=True, exist_ok=True)
    temporary = cached.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_text(json.dumps([asdict(m) for m in found]), encoding="utf-8")
    os.replace(temporary, cached)
    return found


def select(root: Path, per_operator: int, per_file: int, seed: int, operators: tuple[str, ...],
           pool: multiprocessing.pool.Pool | None = None) -> tuple[dict[str, str], list[Mutant]]:
    from ascendc_lsp.syntax.document import decode_source

    texts: dict[str, str] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.name != "MANIFEST.json"):
        rel = path.relative_to(root)
        if known_correct(rel):
            texts[str(rel)] = decode_source(path.read_bytes())
    salt = _sites_cache_salt()
    jobs = [(rel, text, salt) for rel, text in texts.items()]
    by_operator: dict[str, list[Mutant]] = defaultdict(list)
    for found in (pool.imap(file_sites, jobs, chunksize=8) if pool is not None else map(file_sites, jobs)):
        for mutant in found:
            if mutant.operator in operators:
                by_operator[mutant.operator].append(mutant)
    rng = random.Random(seed)
    chosen: list[Mutant] = []
    for operator in operators:
        candidates = by_operator.get(operator, [])
        rng.shuffle(candidates)
        # Decidable ones first (they are the measure), spread over files.
        candidates.sort(key=lambda m: not m.decidable)
        per: Counter[str] = Counter()
        taken = 0
        for mutant in candidates:
            if taken >= per_operator or per[mutant.file] >= per_file:
                continue
            per[mutant.file] += 1
            chosen.append(mutant)
            taken += 1
    return texts, chosen


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--per-operator", type=int, default=150, help="mutants per operator (default 150)")
    ap.add_argument("--per-file", type=int, default=2, help="mutants per operator and file (default 2)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", type=Path, default=None, help="write every outcome here")
    ap.add_argument("--show-misses", type=int, default=0, help="list this many missed decidable mutants per operator")
    ap.add_argument("--show-alarms", type=int, default=0, help="list this many false alarms")
    ap.add_argument("--operators", default=",".join(OPERATORS))
    ap.add_argument("--mutated-only", action="store_true",
                    help="check only the files that get a mutant (a quicker run; the originals' table then covers those)")
    args = ap.parse_args(argv)
    root = args.corpus or corpus_dir()
    if not (root / "MANIFEST.json").is_file():
        print(corpus_missing_message(), file=sys.stderr)
        return 2
    operators = tuple(o for o in args.operators.split(",") if o)
    unknown = [o for o in operators if o not in EXPECTED]
    if unknown:
        print(f"mutants.py: unknown operator(s) {', '.join(unknown)} (known: {', '.join(OPERATORS)})", file=sys.stderr)
        return 2
    started = time.perf_counter()
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    texts, chosen = select(root, args.per_operator, args.per_file, args.seed, operators, pool)
    by_file: dict[str, list[Mutant]] = defaultdict(list)
    for mutant in chosen:
        by_file[mutant.file].append(mutant)
    jobs = [(rel, texts[rel], by_file.get(rel, [])) for rel in sorted(texts) if by_file.get(rel) or not args.mutated_only]
    originals: dict[str, list[Found]] = {}
    outcomes: list[Outcome] = []
    times: list[float] = []
    run: Callable[..., Iterator[tuple[list[Found], list[Outcome], float]]]
    run = pool.imap if pool is not None else map
    for (rel, _, _), (original, results, seconds) in zip(jobs, run(_work, jobs), strict=True):
        originals[rel] = original
        outcomes.extend(results)
        times.append(seconds)
    report(originals, outcomes, times, args, time.perf_counter() - started)
    if args.json is not None:
        args.json.write_text(json.dumps({
            "originals": {k: v for k, v in originals.items() if v},
            "outcomes": [dict(asdict(o.mutant), hit=o.hit, info=o.info, false_alarms=o.false_alarms,
                              misplaced=o.misplaced, hit_message=o.hit_message) for o in outcomes],
        }, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


def report(originals: dict[str, list[Found]], outcomes: list[Outcome], times: list[float],
           args: argparse.Namespace, elapsed: float) -> None:
    files = len(originals)
    print(f"known-correct public kernel files: {files} (checked at their place in the extracted trees: "
          f"project SoC and specs apply)")
    by_category: dict[str, Counter[str]] = defaultdict(Counter)
    error_files: dict[str, set[str]] = defaultdict(set)
    for rel, found in originals.items():
        for code, severity, category, _line_no, _message, _end, _related in found:
            by_category[category or code][severity] += 1
            if severity == "error":
                error_files[category or code].add(rel)
    print("\nOriginals' findings (unchanged files)\n")
    print("| category | error | warning | information | files with an error |")
    print("|---|---:|---:|---:|---:|")
    for category in sorted(by_category):
        row = by_category[category]
        print(f"| {category} | {row['error']} | {row['warning']} | {row['information']} | {len(error_files[category])} |")
    with_error = {rel for rels in error_files.values() for rel in rels}
    with_error_no_syntax = {rel for cat, rels in error_files.items() if cat != "syntax" for rel in rels}
    print(f"\nfiles with any error finding: {len(with_error)} of {files}; excluding syntax: {len(with_error_no_syntax)}")
    for rel in sorted(with_error_no_syntax)[:20]:
        codes = sorted({f"{f[0]}:{f[3] + 1}" for f in originals[rel] if f[1] == "error" and f[0] != "syntax"})
        print(f"  {rel}: {', '.join(codes)}")

    print(f"\nMutants: {len(outcomes)} (seed {args.seed}, at most {args.per_operator} per operator, "
          f"{args.per_file} per operator and file)\n")
    print("| operator | mutants | decidable | found (decidable) | recall decidable | found (undecidable) | recall all | "
          "info 'needs values' | misplaced | false alarms | FA rate |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    alarm_categories: Counter[str] = Counter()
    total_alarms = 0
    for operator in OPERATORS:
        rows = [o for o in outcomes if o.mutant.operator == operator]
        if not rows:
            continue
        decidable = [o for o in rows if o.mutant.decidable]
        undecidable = [o for o in rows if not o.mutant.decidable]
        found_d = sum(o.hit for o in decidable)
        found_u = sum(o.hit for o in undecidable)
        info = sum(o.info and not o.hit for o in rows)
        alarms = sum(len(o.false_alarms) for o in rows)
        total_alarms += alarms
        for o in rows:
            for category, _ in o.false_alarms:
                alarm_categories[category] += 1
        recall = f"{found_d / len(decidable):.2f}" if decidable else "-"
        misplaced = sum(1 for o in rows if o.misplaced and not o.hit)
        print(f"| {operator} | {len(rows)} | {len(decidable)} | {found_d} | {recall} | {found_u} / {len(undecidable)} | "
              f"{(found_d + found_u) / len(rows):.2f} | {info} | {misplaced} | {alarms} | {alarms / len(rows):.3f} |")
    decidable_all = [o for o in outcomes if o.mutant.decidable]
    if decidable_all:
        print(f"| all | {len(outcomes)} | {len(decidable_all)} | {sum(o.hit for o in decidable_all)} | "
              f"{sum(o.hit for o in decidable_all) / len(decidable_all):.2f} | | "
              f"{sum(o.hit for o in outcomes) / len(outcomes):.2f} | | | {total_alarms} | "
              f"{total_alarms / max(len(outcomes), 1):.3f} |")
    if alarm_categories:
        print("\nFalse alarms per category (per mutant): " + ", ".join(
            f"{c} {n} ({n / max(len(outcomes), 1):.3%})" for c, n in alarm_categories.most_common()))
    if args.show_alarms:
        shown = 0
        for o in outcomes:
            for _category, message in o.false_alarms:
                if shown < args.show_alarms:
                    print(f"  alarm [{o.mutant.operator}] {o.mutant.file}:{o.mutant.line + 1}: {message[:200]}")
                    shown += 1
    if args.show_misses:
        for operator in OPERATORS:
            misses = [o for o in outcomes if o.mutant.operator == operator and o.mutant.decidable and not o.hit]
            for o in misses[: args.show_misses]:
                print(f"  miss [{operator}] {o.mutant.file}:{o.mutant.line + 1}: {o.mutant.replacement.strip()[:60]!r}")
    per_check = sorted(o.seconds for o in outcomes) or [0.0]
    print(f"\ncheck time per mutant: median {1000 * per_check[len(per_check) // 2]:.0f} ms; "
          f"whole run {elapsed:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
