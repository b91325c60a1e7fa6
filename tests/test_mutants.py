"""bench/mutants.py decides by itself, before any check runs, which planted bugs are decidable from the file:
its rules on small kernels written here (the benchmark itself runs on public code, see bench/mutants.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import mutants

PAIR = """#include "kernel_operator.h"
template <typename T>
__aicore__ inline void Copy(AscendC::LocalTensor<float> dst, AscendC::GlobalTensor<float> src, int32_t n)
{
    int32_t aligned = n / 8 * 8;
    if constexpr (IsSame<T, float>::value) {
        DataCopy(dst, src, aligned);
    } else {
        DataCopy(dst, src, aligned);
    }
    if constexpr (IsSame<T, float>::value) {
        DataCopy(dst, src, aligned);
    }
}
"""


def _perturb(text: str) -> list[mutants.Mutant]:
    return [m for m in mutants.sites("k.cpp", text) if m.operator == "perturb-count"]


def test_the_branches_of_one_if_constexpr_are_never_compiled_together() -> None:
    code = mutants.mask(PAIR)
    first, second, third = (i for i in range(len(code)) if code.startswith("DataCopy(", i))
    assert mutants.constexpr_branches(code, first) == (("IsSame<T,float>::value", 0),)
    assert mutants.constexpr_branches(code, second) == (("IsSame<T,float>::value", 1),)
    # The same condition again takes the same branch in every instantiation.
    assert mutants.constexpr_branches(code, third) == mutants.constexpr_branches(code, first)
    decidable = [m.decidable for m in _perturb(PAIR)]
    # The then-branch copies pair with each other; the else-branch copy has no partner compiled with it.
    assert decidable == [True, False, True]


def test_a_parameter_struct_is_not_a_count() -> None:
    text = """#include "kernel_operator.h"
__aicore__ inline void Copy(AscendC::LocalTensor<half> dst, AscendC::GlobalTensor<half> src, uint32_t n)
{
    DataCopyParams params;
    params.blockLen = n;
    DataCopy(dst, src, params);
    DataCopy(dst, src, params);
    DataCopy(dst, src, n);
}
"""
    assert [text[m.start : m.end] for m in _perturb(text)] == ["n"]


def test_code_in_a_raw_string_is_not_code() -> None:
    text = 'const char* src = R"""(\n__aicore__ void k() { DataCopy(x, y, 1024); }\n)""";\n'
    assert "DataCopy" not in mutants.mask(text)
    assert not _perturb(text)
