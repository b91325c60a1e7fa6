// Correct TBuf kernel with explicit SetFlag/WaitFlag: z = x * 2 + 1 (float), tiles of 1024 elements.
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void tbuf_kernel(GM_ADDR x, GM_ADDR z, uint32_t total)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, outBuf;
    const uint32_t tile = 1024;
    uint32_t per = total / GetBlockNum();
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + per * GetBlockIdx(), per);
    zGm.SetGlobalBuffer((__gm__ float*)z + per * GetBlockIdx(), per);
    pipe.InitBuffer(inBuf, tile * sizeof(float));
    pipe.InitBuffer(outBuf, tile * sizeof(float));
    LocalTensor<float> in = inBuf.Get<float>();
    LocalTensor<float> out = outBuf.Get<float>();
    for (uint32_t i = 0; i < per / tile; i++) {
        if (i > 0) {
            WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);   // previous Muls finished reading `in`
            WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);   // previous copy-out finished reading `out`
        }
        DataCopy(in, xGm[i * tile], tile);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        Muls(out, in, 2.0f, tile);
        SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
        Adds(out, out, 1.0f, tile);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(zGm[i * tile], out, tile);
        SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
    }
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
}

int main(int argc, char** argv)
{
    ascendc_emu::Harness h(argc, argv);
    GM_ADDR x = h.Input("x");
    GM_ADDR z = h.Output("z", 4 * 4096 * 4);
    h.Launch(4, [&] { tbuf_kernel(x, z, 4 * 4096); });
    return h.Finish();
}
