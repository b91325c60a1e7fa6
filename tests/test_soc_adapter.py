"""One SoC adapter: checks, the emulator's soc.txt, prompts and budgets read the same numbers by name."""

from __future__ import annotations

import pytest

from ascendc_lsp.errors import UnknownSocError
from ascendc_lsp.hardware import limits as limits_module
from ascendc_lsp.hardware.budget import ub_capacity
from ascendc_lsp.hardware.limits import DEFAULT_SOC
from ascendc_lsp.hardware.soc import get_soc, soc_limits, soc_names
from ascendc_lsp.settings import Settings
from ascendc_lsp.toolchain.emulator.soc import load_soc


@pytest.mark.parametrize("name", soc_names())
def test_emulator_and_checks_read_the_same_numbers(name: str) -> None:
    limits = soc_limits(name)
    emulated = load_soc(name)
    assert emulated.known
    assert emulated.get("ub_bytes") == limits.ub_bytes
    assert emulated.get("ub_reserved_bytes") == limits.ub_reserved_bytes
    assert emulated.get("aiv_cores") == limits.vector_cores
    assert emulated.get("aic_cores") == limits.ai_cores
    assert emulated.get("arch") == limits.arch
    assert ub_capacity(get_soc(name), name) == (limits.ub_bytes, limits.ub_reserved_bytes)


def test_core_counts_follow_the_profiles() -> None:
    # Variants carry their own counts (knowledge/hardware/Ascend910B.yaml variants); the family name takes the
    # Ascend910B2 figures, and a coupled SoC has one vector unit per AI Core.
    assert (soc_limits("Ascend910B3").ai_cores, soc_limits("Ascend910B3").vector_cores) == (20, 40)
    assert (soc_limits("Ascend910B1").ai_cores, soc_limits("Ascend910B1").vector_cores) == (25, 50)
    assert (soc_limits("Ascend910B").ai_cores, soc_limits("Ascend910B").vector_cores) == (24, 48)
    assert soc_limits("Ascend910A").vector_cores == soc_limits("Ascend910A").ai_cores == 32
    assert load_soc("Ascend310P3").get("aiv_cores") == load_soc("Ascend310P").get("aiv_cores") == 8


def test_one_default_soc() -> None:
    from ascendc_lsp.checks.base import CheckContext
    from ascendc_lsp.hardware import soc

    assert Settings().soc == soc.DEFAULT_SOC == DEFAULT_SOC
    assert CheckContext.__dataclass_fields__["soc_name"].default == DEFAULT_SOC
    assert load_soc(None).name == DEFAULT_SOC


def test_an_unknown_soc_is_one_error_listing_the_known_ones() -> None:
    with pytest.raises(UnknownSocError) as caught:
        soc_limits("Ascend999")
    message = str(caught.value)
    assert message.startswith("unknown SoC 'Ascend999'; known: ") and "Ascend910B" in message
    with pytest.raises(LookupError):  # what `check` catches for a bad --soc
        get_soc("Ascend999")
    emulated = load_soc("Ascend999")
    assert not emulated.known and str(emulated.unknown) == message
    assert emulated.soc_txt().splitlines()[1:] == load_soc(DEFAULT_SOC).soc_txt().splitlines()[1:]


def test_fallbacks_apply_without_a_profile() -> None:
    bare = limits_module.limits_for_soc(None, "Ascend310P")
    assert (bare.ub_bytes, bare.ai_cores, bare.vector_cores, bare.layout, bare.arch) == (262144, 8, 8, "coupled", 2002)
    assert not bare.from_profile


# The build names the toolchain writes (direct-launch CMake overrides, the CANN CMake flow and device compile)
# come from the profiles through hardware/soc.py; these are the values the tables in code used to hold.
BUILD_NAMES = {
    "Ascend910B": ("dav-2201", "Ascend910B1", "dav-c220-vec"),
    "Ascend910_93": ("dav-2201", "Ascend910_9391", "dav-c220-vec"),
    "Ascend910A": ("dav-1001", "Ascend910A", "dav-c100"),
    "Ascend310P": ("dav-2002", "Ascend310P3", "dav-m200"),
    "Ascend310B": ("dav-3002", "Ascend310B1", "dav-m300"),
    "Ascend950": ("dav-3510", "Ascend950PR_9599", "dav-c310-vec"),
}


@pytest.mark.parametrize("name", sorted(BUILD_NAMES))
def test_build_names_come_from_the_profiles(name: str) -> None:
    from ascendc_lsp.hardware.soc import cmake_architecture, soc_version, vector_core_target

    assert (cmake_architecture(name), soc_version(name), vector_core_target(name)) == BUILD_NAMES[name]


def test_build_names_of_variants_and_unknown_names() -> None:
    from ascendc_lsp.hardware.soc import cmake_architecture, soc_for_arch, soc_version, vector_core_target

    assert soc_version("Ascend910B3") == "Ascend910B3"  # a variant is a concrete part already
    assert soc_version("AscendNext") == "AscendNext"  # passed through: the build says whether it knows it
    assert cmake_architecture("AscendNext") is None and vector_core_target("AscendNext") is None
    # the reverse mapping a CMake project's CMAKE_ASC_ARCHITECTURES goes through (two SoCs share 2201)
    assert [soc_for_arch(f"dav-{n}") for n in (2201, 2002, 3002, 3510)] == [
        "Ascend910B", "Ascend310P", "Ascend310B", "Ascend950",
    ]  # fmt: skip


def test_short_soc_version_is_the_addconfig_spelling() -> None:
    from ascendc_lsp.hardware.soc import short_soc_version

    assert short_soc_version("Ascend910B2") == "ascend910b"
    assert short_soc_version("Ascend910_9392") == "ascend910_93"
    assert short_soc_version("Ascend910A") == "ascend910" and short_soc_version(" Ascend310P3 ") == "ascend310p"
    assert short_soc_version("Ascend950PR") == "ascend950" and short_soc_version("Other1") == "other1"


def test_a_borrowed_core_count_is_not_stated_as_the_socs() -> None:
    # Ascend950's profile documents no core count (knowledge/hardware/Ascend950.yaml cores); the emulator still runs
    # with the 910B figures, but ASC036 must not tell a 64-block SIMT launch that "Ascend950 has at most 48 cores".
    from ascendc_lsp.checks.engine import CheckOptions, check_document
    from ascendc_lsp.syntax.document import SourceDocument

    assert soc_limits("Ascend910B").cores_documented and not soc_limits("Ascend950").cores_documented
    assert soc_limits("Ascend950").vector_cores == 48  # what the emulator runs with
    source = (
        '#include "kernel_operator.h"\n'
        "namespace { constexpr uint32_t BLOCKS = 64; }\n"
        "__global__ __aicore__ void k(GM_ADDR x) {}\n"
        "void launch(uint8_t* x, void* stream) { k<<<BLOCKS, nullptr, stream>>>(x); }\n"
    )

    def block_findings(soc: str) -> list[str]:
        document = SourceDocument(source, path="/tmp/launch.cpp")
        found = check_document(document, CheckOptions(soc_name=soc, use_project=False))
        return [f.message for f in found if f.code == "ASC036"]

    assert block_findings("Ascend950") == []
    assert "at most 48 cores" in block_findings("Ascend910B")[0]
