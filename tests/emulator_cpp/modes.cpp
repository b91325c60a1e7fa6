// Small kernels for the emulator's modes (PROTOCOL.md "Modes"): each NPU-faithful default and its buggy twin, the
// CCE layer, the TPipe/TQue/TBuf surface. One binary; the case is picked by the EMU_CASE environment variable so the
// test compiles once. Input x: 4096 float32 (16 KB, 0, 1, 2, ...); output z: 4096 float32.
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
#include <string>
using namespace AscendC;

constexpr uint32_t N = 4096;
constexpr uint32_t BLOCKS = 4;
constexpr uint32_t PER = N / BLOCKS;  // 1024 floats per block

struct Gm {
    GlobalTensor<float> x, z;
    Gm(GM_ADDR xa, GM_ADDR za) {
        x.SetGlobalBuffer((__gm__ float*)xa + PER * GetBlockIdx(), PER);
        z.SetGlobalBuffer((__gm__ float*)za + PER * GetBlockIdx(), PER);
    }
};

// z = x + 1 through queues; `extra` bytes of TBufs of UB around it (never touched unless asked).
static void copy_add(TPipe& pipe, Gm& g, float add) {
    TQue<TPosition::VECIN, 1> qi;
    TQue<TPosition::VECOUT, 1> qo;
    pipe.InitBuffer(qi, 1, PER * 4);
    pipe.InitBuffer(qo, 1, PER * 4);
    LocalTensor<float> a = qi.AllocTensor<float>();
    DataCopy(a, g.x, PER);
    qi.EnQue(a);
    a = qi.DeQue<float>();
    LocalTensor<float> o = qo.AllocTensor<float>();
    Adds(o, a, add, PER);
    qo.EnQue(o);
    qi.FreeTensor(a);
    o = qo.DeQue<float>();
    DataCopy(g.z, o, PER);
    qo.FreeTensor(o);
}

// ---- UB: the reserve is taken only by the APIs that use it; InitBuffer totals are not checked by the NPU
static void ub_full(GM_ADDR x, GM_ADDR z) {  // 8 KB + 184 KB = 192 KB: the whole UB, correct on the NPU
    TPipe pipe;
    Gm g(x, z);
    TBuf<TPosition::VECCALC> big;
    copy_add(pipe, g, 1.0f);
    pipe.InitBuffer(big, 196608 - 2 * PER * 4);
    LocalTensor<float> t = big.Get<float>();
    Duplicate(t, 0.0f, t.GetSize());  // touches the top 8 KB of UB
}
static void ub_select(GM_ADDR x, GM_ADDR z, uint32_t total) {  // Select mode 1 with `total` bytes of buffers
    TPipe pipe;
    Gm g(x, z);
    copy_add(pipe, g, 1.0f);
    TBuf<TPosition::VECCALC> mask, src, dst, rest;
    pipe.InitBuffer(mask, 256);
    pipe.InitBuffer(src, 256);
    pipe.InitBuffer(dst, 256);
    pipe.InitBuffer(rest, total - 2 * PER * 4 - 3 * 256);
    LocalTensor<uint8_t> m = mask.Get<uint8_t>();
    LocalTensor<float> s = src.Get<float>(), d = dst.Get<float>();
    Duplicate(m.ReinterpretCast<uint16_t>(), (uint16_t)0x5555, 128);
    Duplicate(s, 2.0f, 64);
    Select(d, m, s, 1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
}
static void ub_beyond(GM_ADDR x, GM_ADDR z, bool touch) {  // 64 KB more than UB holds
    TPipe pipe;
    Gm g(x, z);
    copy_add(pipe, g, 1.0f);
    TBuf<TPosition::VECCALC> big;
    pipe.InitBuffer(big, 196608 + 65536 - 2 * PER * 4);
    if (touch) {
        LocalTensor<float> t = big.Get<float>();
        Duplicate(t, 0.0f, t.GetSize());
    }
}

// ---- sync: bisheng auto-sync (S <-> V/MTE, V -> V) is the default; MTE2 -> V on a TBuf stays a race
static void sync_vs(GM_ADDR x, GM_ADDR z) {  // a scalar read of a vector result with no V_S flag
    TPipe pipe;
    Gm g(x, z);
    copy_add(pipe, g, 0.0f);
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, 256);
    LocalTensor<float> t = tb.Get<float>();
    Duplicate(t, 3.0f, 64);
    float v = t.GetValue(0);
    if (v != 3.0f) g.z.SetValue(0, v);
}
static void sync_vv(GM_ADDR x, GM_ADDR z) {  // a vector op reads the previous one's result, no PipeBarrier<PIPE_V>
    TPipe pipe;
    Gm g(x, z);
    TQue<TPosition::VECIN, 1> qi;
    TQue<TPosition::VECOUT, 1> qo;
    pipe.InitBuffer(qi, 1, PER * 4);
    pipe.InitBuffer(qo, 1, PER * 4);
    LocalTensor<float> a = qi.AllocTensor<float>();
    DataCopy(a, g.x, PER);
    qi.EnQue(a);
    a = qi.DeQue<float>();
    LocalTensor<float> o = qo.AllocTensor<float>();
    Muls(o, a, 2.0f, PER);
    Adds(o, o, 1.0f, PER);  // V -> V RAW
    qo.EnQue(o);
    qi.FreeTensor(a);
    o = qo.DeQue<float>();
    DataCopy(g.z, o, PER);
    qo.FreeTensor(o);
}
static void sync_mte2_waw(GM_ADDR x, GM_ADDR z, bool barrier) {  // two copies into overlapping UB
    TPipe pipe;
    Gm g(x, z);
    TQue<TPosition::VECIN, 1> qi;
    pipe.InitBuffer(qi, 1, PER * 4);
    LocalTensor<float> a = qi.AllocTensor<float>();
    DataCopy(a, g.x, PER);
    if (barrier) PipeBarrier<PIPE_MTE2>();
    DataCopy(a, g.x[64], 64);  // overwrites the first 256 B: MTE2 -> MTE2 WAW
    qi.EnQue(a);
    a = qi.DeQue<float>();
    qi.FreeTensor(a);
}

