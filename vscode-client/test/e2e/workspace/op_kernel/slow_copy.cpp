#include "kernel_operator.h"

// Slow on purpose: a scalar loop of 10^12 steps before a plain copy (far longer than any run timeout). The
// end-to-end test starts "Run Kernel" on it and cancels the run; tests/test_run_cancel.py does the same over
// the server command.
constexpr uint64_t SPIN_STEPS = 1000000000000ULL;
constexpr int32_t LENGTH = 1024;

class KernelSlowCopy {
public:
    __aicore__ inline KernelSlowCopy() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, LENGTH);
        zGm.SetGlobalBuffer((__gm__ float *)z, LENGTH);
        pipe.InitBuffer(inQueue, 1, LENGTH * sizeof(float));
        pipe.InitBuffer(outQueue, 1, LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        volatile uint64_t spin = 0;
        for (uint64_t i = 0; i < SPIN_STEPS; i++) {
            spin = spin + 1;
        }
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm, LENGTH);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> zLocal = outQueue.AllocTensor<float>();
        AscendC::Muls(zLocal, xLocal, 1.0f, LENGTH);
        outQueue.EnQue<float>(zLocal);
        inQueue.FreeTensor(xLocal);
        zLocal = outQueue.DeQue<float>();
        AscendC::DataCopy(zGm, zLocal, LENGTH);
        outQueue.FreeTensor(zLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> zGm;
};

extern "C" __global__ __aicore__ void slow_copy(GM_ADDR x, GM_ADDR z)
{
    KernelSlowCopy op;
    op.Init(x, z);
    op.Process();
}
