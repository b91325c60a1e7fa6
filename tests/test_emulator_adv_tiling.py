"""The host tiling queries of host_include/tiling/adv_api_tiling.h and the kernel-side checks agree: a translation
unit with both (as a direct-launch sample has) passes each API exactly the minimum its host query returns, and
32 bytes less in the twin build, where every call must be reported (tests/emulator_cpp/adv_tiling_agree.cpp)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.test_emulator_headers import CPP, INCLUDE, _compile, _run

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed"),
]

HOST_INCLUDE = INCLUDE.parent / "host_include"
APIS = {"Sigmoid", "Tanh", "Power", "SoftMax", "SoftmaxFlashV2", "LayerNorm", "RmsNorm", "Sum", "Mean", "ReduceSum",
        "BroadCast", "Select", "AscendDequant"}


def test_minimum_tmp_sizes_agree(tmp_path: Path) -> None:
    _compile(CPP / "adv_tiling_agree.cpp", tmp_path / "exact", (f"-I{HOST_INCLUDE}",))
    _compile(CPP / "adv_tiling_agree.cpp", tmp_path / "short", (f"-I{HOST_INCLUDE}", "-DSHRINK=32"))
    rc, report, trace = _run(tmp_path / "exact", tmp_path)
    assert rc == 0 and report == [], report
    assert {e.get("adv") for e in trace} >= APIS
    rc, report, _ = _run(tmp_path / "short", tmp_path)
    assert rc == 1
    short = {r["api"] for r in report if r["check"] == "tmp-buffer-size"}
    assert short == APIS, sorted(APIS ^ short)


def test_host_header_compiles_alone(tmp_path: Path) -> None:
    """op_host code includes the header without any kernel header; both tiling struct spellings are accepted."""
    src = tmp_path / "host.cpp"
    src.write_text(
        '#include "tiling/adv_api_tiling.h"\n#include <cstdio>\nint main() {\n'
        "  ge::Shape s(std::vector<int64_t>{8, 64});\n"
        "  optiling::SoftMaxTiling a; AscendC::tiling::SoftMaxTiling b;\n"
        "  AscendC::SoftMaxTilingFunc(s, 2, 4096, a); AscendC::SoftMaxTilingFunc(s, 2, 4096, b);\n"
        "  uint32_t n = 0, e = 0; AscendC::GetLog2TmpBufferFactorSize(2, n, e);\n"
        '  std::printf("%u %u %u %u %zu\\n", a.get_splitM(), b.splitM, n, e, sizeof(a));\n}\n'
    )
    out = tmp_path / "host"
    res = subprocess.run(["g++", "-std=c++17", "-Wall", "-Werror", f"-I{HOST_INCLUDE}", str(src), "-o", str(out)],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-3000:]
    got = subprocess.run([str(out)], capture_output=True, text=True, check=True).stdout.split()
    # half [8, 64]: a row keeps two fp32 rows of 64 and two blocks (576 B); 4096 B hold 7 rows per pass
    assert got == ["7", "7", "2", "0", "64"]


def test_rint_and_round_queries_take_the_platform(tmp_path: Path) -> None:
    """GetRint/GetRound* take the PlatformAscendC first (their docs) and report the kernel side's sizes, which are
    those of Trunc (one table, adv_shared.h: two float copies of the data, no fixed part)."""
    src = tmp_path / "host.cpp"
    src.write_text(
        '#include "tiling/adv_api_tiling.h"\n#include <cstdio>\nint main() {\n'
        "  ge::Shape s(std::vector<int64_t>{1024});\n"
        "  auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance();\n"
        "  uint32_t mx = 0, mn = 0, tx = 0, tn = 0, rx = 0, rn = 0, n = 0, e = 0;\n"
        "  AscendC::GetRintMaxMinTmpSize(*plat, s, 2, false, mx, mn);\n"
        "  AscendC::GetRoundMaxMinTmpSize(*plat, s, 2, false, rx, rn);\n"
        "  AscendC::GetTruncMaxMinTmpSize(s, 2, false, tx, tn);\n"
        "  AscendC::GetRintTmpBufferFactorSize(*plat, 2, n, e);\n"
        '  std::printf("%d %d %u %u %u\\n", mx == tx && mn == tn, rx == tx && rn == tn, mx > 0, n, e);\n}\n'
    )
    out = tmp_path / "host"
    res = subprocess.run(["g++", "-std=c++17", "-Wall", "-Werror", f"-I{HOST_INCLUDE}", str(src), "-o", str(out)],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-3000:]
    got = subprocess.run([str(out)], capture_output=True, text=True, check=True).stdout.split()
    assert got == ["1", "1", "1", "2", "0"]


def test_tiling_api_brings_securec(tmp_path: Path) -> None:
    """Host code that includes tiling/tiling_api.h calls memcpy_s unqualified (the devkit's samples): bounds-checked."""
    src = tmp_path / "host.cpp"
    src.write_text(
        '#include "tiling/tiling_api.h"\n#include <cstdio>\nint main() {\n'
        "  char dst[4] = {0}; const char src[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
        "  int ok = memcpy_s(dst, sizeof(dst), src, 4), too_long = memcpy_s(dst, sizeof(dst), src, 8);\n"
        '  std::printf("%d %d %d\\n", ok == EOK, too_long != EOK, dst[3]);\n}\n'
    )
    out = tmp_path / "host"
    res = subprocess.run(["g++", "-std=c++17", "-Wall", "-Werror", f"-I{HOST_INCLUDE}", str(src), "-o", str(out)],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-3000:]
    got = subprocess.run([str(out)], capture_output=True, text=True, check=True).stdout.split()
    assert got == ["1", "1", "4"]
