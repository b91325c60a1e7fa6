// Relu with a hand-synchronised TBuf: MTE2 -> V and V -> MTE3 are ordered with SetFlag/WaitFlag.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE = 2048;

class KernelRelu {
public:
    __aicore__ inline KernelRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t tiles)
    {
        this->tiles = tiles;
        xGm.SetGlobalBuffer((__gm__ float *)x, tiles * TILE);
        yGm.SetGlobalBuffer((__gm__ float *)y, tiles * TILE);
        pipe.InitBuffer(buf, TILE * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> local = buf.Get<float>();
        for (uint32_t i = 0; i < this->tiles; i++) {
            if (i > 0) {
                WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
            }
            DataCopy(local, xGm[i * TILE], TILE);
            SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
            Relu(local, local, TILE);
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            DataCopy(yGm[i * TILE], local, TILE);
            if (i + 1 < this->tiles) {
                SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
            }
        }
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<float> xGm, yGm;
    uint32_t tiles = 0;
};

extern "C" __global__ __aicore__ void relu_custom(GM_ADDR x, GM_ADDR y, uint32_t tiles)
{
    KernelRelu op;
    op.Init(x, y, tiles);
    op.Process();
}
