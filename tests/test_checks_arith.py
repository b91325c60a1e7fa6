"""Arithmetic facts (checks/arith.py) and the rules that read them, on small kernels written here; concrete
values from an attached op test case (checks/concrete.py) without running a host program."""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest

from ascendc_lsp.checks import project
from ascendc_lsp.checks.arith import Fact, add, div, join, mul
from ascendc_lsp.checks.concrete import attached_test_case_values, decode_plain_struct
from ascendc_lsp.checks.engine import CheckOptions, check_document
from ascendc_lsp.checks.project import known_values
from ascendc_lsp.syntax.document import SourceDocument

TESTS = Path(__file__).resolve().parent

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t ALIGN = 16;
class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {
        this->blockLength = totalLength / GetBlockNum();
        this->tileNum = tileNum;
        this->tileLength = (this->blockLength / tileNum / BUFFER_NUM + ALIGN - 1) / ALIGN * ALIGN;
        this->rowLen = this->blockLength / tileNum;
        xGm.SetGlobalBuffer((__gm__ half *)x + OFFSET_X, this->blockLength);
        zGm.SetGlobalBuffer((__gm__ half *)z + this->blockLength * GetBlockIdx(), this->blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < this->tileNum * BUFFER_NUM; i++) {
            CopyIn(i);
            CopyOut(i);
        }
    }
