// Host side of the high-level (lib/) APIs (clean-room): the tiling structs as TilingData classes
// (optiling::SoftMaxTiling, optiling::LayerNormTiling, ..., the same X-macro field lists as the kernel structs of
// include/kernel_tiling/kernel_tiling_adv.h) and the functions op_host code and direct-launch samples call to size
// the temporary space and fill those tilings: Get<Api>MaxMinTmpSize, Get<Api>TmpBufferFactorSize,
// SoftMaxTilingFunc, GetLayerNormNDTilingInfo, ... Names and signatures from docs/zh/api/SIMD-API/高阶API/**
// (each API's *MaxMinTmpSize.md / *-Tiling.md page). Every number comes from include/ascendc_emu/adv_shared.h, the
// table the kernel side checks against, so the sizes returned here are the sizes the emulated kernel requires.
// Included by tiling/tiling_api.h; runs on the CPU in the host build, never in a kernel-only compile.
#ifndef ASCENDC_EMU_HOST_TILING_ADV_API_TILING_H_
#define ASCENDC_EMU_HOST_TILING_ADV_API_TILING_H_
#include <cstdint>
#include <cstring>
#include <vector>

#include "../../include/ascendc_emu/adv_shared.h"
#include "../../include/kernel_tiling/kernel_tiling_adv.h"

#if __has_include("../ascendc_emu_host/graph_types.h")
#include "../ascendc_emu_host/graph_types.h"
#elif !defined(ASCENDC_EMU_ADV_HOST_GE_FALLBACK)
// Without the op-project host shims (graph_types.h): the ge::Shape / ge::DataType subset the queries take.
#define ASCENDC_EMU_ADV_HOST_GE_FALLBACK 1
namespace ge {
enum DataType {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
    DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_BF16 = 27,
};
class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    std::vector<int64_t> GetDims() const { return dims_; }
    int64_t GetShapeSize() const {
        int64_t n = dims_.empty() ? 0 : 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }

private:
    std::vector<int64_t> dims_;
};
}  // namespace ge
#endif
#if __has_include("platform/platform_ascendc.h")
#include "platform/platform_ascendc.h"
#define ASCENDC_EMU_ADV_HOST_PLATFORM 1
#endif
#if __has_include("../ascendc_emu_host/matmul_tiling.h")
#include "../ascendc_emu_host/matmul_tiling.h"  // the op-project shims' Matmul tiling: declares optiling::SoftMaxTiling
#endif
#ifndef BEGIN_TILING_DATA_DEF
#if __has_include("../register/tilingdata_base.h")
#include "../register/tilingdata_base.h"
#else
#include "../../include/register/tilingdata_base.h"
#endif
#endif

// ---- the API tiling structs as host TilingData classes (same fields, same order as the kernel structs)
namespace optiling {
#define ASCENDC_EMU_HOST_TILING_FIELD(type, name) TILING_DATA_FIELD_DEF(type, name);
#define ASCENDC_EMU_HOST_TILING_CLASS(NAME)                       \
    BEGIN_TILING_DATA_DEF(NAME)                                   \
    ASCENDC_EMU_TILING_FIELDS_##NAME(ASCENDC_EMU_HOST_TILING_FIELD) \
    END_TILING_DATA_DEF;
ASCENDC_EMU_ADV_TILING_STRUCTS_OWN(ASCENDC_EMU_HOST_TILING_CLASS)
#ifndef ASCENDC_EMU_HOST_MATMUL_TILING_H_  // else matmul_tiling.h declared it (same fields, same order)
ASCENDC_EMU_HOST_TILING_CLASS(SoftMaxTiling)
#endif
static_assert(sizeof(SoftMaxTiling) >= sizeof(::SoftMaxTiling), "host SoftMaxTiling holds the kernel fields");
#undef ASCENDC_EMU_HOST_TILING_CLASS
#undef ASCENDC_EMU_HOST_TILING_FIELD
}  // namespace optiling

namespace ascendc_emu_adv_host {
// Copies a computed kernel struct into either tiling type: the host class through its setters (so a TilingData
// bound with SetDataPtr writes through), the kernel-compatible struct by assignment.
#define ASCENDC_EMU_HOST_SET(type, name) out.set_##name(v.name);
#define ASCENDC_EMU_HOST_STORE(NAME)                                                            \
    inline void store(optiling::NAME& out, const AscendC::tiling::NAME& v) {                    \
        ASCENDC_EMU_TILING_FIELDS_##NAME(ASCENDC_EMU_HOST_SET)                                  \
    }                                                                                           \
    inline void store(AscendC::tiling::NAME& out, const AscendC::tiling::NAME& v) { out = v; }  \
    inline void load(const optiling::NAME& in, AscendC::tiling::NAME& v) {                      \
        static_assert(sizeof(optiling::NAME) >= sizeof(v), "host class holds the fields");      \
        v = AscendC::tiling::NAME{};                                                            \
        ASCENDC_EMU_TILING_FIELDS_##NAME(ASCENDC_EMU_HOST_GET)                                  \
    }                                                                                           \
    inline void load(const AscendC::tiling::NAME& in, AscendC::tiling::NAME& v) { v = in; }
#define ASCENDC_EMU_HOST_GET(type, name) v.name = in.get_##name();
ASCENDC_EMU_ADV_TILING_STRUCTS(ASCENDC_EMU_HOST_STORE)
#undef ASCENDC_EMU_HOST_STORE
#undef ASCENDC_EMU_HOST_SET
#undef ASCENDC_EMU_HOST_GET

inline uint32_t dim(const ge::Shape& s, size_t i) { return (uint32_t)s.GetDim(i); }
inline uint64_t elems(const ge::Shape& s) {
    int64_t n = s.GetShapeSize();
    return n > 0 ? (uint64_t)n : 0;
}
inline uint32_t clamp32(uint64_t v) { return v > 0xffffffffull ? 0xffffffffu : (uint32_t)v; }
inline uint32_t dtype_size(ge::DataType t) {
    switch (t) {
        case ge::DT_FLOAT: case ge::DT_INT32: case ge::DT_UINT32: return 4;
        case ge::DT_FLOAT16: case ge::DT_BF16: case ge::DT_INT16: case ge::DT_UINT16: return 2;
        case ge::DT_INT64: case ge::DT_UINT64: case ge::DT_DOUBLE: return 8;
        default: return 1;
    }
}
// [m, k] view of a shape: k the last axis, m the product of the others.
inline void mk(const ge::Shape& s, uint32_t& m, uint32_t& k) {
    std::vector<int64_t> d = s.GetDims();
    ascendc_emu_adv::sm_mk(d, m, k);
}
inline void factor_sizes(ascendc_emu_adv::TmpKind kind, const ge::Shape& s, uint32_t typeSize, uint32_t& maxValue,
                         uint32_t& minValue) {
    minValue = ascendc_emu_adv::tmp_min_bytes(kind, typeSize);
    maxValue = ascendc_emu_adv::tmp_max_bytes(kind, typeSize, elems(s));
    if (maxValue < minValue) maxValue = minValue;
}
inline AscendC::tiling::SoftMaxTiling softmax_tiling(ascendc_emu_adv::SmKind kind, const ge::Shape& s,
                                                     uint32_t typeSize, uint32_t blkTypeSize, uint32_t ws,
                                                     bool update) {
    uint32_t m = 0, k = 0, f[16] = {};
    mk(s, m, k);
    ascendc_emu_adv::sm_tiling(m, k, ascendc_emu_adv::sm_row_bytes(kind, k, typeSize, update), ws,
                               32 / (blkTypeSize ? blkTypeSize : 4), f);
    AscendC::tiling::SoftMaxTiling t{};
    t.srcM = f[0]; t.srcK = f[1]; t.srcSize = f[2]; t.outMaxM = f[3]; t.outMaxK = f[4]; t.outMaxSize = f[5];
    t.splitM = f[6]; t.splitK = f[7]; t.splitSize = f[8]; t.reduceM = f[9]; t.reduceK = f[10]; t.reduceSize = f[11];
    t.rangeM = f[12]; t.tailM = f[13]; t.tailSplitSize = f[14]; t.tailReduceSize = f[15];
    return t;
}
inline uint32_t sm_min(ascendc_emu_adv::SmKind kind, const ge::Shape& s, uint32_t typeSize, bool update) {
    uint32_t m = 0, k = 0;
    mk(s, m, k);
    return ascendc_emu_adv::sm_min_bytes(kind, m, k, typeSize, update);
}
inline uint32_t sm_max(ascendc_emu_adv::SmKind kind, const ge::Shape& s, uint32_t typeSize, bool update) {
    uint32_t m = 0, k = 0;
    mk(s, m, k);
    return ascendc_emu_adv::sm_max_bytes(kind, m, k, typeSize, update);
}
// [B, S, H]-style row count and last axis of a shape.
inline void rows_h(const ge::Shape& s, uint32_t& rows, uint32_t& h) { mk(s, rows, h); }
}  // namespace ascendc_emu_adv_host

