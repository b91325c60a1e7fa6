// BUGGY TWIN of tbuf_manual_sync.cpp: the MTE2 -> V event is missing, so Muls may read the input buffer while
// DataCopy is still filling it (a read-after-write race between the MTE2 and V pipes).
// y = x * 2 + 1 (float) with TBuf buffers and hand-written pipe synchronisation instead of queues.
// Per tile: MTE2 copies x in, V computes, MTE3 copies y out. Four events order the pipes:
//   MTE2 -> V  : the input tile has arrived before the vector unit reads it
//   V -> MTE3  : the result is complete before it is copied out
//   V -> MTE2  : the vector unit has finished reading the input buffer before the next copy-in overwrites it
//   MTE3 -> V  : the copy-out has finished reading the output buffer before the next compute overwrites it
#include "kernel_operator.h"

constexpr uint32_t TILE = 2048;

class KernelTBufSync {
public:
    __aicore__ inline KernelTBufSync() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength)
    {
        blockLength_ = totalLength / AscendC::GetBlockNum();
        uint64_t offset = static_cast<uint64_t>(blockLength_) * AscendC::GetBlockIdx();
        xGm_.SetGlobalBuffer((__gm__ float*)x + offset, blockLength_);
        yGm_.SetGlobalBuffer((__gm__ float*)y + offset, blockLength_);
        pipe_.InitBuffer(inBuf_, TILE * sizeof(float));
        pipe_.InitBuffer(outBuf_, TILE * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> xLocal = inBuf_.Get<float>();
        AscendC::LocalTensor<float> yLocal = outBuf_.Get<float>();
        uint32_t tiles = blockLength_ / TILE;
        for (uint32_t i = 0; i < tiles; i++) {
            if (i > 0) {
                AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
            }
            AscendC::DataCopy(xLocal, xGm_[i * TILE], TILE);
            if (i > 0) {
                AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
            }
            AscendC::Muls(yLocal, xLocal, 2.0f, TILE);
            AscendC::Adds(yLocal, yLocal, 1.0f, TILE);
            if (i + 1 < tiles) {
                AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
            }
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
            AscendC::DataCopy(yGm_[i * TILE], yLocal, TILE);
            if (i + 1 < tiles) {
                AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
            }
        }
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> inBuf_, outBuf_;
    AscendC::GlobalTensor<float> xGm_, yGm_;
    uint32_t blockLength_ = 0;
};

struct TBufSyncTilingData {
    uint32_t totalLength;
};

extern "C" __global__ __aicore__ void tbuf_manual_sync(GM_ADDR x, GM_ADDR y, TBufSyncTilingData tiling)
{
    KernelTBufSync op;
    op.Init(x, y, tiling.totalLength);
    op.Process();
}