private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        DataCopy(xLocal, xGm[progress * this->tileLength], TILE_COUNT);
        DataCopy(xLocal, xGm[progress * this->rowLen], rowLen);
        DataCopy(xLocal, xGm[progress * this->rowLen], this->blockLength);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<half> zLocal = inQueueX.DeQue<half>();
        DataCopy(zGm[progress * this->rowLen], zLocal, ROW_COUNT);
        inQueueX.FreeTensor(zLocal);
    }
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
    GlobalTensor<half> xGm;
    GlobalTensor<half> zGm;
    uint32_t blockLength;
    uint32_t tileNum;
    uint32_t tileLength;
    uint32_t rowLen;
};
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelAdd op;
    op.Init(x, z, tiling_data.totalLength, tiling_data.tileNum);
    op.Process();
}
"""


def _check(text: str, **options: object) -> list[tuple[str, str, int, str]]:
    document = SourceDocument(text, path=None)
    found = check_document(document, CheckOptions(use_project=False, **options))  # type: ignore[arg-type]
    return [(f.code, f.severity, f.span.start.line + 1, f.message) for f in found if f.code != "syntax"]


def _kernel(tile: str = "this->tileLength", row: str = "this->rowLen", offset: str = "this->blockLength * GetBlockIdx()") -> str:
    return KERNEL.replace("TILE_COUNT", tile).replace("ROW_COUNT", row).replace("OFFSET_X", offset)


def _line(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_domain_operations() -> None:
    sixteen = Fact(0, None, 16, 0)
    assert add(sixteen, Fact.const(1)).multiple_of(16) is False
    assert mul(Fact.top(), Fact.const(16)).multiple_of(16) is True
    assert div(Fact(0, None, 32, 0), Fact.const(2)).multiple_of(16) is True
    assert join(Fact.const(32), Fact.const(64)).multiple_of(32) is True
    assert join(Fact.const(32), Fact.const(48)).multiple_of(32) is None  # unknown stays unknown
    assert Fact.top().multiple_of(16) is None


def test_the_correct_kernel_gets_no_alignment_or_offset_finding() -> None:
    codes = {code for code, severity, _, _ in _check(_kernel()) if severity in ("error", "warning")}
    assert not codes & {"ASC005", "ASC029"}


def test_an_aligned_tile_length_plus_one_is_flagged_with_the_reason() -> None:
    text = _kernel(tile="this->tileLength + 1")
    found = [f for f in _check(text) if f[0] == "ASC005"]
    assert len(found) == 1
    assert found[0][2] == _line(text, "tileLength + 1") and "multiple of 16" in found[0][3]


def test_two_counts_that_cannot_both_be_aligned() -> None:
    text = _kernel(row="this->rowLen + 3")
    found = [f for f in _check(text) if f[0] == "ASC005"]
    assert len(found) == 1 and found[0][2] == _line(text, "rowLen + 3")
    assert "3 element(s) more than the DataCopy of rowLen" in found[0][3]
    assert f"line {_line(text, '], rowLen)')}" in found[0][3]


def test_an_unknown_count_stays_unknown() -> None:
    # tileNum is a runtime value with no alignment fact and no other copy of it: nothing to report.
    assert not [f for f in _check(_kernel(row="this->tileNum + 1")) if f[0] == "ASC005"]


def test_a_block_offset_shifted_by_one_slice() -> None:
    text = _kernel(offset="this->blockLength * (GetBlockIdx() + 1)")
    found = [f for f in _check(text) if f[0] == "ASC029"]
    assert len(found) == 1 and found[0][1] == "warning" and found[0][2] == _line(text, "GetBlockIdx() + 1")
    assert "(i + 1) x this->blockLength" in found[0][3]


def test_known_values_decide_the_ub_total_and_the_last_block() -> None:
    known = known_values("case.yaml", {"totalLength": 8 * 65536, "tileNum": 1}, block_dim=8,
                         tensor_elements={"x": 8 * 65536, "z": 8 * 65536})
    found = _check(_kernel(), known=known)
    ub = [f for f in found if f[0] == "ASC001"]
    # blockLength = 65536, tileLength = 16384 halves: 2 x 32 KiB fit; the message is not an error.
    assert not [f for f in ub if f[1] == "error"]
    known_big = known_values("case.yaml", {"totalLength": 8 * 1048576, "tileNum": 1}, block_dim=8)
    ub = [f for f in _check(_kernel(), known=known_big) if f[0] == "ASC001"]
    assert ub and ub[0][1] == "error" and "totalLength=8388608" in ub[0][3] and "block_dim=8" in ub[0][3]
    shifted = _kernel(offset="this->blockLength * GetBlockIdx() + 64")
    gm = [f for f in _check(shifted, known=known) if f[0] == "ASC029"]
    assert gm and gm[0][1] == "error" and "64 elements outside" in gm[0][3]


def test_without_values_the_ub_total_is_information_naming_the_values_that_decide_it() -> None:
    found = [f for f in _check(_kernel()) if f[0] == "ASC001"]
    assert found and found[0][1] == "information" and "needs the tiling values" in found[0][3]
    assert "from block_dim, tileNum, totalLength" in found[0][3]


def test_no_information_where_no_tiling_value_would_decide_the_total() -> None:
    # The length comes from a kernel argument the host passes (not a tiling field a spec gives): whatever
    # values are attached, the total stays unknown, so saying it "needs the tiling values" is noise.
    text = _kernel().replace("op.Init(x, z, tiling_data.totalLength, tiling_data.tileNum);",
                             "op.Init(x, z, *((__gm__ uint32_t *)workspace), tiling_data.tileNum);")
    assert not [f for f in _check(text) if f[0] == "ASC001"]


def test_attached_values_that_miss_a_field_are_named() -> None:
    known = known_values("case.yaml", {"totalLength": 65536}, block_dim=8)
    found = [f for f in _check(_kernel(), known=known) if f[0] == "ASC001"]
    assert found and found[0][1] == "information"
    assert "from tileNum" in found[0][3] and "case.yaml does not give them" in found[0][3]


def test_buffers_of_known_size_already_over_ub_need_no_values() -> None:
    text = _kernel().replace("pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(half));",
                             "pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(half));\n"
                             "        pipe.InitBuffer(big, 300 * 1024);").replace(
                                 "    TPipe pipe;", "    TPipe pipe;\n    TBuf<TPosition::VECCALC> big;")
    found = [f for f in _check(text) if f[0] == "ASC001"]
    assert [f[1] for f in found] == ["error"]


def test_class_constants_reach_out_of_line_methods() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
template <typename T>
class K {
public:
    __aicore__ inline void Process();
    constexpr static int32_t SIZE = 128 * 128;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<T> g;
};
template <typename T>
__aicore__ inline void K<T>::Process()
{
    pipe.InitBuffer(buf, SIZE * 64 * sizeof(T));
    LocalTensor<T> t = buf.Get<T>();
    DataCopy(t, g, SIZE + 1);
}
"""
    found = _check(text)
    assert any(code == "ASC005" and line == _line(text, "SIZE + 1") and "any element type" in message
               for code, _, line, message in found)


