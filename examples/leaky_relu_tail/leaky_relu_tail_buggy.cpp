// BUGGY TWIN of leaky_relu_tail.cpp: moves every tile with DataCopy, so the ragged last tile of each block
// (227 or 226 floats, not a multiple of 32 B) is rounded down to 32 B and its last elements are never copied.
// LeakyReLU over a length that neither the block count nor 32 bytes divides.
// Multi-core split: the first `formerNum` blocks take `formerLength` elements, the others `tailLength`;
// each block walks its share in tiles of `tileLength` and moves the ragged last tile with DataCopyPad,
// which copies an exact byte count (DataCopy would round it down to 32 B).
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

struct LeakyReluTilingData {
    uint32_t formerNum;
    uint32_t formerLength;
    uint32_t tailLength;
    uint32_t tileLength;  // elements per full tile (a multiple of 8 floats = 32 B)
    float alpha;
};

class KernelLeakyRelu {
public:
    __aicore__ inline KernelLeakyRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const LeakyReluTilingData& t)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint64_t offset;
        if (idx < t.formerNum) {
            length_ = t.formerLength;
            offset = static_cast<uint64_t>(t.formerLength) * idx;
        } else {
            length_ = t.tailLength;
            offset = static_cast<uint64_t>(t.formerLength) * t.formerNum +
                     static_cast<uint64_t>(t.tailLength) * (idx - t.formerNum);
        }
        tileLength_ = t.tileLength;
        alpha_ = t.alpha;
        xGm_.SetGlobalBuffer((__gm__ float*)x + offset, length_);
        yGm_.SetGlobalBuffer((__gm__ float*)y + offset, length_);
        pipe_.InitBuffer(inQueue_, BUFFER_NUM, tileLength_ * sizeof(float));
        pipe_.InitBuffer(outQueue_, BUFFER_NUM, tileLength_ * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        uint32_t tiles = (length_ + tileLength_ - 1) / tileLength_;
        for (uint32_t i = 0; i < tiles; i++) {
            uint32_t count = (i + 1 == tiles) ? length_ - i * tileLength_ : tileLength_;
            CopyIn(i, count);
            Compute(count);
            CopyOut(i, count);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t count)
    {
        AscendC::LocalTensor<float> xLocal = inQueue_.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm_[i * tileLength_], count);
        inQueue_.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t count)
    {
        AscendC::LocalTensor<float> xLocal = inQueue_.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueue_.AllocTensor<float>();
        AscendC::LeakyRelu(yLocal, xLocal, alpha_, count);
        outQueue_.EnQue(yLocal);
        inQueue_.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t i, uint32_t count)
    {
        AscendC::LocalTensor<float> yLocal = outQueue_.DeQue<float>();
        AscendC::DataCopy(yGm_[i * tileLength_], yLocal, count);
        outQueue_.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue_;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue_;
    AscendC::GlobalTensor<float> xGm_, yGm_;
    uint32_t length_ = 0;
    uint32_t tileLength_ = 0;
    float alpha_ = 0.0f;
};

extern "C" __global__ __aicore__ void leaky_relu_tail(GM_ADDR x, GM_ADDR y, LeakyReluTilingData tiling)
{
    KernelLeakyRelu op;
    op.Init(x, y, tiling);
    op.Process();
}
