// Correct kernel over the high-level sort APIs: Concat + Sort (per 32 and full) + Extract on 128 floats with their
// indices, and TopK (Normal mode, largest with a finished row; Small mode, smallest) on 4 rows of 64 / 32.
// Inputs: x (float, 256), ix (uint32 0..255); outputs z (float / int32 slots of SLOT elements).
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t SLOT = 256, SLOTS = 10;

extern "C" __global__ __aicore__ void adv_sort(GM_ADDR x, GM_ADDR ix, GM_ADDR fin, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, ib, fb, zb, sb, tb;
    pipe.InitBuffer(xb, 256 * 4);
    pipe.InitBuffer(ib, 256 * 4);
    pipe.InitBuffer(fb, 32);
    pipe.InitBuffer(zb, SLOTS * SLOT * 4);
    pipe.InitBuffer(sb, 128 * 8 * 2);
    pipe.InitBuffer(tb, 16384);
    GlobalTensor<float> xG;
    GlobalTensor<uint32_t> iG;
    GlobalTensor<uint8_t> fG;
    GlobalTensor<float> zG;
    xG.SetGlobalBuffer((__gm__ float*)x, 256);
    iG.SetGlobalBuffer((__gm__ uint32_t*)ix, 256);
    fG.SetGlobalBuffer((__gm__ uint8_t*)fin, 32);
    zG.SetGlobalBuffer((__gm__ float*)z, SLOTS * SLOT);
    LocalTensor<float> a = xb.Get<float>(), zl = zb.Get<float>();
    LocalTensor<uint32_t> idx = ib.Get<uint32_t>();
    LocalTensor<uint8_t> f8 = fb.Get<uint8_t>(), t = tb.Get<uint8_t>();
    LocalTensor<float> sorted = sb.Get<float>();
    DataCopy(a, xG, 256);
    DataCopy(idx, iG, 256);
    DataCopy(f8, fG, 32);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Duplicate(zl, 0.0f, SLOTS * SLOT);
    // slots 0-1: Concat (8 x 16) -> Sort per 32 -> Extract values / indices of 128
    LocalTensor<float> cc = zl[9 * SLOT];
    Concat(cc, a, cc, 8);
    Sort<float, false>(sorted, cc, idx, t.ReinterpretCast<float>(), 4);
    Extract(zl[0 * SLOT], zl[1 * SLOT].ReinterpretCast<uint32_t>(), sorted, 2);
    // slots 2-3: full sort of the 128
    Sort<float, true>(sorted, cc, idx, t.ReinterpretCast<float>(), 4);
    Extract(zl[2 * SLOT], zl[3 * SLOT].ReinterpretCast<uint32_t>(), sorted, 2);
    // slots 4-5: TopK Normal, 4 rows of inner 64 with n 60, k 5, largest, row 2 finished
    TopkTiling tiling{};
    LocalTensor<int32_t> noIndex;
    TopKInfo info{4, 64, 60};
    TopK<float, false, true>(zl[4 * SLOT], zl[5 * SLOT].ReinterpretCast<int32_t>(), a, noIndex,
                             f8.ReinterpretCast<bool>(), t, 5, tiling, info, true);
    // slots 6-7: TopK Small, 8 rows of 32, k 3, smallest, with the given indices (ix)
    LocalTensor<bool> noFinish;
    TopK<float, true, false, false, TopKMode::TOPK_NSMALL>(zl[6 * SLOT], zl[7 * SLOT].ReinterpretCast<int32_t>(), a,
                                                           idx.ReinterpretCast<int32_t>(), noFinish, t, 3, tiling,
                                                           TopKInfo{8, 32, 32}, false);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(zG, zl, SLOTS * SLOT);
}

int main(int argc, char** argv)
{
    ascendc_emu::Harness h(argc, argv);
    GM_ADDR x = h.Input("x");
    GM_ADDR ix = h.Input("ix");
    GM_ADDR fin = h.Input("fin");
    GM_ADDR z = h.Output("z", SLOTS * SLOT * 4);
    h.Launch(1, [&] { adv_sort(x, ix, fin, z); });
    return h.Finish();
}
