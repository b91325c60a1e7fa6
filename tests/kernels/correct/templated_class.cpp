// One class template for half and float: T is bound per instantiation, sizes follow sizeof(T).
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE = 512;

template <typename T>
class KernelAxpy {
public:
    __aicore__ inline KernelAxpy() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t tiles, T alpha)
    {
        this->tiles = tiles;
        this->alpha = alpha;
        xGm.SetGlobalBuffer((__gm__ T *)x, tiles * TILE);
        yGm.SetGlobalBuffer((__gm__ T *)y, tiles * TILE);
        pipe.InitBuffer(inQueueX, 2, TILE * sizeof(T));
        pipe.InitBuffer(inQueueY, 2, TILE * sizeof(T));
        pipe.InitBuffer(outQueue, 2, TILE * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < this->tiles; i++) {
            LocalTensor<T> xLocal = inQueueX.template AllocTensor<T>();
            LocalTensor<T> yLocal = inQueueY.template AllocTensor<T>();
            DataCopy(xLocal, xGm[i * TILE], TILE);
            DataCopy(yLocal, yGm[i * TILE], TILE);
            inQueueX.EnQue(xLocal);
            inQueueY.EnQue(yLocal);
            Compute();
            LocalTensor<T> out = outQueue.template DeQue<T>();
            DataCopy(yGm[i * TILE], out, TILE);
            outQueue.FreeTensor(out);
        }
    }

private:
    __aicore__ inline void Compute()
    {
        LocalTensor<T> xLocal = inQueueX.template DeQue<T>();
        LocalTensor<T> yLocal = inQueueY.template DeQue<T>();
        LocalTensor<T> out = outQueue.template AllocTensor<T>();
        Muls(out, xLocal, this->alpha, TILE);
        Add(out, out, yLocal, TILE);
        outQueue.EnQue(out);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<T> xGm, yGm;
    uint32_t tiles = 0;
    T alpha;
};

extern "C" __global__ __aicore__ void axpy_half(GM_ADDR x, GM_ADDR y, uint32_t tiles, half alpha)
{
    KernelAxpy<half> op;
    op.Init(x, y, tiles, alpha);
    op.Process();
}

extern "C" __global__ __aicore__ void axpy_float(GM_ADDR x, GM_ADDR y, uint32_t tiles, float alpha)
{
    KernelAxpy<float> op;
    op.Init(x, y, tiles, alpha);
    op.Process();
}
