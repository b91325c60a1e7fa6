"""One C-literal writer for every harness (issue 15.3): the CANN harness writes its tiling values with the
emulator's `c_literal`, and the values that used to break the CANN one (NaN, +-inf, -0.0, denormals; `repr` gave
`nan`/`inf`, which C++ does not know) reach fp32, fp16 and bf16 fields with the bits IEEE rounding gives. The
assignments the harness writes are compiled with g++ against the emulator's `half`/`bfloat16_t` and run."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from ascendc_lsp.toolchain.cann import cpu_harness, npu_harness
from ascendc_lsp.toolchain.emulator.build import include_dir
from ascendc_lsp.toolchain.emulator.harness import c_literal, field_assignments
from ascendc_lsp.toolchain.spec import SpecError, spec_from_dict

# NaN, +-inf, -0.0, an fp32 denormal, the smallest fp16 denormal, a bf16 denormal, a double denormal, an ordinary value
VALUES = [math.nan, math.inf, -math.inf, -0.0, 1e-40, 2.0**-24, 1e-39, 5e-324, 0.1]
INTS = {"i64_min": -(2**63), "i64": -(2**40), "u64_max": 2**64 - 1, "u32": 2**32 - 1}


def _spec(tmp_path: Path) -> object:
    (tmp_path / "k.cpp").write_text("// kernel\n", encoding="utf-8")
    fields = {"f": VALUES, "h": VALUES, "b": VALUES, "d": VALUES, **INTS}
    return spec_from_dict(
        {
            "kernel": "k",
            "block_dim": 1,
            "source": "k.cpp",
            "inputs": [{"name": "x", "shape": [8], "dtype": "float16"}],
            "outputs": [{"name": "y", "shape": [8], "dtype": "bfloat16"}],
            "reference": "y = x",
            "tiling": {"struct": "T", "pass": "value", "fields": fields},
        },
        base_dir=tmp_path,
    )


def test_literals_are_cxx() -> None:
    assert c_literal(math.nan) == '__builtin_nan("")'
    assert c_literal(math.inf) == "__builtin_inf()" and c_literal(-math.inf) == "(-__builtin_inf())"
    assert c_literal(-0.0) == "-0.0" and float(c_literal(5e-324)) == 5e-324
    assert c_literal(-(2**63)) == "(-9223372036854775807LL - 1)" and c_literal(2**64 - 1) == f"{2**64 - 1}ULL"
    assert c_literal(True) == "true" and c_literal(7) == "7"


def test_an_integer_no_field_can_hold_is_a_spec_error(tmp_path: Path) -> None:
    with pytest.raises(
        SpecError, match=r"tiling\.fields\.n: 1180591620717411303424 does not fit in a 64-bit"
    ):
        spec_from_dict(
            {
                "kernel": "k",
                "block_dim": 1,
                "outputs": [{"name": "y", "shape": [8], "dtype": "float32"}],
                "tiling": {"struct": "T", "fields": {"n": 2**70}},
            },
            base_dir=tmp_path,
        )


def _bf16_bits(v: float) -> int:
    """bf16 by round-to-nearest-even from the value's float32 bits (exact for the values above)."""
    u = int(np.array([v], dtype=np.float32).view(np.uint32)[0])
    return (u + 0x7FFF + ((u >> 16) & 1)) >> 16


@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++")
def test_special_values_reach_fp32_fp16_bf16_fields(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    cpu = cpu_harness(spec, tmp_path / "k.cpp")  # type: ignore[arg-type]
    npu = npu_harness(spec)  # type: ignore[arg-type]
    lines = field_assignments("cann_tiling_value", spec.tiling.fields)  # type: ignore[attr-defined]
    for line in lines:
        assert line in cpu, "the CANN CPU harness writes its tiling with the emulator's writer"
        assert line.replace("cann_tiling_value", "tiling_value") in npu
    assert "nan" not in cpu.replace("__builtin_nan", "") and "inf;" not in cpu

    n = len(VALUES)
    program = tmp_path / "literals.cpp"
    program.write_text(
        '#include "ascendc_emu/fp16.h"\n#include <cstdio>\n#include <cstring>\n#include <type_traits>\n'
        f"struct T {{ float f[{n}]; half h[{n}]; bfloat16_t b[{n}]; double d[{n}];\n"
        "  int64_t i64_min; int64_t i64; uint64_t u64_max; uint32_t u32; };\n"
        "int main() {\n    T cann_tiling_value{};\n" + "\n".join(lines) + "\n"
        "    const T& t = cann_tiling_value;\n"
        f"    for (int i = 0; i < {n}; ++i) {{\n"
        "        uint32_t f; std::memcpy(&f, &t.f[i], 4); uint64_t d; std::memcpy(&d, &t.d[i], 8);\n"
        '        std::printf("%08x %04x %04x %016llx\\n", f, t.h[i].bits_, t.b[i].bits_, (unsigned long long)d);\n'
        "    }\n"
        '    std::printf("%lld %lld %llu %u\\n", (long long)t.i64_min, (long long)t.i64, '
        "(unsigned long long)t.u64_max, t.u32);\n"
        "}\n",
        encoding="utf-8",
    )
    exe = tmp_path / "literals"
    build = subprocess.run(
        ["g++", "-std=c++17", "-Werror", f"-I{include_dir()}", str(program), "-o", str(exe)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stderr[-2000:]
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.splitlines()
    for v, row in zip(VALUES, out, strict=False):
        f32, f16, bf16, f64 = (int(x, 16) for x in row.split())
        if math.isnan(v):
            assert (f32 >> 23) & 0xFF == 0xFF and f32 & 0x7FFFFF, row
            assert (f16 >> 10) & 0x1F == 0x1F and f16 & 0x3FF, row
            assert (bf16 >> 7) & 0xFF == 0xFF and bf16 & 0x7F, row
            assert math.isnan(np.array([f64], dtype=np.uint64).view(np.float64)[0])
            continue
        assert f32 == int(np.array([v], dtype=np.float32).view(np.uint32)[0]), (v, row)
        assert f16 == int(np.array([v], dtype=np.float16).view(np.uint16)[0]), (v, row)
        assert bf16 == _bf16_bits(v), (v, row)
        assert f64 == int(np.array([v], dtype=np.float64).view(np.uint64)[0]), (v, row)
    # -0.0 keeps its sign in every width; the denormals are not flushed to zero
    assert out[3].split() == ["80000000", "8000", "8000", "8000000000000000"]
    assert out[5].split()[1] == "0001" and out[4].split()[0] != "00000000"
    assert out[n].split() == [str(-(2**63)), str(-(2**40)), str(2**64 - 1), str(2**32 - 1)]
