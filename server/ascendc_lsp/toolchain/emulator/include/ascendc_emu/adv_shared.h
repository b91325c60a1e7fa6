// What the kernel side and the host side of the high-level (lib/) APIs share: the enums both sides name
// (AscendC::ReducePattern, TopKMode, ...) and the temporary-buffer model, used by the kernel side (which checks the
// sharedTmpBuffer a kernel passes, or the UB the framework takes) and the host side
// (host_include/tiling/adv_api_tiling.h: Get<Api>MaxMinTmpSize / Get<Api>TmpBufferFactorSize), so the sizes the
// host returns and the sizes the kernel requires are one table. Plain C++ (no emulator state): both builds include it.
//
// The model is the one the devkit documents for the factor queries (docs/zh/api/SIMD-API/高阶API/数学计算/
// Sin接口/GetSinTmpBufferFactorSize.md and its siblings): an API working on `n` elements of `typeSize` bytes per
// pass needs maxLiveNodeCount * typeSize * n + extraBuf bytes, and one pass covers at least 256 B of input
// (currentShapeSize * typeSize is rounded up to 256 B). Hence
//     minValue = maxLiveNodeCount * 256 + extraBuf            (one 256-byte pass: correct, slowest)
//     maxValue = maxLiveNodeCount * typeSize * n' + extraBuf  (n' = n rounded up to a whole 256-byte pass)
// The per-API node counts are not published: these are the intermediates of the emulator's own sequence of
// vector steps (fp32 intermediates count twice for a 16-bit type), chosen not to exceed what public kernels that
// pass on the NPU provide.
#ifndef ASCENDC_EMU_ASCENDC_EMU_ADV_SHARED_H_
#define ASCENDC_EMU_ASCENDC_EMU_ADV_SHARED_H_
#include <cstddef>
#include <cstdint>

namespace AscendC {
// docs/zh/api/SIMD-API/高阶API/归约操作/ReduceSum接口/GetReduceSumMaxMinTmpSize.md (host) and NormalizeConfig (kernel)
enum class ReducePattern : uint32_t {
    AR = 0, RA = 1, R, ARA, ARAR, ARARA, ARARAR, ARARARA, ARARARAR, ARARARARA, RAR, RARA, RARAR, RARARA, RARARAR,
    RARARARA,
};
// Configs the host queries take too (数学计算/Sin接口/GetSinMaxMinTmpSize.md, Cos接口/...; 排序操作/TopK*.md).
enum class SinAlgo { POLYNOMIAL_APPROXIMATION = 0, RADIAN_REDUCTION };
struct SinConfig { SinAlgo algo = SinAlgo::POLYNOMIAL_APPROXIMATION; };
constexpr SinConfig defaultSinConfig{};
enum class CosAlgo { POLYNOMIAL_APPROXIMATION = 0, RADIAN_REDUCTION };
struct CosConfig { CosAlgo algo = CosAlgo::POLYNOMIAL_APPROXIMATION; };
constexpr CosConfig defaultCosConfig{};
enum class TopKMode { TOPK_NORMAL = 0, TOPK_NSMALL };
// Sort.md / GetSortMaxMinTmpSize.md: the algorithm, the order and whether the call has source / destination indices.
enum class SortType { RADIX_SORT, MERGE_SORT };
struct SortConfig {
    SortType type = SortType::RADIX_SORT;
    bool isDescend = false;
    bool hasSrcIndex = false;
    bool hasDstIndex = false;
};
constexpr SortConfig DEFAULT_SORT_CONFIG = {SortType::RADIX_SORT, false, false, false};
enum class TopKAlgo { RADIX_SELECT, MERGE_SORT };
enum class TopKOrder { UNSET, LARGEST, SMALLEST };
struct TopKConfig {
    TopKAlgo algo = TopKAlgo::MERGE_SORT;
    TopKOrder order = TopKOrder::UNSET;
    bool sorted = true;
};
constexpr TopKConfig defaultTopKConfig{};
}  // namespace AscendC

