"""SoC profiles: loading, sources, variants, validation errors."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from ascendc_lsp.hardware import soc
from ascendc_lsp.hardware.soc import HardwareDataError, UnknownSocError, get_soc, load_soc_profiles
from ascendc_lsp.resources import knowledge_dir

HW = knowledge_dir() / "hardware"
EXPECTED = {"Ascend910B", "Ascend910_93", "Ascend310P", "Ascend310B", "Ascend910A", "Ascend950"}


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def _copy_profiles(tmp_path: Path) -> Path:
    folder = tmp_path / "hardware"
    folder.mkdir()
    for path in HW.glob("*.yaml"):
        shutil.copy(path, folder / path.name)
    return folder


def test_all_profiles_load() -> None:
    profiles = load_soc_profiles()
    assert set(profiles) >= EXPECTED
    b = profiles["Ascend910B"]
    assert b.arch == 2201
    assert b.memory.ub_bytes == 196608
    assert b.memory.ub_usable_bytes == 196608 - 8192
    assert b.alignment.ub_bytes == 32 and b.alignment.l0a_bytes == 512 and b.alignment.l0c_bytes == 64
    assert b.vector.bytes_per_repeat == 256 and b.vector.max_repeat == 255
    assert b.vector.mask_width is not None and b.vector.mask_width["half"] == 128 and b.vector.mask_width["float"] == 64
    assert b.queues.max_buffers_per_pipe == 64 and b.queues.event_ids == 8
    assert b.features.datacopypad is True and b.features.bf16 is True
    assert b.cost_model.clock_mhz == 1800
    assert b.cost_model.cycles_per_repeat("Exp", "half") == 4
    assert b.cost_model.cycles_per_repeat("Exp", "float") == 2
    assert b.cost_model.cycles_per_repeat("NotMeasured") == 2  # the table's default


def test_per_soc_differences() -> None:
    a = get_soc("Ascend910A")
    assert a.queues.max_live_tensors_per_position == 4 and a.queues.event_ids == 4
    assert a.features.get_tiling_data is False and a.features.bf16 is False
    p = get_soc("Ascend310P")
    assert p.memory.ub_bytes == 262144 and p.features.datacopypad is False
    assert p.dtypes.can_cast("half", "float") is True
    assert p.dtypes.can_cast("bfloat16_t", "float") is False


def test_number_source_lookup() -> None:
    b = get_soc("Ascend910B")
    ref = b.source_of("memory.ub_bytes")
    assert ref is not None and ref.key == "adk-constants"
    assert ref.citation is not None and "kernel_utils_constants.h" in ref.citation
    assert b.source_of("cost_model.scalar_dcache_miss_cycles").kind == "assumption"  # type: ignore[union-attr]
    unknown = b.source_of("memory.fixpipe_bytes")
    assert unknown is not None and unknown.key is None and unknown.note
    assert b.memory.fixpipe_bytes is None
    assert b.source_of("no.such.field") is None
    assert b.value_of("memory.l0c_bytes") == 131072
    # every non-null number has a source key
    for path, value in b.numbers().items():
        if value is not None:
            assert b.source_of(path).key, path  # type: ignore[union-attr]


def test_variant_lookup_and_tolerant_names() -> None:
    base = get_soc("Ascend910B")
    assert base.cores.aic is None and base.variant is None
    b3 = get_soc("Ascend910B3")
    assert b3.name == "Ascend910B" and b3.variant == "Ascend910B3" and b3.display_name == "Ascend910B3"
    assert (b3.cores.aic, b3.cores.aiv) == (20, 40)
    assert b3.source_of("cores.aic").key == "catlass-b3"  # type: ignore[union-attr]
    assert b3.memory.ub_bytes == base.memory.ub_bytes
    assert get_soc("ascend910b2").cores.aiv == 48
    assert get_soc("910B1").cores.aic == 25
    assert get_soc("ASCEND910_93").name == "Ascend910_93"
    assert get_soc().name == "Ascend910B"
    assert get_soc("Ascend910B4").memory.l2_bytes == 96 * 1024 * 1024
    with pytest.raises(UnknownSocError):
        get_soc("Ascend999")
    assert soc.find_soc("Ascend999") is None


def test_load_is_cached_and_fast() -> None:
    soc.clear_cache()
    load_soc_profiles()  # first load fills the snapshot
    soc.clear_cache()
    start = time.perf_counter()
    load_soc_profiles()
    assert time.perf_counter() - start < 0.25  # ~10 ms in practice; generous for loaded CI machines
    assert load_soc_profiles() == load_soc_profiles()


def _problems(folder: Path) -> list[str]:
    soc.clear_cache()
    with pytest.raises(HardwareDataError) as info:
        load_soc_profiles(folder)
    return [str(p) for p in info.value.problems]


def test_missing_field(tmp_path: Path) -> None:
    folder = _copy_profiles(tmp_path)
    path = folder / "Ascend910B.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text("\n".join(line for line in text.splitlines() if "  l0c_bytes: {value: 131072" not in line), encoding="utf-8")
    problems = _problems(folder)
    assert any("Ascend910B.yaml: memory.l0c_bytes: missing field" in p for p in problems), problems


def test_wrong_type(tmp_path: Path) -> None:
    folder = _copy_profiles(tmp_path)
    path = folder / "Ascend910B.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("ub_bytes: {value: 196608,", 'ub_bytes: {value: "192KB",'),
                    encoding="utf-8")
    problems = _problems(folder)
    assert any("memory.ub_bytes.value: expected an integer" in p for p in problems), problems


def test_unknown_source_key_and_null_without_note(tmp_path: Path) -> None:
    folder = _copy_profiles(tmp_path)
    path = folder / "Ascend310P.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("l0a_bytes: {value: 65536, source: adk-constants}", "l0a_bytes: {value: 65536, source: nowhere}", 1)
    text = text.replace('icache_bytes: {value: null, note: "not documented for 310P"}', "icache_bytes: {value: null}")
    path.write_text(text, encoding="utf-8")
    problems = _problems(folder)
    assert any("memory.l0a_bytes.source: unknown source key 'nowhere'" in p for p in problems), problems
    assert any("memory.icache_bytes: an unknown (null) value needs a note" in p for p in problems), problems


def test_bad_variant_field(tmp_path: Path) -> None:
    folder = _copy_profiles(tmp_path)
    path = folder / "Ascend910B.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("      aic: {value: 25, source: mskpp}", "      aic: {value: 25.5, source: mskpp}"),
                    encoding="utf-8")
    problems = _problems(folder)
    assert any("variants.Ascend910B1.cores.aic.value: expected an integer" in p for p in problems), problems


def test_not_yaml(tmp_path: Path) -> None:
    folder = _copy_profiles(tmp_path)
    (folder / "Ascend310B.yaml").write_text("name: [unclosed\n  x: : :\n", encoding="utf-8")
    problems = _problems(folder)
    assert any("Ascend310B.yaml: (file): not valid YAML" in p for p in problems), problems


def test_error_lists_every_problem(tmp_path: Path) -> None:
    folder = _copy_profiles(tmp_path)
    (folder / "Ascend310B.yaml").write_text("- a list\n", encoding="utf-8")
    path = folder / "Ascend950.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("\nqueues:\n", "\nqueue:\n"), encoding="utf-8")
    problems = _problems(folder)
    assert any("Ascend310B.yaml: (file): expected a mapping" in p for p in problems)
    assert any("Ascend950.yaml: queue: unknown top-level field" in p for p in problems)
    assert any("Ascend950.yaml: queues: missing section" in p for p in problems)
