// Correct kernel over AscendQuant with the Ascend 950 8-bit float destinations (fp8_e4m3fn_t, fp8_e5m2_t,
// hifloat8_t) and the dstT = int8_t form. Inputs: x (float, 256: edge values then random magnitudes), s (float,
// 64: 32 scales then 32 offsets); results in 256-byte slots of z.
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t N = 256;
constexpr uint32_t SLOTS = 8;

extern "C" __global__ __aicore__ void adv_quant8(GM_ADDR x, GM_ADDR s, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, sb, hb, zb, tb;
    pipe.InitBuffer(xb, N * sizeof(float));
    pipe.InitBuffer(sb, 64 * sizeof(float));
    pipe.InitBuffer(hb, (N + 64) * sizeof(half));
    pipe.InitBuffer(zb, SLOTS * N);
    pipe.InitBuffer(tb, 4096);
    GlobalTensor<float> xGm, sGm;
    GlobalTensor<uint8_t> zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, N);
    sGm.SetGlobalBuffer((__gm__ float*)s, 64);
    zGm.SetGlobalBuffer((__gm__ uint8_t*)z, SLOTS * N);
    LocalTensor<float> a = xb.Get<float>(), sc = sb.Get<float>();
    LocalTensor<half> h = hb.Get<half>();
    LocalTensor<uint8_t> zl = zb.Get<uint8_t>(), t = tb.Get<uint8_t>();
    DataCopy(a, xGm, N);
    DataCopy(sc, sGm, 64);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Cast(h, a, RoundMode::CAST_RINT, N);
    Cast(h[N], sc, RoundMode::CAST_RINT, 64);
    // slots 0-2: plain conversions (scale 1, offset 0), with and without sharedTmpBuffer, count and whole forms
    AscendQuant<fp8_e4m3fn_t, float>(zl[0].ReinterpretCast<fp8_e4m3fn_t>(), a, 1.0f, 0.0f, N);
    AscendQuant<fp8_e5m2_t, float>(zl[N].ReinterpretCast<fp8_e5m2_t>(), a, t, 1.0f, 0.0f, N);
    AscendQuant<hifloat8_t, float>(zl[2 * N].ReinterpretCast<hifloat8_t>(), a, t, 1.0f, 0.0f);
    // slot 3: per tensor with scale and offset; slot 4: per channel, 32 float scales, scalar offset
    AscendQuant<fp8_e4m3fn_t, float>(zl[3 * N].ReinterpretCast<fp8_e4m3fn_t>(), a, 0.75f, -1.25f, N);
    AscendQuant<fp8_e5m2_t, float>(zl[4 * N].ReinterpretCast<fp8_e5m2_t>(), a, sc, 0.5f, 32, N);
    // slot 5: half source, per channel with 32 half scales and 32 half offsets
    AscendQuant<hifloat8_t, half>(zl[5 * N].ReinterpretCast<hifloat8_t>(), h, t, h[N], h[N + 32], 32, 32, N);
    // slot 6: dstT = int8_t runs the documented half chain
    AscendQuant<int8_t, float>(zl[6 * N].ReinterpretCast<int8_t>(), a, 3.0f, 1.5f, N);
    // slot 7: the scalar types convert like the API (hifloat8_t(1.75f) etc.), and back to float exactly
    LocalTensor<hifloat8_t> sv = zl[7 * N].ReinterpretCast<hifloat8_t>();
    sv.SetValue(0, hifloat8_t(1.75f));
    sv.SetValue(1, hifloat8_t((float)fp8_e4m3fn_t(17.0f)));
    sv.SetValue(2, hifloat8_t(fp8_e5m2_t(-3.75f)));
    // fp8_e8m0_t: the exponent byte of a bfloat16 (2^(E-127)): 0.5 -> 126, 3.0 -> 128 (truncated), 2^-127 -> 0
    LocalTensor<fp8_e8m0_t> ev = zl[7 * N + 8].ReinterpretCast<fp8_e8m0_t>();
    ev.SetValue(0, fp8_e8m0_t(0.5f));
    ev.SetValue(1, fp8_e8m0_t(3.0f));
    ev.SetValue(2, fp8_e8m0_t(std::ldexp(1.0f, -127)));
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(zGm, zl, SLOTS * N);
}

int main(int argc, char** argv)
{
    ascendc_emu::Harness hh(argc, argv);
    GM_ADDR x = hh.Input("x");
    GM_ADDR s = hh.Input("s");
    GM_ADDR z = hh.Output("z", SLOTS * N);
    hh.Launch(1, [&] { adv_quant8(x, s, z); });
    return hh.Finish();
}
