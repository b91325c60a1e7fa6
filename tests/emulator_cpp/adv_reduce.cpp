// Correct kernel over the high-level reductions: Sum, Mean, the pattern reductions (AR / RA) and CumSum, each
// writing a SLOT-element slot of z from x; -DADV_DTYPE=half|float. Shapes have last axes that need padding.
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
using namespace AscendC;

#ifndef ADV_DTYPE
#define ADV_DTYPE float
#endif
using T = ADV_DTYPE;
constexpr uint32_t NX = 2048, SLOT = 256, SLOTS = 16;
constexpr uint32_t PAD(uint32_t n) { return (n * sizeof(T) + 31) / 32 * 32 / sizeof(T); }
constexpr bool F32 = sizeof(T) == 4;

extern "C" __global__ __aicore__ void adv_reduce(GM_ADDR x, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, zb, tb, lb;
    pipe.InitBuffer(xb, NX * sizeof(T));
    pipe.InitBuffer(zb, SLOTS * SLOT * sizeof(T));
    pipe.InitBuffer(tb, 8192);
    pipe.InitBuffer(lb, SLOT * sizeof(T));
    GlobalTensor<T> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, NX);
    zGm.SetGlobalBuffer((__gm__ T*)z, SLOTS * SLOT);
    LocalTensor<T> a = xb.Get<T>(), zl = zb.Get<T>(), last = lb.Get<T>();
    LocalTensor<uint8_t> t = tb.Get<uint8_t>();
    DataCopy(a, xGm, NX);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Duplicate(zl, (T)0, SLOTS * SLOT);
    // slot 0: Sum of 3 rows of 37 (padded rows)
    Sum(zl[0 * SLOT], a, t, SumParams{3, PAD(37), 37});
    // slot 1: Mean of 4 rows of 21, accumulating in float
    Mean<T, float>(zl[1 * SLOT], a, t, MeanParams{4, PAD(21), 21});
    // slot 2: Mean without a tmp buffer, accumulating in T
    Mean(zl[2 * SLOT], a, MeanParams{2, PAD(300), 300});
    uint32_t ar[2] = {5, 37}, ra[2] = {7, 20};
    ReduceSum<T, Pattern::Reduce::AR>(zl[3 * SLOT], a, t, ar, true);  // slot 3
    ReduceSum<T, Pattern::Reduce::RA>(zl[4 * SLOT], a, ra, true);     // slot 4
    ReduceMax<T, Pattern::Reduce::AR>(zl[5 * SLOT], a, t, ar, true);  // slot 5
    ReduceMin<T, Pattern::Reduce::RA>(zl[6 * SLOT], a, t, ra, true);  // slot 6
    if constexpr (F32) {
        ReduceMean<T, Pattern::Reduce::AR>(zl[7 * SLOT], a, t, ar, true);  // slot 7
        ReduceProd<T, Pattern::Reduce::RA>(zl[8 * SLOT], a, t, ra, true);  // slot 8
        ReduceAny<T, Pattern::Reduce::AR>(zl[9 * SLOT], a, t, ar, true);   // slot 9
        ReduceAll<T, Pattern::Reduce::RA>(zl[10 * SLOT], a, t, ra, true);  // slot 10
    }
    // slots 11-12: CumSum down the first axis (8 x 32) line by line, and along the last axis (4 x 64) Sklansky
    static constexpr CumSumConfig kFirst{false, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
    static constexpr CumSumConfig kLast{true, false, false, CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY};
    CumSum<T, kFirst>(zl[11 * SLOT], last, a, t, CumSumInfo{8, 32});
    CumSum<T, kLast>(zl[12 * SLOT], last, a, CumSumInfo{4, 64});
    // slot 13: the last row of the first CumSum (outputLastRow)
    DataCopy(zl[13 * SLOT], last, 32);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(zGm, zl, SLOTS * SLOT);
}

int main(int argc, char** argv)
{
    ascendc_emu::Harness h(argc, argv);
    GM_ADDR x = h.Input("x");
    GM_ADDR z = h.Output("z", SLOTS * SLOT * sizeof(T));
    h.Launch(1, [&] { adv_reduce(x, z); });
    return h.Finish();
}
