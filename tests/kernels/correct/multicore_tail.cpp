// Abs over a length that does not divide evenly: the first `formerNum` cores take one element more,
// and the last tile of every core may be short (copied with DataCopyPad).
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE_LENGTH = 4096;

class KernelAbs {
public:
    __aicore__ inline KernelAbs() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength)
    {
        uint32_t blockNum = GetBlockNum();
        uint32_t blockIdx = GetBlockIdx();
        uint32_t base = totalLength / blockNum;
        uint32_t formerNum = totalLength % blockNum;
        if (blockIdx < formerNum) {
            this->blockLength = base + 1;
            this->offset = blockIdx * (base + 1);
        } else {
            this->blockLength = base;
            this->offset = formerNum * (base + 1) + (blockIdx - formerNum) * base;
        }
        xGm.SetGlobalBuffer((__gm__ float *)x + this->offset, this->blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + this->offset, this->blockLength);
        pipe.InitBuffer(inQueue, 2, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueue, 2, TILE_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        uint32_t tiles = (this->blockLength + TILE_LENGTH - 1) / TILE_LENGTH;
        for (uint32_t i = 0; i < tiles; i++) {
            uint32_t remain = this->blockLength - i * TILE_LENGTH;
            uint32_t length = remain < TILE_LENGTH ? remain : TILE_LENGTH;
            CopyIn(i, length);
            Compute(length);
            CopyOut(i, length);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t length)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(length * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(xLocal, xGm[progress * TILE_LENGTH], params, pad);
        inQueue.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t length)
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        Abs(yLocal, xLocal, length);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress, uint32_t length)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(length * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[progress * TILE_LENGTH], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    uint32_t blockLength = 0;
    uint32_t offset = 0;
};

extern "C" __global__ __aicore__ void abs_custom(GM_ADDR x, GM_ADDR y, uint32_t totalLength)
{
    KernelAbs op;
    op.Init(x, y, totalLength);
    op.Process();
}