def test_fetched_event_ids_pair_across_variables() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
__aicore__ inline void A()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_MTE2));
    SetFlag<HardEvent::MTE3_MTE2>(id);
}
__aicore__ inline void B()
{
    event_t other = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_MTE2));
    WaitFlag<HardEvent::MTE3_MTE2>(other);
}
"""
    assert not [f for f in _check(text) if f[0] == "ASC014"]


def test_a_plain_tiling_struct_is_decoded(tmp_path: Path) -> None:
    (tmp_path / "t.h").write_text(
        "struct TD {\n  uint32_t totalLength; // all\n  uint8_t flag;\n  uint64_t big;\n  float scale;\n};\n",
        encoding="utf-8",
    )
    raw = struct.pack("<IB3xQf", 4096, 1, 1 << 40, 0.5)
    assert decode_plain_struct(raw, "TD", [tmp_path]) == {"totalLength": 4096, "flag": 1, "big": 1 << 40, "scale": 0.5}


@pytest.mark.skipif(shutil.which("g++") is None, reason="the op host build needs g++")
def test_an_op_test_case_attaches_the_host_tiling_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Our own op project (tests/op_projects/square): its TilingFunc sets tileLength; the kernel's UB buffer
    is sized by it, so a 64x larger buffer is an error that names the value. Without run_host nothing runs."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    project.clear_cache()
    shutil.copytree(TESTS / "op_projects", tmp_path / "ops")
    kernel = tmp_path / "ops" / "square" / "op_kernel" / "square_custom.cpp"
    (tmp_path / "ops" / "square" / "case.yaml").write_text(
        "project: op_kernel/square_custom.cpp\n"
        "inputs:\n  - {name: x, shape: [64, 128], dtype: float32}\n"
        "outputs:\n  - {name: y, shape: [64, 128]}\n"
        "attrs: {negate: true}\nreference: 'y = -(x * x)'\n",
        encoding="utf-8",
    )
    text = kernel.read_text(encoding="utf-8").replace("t.tileLength * sizeof(float)", "t.tileLength * sizeof(float) * 64")
    kernel.write_text(text, encoding="utf-8")
    document = SourceDocument(text, path=str(kernel))
    assert attached_test_case_values(kernel) is None  # nothing computed yet, and a plain check never runs it
    found = [f for f in check_document(document, CheckOptions(run_host=True)) if f.code == "ASC001"]
    assert found and found[0].severity == "error"
    assert "tileLength=1024 from case.yaml" in found[0].message
    project.clear_cache()
    cached = attached_test_case_values(kernel)  # now from the disk cache, without a host run
    assert cached is not None and cached.block_dim == 4 and cached.tensor_elements["x"] == 64 * 128


def test_class_constants_declared_after_their_use_size_the_ub_total() -> None:
    # The official samples declare `static constexpr` tile sizes at the end of the class, after Init uses them.
    text = """#include "kernel_operator.h"
class K {
public:
    __aicore__ inline void Init()
    {
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_M * TILE_N * sizeof(float) * 64);
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_M * TILE_N * sizeof(float));
    }
