// Deliberately buggy kernels, one per hardware check; build with -DBUG_<NAME>. Each is the smallest kernel
// that shows the fault. Input x: 4096 float32 (16 KB); output z: 4096 float32.
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t N = 4096;
constexpr uint32_t TILE = 1024;

extern "C" __global__ __aicore__ void bug_kernel(GM_ADDR x, GM_ADDR z)
{
    TPipe pipe;
    GlobalTensor<float> xGm, zGm;
    uint32_t per = N / GetBlockNum();
    xGm.SetGlobalBuffer((__gm__ float*)x + per * GetBlockIdx(), per);
    zGm.SetGlobalBuffer((__gm__ float*)z + per * GetBlockIdx(), per);
#if defined(BUG_UB_OVERFLOW)
    // 3 queues x 2 buffers x 64 KB = 384 KB > 192 KB of UB
    TQue<TPosition::VECIN, 2> a, b;
    TQue<TPosition::VECOUT, 2> c;
    pipe.InitBuffer(a, 2, 65536);
    pipe.InitBuffer(b, 2, 65536);
    pipe.InitBuffer(c, 2, 65536);
#elif defined(BUG_UB_OOB)
    // Add over 2048 elements of 1024-element buffers
    TBuf<TPosition::VECCALC> t0, t1;
    pipe.InitBuffer(t0, TILE * sizeof(float));
    pipe.InitBuffer(t1, TILE * sizeof(float));
    LocalTensor<float> u = t0.Get<float>(), v = t1.Get<float>();
    Duplicate(u, 1.0f, TILE);
    Add(v, u, u, 2 * TILE);
#elif defined(BUG_GM_OOB)
    // the last block copies one tile past the end of x (offset off by one tile)
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, TILE * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xGm[TILE], per);
    q.EnQue(t);
    t = q.DeQue<float>();
    q.FreeTensor(t);
#elif defined(BUG_MISALIGNED)
    // vector operand at element offset 3 (12 B): not 32-byte aligned
    TBuf<TPosition::VECCALC> t0;
    pipe.InitBuffer(t0, TILE * sizeof(float));
    LocalTensor<float> u = t0.Get<float>();
    Duplicate(u, 1.0f, TILE);
    Adds(u[3], u[3], 1.0f, 64);
#elif defined(BUG_TRUNCATION)
    // 1001 floats = 4004 B: DataCopy drops the last 4 B (truncated to 4000 B)
    TQue<TPosition::VECIN, 1> q;
    TQue<TPosition::VECOUT, 1> o;
    pipe.InitBuffer(q, 1, TILE * sizeof(float));
    pipe.InitBuffer(o, 1, TILE * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xGm, 1001);
    q.EnQue(t);
    t = q.DeQue<float>();
    LocalTensor<float> r = o.AllocTensor<float>();
    Adds(r, t, 0.0f, 1008);
    o.EnQue(r);
    q.FreeTensor(t);
    r = o.DeQue<float>();
    DataCopy(zGm, r, 1001);
    o.FreeTensor(r);
#elif defined(BUG_DEQUE_EMPTY)
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, TILE * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xGm, TILE);
    LocalTensor<float> u = q.DeQue<float>();  // no EnQue before
    q.FreeTensor(u);
#elif defined(BUG_TOO_MANY_LIVE)
    // 9 tensors live at once on VECCALC (the limit is 8)
    TQue<TPosition::VECCALC, 1> q;
    pipe.InitBuffer(q, 9, 256);
    LocalTensor<float> t[9];
    for (int i = 0; i < 9; i++) t[i] = q.AllocTensor<float>();
    for (int i = 0; i < 9; i++) q.FreeTensor(t[i]);
#elif defined(BUG_QUEUE_EXHAUSTED)
    // AllocTensor a second time without freeing the only buffer
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, TILE * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    LocalTensor<float> u = q.AllocTensor<float>();
    q.FreeTensor(t);
    q.FreeTensor(u);
#elif defined(BUG_USE_AFTER_FREE)
    TQue<TPosition::VECIN, 1> q;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(q, 1, TILE * sizeof(float));
    pipe.InitBuffer(tb, TILE * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xGm, TILE);
    q.EnQue(t);
    t = q.DeQue<float>();
    q.FreeTensor(t);
    LocalTensor<float> o = tb.Get<float>();
    Adds(o, t, 1.0f, TILE);  // t was released above
#elif defined(BUG_DOUBLE_FREE)
    TQue<TPosition::VECCALC, 1> q;
    pipe.InitBuffer(q, 1, TILE * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    q.FreeTensor(t);
    q.FreeTensor(t);
#elif defined(BUG_RACE_TBUF)
    // TBuf traffic with no SetFlag/WaitFlag: MTE2 -> V and V -> MTE3 are unordered
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, TILE * sizeof(float));
    LocalTensor<float> t = tb.Get<float>();
    DataCopy(t, xGm, TILE);
    Muls(t, t, 2.0f, TILE);
    DataCopy(zGm, t, TILE);
#elif defined(BUG_RACE_SCALAR)
    // scalar read of a vector result without a V_S flag
    TBuf<TPosition::VECCALC> tb, wb;
    pipe.InitBuffer(tb, TILE * sizeof(float));
    pipe.InitBuffer(wb, TILE * sizeof(float));
    LocalTensor<float> t = tb.Get<float>(), w = wb.Get<float>();
    DataCopy(t, xGm, TILE);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    ReduceSum(t, t, w, TILE);
    float s = t.GetValue(0);
    zGm.SetValue(0, s);
#elif defined(BUG_SYNCALL)
    // block 0 leaves early; the others wait in SyncAll forever
    if (GetBlockIdx() == 0) return;
    SyncAll();
#elif defined(BUG_REPEAT_RANGE)
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, 300 * 256);
    LocalTensor<float> t = tb.Get<float>();
    BinaryRepeatParams p;
    Add(t, t, t, 64, 300, p);
#elif defined(BUG_MASK_RANGE)
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, TILE * sizeof(float));
    LocalTensor<float> t = tb.Get<float>();
    UnaryRepeatParams p;
    Muls(t, t, 2.0f, 128, 1, p);  // 128 lanes is the half-precision width; float has 64
#elif defined(BUG_FLAG_UNMATCHED)
    SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
#elif defined(BUG_WAIT_UNSET)
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
#else
#error "define one BUG_* macro"
#endif
}

int main(int argc, char** argv)
{
    ascendc_emu::Harness h(argc, argv);
    GM_ADDR x = h.Input("x");
    GM_ADDR z = h.Output("z", N * 4);
    h.Launch(4, [&] { bug_kernel(x, z); });
    return h.Finish();
}