namespace AscendC {
// ---- elementwise math / activation (数学计算/<Api>接口/Get<Api>MaxMinTmpSize.md, Get<Api>TmpBufferFactorSize.md)
#define ASCENDC_EMU_HOST_ELEMENTWISE(NAME, KIND)                                                                   \
    inline void Get##NAME##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, \
                                         uint32_t& maxValue, uint32_t& minValue) {                                 \
        (void)isReuseSource;                                                                                       \
        ascendc_emu_adv_host::factor_sizes(ascendc_emu_adv::TmpKind::KIND, srcShape, typeSize, maxValue, minValue); \
    }                                                                                                              \
    inline void Get##NAME##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,                \
                                               uint32_t& extraBuf) {                                              \
        ascendc_emu_adv::tmp_factor(ascendc_emu_adv::TmpKind::KIND, typeSize, maxLiveNodeCount, extraBuf);         \
    }
ASCENDC_EMU_HOST_ELEMENTWISE(Sigmoid, Sigmoid)
ASCENDC_EMU_HOST_ELEMENTWISE(Tanh, Tanh)
ASCENDC_EMU_HOST_ELEMENTWISE(Log, Log)
ASCENDC_EMU_HOST_ELEMENTWISE(Log2, Log2)
ASCENDC_EMU_HOST_ELEMENTWISE(Log10, Log10)
ASCENDC_EMU_HOST_ELEMENTWISE(Sign, Sign)
ASCENDC_EMU_HOST_ELEMENTWISE(Sin, Sin)
ASCENDC_EMU_HOST_ELEMENTWISE(Cos, Cos)
ASCENDC_EMU_HOST_ELEMENTWISE(Tan, Tan)
ASCENDC_EMU_HOST_ELEMENTWISE(Asin, Asin)
ASCENDC_EMU_HOST_ELEMENTWISE(Acos, Acos)
ASCENDC_EMU_HOST_ELEMENTWISE(Atan, Atan)
ASCENDC_EMU_HOST_ELEMENTWISE(Sinh, Sinh)
ASCENDC_EMU_HOST_ELEMENTWISE(Cosh, Cosh)
ASCENDC_EMU_HOST_ELEMENTWISE(Asinh, Asinh)
ASCENDC_EMU_HOST_ELEMENTWISE(Acosh, Acosh)
ASCENDC_EMU_HOST_ELEMENTWISE(Atanh, Atanh)
ASCENDC_EMU_HOST_ELEMENTWISE(Erf, Erf)
ASCENDC_EMU_HOST_ELEMENTWISE(Erfc, Erfc)
ASCENDC_EMU_HOST_ELEMENTWISE(Floor, Floor)
ASCENDC_EMU_HOST_ELEMENTWISE(Ceil, Ceil)
ASCENDC_EMU_HOST_ELEMENTWISE(Trunc, Trunc)
ASCENDC_EMU_HOST_ELEMENTWISE(Frac, Frac)
ASCENDC_EMU_HOST_ELEMENTWISE(Xor, Xor)
ASCENDC_EMU_HOST_ELEMENTWISE(Axpy, Axpy)
ASCENDC_EMU_HOST_ELEMENTWISE(Clamp, Clamp)
ASCENDC_EMU_HOST_ELEMENTWISE(Fmod, Fmod)
ASCENDC_EMU_HOST_ELEMENTWISE(Hypot, Hypot)
ASCENDC_EMU_HOST_ELEMENTWISE(Lgamma, Lgamma)
ASCENDC_EMU_HOST_ELEMENTWISE(Digamma, Digamma)
ASCENDC_EMU_HOST_ELEMENTWISE(GeGLU, GeGLU)
ASCENDC_EMU_HOST_ELEMENTWISE(ReGlu, ReGlu)
#undef ASCENDC_EMU_HOST_ELEMENTWISE
#if defined(ASCENDC_EMU_ADV_HOST_PLATFORM)
// Rint and Round take the platform first (数学计算/Rint接口/GetRintMaxMinTmpSize.md, GetRintTmpBufferFactorSize.md,
// 数学计算/Round接口/GetRoundMaxMinTmpSize.md, GetRoundTmpBufferFactorSize.md); same sizes as the kernel side's.
#define ASCENDC_EMU_HOST_ELEMENTWISE_PLATFORM(NAME, KIND)                                                          \
    inline void Get##NAME##MaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const ge::Shape& srcShape,      \
                                         const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,    \
                                         uint32_t& minValue) {                                                     \
        (void)isReuseSource;                                                                                       \
        ascendc_emu_adv_host::factor_sizes(ascendc_emu_adv::TmpKind::KIND, srcShape, typeSize, maxValue, minValue); \
    }                                                                                                              \
    inline void Get##NAME##TmpBufferFactorSize(const platform_ascendc::PlatformAscendC&, const uint32_t typeSize,  \
                                               uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {                  \
        ascendc_emu_adv::tmp_factor(ascendc_emu_adv::TmpKind::KIND, typeSize, maxLiveNodeCount, extraBuf);         \
    }
