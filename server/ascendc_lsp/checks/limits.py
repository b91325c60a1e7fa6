"""Rules' view of the hardware numbers (the adapter itself is ascendc_lsp.hardware.limits)."""

from __future__ import annotations

from ascendc_lsp.checks.base import CheckContext
from ascendc_lsp.hardware.limits import Limits, limits_for_soc

__all__ = ["Limits", "limits_for"]


def limits_for(context: CheckContext) -> Limits:
    return limits_for_soc(context.soc, context.soc_name)
