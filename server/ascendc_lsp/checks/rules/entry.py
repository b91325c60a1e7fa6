"""Kernel entry shape: extern "C" __global__ __aicore__ void, GM_ADDR or POD parameters."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ascendc_lsp.checks.base import CheckContext, rule
from ascendc_lsp.checks.fixes import fix, insert_at
from ascendc_lsp.diagnostics import Diagnostic

_BAD_PARAM_TYPES = re.compile(r"\b(LocalTensor|GlobalTensor|TPipe|TQue|TBuf|std::)\b")


def _is_template(context: CheckContext, start_byte: int) -> bool:
    head = context.document.data[max(0, start_byte - 400):start_byte].decode("utf-8", "replace")
    return re.search(r"template\s*<[^;{}]*>\s*(?:__\w+__\s*|\[\w+\]\s*|extern\s*\"C\"\s*)*$", head) is not None


@rule("ASC020")
def kernel_entry_shape(context: CheckContext) -> Iterator[Diagnostic]:
    document = context.document
    path = document.path
    launches_here = b"<<<" in document.data
    for function in context.model.kernels:
        problems: list[str] = []
        fixes = []
        if function.return_type.strip() not in ("void", ""):
            problems.append(f"returns {function.return_type.strip()} (a kernel returns void)")
        if "global" not in function.qualifiers:
            problems.append("lacks __global__")
        if not any(q in function.qualifiers for q in ("aicore", "vector", "cube", "mix")) and not path.endswith(
            ".asc"
        ):
            problems.append("lacks __aicore__")
        if (
            not function.is_extern_c
            and not path.endswith((".asc", ".h", ".hpp"))
            and not launches_here
            and not _is_template(context, function.start_byte)
            and function.class_name is None
        ):
            problems.append("is not extern \"C\" (the launcher looks the kernel up by its C name)")
            fixes.append(fix("Add extern \"C\"", insert_at(document, function.start_byte, "extern \"C\" ")))
        for param in function.params:
            if "&" in param.type_text:
                problems.append(f"takes {param.name} by reference (kernel parameters are GM_ADDR or POD values)")
            elif _BAD_PARAM_TYPES.search(param.type_text):
                problems.append(f"takes {param.name} as {param.type_text} (pass GM_ADDR and build tensors inside)")
        if not problems:
            continue
        yield context.finding(
            "ASC020", function.name_span,
            f"Kernel entry {function.name} " + "; ".join(problems),
            fixes=fixes if len(problems) == len(fixes) else [],
        )
