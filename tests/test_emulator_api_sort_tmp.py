"""GetSortMaxMinTmpSize (排序操作/GetSortMaxMinTmpSize.md), the host query direct-launch samples call before Sort
with SortConfig: the element count of srcShape, the value and index types' sizes and the algorithm give the
emulator's model (adv_shared.h sort_config_tmp_bytes); a TU with the kernel headers and the host tiling headers
together (as sort.asc is) compiles, and SortConfig has the page's four fields."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.test_emulator_headers import INCLUDE

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed"),
]

HOST_INCLUDE = INCLUDE.parent / "host_include"

QUERY = r"""
#include <cstdio>
{includes}
int main() {{
    uint32_t mx = 7, mn = 7;
    AscendC::SortConfig cfg;
    cfg.type = AscendC::SortType::RADIX_SORT;
    cfg.isDescend = true;
    cfg.hasSrcIndex = false;
    cfg.hasDstIndex = true;
    AscendC::GetSortMaxMinTmpSize(ge::Shape(std::vector<int64_t>{{1024}}), ge::DT_FLOAT, ge::DT_UINT32, false, cfg, mx, mn);
    std::printf("%u %u ", mx, mn);
    AscendC::GetSortMaxMinTmpSize(ge::Shape(std::vector<int64_t>{{4, 100}}), ge::DT_FLOAT16, ge::DT_INT32, false, cfg, mx, mn);
    std::printf("%u ", mn);
    cfg.type = AscendC::SortType::MERGE_SORT;
    AscendC::GetSortMaxMinTmpSize(ge::Shape(std::vector<int64_t>{{1024}}), ge::DT_FLOAT, ge::DT_UINT32, false, cfg, mx, mn);
    std::printf("%u ", mn);
    AscendC::GetSortMaxMinTmpSize(ge::Shape(std::vector<int64_t>{{}}), ge::DT_FLOAT, ge::DT_UINT32, false, cfg, mx, mn);
    std::printf("%u %u\n", mx, mn);
}}
"""


@pytest.mark.parametrize("includes", [
    '#include "tiling/tiling_api.h"',
    '#include "kernel_operator.h"\n#include "tiling/tiling_api.h"',
])
def test_sort_tmp_query(tmp_path: Path, includes: str) -> None:
    src = tmp_path / "q.cpp"
    src.write_text(QUERY.format(includes=includes))
    out = tmp_path / "q"
    res = subprocess.run(["g++", "-std=c++17", "-w", f"-I{HOST_INCLUDE}", f"-I{INCLUDE}", str(src), "-o", str(out)],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-3000:]
    got = subprocess.run([str(out)], capture_output=True, text=True, check=True).stdout.split()
    # radix: 1024 x (4 + 4) B + a 1 KB histogram; 400 halves with int32 indices: 2400 B rounded to 32, + 1 KB;
    # merge: 1024 8-byte records; an empty shape: nothing
    assert got == ["9216", "9216", str(2400 + 1024), "8192", "0", "0"]