private:
    static constexpr uint32_t BUFFER_NUM = 2;
    static constexpr uint32_t TILE_M = 64U;
    static constexpr uint32_t TILE_N = 128U;
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
};
"""
    found = [f for f in _check(text) if f[0] == "ASC001"]
    assert [(f[1], f[2]) for f in found] == [("error", _line(text, "* 64);"))]
    assert "UB use 4,259,840 B exceeds" in found[0][3]


def test_a_buffer_of_unknown_position_larger_than_any_memory() -> None:
    # The buffer is a member of another object (its TPosition is not in the file): 4 MiB fits nowhere on chip.
    text = """#include "kernel_operator.h"
class K {
public:
    __aicore__ inline void Init()
    {
        ctx.pipe.InitBuffer(ctx.work, BYTES * 1024);
        ctx.pipe.InitBuffer(ctx.small, BYTES);
    }
private:
    static constexpr uint32_t BYTES = 4096;
    Context ctx;
};
"""
    found = [f for f in _check(text) if f[0] == "ASC001"]
    assert [(f[1], f[2]) for f in found] == [("error", _line(text, "BYTES * 1024"))]
    assert "ctx.work takes 4,194,304 B, more than any on-chip memory of Ascend910B" in found[0][3]


def test_a_shifted_block_offset_after_a_cast_of_a_parenthesised_pointer() -> None:
    # `(__gm__ half *)(x) + n * i`: the grammar reads `(x)` as a cast of `+n`; the rule reads it as a compiler.
    def kernel(offset: str) -> str:
        return _kernel(offset=offset).replace("(__gm__ half *)x + ", "(__gm__ half *)(x) + ")

    text = kernel("this->blockLength * (GetBlockIdx() + 1)")
    found = [f for f in _check(text) if f[0] == "ASC029"]
    assert len(found) == 1 and found[0][2] == _line(text, "(__gm__ half *)(x)")
    assert not [f for f in _check(kernel("this->blockLength * GetBlockIdx()")) if f[0] == "ASC029"]


def test_counts_in_if_constexpr_branches_pair_only_when_compiled_together() -> None:
    text = """#include "kernel_operator.h"
template <typename T>
__aicore__ inline void Copy(AscendC::LocalTensor<T> dst, AscendC::LocalTensor<T> src, int32_t count)
{
    int32_t numPerBlock = 32 / sizeof(T);
    if constexpr (IsSame<T, float>::value) {
        DataCopy(dst, src, numPerBlock);
    } else {
        DataCopy(dst, src, numPerBlock + 1);
    }
    if constexpr (IsSame<T, float>::value) {
        DataCopy(dst, src, numPerBlock + 2);
    }
    DataCopy(dst, src, count);
}
"""
    found = [f for f in _check(text) if f[0] == "ASC005"]
    # `+ 1` (the else branch) meets no copy compiled with it; `+ 2` is compiled with the first (same condition).
    assert [f[2] for f in found] == [_line(text, "numPerBlock + 2")]
    assert "2 element(s) more than the DataCopy of numPerBlock" in found[0][3]


def test_a_missing_free_is_placed_on_its_own_path() -> None:
    # Freed in the else branch only: the finding covers the then branch's last use, not the other path's free.
    text = """#include "kernel_operator.h"
