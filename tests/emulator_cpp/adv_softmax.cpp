// Correct kernel over the softmax family on an [M, K] tile (K padded: only ORI_K columns are real), ADV_DTYPE
// half or float (with -DADV_FLOAT). Outputs go to fixed slots of z (data slots of M*K elements, block slots of M*8 floats).
// -DBUG_TILING_TMP: the tiling is computed for more temporary space than the kernel then passes.
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
using namespace AscendC;

#ifndef ADV_DTYPE
#define ADV_DTYPE float
#endif
using T = ADV_DTYPE;
constexpr uint32_t M = 8, K = 64, ORI_K = 50, MK = M * K, BLK = 8 * M;  // float blocks: 8 per row
constexpr uint32_t TMP = 16384;

extern "C" __global__ __aicore__ void adv_softmax(GM_ADDR x, GM_ADDR y, GM_ADDR zd, GM_ADDR zb)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, db, bb, tb;
    pipe.InitBuffer(xb, MK * sizeof(T));
    pipe.InitBuffer(yb, MK * sizeof(T));
    pipe.InitBuffer(db, 8 * MK * sizeof(T));  // 8 data slots
    pipe.InitBuffer(bb, 12 * BLK * sizeof(float));  // 12 block slots
    pipe.InitBuffer(tb, TMP);
    GlobalTensor<T> xGm, yGm, dGm;
    GlobalTensor<float> bGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, MK);
    yGm.SetGlobalBuffer((__gm__ T*)y, MK);
    dGm.SetGlobalBuffer((__gm__ T*)zd, 8 * MK);
    bGm.SetGlobalBuffer((__gm__ float*)zb, 12 * BLK);
    LocalTensor<T> a = xb.Get<T>(), b = yb.Get<T>(), d = db.Get<T>();
    LocalTensor<float> blk = bb.Get<float>();
    LocalTensor<uint8_t> t = tb.Get<uint8_t>();
    DataCopy(a, xGm, MK);
    DataCopy(b, yGm, MK);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Duplicate(blk, 0.0f, 12 * BLK);

    const SoftMaxShapeInfo shape{M, K, M, ORI_K};
    const SoftMaxTiling tiling = SoftMaxFlashV2TilingFunc(shape, sizeof(T), 4, TMP);  // 8 rows per pass
#if defined(BUG_TILING_TMP)
    t.SetSize(1024);  // the kernel passes less than the tiling was computed for (8 x 320 B)
#endif
    LocalTensor<float> sum = blk[0 * BLK], max = blk[1 * BLK];
    // slot 0 (+ blocks 0, 1): SoftMax with float sum/max (the mixed form for half)
    SoftMax<T>(d[0 * MK], sum, max, a, t, tiling, shape);
    // slot 1: SimpleSoftMax from those blocks (framework tmp)
    SimpleSoftMax<T>(d[1 * MK], sum, max, a, tiling, shape);
    // slots 2-3 (+ blocks 2..5): SoftmaxFlashV2 over a then the update with b
    LocalTensor<float> s1 = blk[2 * BLK], m1 = blk[3 * BLK], s2 = blk[4 * BLK], m2 = blk[5 * BLK];
    LocalTensor<T> expMax = d[7 * MK];  // the exp-max blocks (T) of the update
    SoftmaxFlashV2<T, false>(d[2 * MK], s1, m1, a, expMax, s1, m1, t, tiling, shape);
    SoftmaxFlashV2<T, true>(d[3 * MK], s2, m2, b, expMax, s1, m1, t, tiling, shape);
    // slot 4: SoftmaxGrad (grad = b, softmax output = slot 0) and block 6: SoftmaxGradFront
#if defined(ADV_FLOAT)  // the float-only APIs and forms
    {
        SoftmaxGrad<T>(d[4 * MK], b, d[0 * MK], t, tiling, false, shape);
        SoftmaxGradFront<T>(blk[6 * BLK], b, d[0 * MK], t, tiling, shape);
        // slot 5 (+ blocks 7, 8): LogSoftMax, same-type sum/max
        LogSoftMaxTiling lt;
        memcpy(&lt, &tiling, sizeof lt);
        LogSoftMax<T>(d[5 * MK], blk[7 * BLK], blk[8 * BLK], a, t, lt, shape);
        // slot 6 (+ blocks 9-11): SoftmaxFlashV3 without update, PASA shift alpha 0.9, 8 groups of 8 columns
        SoftMaxParams prm{M, K, M, K, 1, 8, 0.9f};
        SoftmaxFlashV3<T, float, false>(d[6 * MK], blk[9 * BLK], blk[10 * BLK], blk[11 * BLK], a, expMax, blk[9 * BLK],
                                        blk[10 * BLK], blk[11 * BLK], t, tiling, prm);
        // slot 0 rows whose max is exactly 4.0 become -1
        AdjustSoftMaxRes<T, float>(d[0 * MK], max, 0x40800000u, (T)-1.0f, shape);
    }
#endif
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(dGm, d, 8 * MK);
    DataCopy(bGm, blk, 12 * BLK);
}

int main(int argc, char** argv)
{
    ascendc_emu::Harness h(argc, argv);
    GM_ADDR x = h.Input("x");
    GM_ADDR y = h.Input("y");
    GM_ADDR zd = h.Output("zd", 8 * MK * sizeof(T));
    GM_ADDR zb = h.Output("zb", 12 * BLK * sizeof(float));
    h.Launch(1, [&] { adv_softmax(x, y, zd, zb); });
    return h.Finish();
}
