// Seeded bug (ASC015): GetValue right after ReduceSum, no V_S sync
// Row sums of a [rows, 1024] float matrix: ReduceSum into a scalar, read on the scalar unit after V_S sync.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t COLS = 1024;

class KernelReduceRows {
public:
    __aicore__ inline KernelReduceRows() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows)
    {
        this->rows = rows;
        xGm.SetGlobalBuffer((__gm__ float *)x, rows * COLS);
        yGm.SetGlobalBuffer((__gm__ float *)y, rows);
        pipe.InitBuffer(inQueue, 2, COLS * sizeof(float));
        pipe.InitBuffer(workBuf, COLS * sizeof(float));
        pipe.InitBuffer(sumBuf, 32);
    }
    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < this->rows; r++) {
            LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            DataCopy(xLocal, xGm[r * COLS], COLS);
            inQueue.EnQue(xLocal);
            LocalTensor<float> rowLocal = inQueue.DeQue<float>();
            LocalTensor<float> work = workBuf.Get<float>();
            LocalTensor<float> sum = sumBuf.Get<float>();
            ReduceSum<float>(sum, rowLocal, work, COLS);
            float total = sum.GetValue(0);
            yGm.SetValue(r, total);
            inQueue.FreeTensor(rowLocal);
        }
        DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(yGm);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TBuf<QuePosition::VECCALC> workBuf;
    TBuf<QuePosition::VECCALC> sumBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t rows = 0;
};

extern "C" __global__ __aicore__ void reduce_rows(GM_ADDR x, GM_ADDR y, uint32_t rows)
{
    KernelReduceRows op;
    op.Init(x, y, rows);
    op.Process();
}
