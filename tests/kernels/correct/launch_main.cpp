// Kernel-launch style: the kernel and its <<<>>> launch in one file, 8 blocks on a 910B.
#include "kernel_operator.h"

constexpr uint32_t BLOCK_DIM = 8;
constexpr uint32_t TOTAL_LENGTH = 8 * 1024;
constexpr uint32_t BLOCK_LENGTH = TOTAL_LENGTH / BLOCK_DIM;

__global__ __aicore__ void exp_custom(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float *)y + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
    pipe.InitBuffer(inQueue, 1, BLOCK_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueue, 1, BLOCK_LENGTH * sizeof(float));
    AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm, BLOCK_LENGTH);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    AscendC::Exp(yLocal, xLocal, BLOCK_LENGTH);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
    yLocal = outQueue.DeQue<float>();
    AscendC::DataCopy(yGm, yLocal, BLOCK_LENGTH);
    outQueue.FreeTensor(yLocal);
}

void launch(uint8_t *x, uint8_t *y, void *stream)
{
    exp_custom<<<BLOCK_DIM, nullptr, stream>>>(x, y);
}