using namespace AscendC;
class K {
public:
    __aicore__ inline void Compute(LocalTensor<float> &sum, uint32_t num)
    {
        LocalTensor<float> x = inQueueX.DeQue<float>();
        if constexpr (FAST) {
            Add(sum, x, x, num);
            PipeBarrier<PIPE_V>();
            Mul(sum, sum, sum, num);
            PipeBarrier<PIPE_V>();
            Mul(sum, sum, sum, num);
            PipeBarrier<PIPE_V>();
            Mul(sum, sum, sum, num);
            PipeBarrier<PIPE_V>();
            Mul(sum, sum, sum, num);
            PipeBarrier<PIPE_V>();
            Mul(sum, sum, sum, num);
        } else {
            Mul(sum, x, x, num);
            inQueueX.FreeTensor(x);
        }
        PipeBarrier<PIPE_V>();
        Mul(sum, sum, sum, num);
        PipeBarrier<PIPE_V>();
        Mul(sum, sum, sum, num);
        PipeBarrier<PIPE_V>();
        Mul(sum, sum, sum, num);
        PipeBarrier<PIPE_V>();
        Mul(sum, sum, sum, num);
    }
    TQue<TPosition::VECIN, 1> inQueueX;
};
"""
    found = [f for f in _check(text) if f[0] == "ASC008"]
    assert len(found) == 1 and found[0][2] == _line(text, "Add(sum, x, x, num);")


TILED_ROWS = """#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t ROW = 18;
constexpr int32_t ROW_CEIL = (ROW * sizeof(half) + 32 - 1) / 32 * 32 / sizeof(half);
constexpr int32_t ROWS = 16;
class KernelRows {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x + ROW * ROWS * GetBlockIdx(), ROW * ROWS);
        yGm.SetGlobalBuffer((__gm__ half *)y + ROW * ROWS * GetBlockIdx(), ROW * ROWS);
        pipe.InitBuffer(inQueue, 2, ROW_CEIL * sizeof(half));
        pipe.InitBuffer(outQueue, 2, ROW_CEIL * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < ROWS; i++) {
            CopyIn(i);
            CopyOut(i);
        }
    }
    __aicore__ inline void CopyIn(int32_t row)
    {
        LocalTensor<half> x = inQueue.AllocTensor<half>();
        DataCopy(x, xGm[row * ROW], ROW_CEIL);
        inQueue.EnQue(x);
    }
    __aicore__ inline void CopyOut(int32_t row)
    {
        LocalTensor<half> x = inQueue.DeQue<half>();
        DataCopy(yGm[row * ROW], x, 16);
        DataCopy(yGm[row * ROW + ROW - 16], x, 16);
        inQueue.FreeTensor(x);
    }
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    GlobalTensor<half> xGm, yGm;
};
"""


def _tile_holes(text: str) -> list[tuple[int, str]]:
    findings = check_document(SourceDocument(text, path="k.cpp"), CheckOptions())
    return [(f.span.start.line, f.message) for f in findings if f.code == "ASC030" and "per tile" in f.message]


def test_tile_copies_that_leave_part_of_every_tile_unread() -> None:
    """Rows 18 elements apart: the read copies 32 (a 32-byte round-up) and the write copies the first 16 and the
    last 16, so every element is covered. Rounding down instead of up copies 16 of 18: two never read."""
    assert _tile_holes(TILED_ROWS) == []
    floored = TILED_ROWS.replace("(ROW * sizeof(half) + 32 - 1) / 32", "(ROW * sizeof(half)) / 32")
    found = _tile_holes(floored)
    assert [line for line, _ in found] == [24]
    assert "xGm step 18 elements per tile but move only 16" in found[0][1] and "never read" in found[0][1]
    # The write's tail copy gone: elements 16 and 17 of every row are never written.
    no_tail = TILED_ROWS.replace("        DataCopy(yGm[row * ROW + ROW - 16], x, 16);\n", "")
    assert [message.split(":")[1].strip() for _, message in _tile_holes(no_tail)] == [
        "2 element(s) of every tile (from element 16) are never written; handle the tail"]


def test_tile_copies_another_copy_may_cover_are_left_alone() -> None:
    # A copy the rule cannot read (a DataCopyPad) may cover the rest of the tile.
    text = TILED_ROWS.replace("        DataCopy(yGm[row * ROW + ROW - 16], x, 16);\n",
                              "        DataCopyPad(yGm[row * ROW + 16], x, DataCopyExtParams(1, 4, 0, 0, 0));\n")
    assert _tile_holes(text) == []


def test_a_tile_hole_points_at_the_constants_its_sizes_came_from() -> None:
    """The hole is found at the copy, but the bug is where the copied count was computed: the finding carries
    related locations at the definitions the analysis folded its numbers from (nearest first)."""
    floored = TILED_ROWS.replace("(ROW * sizeof(half) + 32 - 1) / 32", "(ROW * sizeof(half)) / 32")
    findings = check_document(SourceDocument(floored, path="k.cpp"), CheckOptions())
    hole = next(f for f in findings if f.code == "ASC030" and "xGm" in f.message)
    related = [(r.span.start.line + 1, r.message) for r in hole.related]
    assert related[:2] == [(_line(floored, "constexpr int32_t ROW_CEIL"), "ROW_CEIL = 16 here"),
                           (_line(floored, "constexpr int32_t ROW = 18"), "ROW = 18 here")]


# A direct-launch sample of our own, shaped like the official ones: a TilingData field set through helpers,
# the tiling memcpy'd raw to the device, the output allocated and read back by the host.
DIRECT_LAUNCH = """#include "acl/acl.h"
#include "kernel_operator.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(FillTilingData)
TILING_DATA_FIELD_DEF(uint32_t, count);
END_TILING_DATA_DEF;
}
void SetCount(const uint32_t n, optiling::FillTilingData& tiling) { tiling.set_count(n); }
uint8_t* MakeTiling(uint32_t n)
{
    optiling::FillTilingData tiling;
    SetCount(n, tiling);
    return nullptr;
}
struct KernelTiling { uint32_t count; };
class KernelFill {
public:
    __aicore__ inline void Init(__gm__ uint8_t* dst, uint32_t count)
    {
        count_ = count;
        dstGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dst), count_);
        pipe.InitBuffer(outQueue, 1, count_ * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> y = outQueue.AllocTensor<float>();
        AscendC::Duplicate(y, 1.0f, count_);
        outQueue.EnQue(y);
        AscendC::LocalTensor<float> out = outQueue.DeQue<float>();
        AscendC::DataCopy(dstGm, out, count_);
        outQueue.FreeTensor(out);
    }
