"""The SoC of a file is its project's (CMake, build scripts, op_host AddConfig, CMakePresets) unless the
user chose one; a spec next to a kernel attaches its concrete values. Projects here are written by the
tests; the public Ascend950 samples are checked through tests/public_sources.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ascendc_lsp.checks import project
from ascendc_lsp.checks.engine import CheckOptions, check_document
from ascendc_lsp.hardware.soc import soc_for_arch
from ascendc_lsp.settings import Settings, merge_settings
from ascendc_lsp.syntax.document import SourceDocument
from tests.public_sources import tree_or_skip

# A uint32_t -> float scalar cast: a compile error up to architecture 2201, fine on the 3510 scalar unit.
CAST_KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x, uint32_t n)
{
    float f = static_cast<float>(n);
    (void)f;
}
"""
# DataCopyPad: not on Ascend310P.
PAD_KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x)
{
    GlobalTensor<half> xGm;
    LocalTensor<half> t;
    DataCopyPad(t, xGm, DataCopyExtParams{1, 10, 0, 0, 0}, DataCopyPadExtParams<half>{false, 0, 0, 0});
}
"""


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _check(path: Path, soc: str | None = None) -> list[tuple[str, str, str]]:
    project.clear_cache()
    document = SourceDocument(path.read_text(encoding="utf-8"), path=str(path))
    return [(f.code, f.severity, f.message) for f in check_document(document, CheckOptions(soc_name=soc))]


def test_architecture_names_map_through_the_profiles() -> None:
    assert soc_for_arch("dav-3510") == "Ascend950"
    assert soc_for_arch("dav-2201") == "Ascend910B"  # shared with Ascend910_93: the default wins
    assert soc_for_arch("dav-c220-vec") == "Ascend910B"
    assert soc_for_arch("dav-m200") == "Ascend310P"
    assert soc_for_arch("dav-9999") is None


def test_cmake_architecture_decides_the_soc(tmp_path: Path) -> None:
    _write(tmp_path, {
        "CMakeLists.txt": 'set(CMAKE_ASC_ARCHITECTURES "dav-3510" CACHE STRING "NPU architecture")\n',
        "k.asc": CAST_KERNEL,
    })
    found = project.project_context(tmp_path / "k.asc").soc
    assert found is not None and found.soc == "Ascend950" and found.firm
    assert "CMakeLists.txt:1" in found.source
    assert not [f for f in _check(tmp_path / "k.asc") if f[1] == "error"]
    # The user's choice wins over the project's.
    assert [f for f in _check(tmp_path / "k.asc", soc="Ascend910B") if f[0] == "ASC023" and f[1] == "error"]


def test_op_host_add_config_decides_and_is_named_in_the_message(tmp_path: Path) -> None:
    _write(tmp_path, {
        "op_host/pad_custom.cpp": 'this->AICore().AddConfig("ascend310p");\n',
        "op_kernel/pad_custom.cpp": PAD_KERNEL,
    })
    findings = [f for f in _check(tmp_path / "op_kernel" / "pad_custom.cpp") if f[0] == "ASC006"]
    assert findings and findings[0][1] == "error"
    assert "Ascend310P" in findings[0][2] and 'AddConfig("ascend310p")' in findings[0][2]


def test_several_socs_prefer_the_default_and_list_the_others(tmp_path: Path) -> None:
    _write(tmp_path, {
        "CMakePresets.json": '{"cacheVariables": {"ASCEND_COMPUTE_UNIT": {"type": "STRING", '
                             '"value": "ascend310p;ascend910b"}}}\n',
        "op_kernel/pad_custom.cpp": PAD_KERNEL,
    })
    found = project.project_context(tmp_path / "op_kernel" / "pad_custom.cpp").soc
    assert found is not None and found.soc == "Ascend910B" and found.socs == ("Ascend310P", "Ascend910B")
    assert not [f for f in _check(tmp_path / "op_kernel" / "pad_custom.cpp") if f[0] == "ASC006"]


def test_an_overridable_default_only_warns(tmp_path: Path) -> None:
    # Official samples keep `set(SOC_VERSION "Ascend310P3" CACHE ...)` as a placeholder for `-v <soc>`.
    _write(tmp_path, {
        "CMakeLists.txt": 'set(SOC_VERSION "Ascend310P3" CACHE STRING "system on chip type")\n',
        "run.sh": 'SOC_VERSION="Ascend310P3"\n',
        "k.cpp": PAD_KERNEL,
    })
    found = [f for f in _check(tmp_path / "k.cpp") if f[0] == "ASC006"]
    assert found and found[0][1] == "warning" and "override" in found[0][2]


def test_a_fixed_soc_version_is_firm(tmp_path: Path) -> None:
    _write(tmp_path, {"CMakeLists.txt": 'set(SOC_VERSION "Ascend310P3")\n', "k.cpp": PAD_KERNEL})
    assert [f for f in _check(tmp_path / "k.cpp") if f[0] == "ASC006" and f[1] == "error"]


def test_the_nearest_project_wins_and_the_search_stops_at_a_repository(tmp_path: Path) -> None:
    _write(tmp_path, {
        "CMakeLists.txt": 'set(CMAKE_ASC_ARCHITECTURES "dav-3510")\n',
        "repo/.git/HEAD": "ref: refs/heads/main\n",
        "repo/src/k.cpp": CAST_KERNEL,
        "other/CMakeLists.txt": "--npu-arch=dav-2002\n",
        "other/sub/k.cpp": CAST_KERNEL,
    })
    assert project.project_context(tmp_path / "repo" / "src" / "k.cpp").soc is None
    found = project.project_context(tmp_path / "other" / "sub" / "k.cpp").soc
    assert found is not None and found.soc == "Ascend310P"


def test_settings_auto_and_explicit() -> None:
    merged, problems = merge_settings(Settings(), {"soc": "Ascend950"})
    assert merged.soc == "Ascend950" and merged.soc_from_user and not problems
    merged, _ = merge_settings(merged, {"soc": "auto"})
    assert merged.soc == "Ascend910B" and not merged.soc_from_user
    assert not Settings().soc_from_user


def test_cli_uses_the_project_soc_and_soc_flag_overrides(tmp_path: Path) -> None:
    _write(tmp_path, {"CMakeLists.txt": 'set(CMAKE_ASC_ARCHITECTURES "dav-3510")\n', "k.asc": CAST_KERNEL})
    run = [sys.executable, "-m", "ascendc_lsp", "check", str(tmp_path / "k.asc")]
    assert subprocess.run(run, capture_output=True, text=True).returncode == 0
    flagged = subprocess.run([*run, "--soc", "Ascend910B"], capture_output=True, text=True)
    assert flagged.returncode == 1 and "ASC023" in flagged.stdout


def test_a_spec_next_to_the_kernel_attaches_its_values(tmp_path: Path) -> None:
    _write(tmp_path, {
        "k.cpp": CAST_KERNEL,
        "spec.yaml": (
            "kernel: k\nsource: k.cpp\nblock_dim: 8\n"
            "inputs:\n  - {name: x, shape: [8, 2048], dtype: float16}\noutputs:\n  - {name: y, shape: [8, 2048], dtype: float16}\n"
            "tiling:\n  struct: T\n  fields: {totalLength: 16384, tileNum: 8, scale: 0.5}\nreference: 'y = x'\n"
        ),
        "other.yaml": "kernel: other\nsource: missing.cpp\n",
    })
    known = project.project_context(tmp_path / "k.cpp").known
    assert known is not None and known.origin == "spec.yaml"
    assert dict(known.fields) == {"totalLength": 16384, "tileNum": 8, "scale": 0.5}
    assert known.block_dim == 8 and known.tensor_elements["x"] == 8 * 2048
    assert known.describe(["totalLength", "block_dim"]) == "totalLength=16384, block_dim=8 from spec.yaml"


def test_the_context_is_reread_only_when_a_file_it_came_from_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, {
        "CMakeLists.txt": 'set(CMAKE_ASC_ARCHITECTURES "dav-3510")\n',
        "k.cpp": CAST_KERNEL,
        "spec.yaml": (
            "kernel: k\nsource: k.cpp\nblock_dim: 8\n"
            "inputs:\n  - {name: x, shape: [8, 2048], dtype: float16}\noutputs:\n  - {name: y, shape: [8, 2048], dtype: float16}\n"
            "tiling:\n  struct: T\n  fields: {totalLength: 16384, tileNum: 8}\nreference: 'y = x'\n"
        ),
    })
    monkeypatch.setattr(project, "_TTL_SECONDS", 0.0)  # every call checks the stamps
    project.clear_cache()
    reads: list[Path] = []
    real_read = project._read
    monkeypatch.setattr(project, "_read", lambda path: reads.append(path) or real_read(path))
    first = project.project_context(tmp_path / "k.cpp")
    assert first.soc is not None and first.soc.soc == "Ascend950" and first.known is not None
    assert reads
    reads.clear()
    assert project.project_context(tmp_path / "k.cpp") is first and not reads  # nothing changed: nothing read
    # A changed build file, a changed spec, a new file in the folder: each is seen on the next call.
    (tmp_path / "CMakeLists.txt").write_text('set(CMAKE_ASC_ARCHITECTURES "dav-2201")  # moved\n', encoding="utf-8")
    second = project.project_context(tmp_path / "k.cpp")
    assert second.soc is not None and second.soc.soc == "Ascend910B"
    spec = tmp_path / "spec.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("tileNum: 8", "tileNum: 16"), encoding="utf-8")
    third = project.project_context(tmp_path / "k.cpp").known
    assert third is not None and third.fields["tileNum"] == 16
    (tmp_path / "spec.yaml").rename(tmp_path / "spec.txt")
    assert project.project_context(tmp_path / "k.cpp").known is None


def test_unsaved_buffers_have_no_project() -> None:
    assert project.project_context("") == project.ProjectContext()


@pytest.mark.parametrize("sample", [
    "examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/arange/arange.asc",
    "examples/01_simd_cpp_api/03_basic_api/09_utils/ctrl_spr/ctrl_spr.asc",
    "examples/01_simd_cpp_api/04_advanced_api/10_math/logicaland/logicaland.asc",
])
def test_public_ascend950_samples_are_checked_as_ascend950(sample: str) -> None:
    path = tree_or_skip("cannmirror+asc-devkit") / sample
    if not path.is_file():
        pytest.skip(f"{sample} is not in this snapshot")
    found = project.project_context(path).soc
    assert found is not None and found.soc == "Ascend950"
    assert not [f for f in _check(path) if f[1] == "error"]
