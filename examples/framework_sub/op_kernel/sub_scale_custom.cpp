// z = (x - y) * scale in fp16, framework style: inputs, outputs, workspace, tiling in that fixed order, the
// tiling read with GET_TILING_DATA and two code paths selected by the tiling key.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelSubScale {
public:
    __aicore__ inline KernelSubScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum, float scale)
    {
        blockLength_ = totalLength / AscendC::GetBlockNum();
        tileNum_ = tileNum;
        tileLength_ = blockLength_ / tileNum / BUFFER_NUM;
        scale_ = static_cast<half>(scale);
        uint64_t offset = static_cast<uint64_t>(blockLength_) * AscendC::GetBlockIdx();
        xGm_.SetGlobalBuffer((__gm__ half*)x + offset, blockLength_);
        yGm_.SetGlobalBuffer((__gm__ half*)y + offset, blockLength_);
        zGm_.SetGlobalBuffer((__gm__ half*)z + offset, blockLength_);
        pipe_.InitBuffer(inQueueX_, BUFFER_NUM, tileLength_ * sizeof(half));
        pipe_.InitBuffer(inQueueY_, BUFFER_NUM, tileLength_ * sizeof(half));
        pipe_.InitBuffer(outQueueZ_, BUFFER_NUM, tileLength_ * sizeof(half));
    }
    __aicore__ inline void Process(bool scaled)
    {
        int32_t loops = static_cast<int32_t>(tileNum_ * BUFFER_NUM);
        for (int32_t i = 0; i < loops; i++) {
            CopyIn(i);
            Compute(scaled);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t i)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX_.AllocTensor<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY_.AllocTensor<half>();
        AscendC::DataCopy(xLocal, xGm_[i * tileLength_], tileLength_);
        AscendC::DataCopy(yLocal, yGm_[i * tileLength_], tileLength_);
        inQueueX_.EnQue(xLocal);
        inQueueY_.EnQue(yLocal);
    }
    __aicore__ inline void Compute(bool scaled)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX_.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY_.DeQue<half>();
        AscendC::LocalTensor<half> zLocal = outQueueZ_.AllocTensor<half>();
        AscendC::Sub(zLocal, xLocal, yLocal, tileLength_);
        if (scaled) {
            AscendC::Muls(zLocal, zLocal, scale_, tileLength_);
        }
        outQueueZ_.EnQue<half>(zLocal);
        inQueueX_.FreeTensor(xLocal);
        inQueueY_.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(int32_t i)
    {
        AscendC::LocalTensor<half> zLocal = outQueueZ_.DeQue<half>();
        AscendC::DataCopy(zGm_[i * tileLength_], zLocal, tileLength_);
        outQueueZ_.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX_, inQueueY_;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ_;
    AscendC::GlobalTensor<half> xGm_, yGm_, zGm_;
    uint32_t blockLength_ = 0;
    uint32_t tileNum_ = 0;
    uint32_t tileLength_ = 0;
    half scale_ = 1.0;
};

extern "C" __global__ __aicore__ void sub_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                       GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSubScale op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum, tilingData.scale);
    if (TILING_KEY_IS(1)) {
        op.Process(false);
    } else if (TILING_KEY_IS(2)) {
        op.Process(true);
    }
}
