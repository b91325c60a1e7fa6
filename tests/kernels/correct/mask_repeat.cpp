// Level-0 vector calls with explicit mask and repeat (within limits), counter mode restored, atomic add turned off.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t LEN = 8192;  // 8192 halves = 64 repeats of 128

class KernelAccumulate {
public:
    __aicore__ inline KernelAccumulate() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x, LEN);
        yGm.SetGlobalBuffer((__gm__ half *)y, LEN);
        pipe.InitBuffer(inQueue, 1, LEN * sizeof(half));
        pipe.InitBuffer(outQueue, 1, LEN * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
        DataCopy(xLocal, xGm, LEN);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<half>();
        LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
        uint64_t mask = 128;
        Adds(yLocal, xLocal, (half)1.0, mask, LEN / 128, {1, 1, 8, 8});
        Add(yLocal, yLocal, xLocal, 128, 64, {1, 1, 1, 8, 8, 8});
        Duplicate(xLocal, (half)0, 128, 64, 1, 8);
        SetMaskCount();
        SetVectorMask<half, MaskMode::COUNTER>(0, LEN);
        Muls<half, false>(yLocal, yLocal, (half)2.0, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
        SetMaskNorm();
        ResetMask();
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
        yLocal = outQueue.DeQue<half>();
        SetAtomicAdd<half>();
        DataCopy(yGm, yLocal, LEN);
        SetAtomicNone();
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<half> xGm, yGm;
};

extern "C" __global__ __aicore__ void accumulate(GM_ADDR x, GM_ADDR y)
{
    KernelAccumulate op;
    op.Init(x, y);
    op.Process();
}
