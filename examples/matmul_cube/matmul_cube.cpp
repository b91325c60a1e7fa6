// C[M, N] (float) = A[M, K] (half) x B[K, N] (half) on the Cube unit, basic-API path, one block:
//   GM --DataCopy(Nd2Nz)--> A1/B1 (L1, NZ fractals) --LoadData--> A2/B2 (L0A/L0B) --Mmad--> CO1 (L0C)
//   --Fixpipe--> GM (row-major)
// M, N, K are multiples of 16 (one 16 x 16 fractal of half is 512 B).
#include "kernel_operator.h"

constexpr uint32_t M = 32;
constexpr uint32_t N = 32;
constexpr uint32_t K = 32;
constexpr uint32_t C0 = 16;  // half elements per fractal row

class KernelMatmulCube {
public:
    __aicore__ inline KernelMatmulCube() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c)
    {
        aGm_.SetGlobalBuffer((__gm__ half*)a, M * K);
        bGm_.SetGlobalBuffer((__gm__ half*)b, K * N);
        cGm_.SetGlobalBuffer((__gm__ float*)c, M * N);
        pipe_.InitBuffer(inQueueA1_, 1, M * K * sizeof(half));
        pipe_.InitBuffer(inQueueB1_, 1, K * N * sizeof(half));
        pipe_.InitBuffer(inQueueA2_, 1, M * K * sizeof(half));
        pipe_.InitBuffer(inQueueB2_, 1, K * N * sizeof(half));
        pipe_.InitBuffer(outQueueCO1_, 1, M * N * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        CopyIn();
        SplitA();
        SplitB();
        Compute();
        CopyOut();
    }

private:
    __aicore__ inline void CopyIn()
    {
        AscendC::LocalTensor<half> a1 = inQueueA1_.AllocTensor<half>();
        AscendC::LocalTensor<half> b1 = inQueueB1_.AllocTensor<half>();
        AscendC::Nd2NzParams pa;
        pa.ndNum = 1;
        pa.nValue = M;
        pa.dValue = K;
        pa.srcNdMatrixStride = 0;
        pa.srcDValue = K;
        pa.dstNzC0Stride = M;
        pa.dstNzNStride = 1;
        pa.dstNzMatrixStride = 0;
        AscendC::DataCopy(a1, aGm_, pa);
        AscendC::Nd2NzParams pb;
        pb.ndNum = 1;
        pb.nValue = K;
        pb.dValue = N;
        pb.srcNdMatrixStride = 0;
        pb.srcDValue = N;
        pb.dstNzC0Stride = K;
        pb.dstNzNStride = 1;
        pb.dstNzMatrixStride = 0;
        AscendC::DataCopy(b1, bGm_, pb);
        inQueueA1_.EnQue(a1);
        inQueueB1_.EnQue(b1);
    }
    __aicore__ inline void SplitA()
    {
        AscendC::LocalTensor<half> a1 = inQueueA1_.DeQue<half>();
        AscendC::LocalTensor<half> a2 = inQueueA2_.AllocTensor<half>();
        AscendC::LoadData2DParams p;
        p.repeatTimes = K / C0;  // fractals along K for one 16-row band of A
        p.srcStride = M / C0;    // fractals between them in the NZ layout of A1
        p.ifTranspose = false;
        for (uint32_t i = 0; i < M / C0; i++) {
            p.startIndex = i;
            AscendC::LoadData(a2[i * C0 * K], a1, p);
        }
        inQueueA2_.EnQue(a2);
        inQueueA1_.FreeTensor(a1);
    }
    __aicore__ inline void SplitB()
    {
        AscendC::LocalTensor<half> b1 = inQueueB1_.DeQue<half>();
        AscendC::LocalTensor<half> b2 = inQueueB2_.AllocTensor<half>();
        AscendC::LoadData2DParams p;
        p.repeatTimes = N / C0;
        p.srcStride = K / C0;
        p.ifTranspose = true;
        for (uint32_t i = 0; i < K / C0; i++) {
            p.startIndex = i;
            AscendC::LoadData(b2[i * C0 * N], b1, p);
        }
        inQueueB2_.EnQue(b2);
        inQueueB1_.FreeTensor(b1);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<half> a2 = inQueueA2_.DeQue<half>();
        AscendC::LocalTensor<half> b2 = inQueueB2_.DeQue<half>();
        AscendC::LocalTensor<float> c1 = outQueueCO1_.AllocTensor<float>();
        AscendC::MmadParams p;
        p.m = M;
        p.n = N;
        p.k = K;
        AscendC::Mmad(c1, a2, b2, p);
        outQueueCO1_.EnQue(c1);
        inQueueA2_.FreeTensor(a2);
        inQueueB2_.FreeTensor(b2);
    }
    __aicore__ inline void CopyOut()
    {
        AscendC::LocalTensor<float> c1 = outQueueCO1_.DeQue<float>();
        AscendC::FixpipeParamsV220 p;
        p.nSize = N;
        p.mSize = M;
        p.srcStride = M;
        p.dstStride = N;
        p.ndNum = 1;
        p.srcNdStride = 0;
        p.dstNdStride = 0;
        AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(cGm_, c1, p);
        outQueueCO1_.FreeTensor(c1);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::A1, 1> inQueueA1_;
    AscendC::TQue<AscendC::TPosition::B1, 1> inQueueB1_;
    AscendC::TQue<AscendC::TPosition::A2, 1> inQueueA2_;
    AscendC::TQue<AscendC::TPosition::B2, 1> inQueueB2_;
    AscendC::TQue<AscendC::TPosition::CO1, 1> outQueueCO1_;
    AscendC::GlobalTensor<half> aGm_, bGm_;
    AscendC::GlobalTensor<float> cGm_;
};

extern "C" __global__ __aicore__ void matmul_cube(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    KernelMatmulCube op;
    op.Init(a, b, c);
    op.Process();
}