// ---- assert: ASSERT is compiled out on the NPU (even `x = n ASSERT(n != 0);`); ascendc_assert is not
static void assert_sdk(GM_ADDR x, GM_ADDR z) {
    TPipe pipe;
    Gm g(x, z);
    uint32_t n = 0;
#if ASCENDC_EMU_ASSERT_TRAP  // the CPU-debug build compiles the condition: only the statement form is valid C++
    ASSERT(n != 0 && "tile count can not be zero");
#else
    uint32_t tiles = n ASSERT(n != 0 && "tile count can not be zero");
    (void)tiles;
#endif
    copy_add(pipe, g, 1.0f);
}
static void assert_kernel(GM_ADDR x, GM_ADDR z) {
    TPipe pipe;
    Gm g(x, z);
    copy_add(pipe, g, 1.0f);
    int32_t flag = 10;
    ascendc_assert(flag != 10, "The flag value is %d.\n", flag);
}

// ---- GM: the runtime pads allocations to ALIGN_UP(n, 32) + 32 B; a red zone follows
static void gm_over(GM_ADDR x, GM_ADDR z, uint32_t past) {  // the last block reads `past` floats after x's end
    TPipe pipe;
    Gm g(x, z);
    copy_add(pipe, g, 1.0f);
    if (GetBlockIdx() != BLOCKS - 1) return;
    TQue<TPosition::VECIN, 1> qi;
    pipe.InitBuffer(qi, 1, 256);
    LocalTensor<float> a = qi.AllocTensor<float>();
    DataCopy(a, g.x[PER - 64 + past], 64);  // 256 B ending `past` floats after the end
    qi.EnQue(a);
    a = qi.DeQue<float>();
    qi.FreeTensor(a);
}

