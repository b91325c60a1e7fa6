"""API catalogue: loading, lookups, per-SoC data types, validation errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ascendc_lsp.hardware import api_catalogue as ac
from ascendc_lsp.hardware.soc import HardwareDataError
from ascendc_lsp.resources import knowledge_dir

API = knowledge_dir() / "api"
HW = knowledge_dir() / "hardware"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def test_catalogue_loads_with_enough_apis() -> None:
    cat = ac.load_api_catalogue()
    assert len(cat) >= 120
    assert cat.overload_count >= 250
    assert {e.family for e in cat} <= set(ac.FAMILIES)


def test_members_of_tque() -> None:
    names = {e.name for e in ac.members_of("TQue")}
    assert {"AllocTensor", "EnQue", "DeQue", "FreeTensor"} <= names
    assert {e.name for e in ac.members_of("TQueBind")} >= {"AllocTensor", "EnQue"}
    assert "InitBuffer" in {e.name for e in ac.members_of("TPipe")}
    assert {"Get", "GetWithOffset"} <= {e.name for e in ac.members_of("TBuf")}
    assert {"GetValue", "SetValue", "ReinterpretCast"} <= {e.name for e in ac.members_of("LocalTensor")}
    assert "SetGlobalBuffer" in {e.name for e in ac.members_of("GlobalTensor")}


def test_by_name_forms() -> None:
    add = ac.by_name("Add")
    assert add is not None and add.kind == "function" and add.family == "vector-binary"
    assert ac.by_name("AscendC::Add") is add
    assert {"count", "mask-bitwise", "mask-continuous"} <= set(add.forms())
    assert add.template_params[:2] == ("T", "isSetMask")
    count = next(o for o in add.overloads if o.form == "count")
    assert count.param_names == ("dst", "src0", "src1", "count")
    masked = next(o for o in add.overloads if o.form == "mask-bitwise")
    assert masked.params[3].type == "uint64_t[]" and masked.params[4].name == "repeatTime"
    alloc = ac.by_name("TQue::AllocTensor")
    assert alloc is not None and alloc.class_name == "TQue"
    assert ac.by_name("TQueBind::AllocTensor") is alloc
    assert ac.by_name("GlobalTensor::GetValue").class_name == "GlobalTensor"  # type: ignore[union-attr]
    assert ac.by_name("Compares") is ac.by_name("CompareScalar")
    assert ac.by_name("NoSuchApi") is None
    macro = ac.by_name("GET_TILING_DATA")
    assert macro is not None and macro.kind == "macro" and macro.overloads[0].param_names == ("tiling_data", "tiling_arg")


def test_free_functions() -> None:
    names = {e.name for e in ac.free_functions()}
    assert {"DataCopy", "Add", "Muls", "Cast", "PipeBarrier", "GetBlockIdx"} <= names
    assert "AllocTensor" not in names


def test_dtypes_per_soc() -> None:
    add_910b = ac.dtypes_supported("Add", "Ascend910B")
    assert add_910b is not None and {"half", "float", "int16_t", "int32_t"} <= add_910b
    assert "int8_t" not in add_910b
    assert ac.dtypes_supported("Add", "Ascend910B3") == add_910b  # variant resolves to its profile
    assert "int16_t" not in (ac.dtypes_supported("Add", "Ascend910A") or set())
    assert ac.dtypes_supported("Exp", "ascend910b") == {"half", "float"}
    assert "half->float" in (ac.dtypes_supported("Cast", "Ascend910B") or set())
    assert "bfloat16_t" in (ac.dtypes_supported("DataCopy", "Ascend910B") or set())
    assert "bfloat16_t" not in (ac.dtypes_supported("DataCopy", "Ascend310P") or set())
    assert ac.dtypes_supported("NoSuchApi", "Ascend910B") is None


def test_datacopypad_absent_on_310p() -> None:
    pad = ac.by_name("DataCopyPad")
    assert pad is not None
    assert pad.available_on("Ascend310P") is False and pad.available_on("Ascend910A") is False
    assert pad.available_on("Ascend910B") is True
    assert ac.dtypes_supported("DataCopyPad", "Ascend310P") == set()


def test_every_signature_parses_and_snippets_are_valid() -> None:
    for entry in ac.load_api_catalogue():
        assert entry.overloads, entry.name
        for ov in entry.overloads:
            ov.params  # noqa: B018 - parsing must not raise
        assert ac.check_snippet(entry.snippet, entry.name) is None, entry.name
        assert entry.description and len(entry.description) < 300


def test_check_snippet() -> None:
    assert ac.check_snippet("Add(${1:dst}, ${2:src})", "Add") is None
    assert ac.check_snippet("Add(${1:dst}, ${3:src})", "Add") is not None
    assert ac.check_snippet("Add(${1:dst, ${2:src})", "Add") is not None
    assert ac.check_snippet("Sub(${1:x})", "Add") is not None


def test_load_is_cached_per_folder() -> None:
    # Behaviour, not a stopwatch: one object per folder until the cache is cleared, then an equal fresh one.
    ac.clear_cache()
    first = ac.load_api_catalogue()
    assert ac.load_api_catalogue() is first
    ac.clear_cache()
    again = ac.load_api_catalogue()
    assert again is not first
    assert [e.qualified_name for e in again.entries] == [e.qualified_name for e in first.entries]


# ----------------------------------------------------------------------------- validation


def _folder(tmp_path: Path, name: str, text: str) -> Path:
    folder = tmp_path / "api"
    folder.mkdir()
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def _problems(folder: Path) -> list[str]:
    ac.clear_cache()
    with pytest.raises(HardwareDataError) as info:
        ac.load_api_catalogue(folder, HW)
    return [str(p) for p in info.value.problems]


GOOD = """schema: 1
apis:
- name: Add
  kind: function
  family: vector-binary
  description: adds
  overloads:
  - form: count
    signature: "template <typename T> __aicore__ inline void Add(const LocalTensor<T>& dst, const int32_t& count)"
  socs: [Ascend910B]
  dtypes: {Ascend910B: [half]}
  constraints: []
  snippet: "Add(${1:dst}, ${2:count});"
  docs: null
