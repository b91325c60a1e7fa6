// Correct Cast kernel: float -> half (RINT), and float -> int32 with FLOOR / CEIL / ROUND / TRUNC / RINT.
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cast_kernel(GM_ADDR x, GM_ADDR h, GM_ADDR i32)
{
    constexpr uint32_t N = 256;
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, hb, ib;
    pipe.InitBuffer(xb, N * sizeof(float));
    pipe.InitBuffer(hb, N * sizeof(half));
    pipe.InitBuffer(ib, 5 * N * sizeof(int32_t));
    GlobalTensor<float> xGm;
    GlobalTensor<half> hGm;
    GlobalTensor<int32_t> iGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, N);
    hGm.SetGlobalBuffer((__gm__ half*)h, N);
    iGm.SetGlobalBuffer((__gm__ int32_t*)i32, 5 * N);
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<half> hl = hb.Get<half>();
    LocalTensor<int32_t> il = ib.Get<int32_t>();
    DataCopy(xl, xGm, N);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Cast(hl, xl, RoundMode::CAST_RINT, N);
    Cast(il, xl, RoundMode::CAST_FLOOR, N);
    Cast(il[N], xl, RoundMode::CAST_CEIL, N);
    Cast(il[2 * N], xl, RoundMode::CAST_ROUND, N);
    Cast(il[3 * N], xl, RoundMode::CAST_TRUNC, N);
    Cast(il[4 * N], xl, RoundMode::CAST_RINT, N);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(hGm, hl, N);
    DataCopy(iGm, il, 5 * N);
}

int main(int argc, char** argv)
{
    ascendc_emu::Harness hh(argc, argv);
    GM_ADDR x = hh.Input("x");
    GM_ADDR h = hh.Output("h", 256 * 2);
    GM_ADDR i = hh.Output("i", 5 * 256 * 4);
    hh.Launch(1, [&] { cast_kernel(x, h, i); });
    return hh.Finish();
}
