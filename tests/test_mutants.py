"""bench/mutants.py decides by itself, before any check runs, which planted bugs are decidable from the file:
its rules on small kernels written here (the benchmark itself runs on public code, see bench/mutants.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

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


def test_a_function_body_is_found_after_its_qualifiers_and_long_blank_runs() -> None:
    # Masked comments are long runs of blanks: the body must still be found (and quickly: it was quadratic).
    text = "struct K {\n" + " " * 20000 + "\n  void Run(int n) const override {\n    int x = n;\n  }\n};\n"
    at = text.index("int x")
    body = mutants.function_body(text, at)
    assert body is not None and text[body[0]] == "{" and text[body[1] - 1] == "}"
    assert mutants.function_body("namespace a {\n int y = 1;\n}\n", 18) is None
    assert mutants._after_parameter_list("f() const noexcept {", len("f() const noexcept "))
    assert not mutants._after_parameter_list("f() myconst {", len("f() myconst "))  # a word ending in const


def test_sites_are_cached_per_file_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    salt = mutants._sites_cache_salt()
    first = mutants.file_sites(("k.cpp", PAIR.replace("template", "__aicore__ void f();\ntemplate", 1), salt))
    assert [m.operator for m in first].count("perturb-count") == 3
    assert list(tmp_path.rglob("*.json"))
    again = mutants.file_sites(("k.cpp", PAIR.replace("template", "__aicore__ void f();\ntemplate", 1), salt))
    assert again == first
    assert mutants.file_sites(("k.cpp", "int main() { return 0; }\n", salt)) == []  # no __aicore__: no sites


def test_an_intrinsic_wait_flag_may_pair_with_a_deleted_waitflag() -> None:
    body = """#include "kernel_operator.h"
__aicore__ inline void A() {
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
    SetFlag<HardEvent::S_MTE3>(e);
    WaitFlag<HardEvent::S_MTE3>(e);
}
__aicore__ inline void B() {
    event_t f = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
    set_flag(PIPE_S, PIPE_MTE3, f);
    OTHER_WAIT
}
"""
    def deletions(text: str) -> list[bool]:
        return [m.decidable for m in mutants.sites("k.cpp", text) if m.operator == "del-waitflag"]

    # Only the WaitFlag<...> form is mutated; the intrinsic wait in B() may hold the same fetched id.
    assert deletions(body.replace("OTHER_WAIT", "wait_flag(PIPE_S, PIPE_MTE3, f);")) == [False]
    assert deletions(body.replace("OTHER_WAIT", "")) == [True]
