// Element-wise multiply whose sizes come from a tiling struct the host writes to GM.
#include "kernel_operator.h"

struct MulTilingData {
    uint32_t totalLength;
    uint32_t tileNum;
    uint32_t tileLength;
    uint32_t lastTileLength;
};

constexpr int32_t BUFFER_NUM = 2;

class KernelMul {
public:
    __aicore__ inline KernelMul() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const MulTilingData &tiling)
    {
        this->tileNum = tiling.tileNum;
        this->tileLength = tiling.tileLength;
        this->lastTileLength = tiling.lastTileLength;
        xGm.SetGlobalBuffer((__gm__ float *)x, tiling.totalLength);
        yGm.SetGlobalBuffer((__gm__ float *)y, tiling.totalLength);
        zGm.SetGlobalBuffer((__gm__ float *)z, tiling.totalLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, this->tileLength * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, this->tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < this->tileNum; i++) {
            uint32_t length = (i == this->tileNum - 1) ? this->lastTileLength : this->tileLength;
            CopyIn(i, length);
            Compute(length);
            CopyOut(i, length);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t length)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm[progress * this->tileLength], length);
        AscendC::DataCopy(yLocal, yGm[progress * this->tileLength], length);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute(uint32_t length)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        AscendC::Mul(zLocal, xLocal, yLocal, length);
        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress, uint32_t length)
    {
        AscendC::LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        AscendC::DataCopy(zGm[progress * this->tileLength], zLocal, length);
        outQueueZ.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueZ;
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    uint32_t tileNum = 0;
    uint32_t tileLength = 0;
    uint32_t lastTileLength = 0;
};

extern "C" __global__ __aicore__ void mul_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling)
{
    MulTilingData tilingData;
    auto tilingGm = reinterpret_cast<__gm__ uint32_t *>(tiling);
    tilingData.totalLength = tilingGm[0];
    tilingData.tileNum = tilingGm[1];
    tilingData.tileLength = tilingGm[2];
    tilingData.lastTileLength = tilingGm[3];
    KernelMul op;
    op.Init(x, y, z, tilingData);
    op.Process();
}
