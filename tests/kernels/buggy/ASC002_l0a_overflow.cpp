// Seeded bug (ASC002): A2 holds 256 x 256 halves = 128 KB, but L0A is 64 KB
// A 32 x 32 x 32 half matmul on the cube unit: GM -> A1/B1 (L1) -> A2/B2 (L0A/L0B) -> Mmad -> CO1 (L0C) -> GM.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t M = 256;
constexpr uint32_t N = 32;
constexpr uint32_t K = 256;

class KernelMatmul {
public:
    __aicore__ inline KernelMatmul() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c)
    {
        aGm.SetGlobalBuffer((__gm__ half *)a, M * K);
        bGm.SetGlobalBuffer((__gm__ half *)b, K * N);
        cGm.SetGlobalBuffer((__gm__ float *)c, M * N);
        pipe.InitBuffer(inQueueA1, 1, M * K * sizeof(half));
        pipe.InitBuffer(inQueueB1, 1, K * N * sizeof(half));
        pipe.InitBuffer(inQueueA2, 1, M * K * sizeof(half));
        pipe.InitBuffer(inQueueB2, 1, K * N * sizeof(half));
        pipe.InitBuffer(outQueueCO1, 1, M * N * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        CopyIn();
        SplitA();
        SplitB();
        Compute();
        CopyOut();
    }

private:
    __aicore__ inline void CopyIn()
    {
        LocalTensor<half> a1Local = inQueueA1.AllocTensor<half>();
        LocalTensor<half> b1Local = inQueueB1.AllocTensor<half>();
        DataCopy(a1Local, aGm, M * K);
        DataCopy(b1Local, bGm, K * N);
        inQueueA1.EnQue(a1Local);
        inQueueB1.EnQue(b1Local);
    }
    __aicore__ inline void SplitA()
    {
        LocalTensor<half> a1Local = inQueueA1.DeQue<half>();
        LocalTensor<half> a2Local = inQueueA2.AllocTensor<half>();
        LoadData2DParams params;
        params.repeatTimes = M * K * sizeof(half) / 512;
        params.srcStride = 1;
        LoadData(a2Local, a1Local, params);
        inQueueA2.EnQue<half>(a2Local);
        inQueueA1.FreeTensor(a1Local);
    }
    __aicore__ inline void SplitB()
    {
        LocalTensor<half> b1Local = inQueueB1.DeQue<half>();
        LocalTensor<half> b2Local = inQueueB2.AllocTensor<half>();
        LoadData2DParams params;
        params.repeatTimes = K * N * sizeof(half) / 512;
        params.srcStride = 1;
        params.ifTranspose = true;
        LoadData(b2Local, b1Local, params);
        inQueueB2.EnQue<half>(b2Local);
        inQueueB1.FreeTensor(b1Local);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<half> a2Local = inQueueA2.DeQue<half>();
        LocalTensor<half> b2Local = inQueueB2.DeQue<half>();
        LocalTensor<float> c1Local = outQueueCO1.AllocTensor<float>();
        MmadParams mmadParams;
        mmadParams.m = M;
        mmadParams.n = N;
        mmadParams.k = K;
        Mmad(c1Local, a2Local, b2Local, mmadParams);
        outQueueCO1.EnQue<float>(c1Local);
        inQueueA2.FreeTensor(a2Local);
        inQueueB2.FreeTensor(b2Local);
    }
    __aicore__ inline void CopyOut()
    {
        LocalTensor<float> c1Local = outQueueCO1.DeQue<float>();
        FixpipeParamsV220 fixpipeParams;
        fixpipeParams.nSize = N;
        fixpipeParams.mSize = M;
        fixpipeParams.srcStride = M;
        fixpipeParams.dstStride = N;
        Fixpipe(cGm, c1Local, fixpipeParams);
        outQueueCO1.FreeTensor(c1Local);
    }

    TPipe pipe;
    TQue<QuePosition::A1, 1> inQueueA1;
    TQue<QuePosition::B1, 1> inQueueB1;
    TQue<QuePosition::A2, 1> inQueueA2;
    TQue<QuePosition::B2, 1> inQueueB2;
    TQue<QuePosition::CO1, 1> outQueueCO1;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
};

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    KernelMatmul op;
    op.Init(a, b, c);
    op.Process();
}
