"""Rules' view of the hardware numbers (the adapter itself is ascendc_lsp.hardware.limits)."""

from __future__ import annotations

from ascendc_lsp.checks.base import CheckContext
from ascendc_lsp.hardware.limits import Limits, limits_for_soc, profile_value

__all__ = ["Limits", "limits_for", "profile_dtypes"]


def limits_for(context: CheckContext) -> Limits:
    return limits_for_soc(context.soc, context.soc_name)


def profile_dtypes(context: CheckContext, key: str) -> frozenset[str] | None:
    """The data types the SoC profile documents under `dtypes.<key>` (knowledge/hardware/*.yaml), None when the
    profile is not loaded or does not say."""
    listed = profile_value(context.soc, "dtypes", key)
    return frozenset(str(d) for d in listed) if listed else None