// ---- alignment exactly as the API docs state (ReduceRepeat.md table 3)
static void align_reduce(GM_ADDR x, GM_ADDR z, bool float_sum) {
    TPipe pipe;
    Gm g(x, z);
    copy_add(pipe, g, 1.0f);
    TBuf<TPosition::VECCALC> tb, ob;
    pipe.InitBuffer(tb, 512);
    pipe.InitBuffer(ob, 256);
    if (float_sum) {  // WholeReduceSum on float: dst 4-byte aligned; a 2-byte offset is misaligned
        LocalTensor<float> t = tb.Get<float>();
        Duplicate(t, 1.0f, 128);
        LocalTensor<uint8_t> o = ob.Get<uint8_t>();
        WholeReduceSum(o[2].ReinterpretCast<float>(), t, 64, 1, 1, 1, 8);
    } else {  // WholeReduceMax on half, value only: dst 2-byte aligned is enough
        LocalTensor<half> t = tb.Get<half>();
        Duplicate(t, (half)1.0f, 256);
        LocalTensor<half> o = ob.Get<half>();
        WholeReduceMax(o[1], t, 128, 1, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
    }
}

// ---- the CCE layer: raw set_flag/wait_flag take part in race detection like SetFlag/WaitFlag
static void cce_flags(GM_ADDR x, GM_ADDR z, bool flags) {
    TPipe pipe;
    Gm g(x, z);
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, PER * 4);
    LocalTensor<float> t = tb.Get<float>();
    copy_gm_to_ubuf((__ubuf__ float*)t.GetPhyAddr(), (__gm__ float*)g.x.GetPhyAddr(), 0, 1, PER * 4 / 32, 0, 0);
    if (flags) {
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    }
    Muls(t, t, 2.0f, PER);
    if (flags) {
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    }
    copy_ubuf_to_gm((__gm__ float*)g.z.GetPhyAddr(), (__ubuf__ float*)t.GetPhyAddr(), 0, 1, PER * 4 / 32, 0, 0);
    pipe_barrier(PIPE_ALL);
}
static void cce_vcadd(GM_ADDR x, GM_ADDR z) {  // z[i] = x[i] + sum(x of this block), through vcadd / GetAccVal
    TPipe pipe;
    Gm g(x, z);
    TQue<TPosition::VECIN, 1> qi;
    TQue<TPosition::VECOUT, 1> qo;
    pipe.InitBuffer(qi, 1, PER * 4);
    pipe.InitBuffer(qo, 1, PER * 4);
    LocalTensor<float> a;
    qi.AllocTensor(a);  // inplace forms
    DataCopy(a, g.x, PER);
    qi.EnQue(a);
    LocalTensor<float> b;
    qi.DeQue(b);
    set_mask_count();
    set_vector_mask(0, PER);
    vcadd((float*)nullptr, (__ubuf__ float*)b.GetPhyAddr(), 1, 1, 1, 8, 1);
    set_mask_norm();
    uint64_t acc = GetAccVal();
    float s = *reinterpret_cast<float*>(&acc);
    LocalTensor<float> o = qo.AllocTensor<float>();
    Adds(o, b, s, PER);
    qo.EnQue(o);
    qi.FreeTensor(b);
    o = qo.DeQue<float>();
    DataCopy(g.z, o, PER);
    qo.FreeTensor(o);
}

// ---- TBufPool: two pools share one region, Reset between the stages; a TBuf's own AllocTensor/FreeTensor
static void bufpool(GM_ADDR x, GM_ADDR z) {
    TPipe pipe;
    Gm g(x, z);
    TBufPool<TPosition::VECCALC> p1, p2;
    pipe.InitBufPool(p1, PER * 4 * 2);
    pipe.InitBufPool(p2, PER * 4 * 2, p1);
    TQue<TPosition::VECIN, 1> qi;
    TQue<TPosition::VECOUT, 1> qo;
    p1.InitBuffer(qi, 1, PER * 4);
    p1.InitBuffer(qo, 1, PER * 4);
    LocalTensor<float> a = qi.AllocTensor<float>();
    DataCopy(a, g.x, PER);
    qi.EnQue(a);
    a = qi.DeQue<float>();
    LocalTensor<float> o = qo.AllocTensor<float>();
    Muls(o, a, 2.0f, PER);
    qo.EnQue(o);
    qi.FreeTensor(a);
    o = qo.DeQue<float>();
    DataCopy(g.z, o, PER);
    qo.FreeTensor(o);
    p1.Reset();
    TBuf<TPosition::VECCALC> tb;  // reuses p1's memory
    p2.InitBuffer(tb, PER * 4);
    LocalTensor<float> t = tb.AllocTensor<float>();
    DataCopy(t, g.z, PER);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Adds(t, t, 1.0f, PER);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(g.z, t, PER);
    tb.FreeTensor(t);
}

// ---- static tensors: LocalTensor(pos, addr, len) and LocalMemAllocator, hand-written flags (静态Tensor编程.md)
static void static_tensor(GM_ADDR x, GM_ADDR z) {
    Gm g(x, z);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> a = ub.Alloc<float, PER>();
    LocalTensor<float> o(TPosition::VECCALC, ub.GetCurAddr(), PER);
    DataCopy(a, g.x, PER);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Adds(o, a, 1.0f, PER);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(g.z, o, PER);
    PipeBarrier<PIPE_ALL>();
}

// ---- CrossCoreSetFlag / CrossCoreWaitFlag, mode 0: a barrier of every block; one block skipping it hangs
static void crosscore(GM_ADDR x, GM_ADDR z, bool skip) {
    TPipe pipe;
    Gm g(x, z);
    copy_add(pipe, g, 1.0f);
    if (skip && GetBlockIdx() == 0) return;
    CrossCoreSetFlag<0, PIPE_MTE3>(3);
    CrossCoreWaitFlag(3);
}

