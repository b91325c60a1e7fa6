// Row-wise softmax of a [32, 512] float matrix, 8 rows per block, one row per tile:
//   m = max(x), e = exp(x - m), y = e / sum(e)
// ReduceMax / ReduceSum leave their result in UB; a V -> S event makes it safe for GetValue, and an
// S -> V event orders the scalar read before the next vector op reuses the scratch.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

struct SoftmaxTilingData {
    uint32_t rowsPerBlock;
    uint32_t cols;  // a multiple of 8 (32 B of floats)
};

class KernelSoftmax {
public:
    __aicore__ inline KernelSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftmaxTilingData& t)
    {
        rows_ = t.rowsPerBlock;
        cols_ = t.cols;
        uint64_t offset = static_cast<uint64_t>(rows_) * cols_ * AscendC::GetBlockIdx();
        xGm_.SetGlobalBuffer((__gm__ float*)x + offset, rows_ * cols_);
        yGm_.SetGlobalBuffer((__gm__ float*)y + offset, rows_ * cols_);
        pipe_.InitBuffer(inQueue_, BUFFER_NUM, cols_ * sizeof(float));
        pipe_.InitBuffer(outQueue_, BUFFER_NUM, cols_ * sizeof(float));
        pipe_.InitBuffer(workBuf_, cols_ * sizeof(float));
        pipe_.InitBuffer(scalarBuf_, 32);
    }
    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rows_; r++) {
            CopyIn(r);
            Compute();
            CopyOut(r);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r)
    {
        AscendC::LocalTensor<float> xLocal = inQueue_.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm_[r * cols_], cols_);
        inQueue_.EnQue(xLocal);
    }
    __aicore__ inline float ReadScalar(const AscendC::LocalTensor<float>& s)
    {
        AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        float v = s.GetValue(0);
        AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
        return v;
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> xLocal = inQueue_.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueue_.AllocTensor<float>();
        AscendC::LocalTensor<float> work = workBuf_.Get<float>();
        AscendC::LocalTensor<float> s = scalarBuf_.Get<float>();
        AscendC::ReduceMax<float>(s, xLocal, work, cols_, false);
        float rowMax = ReadScalar(s);
        AscendC::Adds(yLocal, xLocal, -rowMax, cols_);
        AscendC::Exp(yLocal, yLocal, cols_);
        AscendC::ReduceSum<float>(s, yLocal, work, cols_);
        float rowSum = ReadScalar(s);
        AscendC::Muls(yLocal, yLocal, 1.0f / rowSum, cols_);
        outQueue_.EnQue(yLocal);
        inQueue_.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t r)
    {
        AscendC::LocalTensor<float> yLocal = outQueue_.DeQue<float>();
        AscendC::DataCopy(yGm_[r * cols_], yLocal, cols_);
        outQueue_.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue_;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf_, scalarBuf_;
    AscendC::GlobalTensor<float> xGm_, yGm_;
    uint32_t rows_ = 0;
    uint32_t cols_ = 0;
};

extern "C" __global__ __aicore__ void softmax_rows(GM_ADDR x, GM_ADDR y, SoftmaxTilingData tiling)
{
    KernelSoftmax op;
    op.Init(x, y, tiling);
    op.Process();
}
