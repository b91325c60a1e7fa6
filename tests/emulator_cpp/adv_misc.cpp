// Correct kernel over the high-level arrangement, filter and quantisation APIs: Broadcast (both axes, in place),
// Fill, Pad / UnPad, Select with a byte mask, DropOut (byte and bit modes), AscendQuant, AscendDequant,
// AscendAntiQuant. Inputs: x (float, 1024), q (int32, 256), m (uint8, 256); results in out-of-line slots of z.
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t SLOT = 1024;  // bytes per result slot
constexpr uint32_t SLOTS = 16;

extern "C" __global__ __aicore__ void adv_misc(GM_ADDR x, GM_ADDR q, GM_ADDR m, GM_ADDR z, GM_ADDR g)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, qb, mb, zb, tb;
    pipe.InitBuffer(xb, 1024 * sizeof(float));
    pipe.InitBuffer(qb, 256 * sizeof(int32_t));
    pipe.InitBuffer(mb, 256);
    pipe.InitBuffer(zb, SLOTS * SLOT);
    pipe.InitBuffer(tb, 4096);
    GlobalTensor<float> xGm;
    GlobalTensor<int32_t> qGm;
    GlobalTensor<uint8_t> mGm, zGm;
    GlobalTensor<half> gGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 1024);
    qGm.SetGlobalBuffer((__gm__ int32_t*)q, 256);
    mGm.SetGlobalBuffer((__gm__ uint8_t*)m, 256);
    zGm.SetGlobalBuffer((__gm__ uint8_t*)z, SLOTS * SLOT);
    gGm.SetGlobalBuffer((__gm__ half*)g, 200);
    LocalTensor<float> a = xb.Get<float>();
    LocalTensor<int32_t> qi = qb.Get<int32_t>();
    LocalTensor<uint8_t> mk = mb.Get<uint8_t>(), zl = zb.Get<uint8_t>(), t = tb.Get<uint8_t>();
    DataCopy(a, xGm, 1024);
    DataCopy(qi, qGm, 256);
    DataCopy(mk, mGm, 256);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Duplicate(zl.ReinterpretCast<half>(), (half)0, SLOTS * SLOT / 2);
    auto slotf = [&](uint32_t s) { return zl[s * SLOT].ReinterpretCast<float>(); };
    auto sloth = [&](uint32_t s) { return zl[s * SLOT].ReinterpretCast<half>(); };
    // slot 0: [4, 1] -> [4, 30] along axis 1 (unaligned row); slot 1: [1, 16] -> [8, 16] along axis 0 in place
    const uint32_t d1[2] = {4, 30}, s1[2] = {4, 1}, d0[2] = {8, 16}, s0[2] = {1, 16};
    BroadCast<float, 2, 1>(slotf(0), a, d1, s1, t);
    LocalTensor<float> inplace = slotf(1);
    Adds(inplace, a[16], 0.0f, 16);  // row 0 of the result is the source
    Broadcast<float, 2, 0>(inplace, inplace, d0, s0);
    // slot 2: Pad 8 rows of 7 floats (packed) to 8 rows of 8, pad value 5; slot 3: UnPad 8 x 8 -> 8 x 6
    PadTiling pt;
    pt.srcHeight = 8; pt.srcWidth = 7; pt.srcOriHeight = 8; pt.srcOriWidth = 7;
    Pad(slotf(2), a, PadParams{0, 1, 5}, t, pt);
    UnPadTiling ut;
    ut.srcHeight = 8; ut.srcWidth = 8;
    UnPad(slotf(3), a, UnPadParams{1, 1}, ut);
    // slot 4: Select on 4 rows of 16 halves by a uint8 mask with 32 columns (0 -> x, else 9.0)
    LocalTensor<half> h = sloth(15);
    Cast(h, a, RoundMode::CAST_RINT, 512);
    SelectWithBytesMaskShapeInfo si;
    si.firstAxis = 4; si.srcLastAxis = 16; si.maskLastAxis = 32;
    Select(sloth(4), h, (half)9.0f, mk, t, si);
    // slot 5: DropOut byte mode (4 x 16, mask 4 x 32); slot 6: bit mode (4 x 64, mask 4 x 8 bytes)
    DropOutShapeInfo db;
    db.firstAxis = 4; db.srcLastAxis = 16; db.maskLastAxis = 32;
    DropOut(slotf(5), a, mk, 0.8f, db);
    DropOutShapeInfo dbit;
    dbit.firstAxis = 4; dbit.srcLastAxis = 64; dbit.maskLastAxis = 8;
    DropOut<float, false, 3>(slotf(6), a, mk, t, 0.5f, dbit);
    // slot 7: AscendQuant per tensor (scale 3, offset 1.5); slot 8: per channel (16 scales, offset 0.25)
    AscendQuant<float>(zl[7 * SLOT].ReinterpretCast<int8_t>(), a, t, 3.0f, 1.5f, 256);
    AscendQuant<float>(zl[8 * SLOT].ReinterpretCast<int8_t>(), a, t, a[512], 0.25f, 16, 256);
    // slot 9: AscendDequant int32 [4, 64] x float scales, calCount 40 -> float; slot 10: scalar scale -> half
    AscendDequant(slotf(9), qi, a[768], t, DequantParams{4, 64, 40});
    AscendDequant<half, float>(sloth(10), qi, 0.5f, DequantParams{2, 64, 64});
    // slot 11: AscendAntiQuant int8 [K=8, N=32] per channel (offset/scale [1, 32]); slot 12: transposed
    // [N=8, K=32] per tensor
    LocalTensor<int8_t> i8 = zl[14 * SLOT].ReinterpretCast<int8_t>();
    Cast(sloth(13), a, RoundMode::CAST_RINT, 256);
    Cast(i8, sloth(13), RoundMode::CAST_RINT, 256);
    i8.SetSize(256);
    LocalTensor<half> params = sloth(13)[256];
    Cast(params, a[256], RoundMode::CAST_RINT, 64);  // offsets [0, 32), scales [32, 64)
    LocalTensor<half> off = params, scl = params[32];
    off.SetSize(32);
    scl.SetSize(32);
    AscendAntiQuant<int8_t, half, false>(sloth(11), i8, off, scl, t, 8);
    AscendAntiQuant<int8_t, half, true>(sloth(12), i8, (half)-2.0f, (half)0.5f, t, 32);
    // GM: Fill 200 halves with 7
    Fill(gGm, 200, (half)7.0f);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(zGm, zl, SLOTS * SLOT);
}

int main(int argc, char** argv)
{
    ascendc_emu::Harness hh(argc, argv);
    GM_ADDR x = hh.Input("x");
    GM_ADDR q = hh.Input("q");
    GM_ADDR m = hh.Input("m");
    GM_ADDR z = hh.Output("z", SLOTS * SLOT);
    GM_ADDR g = hh.Output("g", 256 * sizeof(half));
    hh.Launch(1, [&] { adv_misc(x, q, m, z, g); });
    return hh.Finish();
}