ASCENDC_EMU_HOST_ELEMENTWISE_PLATFORM(Rint, Rint)
ASCENDC_EMU_HOST_ELEMENTWISE_PLATFORM(Round, Round)
#undef ASCENDC_EMU_HOST_ELEMENTWISE_PLATFORM
#endif
// the Exp query returns bool (Exp接口/GetExpMaxMinTmpSize.md)
inline bool GetExpMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    ascendc_emu_adv_host::factor_sizes(ascendc_emu_adv::TmpKind::Exp, srcShape, typeSize, maxValue, minValue);
    return true;
}
inline void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    ascendc_emu_adv::tmp_factor(ascendc_emu_adv::TmpKind::Exp, typeSize, maxLiveNodeCount, extraBuf);
}
inline void GetSinMaxMinTmpSize(const SinConfig&, const ge::Shape& srcShape, const uint32_t typeSize,
                                const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    GetSinMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetSinTmpBufferFactorSize(const SinConfig&, const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                      uint32_t& extraBuf) {
    GetSinTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf);
}
inline void GetCosMaxMinTmpSize(const CosConfig&, const ge::Shape& srcShape, const uint32_t typeSize,
                                const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    GetCosMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetCosTmpBufferFactorSize(const CosConfig&, const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                      uint32_t& extraBuf) {
    GetCosTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf);
}
// Silu / Swish: 激活函数/Silu接口/GetSiluTmpSize.md, Swish接口/GetSwishTmpSize.md
inline void GetSiluTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                           uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    ascendc_emu_adv_host::factor_sizes(ascendc_emu_adv::TmpKind::Silu, srcShape, typeSize, maxValue, minValue);
}
inline void GetSwishTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                            uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    ascendc_emu_adv_host::factor_sizes(ascendc_emu_adv::TmpKind::Swish, srcShape, typeSize, maxValue, minValue);
}
// Gelu family: 激活函数/Gelu接口/GetGeluMaxMinTmpSize.md (FasterGelu/FasterGeluV2 take the same query)
inline void GetGeluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
    ascendc_emu_adv_host::factor_sizes(ascendc_emu_adv::TmpKind::Gelu, srcShape, typeSize, maxValue, minValue);
}
inline uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
    uint32_t mx = 0, mn = 0;
    GetGeluMaxMinTmpSize(srcShape, typeSize, mx, mn);
    return mx;
}
inline uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
    uint32_t mx = 0, mn = 0;
    GetGeluMaxMinTmpSize(srcShape, typeSize, mx, mn);
    return mn;
}
inline void GetSwiGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                   uint32_t& minValue, const bool isReuseSource = false) {
    (void)isReuseSource;
    ascendc_emu_adv_host::factor_sizes(ascendc_emu_adv::TmpKind::SwiGLU, srcShape, typeSize, maxValue, minValue);
}
inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    ascendc_emu_adv::tmp_factor(ascendc_emu_adv::TmpKind::SwiGLU, typeSize, maxLiveNodeCount, extraBuf);
}
// Power: 数学计算/Power接口/GetPowerMaxMinTmpSize.md (the larger of the two shapes is the data)
inline void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2, const bool typeIsInt,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
    (void)typeIsInt; (void)isReuseSource;
    const ge::Shape& s = ascendc_emu_adv_host::elems(srcShape1) >= ascendc_emu_adv_host::elems(srcShape2) ? srcShape1
                                                                                                          : srcShape2;
    ascendc_emu_adv_host::factor_sizes(ascendc_emu_adv::TmpKind::Power, s, typeSize, maxValue, minValue);
}
inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    (void)baseIsTensor; (void)expIsTensor; (void)typeIsInt;
    ascendc_emu_adv::tmp_factor(ascendc_emu_adv::TmpKind::Power, typeSize, maxLiveNodeCount, extraBuf);
}

// ---- reductions (归约操作/*)
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    minValue = maxValue = ascendc_emu_adv::sum_tmp_bytes(n, typeSize);
}
inline void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize,
                                 const bool isReuseSource, uint32_t& maxSize, uint32_t& minSize) {
    (void)isReuseSource;
    minSize = maxSize = ascendc_emu_adv::mean_tmp_bytes(n, srcTypeSize, accTypeSize);
}
inline void GetMeanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    maxLiveNodeCount = 0;  // Mean's space depends on one row (GetMeanMaxMinTmpSize), not on the data size
    extraBuf = ascendc_emu_adv::sum_tmp_bytes(2048 / (typeSize ? typeSize : 4), typeSize);
}
#define ASCENDC_EMU_HOST_PATTERN_REDUCE(NAME)                                                                      \
    inline void Get##NAME##MaxMinTmpSize(const ge::Shape& srcShape, const ge::DataType dataType,                   \
                                         ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,             \
                                         uint32_t& maxValue, uint32_t& minValue) {                                 \
        (void)isSrcInnerPad; (void)isReuseSource;                                                                  \
        ascendc_emu_adv::reduce_tmp_bytes(ascendc_emu_adv_host::dim(srcShape, 0), ascendc_emu_adv_host::dim(srcShape, 1), \
                                          ascendc_emu_adv_host::dtype_size(dataType), pattern == ReducePattern::AR, \
                                          maxValue, minValue);                                                     \
    }
ASCENDC_EMU_HOST_PATTERN_REDUCE(ReduceSum)
ASCENDC_EMU_HOST_PATTERN_REDUCE(ReduceMax)
ASCENDC_EMU_HOST_PATTERN_REDUCE(ReduceMin)
ASCENDC_EMU_HOST_PATTERN_REDUCE(ReduceMean)
ASCENDC_EMU_HOST_PATTERN_REDUCE(ReduceProd)
ASCENDC_EMU_HOST_PATTERN_REDUCE(ReduceAny)
ASCENDC_EMU_HOST_PATTERN_REDUCE(ReduceAll)
#undef ASCENDC_EMU_HOST_PATTERN_REDUCE
inline void GetReduceXorSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                         uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    ascendc_emu_adv_host::factor_sizes(ascendc_emu_adv::TmpKind::Xor, srcShape, typeSize, maxValue, minValue);
}
inline void GetCumSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isLastAxis,
                                   const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    uint32_t rows = 0, cols = 0;
    ascendc_emu_adv_host::mk(srcShape, rows, cols);
    minValue = maxValue = ascendc_emu_adv::cumsum_tmp_bytes(rows, cols, typeSize, isLastAxis);
}

