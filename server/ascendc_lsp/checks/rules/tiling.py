"""Tiling: TILING_KEY_IS branches and GET_TILING_DATA support."""

from __future__ import annotations

from collections.abc import Iterator

from ascendc_lsp.checks.base import CheckContext, rule
from ascendc_lsp.checks.limits import limits_for
from ascendc_lsp.checks.rules._common import scan
from ascendc_lsp.diagnostics import Diagnostic


@rule("ASC034")
def tiling_key_else(context: CheckContext) -> Iterator[Diagnostic]:
    text = context.document.node_text
    for node in scan(context).get("if"):
        condition = node.child_by_field_name("condition")
        if condition is None or "TILING_KEY_IS" not in text(condition):
            continue
        alternative = node.child_by_field_name("alternative")
        if alternative is None:
            continue
        body = next((c for c in alternative.named_children if c.type != "comment"), None)
        if body is None or body.type == "if_statement":
            continue
        else_token = alternative.children[0] if alternative.children else alternative
        yield context.finding(
            "ASC034", context.document.span(else_token),
            "A bare else after TILING_KEY_IS: the tiling-key dispatcher compiles one kernel per key and the else "
            "branch matches no key; write else if (TILING_KEY_IS(n)) for every key",
        )


@rule("ASC039")
def get_tiling_data_unsupported(context: CheckContext) -> Iterator[Diagnostic]:
    limits = limits_for(context)
    if limits.get_tiling_data:
        return
    for call in context.model.calls_named("GET_TILING_DATA", "GET_TILING_DATA_WITH_STRUCT"):
        yield context.finding(
            "ASC039", call.span,
            f"{call.name} is not supported on {limits.soc_name}: pass the tiling struct and read its fields "
            "from GM yourself",
        )
