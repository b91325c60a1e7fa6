"""Pull the kernel source out of a model's reply.

Real replies carry `<think>...</think>` blocks (sometimes unterminated), prose around the code, several fenced
blocks (a host-side snippet, a tiling header, the kernel), blocks that a length limit cut short, or no fence at
all. `extract_code` picks the block that defines the kernel entry, and says why when there is none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_THINK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.DOTALL | re.IGNORECASE)
_THINK_OPEN = re.compile(r"<(think|thinking|reasoning)>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</(think|thinking|reasoning)>", re.IGNORECASE)
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*$", re.MULTILINE)
_CODE_LANGS = {"", "cpp", "c++", "cc", "cxx", "c", "h", "hpp", "ascendc", "asc", "cce", "cuda"}
_OTHER_LANGS = {"python", "py", "bash", "sh", "shell", "console", "yaml", "yml", "json", "text", "txt", "cmake",
                "diff", "patch", "markdown", "md", "makefile"}
_CODE_START = re.compile(
    r'^\s*(#include|#pragma|#define|using\s+namespace|namespace\s|template\s*<|constexpr\s|class\s|struct\s|'
    r'extern\s+"C"|__aicore__|__global__|//)',
    re.MULTILINE,
)


@dataclass
class Block:
    code: str
    lang: str
    terminated: bool
    start: int  # offset in the cleaned reply


@dataclass
class Extraction:
    code: str | None
    reason: str  # how the code was found, or why not
    blocks: int = 0
    truncated: bool = False  # the chosen block was never closed
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.code and self.code.strip())


def strip_thinking(text: str) -> str:
    """The reply without reasoning blocks. An unterminated `<think>` hides everything after it, unless code
    fences follow (a model that forgot to close its thoughts but then answered)."""
    text = _THINK.sub("", text)
    stray_close = _THINK_CLOSE.search(text)
    if stray_close and not _THINK_OPEN.search(text[: stray_close.start()]):
        # "...reasoning</think> answer": the opening tag was in the prompt template
        text = text[stray_close.end():]
    match = _THINK_OPEN.search(text)
    if match:
        after = text[match.end():]
        fence = _FENCE.search(after)
        if fence is None:
            return text[: match.start()]
        text = text[: match.start()] + after[fence.start():]
    return text


def find_blocks(text: str) -> list[Block]:
    """Fenced blocks in order; a fence that is never closed runs to the end of the text."""
    blocks: list[Block] = []
    pos = 0
    while True:
        opening = _FENCE.search(text, pos)
        if opening is None:
            break
        marker, lang = opening.group(1), opening.group(2).lower()
        body_start = opening.end() + 1
        closing = re.compile(rf"^[ \t]*{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$", re.MULTILINE)
        end = closing.search(text, body_start)
        if end is None:
            blocks.append(Block(text[body_start:], lang, False, opening.start()))
            break
        blocks.append(Block(text[body_start : end.start()], lang, True, opening.start()))
        pos = end.end()
    return blocks


def _defines_kernel(code: str, kernel: str | None) -> bool:
    if kernel:
        return re.search(rf"\b{re.escape(kernel)}\s*\(", code) is not None and (
            "__global__" in code or "__aicore__" in code or "extern" in code
        )
    return "__global__" in code


def _score(block: Block, kernel: str | None) -> tuple[int, int, int]:
    code = block.code
    rank = 0
    if _defines_kernel(code, kernel):
        rank += 8
    if "__global__" in code:
        rank += 4
    if "__aicore__" in code:
        rank += 2
    if "kernel_operator.h" in code:
        rank += 1
    if block.lang in _OTHER_LANGS:
        rank -= 10
    return (rank, 1 if block.terminated else 0, len(code))


def _unfenced(text: str) -> str | None:
    """Code given without fences: from the first line that looks like C++ to the kernel's closing brace."""
    start = _CODE_START.search(text)
    if start is None:
        return None
    code = text[start.start():]
    # drop trailing prose after the last closing brace at column 0
    last = code.rfind("\n}")
    if last >= 0:
        code = code[: last + 2]
    return code


def _clean(code: str) -> str:
    lines = code.replace("\r\n", "\n").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines) + "\n" if lines else ""


def extract_code(reply: str, kernel: str | None = None) -> Extraction:
    """The kernel source in `reply` (a complete translation unit), or None with the reason."""
    if not reply or not reply.strip():
        return Extraction(None, "the reply was empty")
    text = strip_thinking(reply)
    if not text.strip():
        return Extraction(None, "the reply held only reasoning (<think>) and no answer")
    blocks = [b for b in find_blocks(text) if b.code.strip()]
    if blocks:
        candidates = [b for b in blocks if b.lang in _CODE_LANGS or b.lang not in _OTHER_LANGS]
        if not candidates:
            return Extraction(None, f"the reply's {len(blocks)} code block(s) are not C++", blocks=len(blocks))
        best = max(candidates, key=lambda b: _score(b, kernel))
        code = best.code
        notes: list[str] = []
        if not best.terminated:
            notes.append("the code block was not closed (the reply may have been cut short)")
        code = _merge_helpers(best, candidates, kernel, notes)
        if kernel and not _defines_kernel(code, kernel):
            notes.append(f"no block defines the kernel entry `{kernel}`")
        reason = f"code block {blocks.index(best) + 1} of {len(blocks)}"
        return Extraction(_clean(code), reason, blocks=len(blocks), truncated=not best.terminated, notes=notes)
    loose = _unfenced(text)
    if loose is None or not ("__aicore__" in loose or "__global__" in loose or "kernel_operator.h" in loose):
        return Extraction(None, "the reply has no code block and no kernel source")
    return Extraction(_clean(loose), "unfenced code in the reply", notes=["the code was not in a fenced block"])


def _merge_helpers(best: Block, candidates: list[Block], kernel: str | None, notes: list[str]) -> str:
    """When the chosen block uses a class or struct that only another C++ block defines, put that first."""
    code = best.code
    used = set(re.findall(r"\b[A-Za-z_]\w*\b", code))
    extra: list[str] = []
    for other in candidates:
        if other is best or other.lang in _OTHER_LANGS:
            continue
        defined = set(re.findall(r"\b(?:class|struct)\s+(\w+)", other.code))
        missing = {n for n in used & defined if re.search(rf"\b(?:class|struct)\s+{n}\b", code) is None}
        if missing and not _defines_kernel(other.code, kernel):
            extra.append(other.code.rstrip("\n"))
            notes.append(f"merged the block defining {', '.join(sorted(missing))}")
    if not extra:
        return code
    includes = [ln for ln in code.splitlines() if ln.lstrip().startswith("#include")]
    body = [ln for ln in code.splitlines() if not ln.lstrip().startswith("#include")]
    helper_lines: list[str] = []
    for chunk in extra:
        for ln in chunk.splitlines():
            if ln.lstrip().startswith("#include"):
                if ln not in includes:
                    includes.append(ln)
            else:
                helper_lines.append(ln)
    return "\n".join([*includes, *helper_lines, *body]) + "\n"


__all__ = ["Block", "Extraction", "extract_code", "find_blocks", "strip_thinking"]
