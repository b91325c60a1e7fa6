// Correct reduction kernel: per block of 2048 floats, ReduceSum, ReduceMax (with index) and a two-level
// WholeReduceSum; the 64-float result area is copied out through a VECOUT queue.
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void reduce_kernel(GM_ADDR x, GM_ADDR out)
{
    constexpr uint32_t N = 2048;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> work, partial;
    GlobalTensor<float> xGm, oGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + N * GetBlockIdx(), N);
    oGm.SetGlobalBuffer((__gm__ float*)out + 64 * GetBlockIdx(), 64);
    pipe.InitBuffer(inQ, 1, N * sizeof(float));
    pipe.InitBuffer(outQ, 1, 64 * sizeof(float));
    pipe.InitBuffer(work, N * sizeof(float));
    pipe.InitBuffer(partial, 64 * sizeof(float));

    LocalTensor<float> xl = inQ.AllocTensor<float>();
    DataCopy(xl, xGm, N);
    inQ.EnQue(xl);
    xl = inQ.DeQue<float>();
    LocalTensor<float> w = work.Get<float>();
    LocalTensor<float> p = partial.Get<float>();
    Duplicate(p, 0.0f, 64);
    ReduceSum(p, xl, w, N);                       // p[0]  = sum
    ReduceMax(p[8], xl, w, N, true);              // p[8]  = max, p[9] = index bits
    WholeReduceSum(p[16], xl, 64, 32, 1, 1, 8);   // p[16..48) = sums of 32 repeats of 64 floats
    WholeReduceSum(p[48], p[16], 32, 1, 1, 1, 8); // p[48] = sum of those
    inQ.FreeTensor(xl);
    LocalTensor<float> o = outQ.AllocTensor<float>();
    DataCopy(o, p, 64);
    outQ.EnQue(o);
    o = outQ.DeQue<float>();
    DataCopy(oGm, o, 64);
    outQ.FreeTensor(o);
}

int main(int argc, char** argv)
{
    ascendc_emu::Harness h(argc, argv);
    GM_ADDR x = h.Input("x");
    GM_ADDR out = h.Output("out", 4 * 64 * 4);
    h.Launch(4, [&] { reduce_kernel(x, out); });
    return h.Finish();
}
