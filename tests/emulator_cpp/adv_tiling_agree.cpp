// Host queries and kernel checks agree: one translation unit with the kernel API and the host tiling header (as
// a direct-launch .asc has), main() asks Get*MaxMinTmpSize / *TilingFunc for the minimum temporary space of each
// API and the kernel passes exactly that (clean) or -DSHRINK=32 bytes less (every call must be reported).
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
#include "tiling/adv_api_tiling.h"

using namespace AscendC;
#ifndef SHRINK
#define SHRINK 0
#endif

struct Sizes {
    uint32_t sigmoid, tanh, power, softmax, flashv2, layernorm, rmsnorm, sum, mean, rsum, brc, select, dequant;
    SoftMaxTiling smTiling, flashTiling;
    LayerNormTiling lnTiling;
    RmsNormTiling rmsTiling;
};

__aicore__ inline LocalTensor<uint8_t> tmpOf(TBuf<TPosition::VECCALC>& tb, uint32_t bytes)
{
    LocalTensor<uint8_t> t = tb.Get<uint8_t>();
    t.SetSize(bytes - SHRINK);
    return t;
}

extern "C" __global__ __aicore__ void agree(const Sizes& z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ab, bb, cb, tb;
    pipe.InitBuffer(ab, 16384);
    pipe.InitBuffer(bb, 16384);
    pipe.InitBuffer(cb, 4096);
    pipe.InitBuffer(tb, 65536);
    LocalTensor<float> a = ab.Get<float>(), b = bb.Get<float>(), c = cb.Get<float>();
    LocalTensor<half> ah = ab.Get<half>(), bh = bb.Get<half>();
    Duplicate(a, 1.0f, 4096);
    Duplicate(c, 1.0f, 1024);
    Sigmoid(bh, ah, tmpOf(tb, z.sigmoid), 2048);
    Tanh(b, a, tmpOf(tb, z.tanh), 2048);
    Power(b, a, a, tmpOf(tb, z.power), 2048);
    SoftMax<float>(b, c, c[256], a, tmpOf(tb, z.softmax), z.smTiling, SoftMaxShapeInfo{16, 128, 16, 128});
    SoftmaxFlashV2<float, true>(b, c, c[256], a, c[512], c, c[256], tmpOf(tb, z.flashv2), z.flashTiling,
                                SoftMaxShapeInfo{16, 128, 16, 128});
    LayerNormTiling ln = z.lnTiling;
    LayerNorm<float>(b, c, c[64], a, c[128], c[256], tmpOf(tb, z.layernorm), 1e-5f, ln);
    RmsNorm(b, a, c, tmpOf(tb, z.rmsnorm), 1e-5f, z.rmsTiling);
    Sum(c, a, tmpOf(tb, z.sum), SumParams{4, 1000, 1000});
    Mean<half, float>(c.ReinterpretCast<half>(), ah, tmpOf(tb, z.mean), MeanParams{4, 1008, 1000});
    const uint32_t shape[2] = {16, 256};
    ReduceSum<float, Pattern::Reduce::AR>(c, a, tmpOf(tb, z.rsum), shape, true);
    const uint32_t dst[2] = {64, 40}, src[2] = {64, 1};
    BroadCast<float, 2, 1>(b, a, dst, src, tmpOf(tb, z.brc));
    SelectWithBytesMaskShapeInfo si;
    si.firstAxis = 16; si.srcLastAxis = 64; si.maskLastAxis = 64;
    Select(b, a, 2.0f, c.ReinterpretCast<uint8_t>(), tmpOf(tb, z.select), si);
    AscendDequant(b, a.ReinterpretCast<int32_t>(), c, tmpOf(tb, z.dequant), DequantParams{4, 256, 256});
}

int main(int argc, char** argv)
{
    ascendc_emu::Harness h(argc, argv);
    Sizes z{};
    uint32_t mx = 0;
    const ge::Shape flat(std::vector<int64_t>{2048}), sm(std::vector<int64_t>{16, 128});
    GetSigmoidMaxMinTmpSize(flat, 2, false, mx, z.sigmoid);
    GetTanhMaxMinTmpSize(flat, 4, false, mx, z.tanh);
    GetPowerMaxMinTmpSize(flat, flat, false, 4, false, mx, z.power);
    z.softmax = GetSoftMaxMinTmpSize(sm, 4, false);
    SoftMaxTilingFunc(sm, 4, z.softmax, z.smTiling);
    z.flashv2 = GetSoftMaxFlashV2MinTmpSize(sm, 4, 4, true);
    SoftMaxFlashV2TilingFunc(sm, 4, 4, z.flashv2, z.flashTiling, true);
    const ge::Shape bsh(std::vector<int64_t>{2, 8, 64});
    GetLayerNormMaxMinTmpSize(bsh, 4, false, mx, z.layernorm);
    GetLayerNormNDTilingInfo(bsh, z.layernorm, 4, false, z.lnTiling);
    GetRmsNormMaxMinTmpSize(bsh, 4, mx, z.rmsnorm);
    GetRmsNormTilingInfo(bsh, bsh, z.rmsnorm, 4, z.rmsTiling);
    GetSumMaxMinTmpSize(1000, 4, false, mx, z.sum);
    GetMeanMaxMinTmpSize(1000, 2, 4, false, mx, z.mean);
    GetReduceSumMaxMinTmpSize(ge::Shape(std::vector<int64_t>{16, 256}), ge::DT_FLOAT, ReducePattern::AR, true, false,
                              mx, z.rsum);
    uint64_t bmx = 0, bmn = 0;
    ascendc_emu_adv::broadcast_tmp(64, 40, 4, 1, bmx, bmn);  // GetBroadCastMaxMinTmpSize needs a platform object
    z.brc = (uint32_t)bmn;
    const ge::Shape sel(std::vector<int64_t>{16, 64});
    z.select = GetSelectWithBytesMaskMinTmpSize(sel, ge::Shape(std::vector<int64_t>{1}), 4, sel, 1, true);
    GetAscendDequantMaxMinTmpSize(ge::Shape(std::vector<int64_t>{4, 256}), 4, mx, z.dequant);
    h.Launch(1, [&] { agree(z); });
    return h.Finish();
}