// ---- softmax family (激活函数/SoftMax接口/*Tiling*.md, LogSoftMax接口/LogSoftMax-Tiling.md)
using ascendc_emu_adv::SmKind;
inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    return ascendc_emu_adv_host::sm_max(SmKind::SoftMax, srcShape, dataTypeSize, false);
}
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    return ascendc_emu_adv_host::sm_min(SmKind::SoftMax, srcShape, dataTypeSize, false);
}
template <class Tiling>
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              Tiling& softmaxTiling) {
    ascendc_emu_adv_host::store(softmaxTiling, ascendc_emu_adv_host::softmax_tiling(SmKind::SoftMax, srcShape,
                                                                                     dataTypeSize, dataTypeSize,
                                                                                     localWorkSpaceSize, false));
}
inline uint32_t GetSoftMaxFlashMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool isReuseSource) {
    (void)isReuseSource;
    return ascendc_emu_adv_host::sm_max(SmKind::Flash, srcShape, dataTypeSize, isUpdate);
}
inline uint32_t GetSoftMaxFlashMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool isReuseSource) {
    (void)isReuseSource;
    return ascendc_emu_adv_host::sm_min(SmKind::Flash, srcShape, dataTypeSize, isUpdate);
}
template <class Tiling>
inline void SoftMaxFlashTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                   const uint32_t localWorkSpaceSize, Tiling& softmaxFlashTiling,
                                   const bool isUpdate = false) {
    ascendc_emu_adv_host::store(softmaxFlashTiling,
                                ascendc_emu_adv_host::softmax_tiling(SmKind::Flash, srcShape, dataTypeSize,
                                                                     dataTypeSize, localWorkSpaceSize, isUpdate));
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)dataTypeSize2; (void)isBasicBlock; (void)isFlashOutputBrc;
    return ascendc_emu_adv_host::sm_max(SmKind::FlashV2, srcShape, dataTypeSize1, isUpdate);
}
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)dataTypeSize2; (void)isBasicBlock; (void)isFlashOutputBrc;
    return ascendc_emu_adv_host::sm_min(SmKind::FlashV2, srcShape, dataTypeSize1, isUpdate);
}
template <class Tiling>
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     Tiling& softmaxFlashTiling, const bool isUpdate, const bool isBasicBlock = false,
                                     const bool isFlashOutputBrc = false) {
    (void)isBasicBlock; (void)isFlashOutputBrc;
    ascendc_emu_adv_host::store(softmaxFlashTiling,
                                ascendc_emu_adv_host::softmax_tiling(SmKind::FlashV2, srcShape, dataTypeSize1,
                                                                     dataTypeSize2, localWorkSpaceSize, isUpdate));
}
inline void GetSoftMaxFlashV3MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                           const uint32_t dataTypeSize2, uint32_t& maxValue, uint32_t& minValue,
                                           const bool isUpdate, const bool isBasicBlock = false) {
    (void)dataTypeSize2; (void)isBasicBlock;
    maxValue = ascendc_emu_adv_host::sm_max(SmKind::FlashV3, srcShape, dataTypeSize1, isUpdate);
    minValue = ascendc_emu_adv_host::sm_min(SmKind::FlashV3, srcShape, dataTypeSize1, isUpdate);
}
template <class Tiling>
inline void SoftMaxFlashV3TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     Tiling& softmaxFlashV3Tiling, const bool isUpdate, const bool isBasicBlock = false) {
    (void)isBasicBlock;
    ascendc_emu_adv_host::store(softmaxFlashV3Tiling,
                                ascendc_emu_adv_host::softmax_tiling(SmKind::FlashV3, srcShape, dataTypeSize1,
                                                                     dataTypeSize2, localWorkSpaceSize, isUpdate));
}
inline uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)isFront; (void)isReuseSource;
    return ascendc_emu_adv_host::sm_max(SmKind::Grad, srcShape, dataTypeSize, false);
}
inline uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)isFront; (void)isReuseSource;
    return ascendc_emu_adv_host::sm_min(SmKind::Grad, srcShape, dataTypeSize, false);
}
template <class Tiling>
inline void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, Tiling& softmaxGradTiling,
                                  const bool isFront = false) {
    (void)isFront;
    ascendc_emu_adv_host::store(softmaxGradTiling,
                                ascendc_emu_adv_host::softmax_tiling(SmKind::Grad, srcShape, dataTypeSize,
                                                                     dataTypeSize, localWorkSpaceSize, false));
}
inline uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    return ascendc_emu_adv_host::sm_max(SmKind::LogSoftMax, srcShape, dataTypeSize, false);
}
inline uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    return ascendc_emu_adv_host::sm_min(SmKind::LogSoftMax, srcShape, dataTypeSize, false);
}
inline void LogSoftMaxTilingFunc(const ge::Shape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, optiling::LogSoftMaxTiling& softmaxTiling) {
    AscendC::tiling::SoftMaxTiling t = ascendc_emu_adv_host::softmax_tiling(SmKind::LogSoftMax, srcShape, dataTypeSize,
                                                                             dataTypeSize, localWorkSpaceSize, false);
    AscendC::tiling::LogSoftMaxTiling l;
#define ASCENDC_EMU_HOST_COPY(type, name) l.name = t.name;
    ASCENDC_EMU_TILING_FIELDS_LogSoftMaxTiling(ASCENDC_EMU_HOST_COPY)
#undef ASCENDC_EMU_HOST_COPY
    ascendc_emu_adv_host::store(softmaxTiling, l);
}
inline void LogSoftMaxTilingFunc(const ge::Shape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, AscendC::tiling::LogSoftMaxTiling& softmaxTiling) {
    AscendC::tiling::SoftMaxTiling t = ascendc_emu_adv_host::softmax_tiling(SmKind::LogSoftMax, srcShape, dataTypeSize,
                                                                             dataTypeSize, localWorkSpaceSize, false);
#define ASCENDC_EMU_HOST_COPY(type, name) softmaxTiling.name = t.name;
    ASCENDC_EMU_TILING_FIELDS_LogSoftMaxTiling(ASCENDC_EMU_HOST_COPY)
#undef ASCENDC_EMU_HOST_COPY
}
// IsBasicBlockInSoftMax.md: the basic-block condition of the SoftMax page (n in [256 B / size, 2048), a multiple of
// 64; m a multiple of 8) on the tiling's shape.
template <class Tiling>
inline bool IsBasicBlockInSoftMax(Tiling& tiling, const uint32_t dataTypeSize = 2) {
    AscendC::tiling::SoftMaxTiling t;
    ascendc_emu_adv_host::load(tiling, t);
    const uint32_t minK = 256 / (dataTypeSize ? dataTypeSize : 2);
    return t.srcK >= minK && t.srcK < 2048 && t.srcK % 64 == 0 && t.srcM % 8 == 0 && t.srcM > 0;
}

