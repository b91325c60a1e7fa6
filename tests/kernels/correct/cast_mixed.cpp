// half in, float math, half out: Cast up, Muls/Adds in float, Cast back with rounding.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t TILE_LENGTH = 1024;

class KernelScaleShift {
public:
    __aicore__ inline KernelScaleShift() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, int32_t tiles, float scale, float shift)
    {
        this->tiles = tiles;
        this->scale = scale;
        this->shift = shift;
        xGm.SetGlobalBuffer((__gm__ half *)x, tiles * TILE_LENGTH);
        yGm.SetGlobalBuffer((__gm__ half *)y, tiles * TILE_LENGTH);
        pipe.InitBuffer(inQueue, 2, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueue, 2, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(fp32Buf, TILE_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < this->tiles; i++) {
            LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
            DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
            inQueue.EnQue(xLocal);
            Compute();
            LocalTensor<half> yLocal = outQueue.DeQue<half>();
            DataCopy(yGm[i * TILE_LENGTH], yLocal, TILE_LENGTH);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    __aicore__ inline void Compute()
    {
        LocalTensor<half> xLocal = inQueue.DeQue<half>();
        LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
        LocalTensor<float> work = fp32Buf.Get<float>();
        Cast(work, xLocal, RoundMode::CAST_NONE, TILE_LENGTH);
        Muls(work, work, this->scale, TILE_LENGTH);
        Adds(work, work, this->shift, TILE_LENGTH);
        Cast(yLocal, work, RoundMode::CAST_ROUND, TILE_LENGTH);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    TBuf<QuePosition::VECCALC> fp32Buf;
    GlobalTensor<half> xGm, yGm;
    int32_t tiles = 0;
    float scale = 1.0f;
    float shift = 0.0f;
};

extern "C" __global__ __aicore__ void scale_shift(GM_ADDR x, GM_ADDR y, int32_t tiles, float scale, float shift)
{
    KernelScaleShift op;
    op.Init(x, y, tiles, scale, shift);
    op.Process();
}
