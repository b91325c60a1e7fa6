// LeakyRelu on rows of 100 halves (200 B, not a multiple of 32 B): moved with DataCopyPad, computed on a
// 32-byte aligned row pitch of 112 halves.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t COLS = 100;
constexpr uint32_t COLS_ALIGNED = 112;
constexpr uint32_t ROWS_PER_TILE = 16;

class KernelLeakyRelu {
public:
    __aicore__ inline KernelLeakyRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, float alpha)
    {
        this->rows = rows;
        this->alpha = alpha;
        xGm.SetGlobalBuffer((__gm__ half *)x, rows * COLS);
        yGm.SetGlobalBuffer((__gm__ half *)y, rows * COLS);
        pipe.InitBuffer(inQueue, 2, ROWS_PER_TILE * COLS_ALIGNED * sizeof(half));
        pipe.InitBuffer(outQueue, 2, ROWS_PER_TILE * COLS_ALIGNED * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < this->rows; r += ROWS_PER_TILE) {
            uint32_t count = (this->rows - r) < ROWS_PER_TILE ? (this->rows - r) : ROWS_PER_TILE;
            CopyIn(r, count);
            Compute(count);
            CopyOut(r, count);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t count)
    {
        LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
        DataCopyExtParams params{static_cast<uint16_t>(count), COLS * sizeof(half), 0, 0, 0};
        DataCopyPadExtParams<half> pad{true, 0, COLS_ALIGNED - COLS, 0};
        DataCopyPad(xLocal, xGm[row * COLS], params, pad);
        inQueue.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<half> xLocal = inQueue.DeQue<half>();
        LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
        LeakyRelu(yLocal, xLocal, static_cast<half>(this->alpha), count * COLS_ALIGNED);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t row, uint32_t count)
    {
        LocalTensor<half> yLocal = outQueue.DeQue<half>();
        DataCopyExtParams params{static_cast<uint16_t>(count), COLS * sizeof(half), 0, 0, 0};
        DataCopyPad(yGm[row * COLS], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<half> xGm, yGm;
    uint32_t rows = 0;
    float alpha = 0.01f;
};

extern "C" __global__ __aicore__ void leaky_relu(GM_ADDR x, GM_ADDR y, uint32_t rows, float alpha)
{
    KernelLeakyRelu op;
    op.Init(x, y, rows, alpha);
    op.Process();
}
