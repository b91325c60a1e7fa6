// BUGGY TWIN of add_double_buffer.cpp: Compute never EnQue's the result tile, so CopyOut's DeQue waits on an
// empty queue forever (on the NPU: an aicore timeout, 507014).
// Elementwise z = x + y (fp16), split over blocks, each block's share in tiles, double-buffered queues.
// Kernel-launch style: the tiling struct is passed by value.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;  // two buffers per queue: copy-in of tile i+1 overlaps compute of tile i

struct AddTilingData {
    uint32_t totalLength;  // elements in x, y and z
    uint32_t tileNum;      // tiles per block and per buffer
};

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddTilingData& tiling)
    {
        blockLength_ = tiling.totalLength / AscendC::GetBlockNum();
        tileNum_ = tiling.tileNum;
        tileLength_ = blockLength_ / tileNum_ / BUFFER_NUM;
        uint64_t offset = static_cast<uint64_t>(blockLength_) * AscendC::GetBlockIdx();
        xGm_.SetGlobalBuffer((__gm__ half*)x + offset, blockLength_);
        yGm_.SetGlobalBuffer((__gm__ half*)y + offset, blockLength_);
        zGm_.SetGlobalBuffer((__gm__ half*)z + offset, blockLength_);
        pipe_.InitBuffer(inQueueX_, BUFFER_NUM, tileLength_ * sizeof(half));
        pipe_.InitBuffer(inQueueY_, BUFFER_NUM, tileLength_ * sizeof(half));
        pipe_.InitBuffer(outQueueZ_, BUFFER_NUM, tileLength_ * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        int32_t loops = static_cast<int32_t>(tileNum_ * BUFFER_NUM);
        for (int32_t i = 0; i < loops; i++) {
            CopyIn(i);
            Compute();
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
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<half> xLocal = inQueueX_.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY_.DeQue<half>();
        AscendC::LocalTensor<half> zLocal = outQueueZ_.AllocTensor<half>();
        AscendC::Add(zLocal, xLocal, yLocal, tileLength_);
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
};

extern "C" __global__ __aicore__ void add_double_buffer(GM_ADDR x, GM_ADDR y, GM_ADDR z, AddTilingData tiling)
{
    KernelAdd op;
    op.Init(x, y, z, tiling);
    op.Process();
}