"""


def test_good_minimal_file(tmp_path: Path) -> None:
    ac.clear_cache()
    cat = ac.load_api_catalogue(_folder(tmp_path, "x.yaml", GOOD), HW)
    assert len(cat) == 1 and cat.dtypes_supported("Add", "Ascend910B") == {"half"}


def test_unknown_soc_in_dtypes(tmp_path: Path) -> None:
    problems = _problems(_folder(tmp_path, "x.yaml", GOOD.replace("{Ascend910B: [half]}", "{Ascend999: [half]}")))
    assert any("x.yaml: apis[0](Add).dtypes.Ascend999: unknown SoC" in p for p in problems), problems


def test_unknown_family_and_kind(tmp_path: Path) -> None:
    text = GOOD.replace("family: vector-binary", "family: vector-magic").replace("kind: function", "kind: funktion")
    problems = _problems(_folder(tmp_path, "x.yaml", text))
    assert any("apis[0](Add).family: unknown family 'vector-magic'" in p for p in problems), problems
    assert any("apis[0](Add).kind: unknown kind" in p for p in problems), problems


def test_bad_snippet(tmp_path: Path) -> None:
    problems = _problems(_folder(tmp_path, "x.yaml", GOOD.replace("${2:count}", "${3:count")))
    assert any("apis[0](Add).snippet:" in p for p in problems), problems


def test_missing_field_and_wrong_type(tmp_path: Path) -> None:
    text = GOOD.replace("  constraints: []\n", "").replace("socs: [Ascend910B]", "socs: Ascend910B")
    problems = _problems(_folder(tmp_path, "x.yaml", text))
    assert any("apis[0](Add).constraints: missing field" in p or "apis[0].constraints: missing field" in p for p in problems), problems
    assert any("socs: expected a list of strings" in p for p in problems), problems


def test_member_without_class(tmp_path: Path) -> None:
    problems = _problems(_folder(tmp_path, "x.yaml", GOOD.replace("kind: function", "kind: member")))
    assert any("apis[0](Add).class: a member needs" in p for p in problems), problems


def test_not_yaml(tmp_path: Path) -> None:
    problems = _problems(_folder(tmp_path, "x.yaml", "apis: [unclosed\n  - : :\n"))
    assert any("x.yaml: (file): not valid YAML" in p for p in problems), problems


def test_duplicate_entries(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "x.yaml", GOOD)
    (folder / "y.yaml").write_text(GOOD, encoding="utf-8")
    problems = _problems(folder)
    assert any("duplicate entry" in p for p in problems), problems


def test_real_files_copy_roundtrip(tmp_path: Path) -> None:
    folder = tmp_path / "api"
    shutil.copytree(API, folder)
    ac.clear_cache()
    assert len(ac.load_api_catalogue(folder, HW)) == len(ac.load_api_catalogue())


def test_split_top_level_keeps_nested_commas_and_counts_arguments() -> None:
    from ascendc_lsp.syntax.brackets import split_top_level

    assert split_top_level("const LocalTensor<T>& dst, uint64_t mask[2], Fn(a, b), {1, 2}") == [
        "const LocalTensor<T>& dst", "uint64_t mask[2]", "Fn(a, b)", "{1, 2}"]
    assert split_top_level("  ") == [] and split_top_level("void") == ["void"]
    assert split_top_level("a,,b,") == ["a", "", "b", ""]
