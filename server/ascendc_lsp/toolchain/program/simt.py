"""Unified Buffer arrays of SIMT code, made shared the way the device shares them; line numbers unchanged.

On the device (devkit guide 编程指南/编程模型/AI-Core-SIMT编程, 共享内存; api SIMT-API/SIMT编程简介/扩展语法/
内存空间限定符.md) an array declared `__ubuf__` in a SIMT function (a `__global__` kernel without `__aicore__`,
or a `__simt_vf__` function) lives in the core's Unified Buffer: one copy for all the threads of the block. The
emulator runs each thread as a fiber with its own stack (ascendc_emu/simt.h), so a plain local array would be one
per thread; this pass makes it `static` (blocks of a SIMT launch run one after another, so one copy serves them
all). `extern __ubuf__ T name[]` (the dynamic Unified Buffer sized by the launch) becomes a pointer to the
core's dynamic buffer (`ascendc_emu::dyn_ubuf`, launch.h), in SIMT and SIMD code alike. Pointers declared
`__ubuf__` stay per-thread locals.
"""

from __future__ import annotations

import re

from .scan import LoweringError, code_mask, matching

# What only SIMT code uses: the builtin variables with a member, the SIMT qualifier and the block barrier. The
# bisheng compiler provides these to every `.asc` unit without an include (the devkit's gather samples include
# only acl/acl.h), so the lowering includes ascendc_emu/simt.h when a unit uses them; never otherwise, since a
# SIMD program may name its own variable `blockDim`.
_SIMT_USE = re.compile(
    r"\b(?:threadIdx|blockIdx|blockDim|gridDim)\s*\.\s*[xyz]\b|\b__simt_vf__\b|\basc_syncthreads\s*\("
)
SIMT_INCLUDE = '#include "ascendc_emu/simt.h"'

_SIMD_QUALIFIER = re.compile(r"\b(?:__aicore__|__vector__|__cube__|__mix__)\b")
_FUNC_QUALIFIER = re.compile(r"\b(__simt_vf__|__global__)\b")
_EXTERN_UBUF = re.compile(r"\bextern\s+__ubuf__\s+([A-Za-z_][\w:<>,\s]*?)\s*\b([A-Za-z_]\w*)\s*\[\s*\]")
_UBUF_ARRAY = re.compile(r"\b__ubuf__\s+([A-Za-z_][\w:<>,\s]*?)\s*\b([A-Za-z_]\w*)\s*\[")


def uses_simt(text: str) -> bool:
    """Whether the unit uses the SIMT builtins (outside comments and literals)."""
    if not _SIMT_USE.search(text):
        return False
    mask = code_mask(text)
    return any(mask[m.start()] for m in _SIMT_USE.finditer(text))


def _simt_bodies(text: str, mask: bytearray) -> list[tuple[int, int]]:
    """(start, end) of the bodies of SIMT functions: `__simt_vf__` ones and `__global__` kernels without
    `__aicore__`, `__vector__`, `__cube__` or `__mix__` among their qualifiers."""
    bodies: list[tuple[int, int]] = []
    for m in _FUNC_QUALIFIER.finditer(text):
        if not mask[m.start()]:
            continue
        paren = text.find("(", m.end())
        if paren < 0:
            break
        qualifiers = text[max(0, m.start() - 80) : paren]
        if m.group(1) == "__global__" and _SIMD_QUALIFIER.search(qualifiers.split(";")[-1].split("}")[-1]):
            continue
        try:
            after = matching(text, mask, paren)
        except LoweringError:
            continue
        # `__launch_bounds__(N)` and friends sit between the qualifier and the name: skip parenthesised groups
        # until the parameter list is followed by a body or a `;`.
        j = after
        while j < len(text) and (text[j].isspace() or not mask[j]):
            j += 1
        if j < len(text) and text[j] != "{" and text[j] != ";":
            nxt = text.find("(", j)
            if nxt < 0:
                continue
            try:
                after = matching(text, mask, nxt)
            except LoweringError:
                continue
            j = after
            while j < len(text) and (text[j].isspace() or not mask[j]):
                j += 1
        if j < len(text) and text[j] == "{" and mask[j]:
            try:
                bodies.append((j, matching(text, mask, j)))
            except LoweringError:
                continue
    return bodies


def _statement_start(text: str, mask: bytearray, i: int) -> bool:
    """Whether offset i begins a declaration statement (the previous code character is ; { } or nothing)."""
    j = i - 1
    while j >= 0 and (text[j].isspace() or not mask[j]):
        j -= 1
    return j < 0 or text[j] in ";{}"


def share_ubuf_arrays(text: str) -> str:
    """The source with SIMT `__ubuf__` arrays made `static` and `extern __ubuf__ T name[]` made pointers to the
    dynamic Unified Buffer (see the module docstring). No newline is added or removed."""
    if "__ubuf__" not in text:
        return text
    mask = code_mask(text)
    edits: list[tuple[int, int, str]] = []
    for m in _EXTERN_UBUF.finditer(text):
        if not mask[m.start()]:
            continue
        elem, name = " ".join(m.group(1).split()), m.group(2)
        edits.append((m.start(), m.end(), f"__ubuf__ {elem}* const {name} = ({elem}*)::ascendc_emu::dyn_ubuf()"))
    fixed = list(edits)
    bodies = _simt_bodies(text, mask)
    taken = [(s, e) for s, e, _ in fixed]
    for body_start, body_end in bodies:
        for m in _UBUF_ARRAY.finditer(text, body_start, body_end):
            s = m.start()
            if not mask[s] or "*" in m.group(1) or any(a <= s < b for a, b in taken):
                continue
            if not _statement_start(text, mask, s):
                continue
            fixed.append((s, s, "static "))
            taken.append((s, s + 1))
    out = text
    for start, end, repl in sorted(fixed, key=lambda e: e[0], reverse=True):
        out = out[:start] + repl + out[end:]
    return out


__all__ = ["SIMT_INCLUDE", "share_ubuf_arrays", "uses_simt"]