private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::GlobalTensor<float> dstGm;
    uint32_t count_;
};
__global__ __aicore__ void fill_custom(__gm__ uint8_t* dst, __gm__ uint8_t* tiling)
{
    KernelTiling tilingData;
    tilingData.count = *reinterpret_cast<__gm__ uint32_t*>(tiling);
    KernelFill op;
    op.Init(dst, tilingData.count);
    op.Process();
}
constexpr uint32_t COUNT = 256;
int32_t main()
{
    size_t count = COUNT;
    size_t outBytes = COUNT * sizeof(float);
    uint8_t *outHost, *outDevice, *tilingDevice;
    aclrtMalloc((void**)&outDevice, outBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&tilingDevice, sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(tilingDevice, 4, MakeTiling(count), 4, ACL_MEMCPY_HOST_TO_DEVICE);
    fill_custom<<<1, nullptr, stream>>>(outDevice, tilingDevice);
    aclrtMemcpy(outHost, outBytes, outDevice, outBytes, ACL_MEMCPY_DEVICE_TO_HOST);
    return 0;
}
"""


def _launch_findings(text: str) -> list[tuple[str, str, int, str, list[int]]]:
    findings = check_document(SourceDocument(text, path="fill.asc"), CheckOptions())
    return [(f.code, f.severity, f.span.start.line + 1, f.message, [r.span.start.line + 1 for r in f.related])
            for f in findings if f.code in ("ASC029", "ASC030")]


def test_a_direct_launch_gives_its_kernel_the_host_values() -> None:
    from ascendc_lsp.checks.base import CheckContext
    from ascendc_lsp.checks.launch import launch_values
    from ascendc_lsp.syntax.model import build_model

    document = SourceDocument(DIRECT_LAUNCH, path="fill.asc")
    values = launch_values(CheckContext(document=document, model=build_model(document)))
    assert values is not None
    assert values.origin == f"the launch in main() at line {_line(DIRECT_LAUNCH, 'fill_custom<<<')}"
    assert (values.block_dim, dict(values.fields)) == (1, {"count": 256})
    assert dict(values.tensor_bytes) == {"dst": 1024, "tiling": 4} and dict(values.read_back_bytes) == {"dst": 1024}
    assert _launch_findings(DIRECT_LAUNCH) == []


def test_a_kernel_writing_past_the_host_allocation() -> None:
    text = DIRECT_LAUNCH.replace("size_t outBytes = COUNT * sizeof(float);", "size_t outBytes = (COUNT - 8) * sizeof(float);")
    [(code, severity, line, message, related)] = _launch_findings(text)
    assert (code, severity, line) == ("ASC029", "error", _line(text, "dstGm.SetGlobalBuffer"))
    assert "covers elements [0, 256) of dst, which has 248 (992 bytes allocated by the host for dst)" in message
    assert "count=256 from the launch in main()" in message
    assert _line(text, "aclrtMalloc((void**)&outDevice") in related and _line(text, "size_t outBytes") in related


def test_an_output_read_back_past_what_the_kernel_writes() -> None:
    text = DIRECT_LAUNCH.replace("size_t count = COUNT;", "size_t count = COUNT - 8;")
    [(code, severity, line, message, related)] = _launch_findings(text)
    assert (code, severity, line) == ("ASC030", "warning", _line(text, "DataCopy(dstGm, out, count_)"))
    assert "reads back 256 elements of dst (1,024 bytes) but the kernel's 1 block(s) write only its first 248" in message
    assert "elements [248, 256) are never written" in message
    assert _line(text, "size_t count = COUNT - 8;") in related
    assert _line(text, "aclrtMemcpy(outHost") in related


def test_values_that_do_not_fold_stay_unknown() -> None:
    text = DIRECT_LAUNCH.replace("size_t count = COUNT;", "size_t count = atoi(argv[1]);")
    text = text.replace("size_t outBytes = COUNT * sizeof(float);", "size_t outBytes = (COUNT - 8) * sizeof(float);")
    assert _launch_findings(text) == []


def test_edits_of_a_direct_launch_file_find_what_a_fresh_check_finds() -> None:
    """The values come from the host code, which a partial re-check blanks: an edit anywhere must give the
    findings of a fresh check (the host line that shrinks the allocation, then a kernel line)."""
    from ascendc_lsp.checks.engine import check_incrementally

    def summary(findings: list) -> list[tuple[str, int, str, list[int]]]:  # type: ignore[type-arg]
        return [(f.code, f.span.start.line, f.message, [r.span.start.line for r in f.related]) for f in findings]

    first = check_incrementally(None, SourceDocument(DIRECT_LAUNCH, path="fill.asc"), CheckOptions())
    shrunk = DIRECT_LAUNCH.replace("size_t outBytes = COUNT * sizeof(float);", "size_t outBytes = 248 * sizeof(float);")
    second = check_incrementally(first, SourceDocument(shrunk, path="fill.asc"), CheckOptions())
    edited = shrunk.replace("AscendC::Duplicate(y, 1.0f, count_);", "AscendC::Duplicate(y, 2.0f, count_);")
    third = check_incrementally(second, SourceDocument(edited, path="fill.asc"), CheckOptions())
    for version, text in ((second, shrunk), (third, edited)):
        fresh = check_document(SourceDocument(text, path="fill.asc"), CheckOptions())
        assert summary(version.findings) == summary(fresh)
    assert any(f.code == "ASC029" for f in third.findings)


SCALAR_LAUNCH = """#include "acl/acl.h"
#include "kernel_operator.h"
__global__ __aicore__ void copy_custom(__gm__ uint8_t* dst, uint32_t n)
{
    AscendC::GlobalTensor<half> dstGm;
    dstGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(dst), n);
}
constexpr uint32_t N = 512;
int32_t main()
{
    uint8_t *dev;
    aclrtMalloc((void**)&dev, 256 * sizeof(uint16_t), ACL_MEM_MALLOC_HUGE_FIRST);
    copy_custom<<<1, nullptr, stream>>>(dev, N);
    return 0;
}
"""


def test_a_scalar_passed_by_value_at_the_launch_sizes_the_tensor() -> None:
    # The kernel parameter is the join of its calls' arguments, the launch among them.
    [(code, _, line, message, related)] = _launch_findings(SCALAR_LAUNCH)
    assert (code, line) == ("ASC029", _line(SCALAR_LAUNCH, "SetGlobalBuffer"))
    assert "covers elements [0, 512) of dst, which has 256 (512 bytes allocated by the host for dst)" in message
    assert related == [_line(SCALAR_LAUNCH, "aclrtMalloc"), _line(SCALAR_LAUNCH, "constexpr uint32_t N")]
    assert _launch_findings(SCALAR_LAUNCH.replace("256 * sizeof(uint16_t)", "N * sizeof(uint16_t)")) == []


PLAIN_STRUCT_LAUNCH = """#include "acl/acl.h"
#include "kernel_operator.h"
struct AddTiling { uint32_t totalLength; uint32_t tileNum; };
__global__ __aicore__ void add_custom(__gm__ uint8_t* x, AddTiling tiling)
{
    AscendC::GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x), tiling.totalLength);
}
int32_t main()
{
    AddTiling tiling;
    tiling.totalLength = 2048;
    tiling.tileNum = 8;
    uint8_t *xDevice;
    aclrtMalloc((void**)&xDevice, 1024 * sizeof(half), ACL_MEM_MALLOC_HUGE_FIRST);
    add_custom<<<8, nullptr, stream>>>(xDevice, tiling);
    return 0;
}
"""


def test_a_plain_tiling_struct_passed_by_value_at_the_launch() -> None:
    [(code, _, line, message, related)] = _launch_findings(PLAIN_STRUCT_LAUNCH)
    assert (code, line) == ("ASC029", _line(PLAIN_STRUCT_LAUNCH, "SetGlobalBuffer"))
    assert message.startswith("With totalLength=2048 from the launch in main() at line 16: the kernel covers elements "
                              "[0, 2,048) of x, which has 1,024")
    assert _line(PLAIN_STRUCT_LAUNCH, "tiling.totalLength = 2048;") in related
    # A field written twice with different values is not known.
    twice = PLAIN_STRUCT_LAUNCH.replace("    tiling.tileNum = 8;\n", "    tiling.tileNum = 8;\n    tiling.totalLength = 1024;\n")
    assert _launch_findings(twice) == []


def test_an_output_written_some_other_way_is_left_alone() -> None:
    text = DIRECT_LAUNCH.replace("size_t count = COUNT;", "size_t count = COUNT - 8;")
    text = text.replace("        outQueue.FreeTensor(out);\n", "        outQueue.FreeTensor(out);\n        dstGm.SetValue(255, 0.0f);\n")
    assert _launch_findings(text) == []
    aliased = DIRECT_LAUNCH.replace("size_t count = COUNT;", "size_t count = COUNT - 8;")
    aliased = aliased.replace("        outQueue.FreeTensor(out);\n",
                              "        outQueue.FreeTensor(out);\n        AscendC::GlobalTensor<float> alias = dstGm;\n")
    assert _launch_findings(aliased) == []


def test_a_ub_total_sized_by_the_launch_points_at_the_host_lines() -> None:
    text = DIRECT_LAUNCH.replace("constexpr uint32_t COUNT = 256;", "constexpr uint32_t COUNT = 65536;")
    findings = check_document(SourceDocument(text, path="fill.asc"), CheckOptions())
    [ub] = [f for f in findings if f.code == "ASC001"]
    assert ub.severity == "error" and ub.message.startswith("With count=65536 from the launch in main()")
    lines = [r.span.start.line + 1 for r in ub.related]
    assert _line(text, "tiling.set_count(n)") in lines and _line(text, "size_t count = COUNT;") in lines