// ---- normalisations (归一化操作/*-Tiling.md). tmpBufSize / stackBufferSize carry the bytes of temporary space
// the tiling was computed for; the kernel side checks the buffer it is given against it.
using ascendc_emu_adv::NormKind;
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    uint32_t rows = 0, h = 0;
    ascendc_emu_adv_host::rows_h(srcShape, rows, h);
    minValue = ascendc_emu_adv_host::clamp32(ascendc_emu_adv::norm_row_tmp(NormKind::LayerNorm, h, typeSize));
    maxValue = ascendc_emu_adv_host::clamp32((uint64_t)rows * minValue);
}
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput, uint32_t& maxValue,
                                      uint32_t& minValue) {
    (void)isReuseSource; (void)isComputeRstd; (void)isOnlyOutput;
    uint32_t rows = 0, h = 0;
    ascendc_emu_adv_host::rows_h(srcShape, rows, h);
    minValue = ascendc_emu_adv_host::clamp32(ascendc_emu_adv::norm_row_tmp(NormKind::LayerNormAR, h, typeSize));
    maxValue = ascendc_emu_adv_host::clamp32((uint64_t)rows * minValue);
}
template <class Tiling>
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, Tiling& tiling) {
    (void)isReuseSource;
    AscendC::tiling::LayerNormTiling t{};
    t.bLength = ascendc_emu_adv_host::dim(srcShape, 0);
    t.sLength = ascendc_emu_adv_host::dim(srcShape, 1);
    t.hLength = ascendc_emu_adv_host::dim(srcShape, 2);
    t.originalHLength = t.hLength;
    t.inputXSize = t.bLength * t.sLength * t.hLength;
    t.meanVarSize = t.bLength * t.sLength;
    t.numberOfTmpBuf = ascendc_emu_adv::norm_f32_rows(NormKind::LayerNorm);
    t.tmpBufSize = stackBufferSize;
    const uint64_t row = ascendc_emu_adv::norm_row_tmp(NormKind::LayerNorm, t.hLength, typeSize);
    const uint32_t rowsPerPass = row ? (uint32_t)(stackBufferSize / row) : 0;
    t.oneTmpSize = rowsPerPass * t.hLength;
    t.bshCurLength = t.oneTmpSize;
    t.bsCurLength = rowsPerPass;
    t.loopRound = rowsPerPass ? t.meanVarSize / rowsPerPass : 0;
    t.inputRoundSize = t.oneTmpSize;
    t.inputTailSize = rowsPerPass ? (t.meanVarSize % rowsPerPass) * t.hLength : 0;
    t.inputTailPos = t.loopRound * t.oneTmpSize;
    t.meanVarRoundSize = rowsPerPass;
    t.meanVarTailSize = rowsPerPass ? t.meanVarSize % rowsPerPass : 0;
    t.meanVarTailPos = t.loopRound * rowsPerPass;
    t.lastDimValueBack = t.hLength ? 1.0f / (float)t.hLength : 0.0f;
    ascendc_emu_adv_host::store(tiling, t);
}
template <class Tiling>
inline void GetLayerNormNDTillingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                      const bool isReuseSource, Tiling& tilling) {  // the docs' former spelling
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tilling);
}
template <class Tiling>
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const bool isComputeRstd, Tiling& tiling) {
    (void)isReuseSource; (void)isComputeRstd;
    AscendC::tiling::LayerNormSeparateTiling t{};
    uint32_t a = 0, r = 0;
    ascendc_emu_adv_host::rows_h(srcShape, a, r);
    t.aLength = a;
    t.rLength = r;
    t.inputXSize = a * r;
    t.meanVarSize = a;
    t.numberOfTmpBuf = ascendc_emu_adv::norm_f32_rows(NormKind::LayerNormAR);
    t.tmpBufSize = stackBufferSize;
    const uint64_t row = ascendc_emu_adv::norm_row_tmp(NormKind::LayerNormAR, r, typeSize);
    const uint32_t per = row ? (uint32_t)(stackBufferSize / row) : 0;
    t.oneTmpSize = per * r;
    t.arCurLength = t.oneTmpSize;
    t.aCurLength = per;
    t.loopRound = per ? a / per : 0;
    t.rValueBack = r ? 1.0f / (float)r : 0.0f;
    t.k2Rec = t.rValueBack;
    t.k2RRec = t.rValueBack;
    ascendc_emu_adv_host::store(tiling, t);
}
inline void GetNormalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
                                      const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSizeU; (void)isReuseSource; (void)isComputeRstd; (void)isOnlyOutput;
    uint32_t a = 0, r = 0;
    ascendc_emu_adv_host::rows_h(srcShape, a, r);
    minValue = ascendc_emu_adv_host::clamp32(ascendc_emu_adv::norm_row_tmp(NormKind::Normalize, r, typeSizeT));
    maxValue = ascendc_emu_adv_host::clamp32((uint64_t)a * minValue);
}
inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isBasicBlock = false) {
    (void)isBasicBlock;
    uint32_t rows = 0, h = 0;
    ascendc_emu_adv_host::rows_h(srcShape, rows, h);
    minValue = ascendc_emu_adv_host::clamp32(ascendc_emu_adv::norm_row_tmp(NormKind::RmsNorm, h, typeSize));
    maxValue = ascendc_emu_adv_host::clamp32((uint64_t)rows * minValue);
    return h > 0;
}
template <class Tiling>
inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize, Tiling& tiling,
                                 const bool isBasicBlock = false) {
    (void)isBasicBlock;
    AscendC::tiling::RmsNormTiling t{};
    const size_t nd = srcShape.GetDimNum();
    t.bLength = nd >= 3 ? ascendc_emu_adv_host::dim(srcShape, 0) : 1;
    t.sLength = nd >= 2 ? ascendc_emu_adv_host::dim(srcShape, nd - 2) : 1;
    t.hLength = nd ? ascendc_emu_adv_host::dim(srcShape, nd - 1) : 0;
    const size_t od = originSrcShape.GetDimNum();
    t.originalHLength = od ? ascendc_emu_adv_host::dim(originSrcShape, od - 1) : t.hLength;
    if (!t.originalHLength || t.originalHLength > t.hLength) return false;
    t.reciprocalOfHLength = 1.0f / (float)t.originalHLength;
    const uint64_t row = ascendc_emu_adv::norm_row_tmp(NormKind::RmsNorm, t.hLength, typeSize);
    const uint32_t rows = t.bLength * t.sLength, per = row ? (uint32_t)(stackBufferByteSize / row) : 0;
    if (!per) return false;  // not even one row fits the stack buffer
    t.mainBsLength = per < rows ? per : rows;
    t.mainBshLength = t.mainBsLength * t.hLength;
    t.mainBsLengthAlign = (t.mainBsLength + 7) / 8 * 8;
    t.loopRound = rows / t.mainBsLength;
    t.inputTailPos = t.loopRound * t.mainBshLength;
    t.tailBsLength = rows % t.mainBsLength;
    t.tailBshLength = t.tailBsLength * t.hLength;
    ascendc_emu_adv_host::store(tiling, t);
    return true;
}
inline bool GetDeepNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                     const bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource; (void)isBasicBlock;
    uint32_t rows = 0, h = 0;
    ascendc_emu_adv_host::rows_h(srcShape, rows, h);
    minValue = ascendc_emu_adv_host::clamp32(ascendc_emu_adv::norm_row_tmp(NormKind::DeepNorm, h, typeSize));
    maxValue = ascendc_emu_adv_host::clamp32((uint64_t)rows * minValue);
    return h > 0 && h <= 2040;
}
template <class Tiling>
inline bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, Tiling& tiling) {
    (void)isReuseSource; (void)isBasicBlock;
    AscendC::tiling::DeepNormTiling t{};
    t.bLength = ascendc_emu_adv_host::dim(srcShape, 0);
    t.sLength = ascendc_emu_adv_host::dim(srcShape, 1);
    t.hLength = ascendc_emu_adv_host::dim(srcShape, 2);
    t.originalHLength = originSrcShape.GetDimNum() >= 3 ? ascendc_emu_adv_host::dim(originSrcShape, 2) : t.hLength;
    t.inputXSize = t.bLength * t.sLength * t.hLength;
    t.meanVarSize = t.bLength * t.sLength;
    t.numberOfTmpBuf = ascendc_emu_adv::norm_f32_rows(NormKind::DeepNorm);
    t.tmpBufSize = stackBufferSize;
    const uint64_t row = ascendc_emu_adv::norm_row_tmp(NormKind::DeepNorm, t.hLength, typeSize);
    const uint32_t per = row ? (uint32_t)(stackBufferSize / row) : 0;
    t.oneTmpSize = per * t.hLength;
    t.bshCurLength = t.oneTmpSize;
    t.bsCurLength = per;
    t.loopRound = per ? t.meanVarSize / per : 0;
    t.lastDimValueBack = t.originalHLength ? 1.0f / (float)t.originalHLength : 0.0f;
    ascendc_emu_adv_host::store(tiling, t);
    return per > 0 && t.hLength <= 2040;
}
inline bool GetBatchNormMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                      const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                      uint32_t& minValue, const bool isBasicBlock = false) {
    (void)originSrcShape; (void)typeSize; (void)isReuseSource; (void)isBasicBlock;
    const uint32_t f = srcShape.GetDimNum() >= 3 ? ascendc_emu_adv_host::dim(srcShape, 1) * ascendc_emu_adv_host::dim(srcShape, 2) : 0;
    minValue = maxValue = ascendc_emu_adv_host::clamp32(ascendc_emu_adv::batchnorm_tmp(f));
    return f > 0;
}
template <class Tiling>
inline bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                     const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                     const bool isReuseSource, Tiling& tilling, const bool isBasicBlock = false) {
    (void)typeSize; (void)isReuseSource; (void)isBasicBlock;
    AscendC::tiling::BatchNormTiling t{};
    const uint32_t b = ascendc_emu_adv_host::dim(originSrcShape, 0) ? ascendc_emu_adv_host::dim(originSrcShape, 0)
                                                                    : ascendc_emu_adv_host::dim(srcShape, 0);
    const uint32_t f = ascendc_emu_adv_host::dim(srcShape, 1) * ascendc_emu_adv_host::dim(srcShape, 2);
    t.originalBLength = b;
    t.meanVarSize = f;
    t.shCurLength = f;
    t.bshCurLength = b * f;
    t.tmpBufSize = stackBufferByteSize;
    t.oneTmpSize = f;
    t.loopRound = 1;
    t.firstDimValueBack = b ? 1.0f / (float)b : 0.0f;
    ascendc_emu_adv_host::store(tilling, t);
    return f > 0 && stackBufferByteSize >= ascendc_emu_adv::batchnorm_tmp(f);
}
inline void GetGroupNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const uint32_t groupNum, uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSize; (void)isReuseSource;
    const uint32_t n = ascendc_emu_adv_host::dim(srcShape, 0), c = ascendc_emu_adv_host::dim(srcShape, 1);
    const uint64_t hw = c && n ? ascendc_emu_adv_host::elems(srcShape) / ((uint64_t)n * c) : 0;
    const uint32_t d = groupNum ? c / groupNum : 0;
    minValue = ascendc_emu_adv_host::clamp32(ascendc_emu_adv::groupnorm_tmp((uint32_t)(d * hw)));
    maxValue = ascendc_emu_adv_host::clamp32((uint64_t)ascendc_emu_adv_host::elems(srcShape) * 4);
    if (maxValue < minValue) maxValue = minValue;
}
template <class Tiling>
inline void GetGroupNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const uint32_t groupNum, Tiling& tiling) {
    (void)isReuseSource;
    AscendC::tiling::GroupNormTiling t{};
    t.n = ascendc_emu_adv_host::dim(srcShape, 0);
    t.c = ascendc_emu_adv_host::dim(srcShape, 1);
    t.hw = t.n && t.c ? (uint32_t)(ascendc_emu_adv_host::elems(srcShape) / ((uint64_t)t.n * t.c)) : 0;
    t.g = groupNum;
    t.d = groupNum ? t.c / groupNum : 0;
    t.hwAlignSize = (uint32_t)(((uint64_t)t.hw * typeSize + 31) / 32 * 32 / (typeSize ? typeSize : 4));
    t.dhwAlignSize = t.d * t.hwAlignSize;
    t.inputXSize = t.n * t.c * t.hw;
    t.meanVarSize = t.n * t.g;
    t.tmpBufSize = stackBufferSize;
    t.numberOfTmpBuf = 2;
    t.factor = t.d && t.hw ? 1.0f / (float)(t.d * t.hw) : 0.0f;
    t.smallShape = t.hw * typeSize < 32;
    ascendc_emu_adv_host::store(tiling, t);
}
inline void GetLayerNormGradMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                          uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    uint32_t rows = 0, h = 0;
    ascendc_emu_adv_host::rows_h(srcShape, rows, h);
    minValue = ascendc_emu_adv_host::clamp32(ascendc_emu_adv::norm_row_tmp(NormKind::LayerNormGrad, h, typeSize));
    maxValue = ascendc_emu_adv_host::clamp32((uint64_t)rows * minValue);
}
template <class Tiling>
inline void GetLayerNormGradNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource, Tiling& tiling) {
    (void)typeSize; (void)isReuseSource;
    AscendC::tiling::LayerNormGradTiling t{};
    t.stackBufferSize = stackBufferSize;
    t.bLength = ascendc_emu_adv_host::dim(srcShape, 0);
    t.sLength = ascendc_emu_adv_host::dim(srcShape, 1);
    t.hLength = ascendc_emu_adv_host::dim(srcShape, 2);
    t.originalHLength = t.hLength;
    t.oneCalSize = t.hLength;
    t.loopNum = t.bLength * t.sLength;
    t.lastDimValueBack = t.hLength;
    t.lastDimValueBackMulTwo = 2 * t.hLength;
    ascendc_emu_adv_host::store(tiling, t);
}
inline void GetLayerNormGradBetaMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                              const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSize; (void)isReuseSource;
    uint32_t rows = 0, h = 0;
    ascendc_emu_adv_host::rows_h(srcShape, rows, h);
    minValue = maxValue = ascendc_emu_adv_host::clamp32(ascendc_emu_adv::lngradbeta_tmp(h));
}
template <class Tiling>
inline void GetLayerNormGradBetaNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource, Tiling& tiling) {
    (void)typeSize; (void)isReuseSource;
    AscendC::tiling::LayerNormGradBetaTiling t{};
    t.stackBufferSize = stackBufferSize;
    t.bLength = ascendc_emu_adv_host::dim(srcShape, 0);
    t.sLength = ascendc_emu_adv_host::dim(srcShape, 1);
    t.hLength = ascendc_emu_adv_host::dim(srcShape, 2);
    t.originalHLength = t.hLength;
    t.bsLength = t.bLength * t.sLength;
    t.bshLength = t.bsLength * t.hLength;
    t.oneCalSize = t.hLength;
    t.numberOfTmpBuf = 2;
    t.loopRound = t.bsLength;
    ascendc_emu_adv_host::store(tiling, t);
}
inline void GetWelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeT,
                                          const uint32_t typeSizeU, const bool isReuseSource, const bool isInplace,
                                          uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSizeT; (void)typeSizeU; (void)isReuseSource; (void)isInplace;
    uint32_t rows = 0, ab = 0;
    ascendc_emu_adv_host::rows_h(srcShape, rows, ab);
    minValue = ascendc_emu_adv_host::clamp32(ascendc_emu_adv::welford_update_min_tmp());
    maxValue = ascendc_emu_adv_host::clamp32(ascendc_emu_adv::welford_update_max_tmp(ab));
    if (maxValue < minValue) maxValue = minValue;
}
inline void GetWelfordFinalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                            const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSize; (void)isReuseSource;
    uint32_t rows = 0, ab = 0;
    ascendc_emu_adv_host::rows_h(srcShape, rows, ab);
    minValue = maxValue = ascendc_emu_adv_host::clamp32(ascendc_emu_adv::welford_finalize_tmp(ab));
}

