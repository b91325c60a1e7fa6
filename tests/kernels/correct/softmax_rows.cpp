// Row softmax over 256 floats per row: max, subtract, exp, sum, scale.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t ROW = 256;

class KernelSoftmax {
public:
    __aicore__ inline KernelSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows)
    {
        this->rows = rows;
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * rows * ROW, rows * ROW);
        yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * rows * ROW, rows * ROW);
        pipe.InitBuffer(inQueue, 2, ROW * sizeof(float));
        pipe.InitBuffer(outQueue, 2, ROW * sizeof(float));
        pipe.InitBuffer(tmpBuf, ROW * sizeof(float));
        pipe.InitBuffer(scalarBuf, 64);
    }
    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < this->rows; r++) {
            CopyIn(r);
            Compute();
            CopyOut(r);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm[r * ROW], ROW);
        inQueue.EnQue(xLocal);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> scalars = scalarBuf.Get<float>();
        ReduceMax<float>(scalars, xLocal, tmp, ROW, false);
        SetFlag<HardEvent::V_S>(EVENT_ID1);
        WaitFlag<HardEvent::V_S>(EVENT_ID1);
        float rowMax = scalars.GetValue(0);
        SetFlag<HardEvent::S_V>(EVENT_ID1);
        WaitFlag<HardEvent::S_V>(EVENT_ID1);
        Adds(yLocal, xLocal, -rowMax, ROW);
        PipeBarrier<PIPE_V>();
        Exp(yLocal, yLocal, ROW);
        PipeBarrier<PIPE_V>();
        ReduceSum<float>(scalars, yLocal, tmp, ROW);
        SetFlag<HardEvent::V_S>(EVENT_ID2);
        WaitFlag<HardEvent::V_S>(EVENT_ID2);
        float rowSum = scalars.GetValue(0);
        SetFlag<HardEvent::S_V>(EVENT_ID2);
        WaitFlag<HardEvent::S_V>(EVENT_ID2);
        Muls(yLocal, yLocal, 1.0f / rowSum, ROW);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t r)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopy(yGm[r * ROW], yLocal, ROW);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    TBuf<QuePosition::VECCALC> tmpBuf, scalarBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t rows = 0;
};

extern "C" __global__ __aicore__ void softmax_rows(GM_ADDR x, GM_ADDR y, uint32_t rows)
{
    KernelSoftmax op;
    op.Init(x, y, rows);
    op.Process();
}
