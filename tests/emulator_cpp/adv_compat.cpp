// Forms public kernels use beyond the pages' direct calls: a high-level API passed as a function pointer / template
// argument (slots 0, 1), SelectWithBytesMask (the byte-mask Select's earlier name, slot 2) and Broadcast of
// bfloat16_t (a b16 type the page lists for Ascend 950 only, slot 3: reported on other SoCs); integer Power
// (int32_t on every SoC, slots 4 and 5; int16_t on Ascend 950 only, slot 6).
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t SLOT = 512, SLOTS = 7;

template <typename T>
using UnaryOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t);
template <typename T>
using UnaryTmpOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<uint8_t>&, const uint32_t);

template <typename T, UnaryOp<T>* op>
__aicore__ inline void Apply(const LocalTensor<T>& d, const LocalTensor<T>& s, uint32_t n) { op(d, s, n); }

extern "C" __global__ __aicore__ void adv_compat(GM_ADDR x, GM_ADDR m, GM_ADDR p, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, mb, zb, tb, pb;
    pipe.InitBuffer(xb, 256 * sizeof(float));
    pipe.InitBuffer(mb, 256);
    pipe.InitBuffer(zb, SLOTS * SLOT);
    pipe.InitBuffer(tb, 8192);
    pipe.InitBuffer(pb, 128 * sizeof(int32_t));
    GlobalTensor<float> xGm;
    GlobalTensor<uint8_t> mGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 256);
    mGm.SetGlobalBuffer((__gm__ uint8_t*)m, 256);
    zGm.SetGlobalBuffer((__gm__ uint8_t*)z, SLOTS * SLOT);
    LocalTensor<float> a = xb.Get<float>();
    LocalTensor<uint8_t> mk = mb.Get<uint8_t>(), zl = zb.Get<uint8_t>(), t = tb.Get<uint8_t>();
    DataCopy(a, xGm, 256);
    DataCopy(mk, mGm, 256);
    GlobalTensor<int32_t> pGm;
    pGm.SetGlobalBuffer((__gm__ int32_t*)p, 128);
    LocalTensor<int32_t> pl = pb.Get<int32_t>();
    DataCopy(pl, pGm, 128);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    auto slotf = [&](int i) { return zl[i * SLOT].ReinterpretCast<float>(); };
    Apply<float, Acos<float, false>>(slotf(0), a, 64);  // x in [-1, 1)
    UnaryTmpOp<float>* tanhOp = Tanh<float, false>;
    tanhOp(slotf(1), a, t, 64);
    SelectWithBytesMaskShapeInfo info;
    info.firstAxis = 4; info.srcLastAxis = 16; info.maskLastAxis = 32;
    LocalTensor<float> sel = slotf(2);
    SelectWithBytesMask(sel, a, 9.0f, mk, t, info);
    LocalTensor<bfloat16_t> bsrc = slotf(3)[64].ReinterpretCast<bfloat16_t>(), bdst = zl[3 * SLOT].ReinterpretCast<bfloat16_t>();
    Cast(bsrc, a, RoundMode::CAST_RINT, 16);
    const uint32_t dstShape[2] = {4, 16}, srcShape[2] = {1, 16};
    Broadcast<bfloat16_t, 2, 0>(bdst, bsrc, dstShape, srcShape, t);
    LocalTensor<int32_t> bases = pl, exps = pl[64];
    Power(zl[4 * SLOT].ReinterpretCast<int32_t>(), bases, exps, t, 64);
    Power(zl[5 * SLOT].ReinterpretCast<int32_t>(), bases, (int32_t)7, t, 64);
    LocalTensor<int16_t> b16 = zl[6 * SLOT + 256].ReinterpretCast<int16_t>();
    Cast(b16, bases, RoundMode::CAST_NONE, 64);
    Power(zl[6 * SLOT].ReinterpretCast<int16_t>(), b16, (int16_t)3, t, 64);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(zGm, zl, SLOTS * SLOT);
}

int main(int argc, char** argv)
{
    ascendc_emu::Harness hh(argc, argv);
    GM_ADDR x = hh.Input("x");
    GM_ADDR m = hh.Input("m");
    GM_ADDR p = hh.Input("p");
    GM_ADDR z = hh.Output("z", SLOTS * SLOT);
    hh.Launch(1, [&] { adv_compat(x, m, p, z); });
    return hh.Finish();
}