// ---- arrangement, filters, quantisation (张量变换/*, 数据过滤/*, 量化操作/*)
// 排序操作/GetSortMaxMinTmpSize.md: the temporary space of Sort with SortConfig, for srcShape's element count of
// valueType values and indexType indices (the model: adv_shared.h sort_config_tmp_bytes). An element type the
// query cannot size (or an empty shape) gives 0 and 0.
inline void GetSortMaxMinTmpSize(const ge::Shape& srcShape, ge::DataType valueType, ge::DataType indexType,
                                 bool isReuseSource, const SortConfig& config, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    auto bytes = [](ge::DataType t) -> uint32_t {
        switch (t) {
            case ge::DT_INT8: case ge::DT_UINT8: return 1;
            case ge::DT_FLOAT16: case ge::DT_BF16: case ge::DT_INT16: case ge::DT_UINT16: return 2;
            case ge::DT_FLOAT: case ge::DT_INT32: case ge::DT_UINT32: return 4;
            case ge::DT_INT64: case ge::DT_UINT64: return 8;
            default: return 0;
        }
    };
    int64_t n = srcShape.GetDimNum() ? 1 : 0;
    for (size_t i = 0; i < srcShape.GetDimNum(); i++) n *= srcShape.GetDim(i) > 0 ? srcShape.GetDim(i) : 0;
    const uint32_t vs = bytes(valueType), is = bytes(indexType);
    if (!n || !vs || !is) {
        maxValue = minValue = 0;
        return;
    }
    minValue = maxValue = ascendc_emu_adv_host::clamp32(ascendc_emu_adv::sort_config_tmp_bytes(
        (uint64_t)n, vs, is, config.type == SortType::MERGE_SORT));
}
#if defined(ASCENDC_EMU_ADV_HOST_PLATFORM)
inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                      const ge::Shape& srcShape, const ge::Shape& dstShape, uint32_t typeSize,
                                      const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)ascendcPlatform; (void)isReuseSource;
    const size_t nd = dstShape.GetDimNum();
    const uint32_t rows = nd >= 2 ? ascendc_emu_adv_host::dim(dstShape, 0) : 1;
    const uint32_t cols = nd ? ascendc_emu_adv_host::dim(dstShape, nd - 1) : 0;
    const int axis = nd >= 2 && ascendc_emu_adv_host::dim(srcShape, 1) == 1 && cols != 1 ? 1 : 0;
    uint64_t mx = 0, mn = 0;
    ascendc_emu_adv::broadcast_tmp(rows, cols, typeSize, axis, mx, mn);
    maxValue = ascendc_emu_adv_host::clamp32(mx);
    minValue = ascendc_emu_adv_host::clamp32(mn);
}
// 排序操作/GetConcatTmpSize.md, GetSortTmpSize.md, TopK-Tiling.md
inline uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                                 const uint32_t dataTypeSize) {
    (void)ascendcPlatform; (void)dataTypeSize;
    return ascendc_emu_adv_host::clamp32(ascendc_emu_adv::concat_tmp_bytes(elemCount));
}
inline uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                               const uint32_t dataTypeSize) {
    (void)ascendcPlatform; (void)dataTypeSize;
    return ascendc_emu_adv_host::clamp32(ascendc_emu_adv::sort_tmp_bytes(elemCount));
}
inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                                 const int32_t outter, const bool isReuseSource, const bool isInitIndex, TopKMode mode,
                                 const bool isLargest, const uint32_t dataTypeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
    (void)ascendcPlatform; (void)isReuseSource; (void)isInitIndex; (void)isLargest; (void)dataTypeSize;
    if (inner <= 0 || outter <= 0 || inner % 32) return false;
    minValue = maxValue = ascendc_emu_adv_host::clamp32(
        ascendc_emu_adv::topk_tmp_bytes((uint32_t)inner, (uint32_t)outter, mode == TopKMode::TOPK_NSMALL));
    return true;
}
template <class Tiling>
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           TopKMode mode, const bool isLargest, Tiling& topKTiling) {
    (void)ascendcPlatform; (void)isInitIndex; (void)isLargest;
    if (inner <= 0 || outter <= 0 || inner % 32 || k <= 0 || k > inner) return false;
    AscendC::tiling::TopkTiling t{};
    t.tmpLocalSize = (int32_t)ascendc_emu_adv::topk_tmp_bytes((uint32_t)inner, (uint32_t)outter,
                                                             mode == TopKMode::TOPK_NSMALL);
    t.allDataSize = inner * outter;
    t.innerDataSize = inner;
    t.sortRepeat = (uint32_t)(inner / 32);
    t.mrgSortRepeat = inner / 32;
    t.kAlignFourBytes = (k + 7) / 8 * 8;
    t.kAlignTwoBytes = (k + 15) / 16 * 16;
    t.srcIndexOffset = inner;
    t.copyUbToUbBlockCount = (uint32_t)((k * (int32_t)dataTypeSize + 31) / 32);
    ascendc_emu_adv_host::store(topKTiling, t);
    return true;
}
inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                                  const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    (void)ascendcPlatform;
    minValue = 0;
    maxValue = ascendc_emu_adv_host::clamp32(ascendc_emu_adv_host::elems(srcShape) * typeSize);
}
#endif
inline void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                uint32_t& minValue) {
    uint32_t h = 0, w = 0;
    ascendc_emu_adv_host::rows_h(srcShape, h, w);
    const uint64_t alignW = ((uint64_t)w * typeSize + 31) / 32 * 32 / (typeSize ? typeSize : 2);
    minValue = 0;
    maxValue = ascendc_emu_adv_host::clamp32((uint64_t)h * alignW * typeSize);
}
template <class Tiling>
inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, Tiling& tiling) {
    AscendC::tiling::PadTiling t{};
    ascendc_emu_adv_host::rows_h(srcShape, t.srcHeight, t.srcWidth);
    ascendc_emu_adv_host::rows_h(oriSrcShape, t.srcOriHeight, t.srcOriWidth);
    t.tmpBufSize = stackBufferSize;
    t.typeSize = typeSize;
    ascendc_emu_adv_host::store(tiling, t);
}
template <class Tiling>
inline void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            Tiling& tiling) {
    AscendC::tiling::UnPadTiling t{};
    ascendc_emu_adv_host::rows_h(srcShape, t.srcHeight, t.srcWidth);
    t.tmpBufSize = stackBufferSize;
    t.typeSize = typeSize;
    ascendc_emu_adv_host::store(tiling, t);
}
inline void GetSelectWithBytesMaskMaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                                const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                                const uint32_t maskTypeSize, const bool isReuseMask,
                                                uint32_t& maxValue, uint32_t& minValue) {
    (void)srcTypeSize; (void)maskShape; (void)maskTypeSize; (void)isReuseMask;
    const ge::Shape& s = ascendc_emu_adv_host::elems(src0Shape) >= ascendc_emu_adv_host::elems(src1Shape) ? src0Shape
                                                                                                          : src1Shape;
    uint32_t rows = 0, k = 0;
    ascendc_emu_adv_host::rows_h(s, rows, k);
    minValue = ascendc_emu_adv_host::clamp32(ascendc_emu_adv::select_bytes_row_tmp(k));
    maxValue = ascendc_emu_adv_host::clamp32((uint64_t)rows * minValue);
}
inline uint32_t GetSelectWithBytesMaskMaxTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                                 const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                                 const uint32_t maskTypeSize, const bool isReuseMask) {
    uint32_t mx = 0, mn = 0;
    GetSelectWithBytesMaskMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, mx, mn);
    return mx;
}
inline uint32_t GetSelectWithBytesMaskMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                                 const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                                 const uint32_t maskTypeSize, const bool isReuseMask) {
    uint32_t mx = 0, mn = 0;
    GetSelectWithBytesMaskMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, mx, mn);
    return mn;
}
inline void GetSelectMaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                                   const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask,
                                   uint32_t& maxValue, uint32_t& minValue) {
    GetSelectWithBytesMaskMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask,
                                        maxValue, minValue);
}
inline uint32_t GetSelectMaxTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                                    const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask) {
    return GetSelectWithBytesMaskMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
inline uint32_t GetSelectMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                                    const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask) {
    return GetSelectWithBytesMaskMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
inline void GetDropOutMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSize; (void)isReuseSource;
    uint32_t rows = 0, k = 0;
    ascendc_emu_adv_host::rows_h(srcShape, rows, k);
    minValue = ascendc_emu_adv_host::clamp32(ascendc_emu_adv::dropout_row_tmp(k, true));
    maxValue = ascendc_emu_adv_host::clamp32((uint64_t)rows * minValue);
}
inline uint32_t GetDropOutMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
    uint32_t mx = 0, mn = 0;
    GetDropOutMaxMinTmpSize(srcShape, typeSize, isReuseSource, mx, mn);
    return mx;
}
inline uint32_t GetDropOutMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
    uint32_t mx = 0, mn = 0;
    GetDropOutMaxMinTmpSize(srcShape, typeSize, isReuseSource, mx, mn);
    return mn;
}
inline void GetAscendQuantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                        uint32_t& minValue) {
    ascendc_emu_adv_host::factor_sizes(ascendc_emu_adv::TmpKind::AscendQuant, srcShape, typeSize, maxValue, minValue);
}
inline void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    ascendc_emu_adv::tmp_factor(ascendc_emu_adv::TmpKind::AscendQuant, 2, maxLiveNodeCount, extraBuf);
}
inline void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                          uint32_t& minValue) {
    (void)typeSize;  // the space is fp32 copies of the int32 source rows
    uint32_t rows = 0, n = 0;
    ascendc_emu_adv_host::rows_h(srcShape, rows, n);
    minValue = ascendc_emu_adv::tmp_min_bytes(ascendc_emu_adv::TmpKind::AscendDequant, 4);
    maxValue = ascendc_emu_adv::tmp_max_bytes(ascendc_emu_adv::TmpKind::AscendDequant, 4, n);
}
inline void GetAscendDequantTmpBufferFactorSize(const ge::Shape& srcShape, uint32_t& maxLiveNodeCount,
                                                uint32_t& extraBuf) {
    (void)srcShape;
    ascendc_emu_adv::tmp_factor(ascendc_emu_adv::TmpKind::AscendDequant, 4, maxLiveNodeCount, extraBuf);
}
inline void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                            ge::DataType inputDataType, ge::DataType outputDataType,
                                            uint32_t& maxValue, uint32_t& minValue) {
    (void)scaleShape; (void)isTranspose; (void)inputDataType;
    ascendc_emu_adv_host::factor_sizes(ascendc_emu_adv::TmpKind::AscendAntiQuant, srcShape,
                                       ascendc_emu_adv_host::dtype_size(outputDataType), maxValue, minValue);
}
inline uint32_t GetAscendAntiQuantMaxTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                             ge::DataType inputDataType, ge::DataType outputDataType) {
    uint32_t mx = 0, mn = 0;
    GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType, mx, mn);
    return mx;
}
inline uint32_t GetAscendAntiQuantMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                             ge::DataType inputDataType, ge::DataType outputDataType) {
    uint32_t mx = 0, mn = 0;
    GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType, mx, mn);
    return mn;
}
inline void GetAscendAntiQuantTmpBufferFactorSize(const ge::Shape& srcShape, const ge::Shape& scaleShape,
                                                  bool isTranspose, ge::DataType inputDataType,
                                                  ge::DataType outputDataType, uint32_t& maxLiveNodeCount,
                                                  uint32_t& extraBuf) {
    (void)srcShape; (void)scaleShape; (void)isTranspose; (void)inputDataType;
    ascendc_emu_adv::tmp_factor(ascendc_emu_adv::TmpKind::AscendAntiQuant,
                                ascendc_emu_adv_host::dtype_size(outputDataType), maxLiveNodeCount, extraBuf);
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_HOST_TILING_ADV_API_TILING_H_
