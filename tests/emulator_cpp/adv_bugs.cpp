// A Sigmoid kernel (half, 1024 elements) with one fault per -DBUG_<NAME>; without a macro it is correct.
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t N = 1024;

extern "C" __global__ __aicore__ void adv_bug(GM_ADDR x, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, zb, tb;
    pipe.InitBuffer(xb, N * sizeof(half));
    pipe.InitBuffer(zb, N * sizeof(half));
#if defined(BUG_TMP_TOO_SMALL)
    pipe.InitBuffer(tb, 512);  // Sigmoid on half needs 4 x 256 B
#else
    pipe.InitBuffer(tb, 2048);
#endif
#if defined(BUG_FRAMEWORK_TMP)
    TBuf<TPosition::VECCALC> filler;  // leaves less than the 1,024 B the framework takes for Sigmoid
    pipe.InitBuffer(filler, 196608 - 3 * 2048 - 512);
#endif
#if defined(BUG_NOT_UB)
    TQue<TPosition::A1, 1> l1q;
    pipe.InitBuffer(l1q, 1, N * sizeof(half));
#endif
    GlobalTensor<half> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, N);
    zGm.SetGlobalBuffer((__gm__ half*)z, N);
    LocalTensor<half> a = xb.Get<half>(), d = zb.Get<half>();
    LocalTensor<uint8_t> t = tb.Get<uint8_t>();
    DataCopy(a, xGm, N);
#if !defined(BUG_RACE)
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
#endif
#if defined(BUG_FRAMEWORK_TMP)
    Sigmoid(d, a, N);
#elif defined(BUG_COUNT_PAST_BUFFER)
    Sigmoid(d, a, t, 4 * N);
#elif defined(BUG_COUNT_PAST_SIZE)
    LocalTensor<half> shortView = a;
    shortView.SetSize(N / 2);
    Sigmoid(d, shortView, t, N);
#elif defined(BUG_MISALIGNED)
    Sigmoid(d, a[1], t, N / 2);
#elif defined(BUG_TMP_OVERLAP)
    Sigmoid(d, a, d.ReinterpretCast<uint8_t>(), N);
#elif defined(BUG_NOT_UB)
    LocalTensor<half> l1 = l1q.AllocTensor<half>();
    Sigmoid(d, l1, t, N);
    l1q.FreeTensor(l1);
#else
    Sigmoid(d, a, t, N);
#endif
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(zGm, d, N);
}

int main(int argc, char** argv)
{
    ascendc_emu::Harness h(argc, argv);
    GM_ADDR x = h.Input("x");
    GM_ADDR z = h.Output("z", N * sizeof(half));
    h.Launch(1, [&] { adv_bug(x, z); });
    return h.Finish();
}
