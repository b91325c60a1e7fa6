// ascendc-lsp test program (our own): y = x * scale over fp16, tiles of tileLength, tiling struct by value.
#include "kernel_operator.h"
#include "scale_tiling.h"

class KernelScale {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ScaleTilingData& t)
    {
        blockLength = t.totalLength / AscendC::GetBlockNum();
        tileLength = t.tileLength;
        scale = t.scale;
        xGm.SetGlobalBuffer((__gm__ half*)x + blockLength * AscendC::GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ half*)y + blockLength * AscendC::GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQ, 2, tileLength * sizeof(half));
        pipe.InitBuffer(outQ, 2, tileLength * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < blockLength / tileLength; i++) {
            AscendC::LocalTensor<half> in = inQ.AllocTensor<half>();
            AscendC::DataCopy(in, xGm[i * tileLength], tileLength);
            inQ.EnQue(in);
            in = inQ.DeQue<half>();
            AscendC::LocalTensor<half> out = outQ.AllocTensor<half>();
            AscendC::Muls(out, in, (half)scale, tileLength);
            outQ.EnQue(out);
            inQ.FreeTensor(in);
            out = outQ.DeQue<half>();
            AscendC::DataCopy(yGm[i * tileLength], out, tileLength);
            outQ.FreeTensor(out);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQ;
    AscendC::GlobalTensor<half> xGm, yGm;
    uint32_t blockLength = 0, tileLength = 0;
    float scale = 1.0f;
};

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y, ScaleTilingData tiling)
{
    KernelScale op;
    op.Init(x, y, tiling);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
// A launch wrapper of the shape public kernel libraries have (the <op>_do functions): it hands the kernel a
// pointer where the kernel takes the tiling struct by value. The real build takes it; the emulator compiles it
// and, if a program calls it, stops the launch with a launch-arguments error.
extern "C" void scale_custom_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x, uint8_t* y,
                                uint8_t* tiling)
{
    scale_custom<<<blockDim, l2ctrl, stream>>>(x, y, reinterpret_cast<ScaleTilingData*>(tiling));
}
#endif