namespace ascendc_emu_adv {

enum class TmpKind : uint8_t {
    Sigmoid, Tanh, Silu, Swish, Gelu, FasterGelu, FasterGeluV2, Log, Log2, Log10, Power, Sign, Sin, Cos, Tan,
    Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh, Erf, Erfc, Floor, Ceil, Round, Trunc, Frac, Rint, Exp, Xor,
    Axpy, Clamp, Fmod, Hypot, Lgamma, Digamma, SinCos, IsInf, IsNan, Fma, Where, Logical, Bitwise, GeGLU, SwiGLU,
    ReGlu, AscendQuant, AscendDequant, AscendAntiQuant, Count
};

struct TmpFactor {
    const char* api;
    uint32_t nodes16;  // maxLiveNodeCount for 1- and 2-byte element types
    uint32_t nodes32;  // maxLiveNodeCount for 4-byte element types
    uint32_t extra;    // extraBuf, bytes
};

// Indexed by TmpKind.
constexpr TmpFactor kTmpFactors[] = {
    {"Sigmoid", 4, 1, 0},  {"Tanh", 4, 1, 0},       {"Silu", 4, 1, 0},       {"Swish", 4, 1, 0},
    {"Gelu", 4, 2, 0},     {"FasterGelu", 4, 1, 0}, {"FasterGeluV2", 4, 2, 0}, {"Log", 2, 0, 0},
    {"Log2", 2, 0, 0},     {"Log10", 2, 0, 0},      {"Power", 6, 3, 0},      {"Sign", 2, 1, 0},
    {"Sin", 6, 2, 0},      {"Cos", 6, 2, 0},        {"Tan", 8, 3, 0},        {"Asin", 8, 3, 0},
    {"Acos", 8, 3, 0},     {"Atan", 8, 3, 0},       {"Sinh", 4, 1, 0},       {"Cosh", 6, 2, 0},
    {"Asinh", 6, 2, 0},    {"Acosh", 6, 2, 0},      {"Atanh", 6, 2, 0},      {"Erf", 8, 3, 0},
    {"Erfc", 8, 3, 0},     {"Floor", 2, 0, 0},      {"Ceil", 2, 0, 0},       {"Round", 2, 0, 0},
    {"Trunc", 2, 0, 0},    {"Frac", 2, 1, 0},       {"Rint", 2, 0, 0},       {"Exp", 4, 2, 0},
    {"Xor", 1, 1, 0},      {"Axpy", 2, 1, 0},       {"Clamp", 1, 1, 0},      {"Fmod", 6, 2, 0},
    {"Hypot", 4, 2, 0},    {"Lgamma", 12, 5, 0},    {"Digamma", 12, 5, 0},   {"SinCos", 6, 2, 0},
    {"IsInf", 0, 0, 0},    {"IsNan", 0, 0, 0},      {"Fma", 0, 0, 0},        {"Where", 0, 0, 0},
    {"Logical", 0, 0, 0},  {"Bitwise", 0, 0, 0},    {"GeGLU", 4, 2, 0},      {"SwiGLU", 4, 2, 0},
    {"ReGlu", 2, 1, 0},    {"AscendQuant", 2, 1, 0}, {"AscendDequant", 2, 2, 0}, {"AscendAntiQuant", 2, 1, 0},
};
static_assert(sizeof(kTmpFactors) / sizeof(kTmpFactors[0]) == (unsigned)TmpKind::Count, "one factor per TmpKind");

constexpr uint32_t kPassBytes = 256;  // one vector repeat: the smallest pass the factor model allows

inline void tmp_factor(TmpKind k, uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    const TmpFactor& f = kTmpFactors[(unsigned)k];
    maxLiveNodeCount = typeSize >= 4 ? f.nodes32 : f.nodes16;
    extraBuf = f.extra;
}

inline uint32_t tmp_min_bytes(TmpKind k, uint32_t typeSize) {
    uint32_t nodes = 0, extra = 0;
    tmp_factor(k, typeSize, nodes, extra);
    return nodes * kPassBytes + extra;
}

inline uint32_t tmp_max_bytes(TmpKind k, uint32_t typeSize, uint64_t elements) {
    uint32_t nodes = 0, extra = 0;
    tmp_factor(k, typeSize, nodes, extra);
    if (typeSize == 0) typeSize = 1;
    uint64_t bytes = elements * typeSize;
    bytes = (bytes + kPassBytes - 1) / kPassBytes * kPassBytes;
    if (bytes < kPassBytes) bytes = kPassBytes;
    uint64_t v = (uint64_t)nodes * bytes + extra;
    return v > 0xffffffffull ? 0xffffffffu : (uint32_t)v;
}

inline uint32_t align32(uint64_t bytes) { return (uint32_t)((bytes + 31) / 32 * 32); }

// Sum / Mean (归约操作/Sum接口, Mean接口): per pass one row; the tree keeps one partial per 256-byte repeat of the
// row (in the accumulation type), and Mean with a wider accType a converted copy of the row.
inline uint32_t sum_tmp_bytes(uint32_t n, uint32_t typeSize) {
    uint64_t reps = ((uint64_t)n * typeSize + 255) / 256;
    return align32((reps ? reps : 1) * typeSize);
}
inline uint32_t mean_tmp_bytes(uint32_t n, uint32_t srcTypeSize, uint32_t accTypeSize) {
    uint32_t copy = accTypeSize != srcTypeSize ? align32((uint64_t)n * accTypeSize) : 0;
    return copy + sum_tmp_bytes(n, accTypeSize);
}
// Pattern reductions (ReduceSum/Max/Min/Mean/Prod/Any/All with AR or RA) over a [d0, d1] tile whose last axis is
// padded to 32 B: AR keeps the partials of one row (min) or of every row (max); RA one accumulator row.
inline void reduce_tmp_bytes(uint32_t d0, uint32_t d1, uint32_t typeSize, bool ar, uint32_t& maxValue,
                             uint32_t& minValue) {
    uint32_t inner = align32((uint64_t)d1 * typeSize);
    if (ar) {
        uint64_t reps = ((uint64_t)inner + 255) / 256;
        minValue = align32((reps ? reps : 1) * typeSize);
        uint64_t mx = (uint64_t)minValue * (d0 ? d0 : 1);
        maxValue = mx > 0xffffffffull ? 0xffffffffu : (uint32_t)mx;
    } else {
        minValue = inner;
        maxValue = inner;
    }
}
// CumSum (数学计算/CumSum接口): the fp32 running row (16-bit inputs) plus, along the last axis, a transposed copy.
inline uint32_t cumsum_tmp_bytes(uint32_t outter, uint32_t inner, uint32_t typeSize, bool lastAxis) {
    uint64_t row = typeSize < 4 ? (uint64_t)inner * 4 : 0;
    uint64_t v = row + (lastAxis ? (uint64_t)outter * inner * 4 : 0);
    return align32(v);
}

// ---- data arrangement and filters (张量变换/*, 数据过滤/*): per call minimum and maximum.
// Broadcast along axis 1: one 32-byte block per source row (brcb) plus the aligned copy when rows are not 32 B.
inline void broadcast_tmp(uint32_t dstRows, uint32_t dstCols, uint32_t typeSize, int axis, uint64_t& mx,
                          uint64_t& mn) {
    mn = axis == 1 ? 32 : 0;
    mx = axis == 1 ? (uint64_t)dstRows * 32 + (((uint64_t)dstCols * typeSize) % 32 ? (uint64_t)dstRows * dstCols * typeSize : 0)
                   : 0;
}
// Select with a byte mask / DropOut: one row's mask converted to half plus its 32 bytes of compare bits.
constexpr uint64_t select_bytes_row_tmp(uint32_t srcLastAxis) { return ((uint64_t)srcLastAxis * 2 + 31) / 32 * 32 + 32; }
constexpr uint64_t dropout_row_tmp(uint32_t srcLastAxis, bool byteMode) {
    return byteMode ? ((uint64_t)srcLastAxis * 2 + 31) / 32 * 32 : 32;
}

// ---- sort family (排序操作/*.md): Sort/Extract use (score, index) pairs of 8 bytes per element (GetSortLen).
constexpr uint32_t sort_pair_bytes() { return 8; }
constexpr uint64_t sort_tmp_bytes(uint32_t elemCount) { return (uint64_t)elemCount * 8; }  // the merge's second buffer
constexpr uint64_t concat_tmp_bytes(uint32_t elemCount) { return (void)elemCount, 0; }     // A2/A3: a plain copy
// Sort with SortConfig (GetSortMaxMinTmpSize.md gives no formula; the emulator's model, min = max): RADIX_SORT
// keeps a second copy of the values and indices for its ping-pong passes plus a 256-bucket uint32 histogram;
// MERGE_SORT the merge's second buffer of 8-byte records. The emulated kernel sorts in host memory and needs only
// a non-empty sharedTmpBuffer, so any size from this range runs.
constexpr uint64_t sort_config_tmp_bytes(uint64_t elemCount, uint32_t valueSize, uint32_t indexSize, bool merge) {
    return merge ? elemCount * 8 : (elemCount * (valueSize + indexSize) + 31) / 32 * 32 + 256 * 4;
}
// TopK: a row's sorted pairs twice (sort + merge) plus its generated indices; Small mode sorts every row at once.
constexpr uint64_t topk_row_tmp(uint32_t inner) { return (uint64_t)inner * (8 * 2 + 4); }
constexpr uint64_t topk_tmp_bytes(uint32_t inner, uint32_t outter, bool smallMode) {
    return smallMode ? (uint64_t)outter * topk_row_tmp(inner) : topk_row_tmp(inner);
}

// ---- normalisations (归一化操作/*.md): a pass keeps fp32 rows of the last axis (x - mean, its square, ...; a
// 16-bit input adds its fp32 copy) plus two 32-byte blocks; min = one row, max = every row.
enum class NormKind : uint8_t { LayerNorm, LayerNormAR, Normalize, RmsNorm, DeepNorm, LayerNormGrad };
constexpr uint32_t norm_f32_rows(NormKind k) {
    return k == NormKind::RmsNorm ? 1 : k == NormKind::DeepNorm ? 3 : k == NormKind::LayerNormGrad ? 4 : 2;
}
constexpr uint64_t norm_row_tmp(NormKind k, uint32_t h, uint32_t typeSize) {
    return (uint64_t)h * 4 * (norm_f32_rows(k) + (typeSize < 4 ? 1 : 0)) + 64;
}
constexpr uint64_t batchnorm_tmp(uint32_t features) { return (uint64_t)features * 4 * 3; }  // mean, var, one column
constexpr uint64_t groupnorm_tmp(uint32_t groupElems) { return (uint64_t)groupElems * 4 * 2; }
constexpr uint64_t lngradbeta_tmp(uint32_t h) { return (uint64_t)h * 4 * 2; }
constexpr uint64_t welford_update_min_tmp() { return 256; }
constexpr uint64_t welford_update_max_tmp(uint32_t ab) { return (uint64_t)ab * 4 * 2; }
constexpr uint64_t welford_finalize_tmp(uint32_t ab) { return (uint64_t)ab * 4; }

// ---- softmax family (激活函数/SoftMax接口/*.md): rows are processed in passes of splitM rows; one row of a pass
// keeps its fp32 exp row, an fp32 copy of a 16-bit input (and of the second input for SoftmaxGrad), and the
// row's max and sum as 32-byte blocks (two more for the update forms of the flash variants).
enum class SmKind : uint8_t { SoftMax, LogSoftMax, Flash, FlashV2, FlashV3, Grad };
constexpr uint32_t sm_row_bytes(SmKind kind, uint32_t k, uint32_t typeSize, bool update) {
    uint64_t row = (uint64_t)k * 4;
    uint64_t v = row + (typeSize < 4 ? row : 0) + 64;
    if (kind == SmKind::Grad) v += row;
    if (update && (kind == SmKind::Flash || kind == SmKind::FlashV2 || kind == SmKind::FlashV3)) v += 64;
    return v > 0xffffffffull ? 0xffffffffu : (uint32_t)v;
}
constexpr uint32_t sm_min_bytes(SmKind kind, uint32_t m, uint32_t k, uint32_t typeSize, bool update) {
    return m ? sm_row_bytes(kind, k, typeSize, update) : 0;
}
constexpr uint32_t sm_max_bytes(SmKind kind, uint32_t m, uint32_t k, uint32_t typeSize, bool update) {
    uint64_t v = (uint64_t)m * sm_row_bytes(kind, k, typeSize, update);
    return v > 0xffffffffull ? 0xffffffffu : (uint32_t)v;
}
// The 16 SoftMaxTiling fields (SoftMax-Tiling使用说明.md order) for an [m, k] problem given the tmp space:
// splitM rows per pass (as many as fit), rangeM full passes, tailM rows left.
constexpr void sm_tiling(uint32_t m, uint32_t k, uint32_t rowBytes, uint32_t localWorkSpaceSize, uint32_t blkElems,
                         uint32_t out[16]) {
    uint32_t split = rowBytes ? localWorkSpaceSize / rowBytes : 0;
    if (split > m) split = m;
    out[0] = m; out[1] = k; out[2] = m * k;
    out[3] = m; out[4] = blkElems; out[5] = m * blkElems;
    out[6] = split; out[7] = k; out[8] = split * k;
    out[9] = split; out[10] = blkElems; out[11] = split * blkElems;
    out[12] = split ? m / split : 0;
    out[13] = split ? m % split : 0;
    out[14] = out[13] * k;
    out[15] = out[13] * blkElems;
}
// Shape of a host ge::Shape-like dims list as [m, k]: k the last axis, m the product of the others.
template <class Dims>
inline void sm_mk(const Dims& dims, uint32_t& m, uint32_t& k) {
    m = 1; k = 0;
    size_t n = dims.size();
    for (size_t i = 0; i < n; i++) {
        if (i + 1 == n) k = (uint32_t)dims[i];
        else m *= (uint32_t)dims[i];
    }
    if (n == 0) m = 0;
}

}  // namespace ascendc_emu_adv
#endif  // ASCENDC_EMU_ASCENDC_EMU_ADV_SHARED_H_