// ---- GroupBarrier: blocks 0-1 arrive after adding into GM, blocks 2-3 wait and read the sum; InitOutput zeroes GM
static void group_barrier(GM_ADDR x, GM_ADDR z, GM_ADDR ws, bool short_arrive) {
    TPipe pipe;
    GlobalTensor<int32_t> out;
    out.SetGlobalBuffer((__gm__ int32_t*)z, N);
    GroupBarrier<PipeMode::MTE3_MODE> bar(ws, 2, 2);
    if (GetBlockIdx() == 0) InitOutput<int32_t>(out, 8, 0);
    SyncAll();
    TQue<TPosition::VECOUT, 1> qo;
    pipe.InitBuffer(qo, 1, 32);
    if (GetBlockIdx() < 2) {
        if (short_arrive && GetBlockIdx() == 1) return;
        LocalTensor<int32_t> t = qo.AllocTensor<int32_t>();
        Duplicate(t, (int32_t)(GetBlockIdx() + 1), 8);
        qo.EnQue(t);
        t = qo.DeQue<int32_t>();
        SetAtomicAdd<int32_t>();
        DataCopy(out, t, 8);
        SetAtomicNone();
        qo.FreeTensor(t);
        bar.Arrive(GetBlockIdx());
    } else {
        bar.Wait(GetBlockIdx() - 2);
        out.SetValue(8 + GetBlockIdx(), out.GetValue(0));  // 1 + 2, seen by both waiters
    }
    (void)x;
}

// ---- Data Cache coherence: scalar GM writes stay in the core's DCache until DataCacheCleanAndInvalid
static void dcache_dirty(GM_ADDR x, GM_ADDR z, bool clean) {  // SetValue, then DataCopy reads the same bytes
    TPipe pipe;
    Gm g(x, z);
    g.z.SetValue(3, 42.0f);
    if (clean) DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(g.z);
    TQue<TPosition::VECIN, 1> qi;
    pipe.InitBuffer(qi, 1, 256);
    LocalTensor<float> a = qi.AllocTensor<float>();
    DataCopy(a, g.z, 64);
    qi.EnQue(a);
    a = qi.DeQue<float>();
    qi.FreeTensor(a);
}
static void dcache_stale(GM_ADDR x, GM_ADDR z, bool clean) {  // GetValue caches a line, DataCopy rewrites it
    TPipe pipe;
    Gm g(x, z);
    float before = g.z.GetValue(0);
    copy_add(pipe, g, 1.0f);  // MTE3 writes z
    if (clean) DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(g.z);
    float after = g.z.GetValue(0);
    (void)before;
    (void)after;
}

int main(int argc, char** argv) {
    ascendc_emu::Harness h(argc, argv);
    GM_ADDR x = h.Input("x");
    GM_ADDR z = h.Output("z", N * 4);
    GM_ADDR ws = h.Workspace(4096);
    const char* c = getenv("EMU_CASE");
    std::string k = c ? c : "";
    h.Launch(BLOCKS, [&] {
        if (k == "ub_full") ub_full(x, z);
        else if (k == "ub_select_fits") ub_select(x, z, 196608 - 8192);
        else if (k == "ub_select_full") ub_select(x, z, 196608);
        else if (k == "ub_beyond_untouched") ub_beyond(x, z, false);
        else if (k == "ub_beyond_touched") ub_beyond(x, z, true);
        else if (k == "sync_vs") sync_vs(x, z);
        else if (k == "sync_vv") sync_vv(x, z);
        else if (k == "mte2_waw") sync_mte2_waw(x, z, false);
        else if (k == "mte2_waw_barrier") sync_mte2_waw(x, z, true);
        else if (k == "assert_sdk") assert_sdk(x, z);
        else if (k == "assert_kernel") assert_kernel(x, z);
        else if (k == "gm_pad") gm_over(x, z, 8);
        else if (k == "gm_past_pad") gm_over(x, z, 16);
        else if (k == "align_wrm_half") align_reduce(x, z, false);
        else if (k == "align_wrs_float") align_reduce(x, z, true);
        else if (k == "cce_flags") cce_flags(x, z, true);
        else if (k == "cce_noflags") cce_flags(x, z, false);
        else if (k == "cce_vcadd") cce_vcadd(x, z);
        else if (k == "bufpool") bufpool(x, z);
        else if (k == "static_tensor") static_tensor(x, z);
        else if (k == "crosscore") crosscore(x, z, false);
        else if (k == "crosscore_hang") crosscore(x, z, true);
        else if (k == "dcache_dirty") dcache_dirty(x, z, false);
        else if (k == "dcache_dirty_clean") dcache_dirty(x, z, true);
        else if (k == "dcache_stale") dcache_stale(x, z, false);
        else if (k == "dcache_stale_clean") dcache_stale(x, z, true);
        else if (k == "group_barrier") group_barrier(x, z, ws, false);
        else if (k == "group_barrier_hang") group_barrier(x, z, ws, true);
        else ascendc_emu::report_error("case", "toolchain-env", -1, "main", ascendc_emu::Loc(), "unknown EMU_CASE %s", c);
    });
    return h.Finish();
}
