"""checks/limits.py: numbers come from the SoC profile when it loads, documented fallbacks otherwise."""

from __future__ import annotations

from ascendc_lsp.checks.base import CheckContext
from ascendc_lsp.checks.engine import load_soc
from ascendc_lsp.checks.limits import limits_for
from ascendc_lsp.syntax.document import SourceDocument
from ascendc_lsp.syntax.model import build_model


def context(soc_name: str, with_profile: bool) -> CheckContext:
    document = SourceDocument("", path="k.cpp")
    return CheckContext(document=document, model=build_model(document), soc_name=soc_name,
                        soc=load_soc(soc_name) if with_profile else None)


def test_profile_numbers() -> None:
    limits = limits_for(context("Ascend910B", True))
    assert limits.from_profile
    assert limits.ub_bytes == 196608 and limits.ub_reserved_bytes == 8192
    assert limits.max_repeat == 255 and limits.max_buffers == 64 and limits.event_ids == 8
    assert limits.datacopypad and limits.get_tiling_data
    assert limits.mask_width(2) == 128 and limits.mask_width(4) == 64


def test_910a_profile_has_no_datacopypad_and_four_event_ids() -> None:
    limits = limits_for(context("Ascend910A", True))
    assert not limits.datacopypad and not limits.get_tiling_data
    assert limits.event_ids == 4 and limits.max_live_tensors_per_position == 4


def test_fallbacks_without_a_profile() -> None:
    limits = limits_for(context("Ascend310P", False))
    assert not limits.from_profile
    assert limits.ub_bytes == 262144 and limits.ub_reserved_bytes == 0
    assert not limits.datacopypad
    assert limits_for(context("Ascend910B", False)).ub_bytes == 196608


def test_atomic_add_dtypes_come_from_the_profile() -> None:
    from ascendc_lsp.checks.limits import profile_dtypes

    assert profile_dtypes(context("Ascend910B", True), "set_atomic_add") == {
        "int8_t", "int16_t", "half", "bfloat16_t", "int32_t", "float"}
    assert profile_dtypes(context("Ascend310P", True), "set_atomic_add") == {"int16_t", "half", "float"}
    assert profile_dtypes(context("Ascend910", True), "set_atomic_add") == {"float"}  # an alias of Ascend910A
    assert profile_dtypes(context("Ascend910B", False), "set_atomic_add") is None  # no profile: no claim
