// Our own test op (not public code): y = alpha * x (+ bias). Checks the build macros it relies on.
#include <type_traits>

#include "kernel_operator.h"

#if ORIG_DTYPE_X == DT_FLOAT
static_assert(std::is_same<DTYPE_X, float>::value, "ORIG_DTYPE_X and DTYPE_X disagree");
#elif ORIG_DTYPE_X == DT_FLOAT16
static_assert(std::is_same<DTYPE_X, half>::value, "ORIG_DTYPE_X and DTYPE_X disagree");
#else
#error "ORIG_DTYPE_X is neither DT_FLOAT nor DT_FLOAT16"
#endif
#if FORMAT_Y != FORMAT_ND
#error "FORMAT_Y is not FORMAT_ND"
#endif

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelScaleAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, uint32_t blockLength, uint32_t tileLength,
                                float alpha)
    {
        uint64_t offset = static_cast<uint64_t>(blockLength) * AscendC::GetBlockIdx();
        hasBias_ = bias != nullptr;
        alpha_ = static_cast<T>(alpha);
        tileLength_ = tileLength;
        xGm_.SetGlobalBuffer((__gm__ T*)x + offset, blockLength);
        yGm_.SetGlobalBuffer((__gm__ T*)y + offset, blockLength);
        pipe_.InitBuffer(inX_, BUFFER_NUM, tileLength * sizeof(T));
        pipe_.InitBuffer(outY_, BUFFER_NUM, tileLength * sizeof(T));
        if (hasBias_) {
            biasGm_.SetGlobalBuffer((__gm__ T*)bias + offset, blockLength);
            pipe_.InitBuffer(inB_, BUFFER_NUM, tileLength * sizeof(T));
        }
    }
    __aicore__ inline void Process(uint32_t fullTiles, uint32_t tail)
    {
        for (uint32_t i = 0; i < fullTiles; ++i) Step(i * tileLength_, tileLength_);
        if (tail > 0) Step(fullTiles * tileLength_, tail);
    }

private:
    __aicore__ inline void Step(uint32_t at, uint32_t len)
    {
        AscendC::LocalTensor<T> xl = inX_.AllocTensor<T>();
        AscendC::DataCopy(xl, xGm_[at], len);
        inX_.EnQue(xl);
        if (hasBias_) {
            AscendC::LocalTensor<T> bl = inB_.AllocTensor<T>();
            AscendC::DataCopy(bl, biasGm_[at], len);
            inB_.EnQue(bl);
        }
        xl = inX_.DeQue<T>();
        AscendC::LocalTensor<T> yl = outY_.AllocTensor<T>();
        AscendC::Muls(yl, xl, alpha_, len);
        if (hasBias_) {
            AscendC::LocalTensor<T> bl = inB_.DeQue<T>();
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Add(yl, yl, bl, len);
            inB_.FreeTensor(bl);
        }
        outY_.EnQue(yl);
        inX_.FreeTensor(xl);
        yl = outY_.DeQue<T>();
        AscendC::DataCopy(yGm_[at], yl, len);
        outY_.FreeTensor(yl);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inX_, inB_;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outY_;
    AscendC::GlobalTensor<T> xGm_, biasGm_, yGm_;
    bool hasBias_ = false;
    T alpha_;
    uint32_t tileLength_ = 0;
};

extern "C" __global__ __aicore__ void scale_add_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace,
                                                       GM_ADDR tiling)
{
    if (TILING_KEY_IS(1)) {
        GET_TILING_DATA_WITH_STRUCT(ScaleAddTilingData, t, tiling);
        KernelScaleAdd<DTYPE_X> op;
        op.Init(x, bias, y, t.blockLength, t.tile.tileLength, t.alpha);
        op.Process(t.tile.loops[0], t.tile.loops[1]);
    } else if (TILING_KEY_IS(2)) {
        // GET_TILING_DATA would fill the struct registered for key 2 (ScaleAddCustom_2); both branches are compiled,
        // so each names its struct, as multi-struct public kernels do
        GET_TILING_DATA_WITH_STRUCT(ScaleAddNoBiasTilingData, t, tiling);
        KernelScaleAdd<DTYPE_X> op;
        op.Init(x, nullptr, y, t.blockLength, t.tileLength, t.alpha);
        op.Process(t.fullTiles, t.tail);
    }
}
