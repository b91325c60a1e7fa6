// Forms public kernels use beyond the pages' direct calls: a high-level API passed as a function pointer / template
// argument (slots 0, 1), SelectWithBytesMask (the byte-mask Select's earlier name, slot 2) and Broadcast of
// bfloat16_t (a b16 type the page lists for Ascend 950 only, slot 3: reported on other SoCs).
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t SLOT = 512, SLOTS = 4;

template <typename T>
using UnaryOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t);
template <typename T>
using UnaryTmpOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<uint8_t>&, const uint32_t);

template <typename T, UnaryOp<T>* op>
__aicore__ inline void Apply(const LocalTensor<T>& d, const LocalTensor<T>& s, uint32_t n) { op(d, s, n); }

extern "C" __global__ __aicore__ void adv_compat(GM_ADDR x, GM_ADDR m, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, mb, zb, tb;
    pipe.InitBuffer(xb, 256 * sizeof(float));
    pipe.InitBuffer(mb, 256);
    pipe.InitBuffer(zb, SLOTS * SLOT);
    pipe.InitBuffer(tb, 8192);
    GlobalTensor<float> xGm;
    GlobalTensor<uint8_t> mGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 256);
    mGm.SetGlobalBuffer((__gm__ uint8_t*)m, 256);
    zGm.SetGlobalBuffer((__gm__ uint8_t*)z, SLOTS * SLOT);
    LocalTensor<float> a = xb.Get<float>();
    LocalTensor<uint8_t> mk = mb.Get<uint8_t>(), zl = zb.Get<uint8_t>(), t = tb.Get<uint8_t>();
    DataCopy(a, xGm, 256);
    DataCopy(mk, mGm, 256);
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
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(zGm, zl, SLOTS * SLOT);
}

int main(int argc, char** argv)
{
    ascendc_emu::Harness hh(argc, argv);
    GM_ADDR x = hh.Input("x");
    GM_ADDR m = hh.Input("m");
    GM_ADDR z = hh.Output("z", SLOTS * SLOT);
    hh.Launch(1, [&] { adv_compat(x, m, z); });
    return hh.Finish();
}
