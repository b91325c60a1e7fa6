// BUGGY TWIN of reduce_rows.cpp: the V -> S event between ReduceSum and GetValue is missing, so the scalar
// unit may read the sum before the vector unit has written it (a RAW race between pipes).
// Row sums: y[r] = sum(x[r, :]) for a [64, 256] float matrix, 8 rows per block.
// ReduceSum leaves each row's sum in UB; the scalar unit reads it (GetValue) into the output tile, so a
// V -> S event must order the vector write before the scalar read, and S -> MTE3 orders the scalar writes
// before the copy-out.
#include "kernel_operator.h"

constexpr uint32_t ROWS_PER_BLOCK = 8;
constexpr uint32_t COLS = 256;

class KernelReduceRows {
public:
    __aicore__ inline KernelReduceRows() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        uint64_t row0 = static_cast<uint64_t>(ROWS_PER_BLOCK) * AscendC::GetBlockIdx();
        xGm_.SetGlobalBuffer((__gm__ float*)x + row0 * COLS, ROWS_PER_BLOCK * COLS);
        yGm_.SetGlobalBuffer((__gm__ float*)y + row0, ROWS_PER_BLOCK);
        pipe_.InitBuffer(inQueue_, 2, COLS * sizeof(float));
        pipe_.InitBuffer(sumBuf_, 32);                    // one float result, padded to 32 B
        pipe_.InitBuffer(workBuf_, COLS * sizeof(float));  // ReduceSum scratch
        pipe_.InitBuffer(outBuf_, ROWS_PER_BLOCK * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> sum = sumBuf_.Get<float>();
        AscendC::LocalTensor<float> work = workBuf_.Get<float>();
        AscendC::LocalTensor<float> out = outBuf_.Get<float>();
        for (uint32_t r = 0; r < ROWS_PER_BLOCK; r++) {
            AscendC::LocalTensor<float> row = inQueue_.AllocTensor<float>();
            AscendC::DataCopy(row, xGm_[r * COLS], COLS);
            inQueue_.EnQue(row);
            row = inQueue_.DeQue<float>();
            AscendC::ReduceSum<float>(sum, row, work, COLS);
            inQueue_.FreeTensor(row);
            out.SetValue(r, sum.GetValue(0));
            AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);  // the next ReduceSum overwrites `sum`
            AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
        }
        AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
        AscendC::DataCopy(yGm_, out, ROWS_PER_BLOCK);
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sumBuf_, workBuf_, outBuf_;
    AscendC::GlobalTensor<float> xGm_, yGm_;
};

extern "C" __global__ __aicore__ void reduce_rows(GM_ADDR x, GM_ADDR y)
{
    KernelReduceRows op;
    op.Init(x, y);
    op.Process();
}
