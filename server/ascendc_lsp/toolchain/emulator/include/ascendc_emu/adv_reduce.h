// High-level reductions (clean-room): Sum / Mean over the last axis of [outter, inner] (归约操作/Sum接口/Sum.md,
// Mean接口/Mean.md), the pattern reductions ReduceSum / ReduceMax / ReduceMin / ReduceMean / ReduceProd /
// ReduceAny / ReduceAll over a 2-D [d0, d1] tile with pattern AR (reduce the last axis) or RA (reduce the first)
// (归约操作/Reduce*接口/*.md), ReduceXorSum, and CumSum (数学计算/CumSum接口/CumSum.md).
// Sums add in the documented order: within a row a binary tree per 256-byte repeat, then over the repeats
// (Sum.md: "采用二叉树方式，两两相加", the same as the basic ReduceSum); 16-bit partials round to the type.
#ifndef ASCENDC_EMU_ASCENDC_EMU_ADV_REDUCE_H_
#define ASCENDC_EMU_ASCENDC_EMU_ADV_REDUCE_H_
#include "adv_common.h"

namespace AscendC {
struct SumParams {
    uint32_t outter = 1;
    uint32_t inner;
    uint32_t n;
};
struct MeanParams {
    uint32_t outter = 1;
    uint32_t inner;
    uint32_t n;
};
namespace Pattern {
namespace Reduce {
// Reduce-axis patterns; the pattern reductions support AR and RA (ReduceSum-90.md: "pattern当前只支持取值为AR和RA").
struct AR { static constexpr bool ar = true; static constexpr uint32_t dims = 2; };
struct RA { static constexpr bool ar = false; static constexpr uint32_t dims = 2; };
}  // namespace Reduce
}  // namespace Pattern
enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };
struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
    CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
constexpr CumSumConfig defaultCumSumConfig{};
struct CumSumInfo {
    uint32_t outter{0};
    uint32_t inner{0};
};
}  // namespace AscendC

namespace ascendc_emu {
namespace adv {
// outter x inner with n valid per row: the shape checks Sum.md and Mean.md state.
EMU_RT_FN bool check_rows(const char* api, uint32_t outter, uint32_t inner, uint32_t n, uint32_t typeSize,
                          const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    bool ok = true;
    if (outter == 0 || n == 0 || n > inner) {
        report_error("adv-shape", "vector-param-invalid", P_V, api, loc,
                     "%s params outter=%u inner=%u n=%u: outter and n must be >= 1 and n <= inner", api, outter, inner,
                     n);
        ok = false;
    }
    if (((uint64_t)inner * typeSize) % 32) {
        uint32_t want = (uint32_t)(((uint64_t)n * typeSize + 31) / 32 * 32 / typeSize);
        report_error("adv-shape", "misaligned-access", P_V, api, loc,
                     "%s inner=%u is %s B per row, not a multiple of 32 B; inner must be n rounded up to 32 B: "
                     "(n * sizeof(T) + 31) / 32 * 32 / sizeof(T) = %u", api, inner,
                     EMU_N((uint64_t)inner * typeSize), want);
        ok = false;
    }
    return ok;
}
#else
;
#endif

// The documented addition order of one row: a tree inside each 256-byte repeat, then over the repeat results.
template <class A>
inline A row_sum(const A* v, uint32_t n) {
    std::vector<calc_t<A>> w(v, v + n);
    return (A)AscendC::detail_red::level_sum<A>(w);
}

template <class T, class A, class F>
inline void rows_reduce(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                        const LocalTensor<uint8_t>* tmp, uint32_t outter, uint32_t inner, uint32_t n, uint32_t need,
                        std::initializer_list<const char*> steps, const Loc& loc, F finish) {
    begin_epoch(P_V);
    bool ok = check_ub_position(api, "dstTensor", dst.pos_, loc) && check_ub_position(api, "srcTensor", src.pos_, loc);
    ok = check_rows(api, outter, inner, n, sizeof(T), loc) && ok;
    uint64_t total = (uint64_t)outter * inner;
    ok = src.emu_check(0, total, false, P_V, api, loc) && ok;
    ok = dst.emu_check(0, outter, true, P_V, api, loc) && ok;
    warn_overlap(api, "dstTensor", dst, (uint64_t)outter * sizeof(T), "srcTensor", src, total * sizeof(T), loc);
    char what[64];
    snprintf(what, sizeof what, "rows of n=%u %s", n, dtype_name<T>());
    ok = take_tmp(api, tmp, need, need, what, loc) && ok;
    if (ok) {
        const T* s = (const T*)src.ptr_;
        T* d = (T*)dst.ptr_;
        std::vector<A> row(n);
        for (uint32_t r = 0; r < outter; r++) {
            for (uint32_t i = 0; i < n; i++) row[i] = (A)(float)s[(uint64_t)r * inner + i];
            d[r] = (T)finish(row_sum<A>(row.data(), n), n);
        }
    }
    restore_norm();
    trace_steps(api, steps, dtype_name<A>(), total, sizeof(A), loc);
}

// Pattern reduction over [d0, d1] (row stride: d1 padded to 32 B when srcInnerPad).
template <class T, class Pat, class Init, class Comb, class Fin>
inline void pattern_reduce(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LocalTensor<uint8_t>* tmp, const uint32_t srcShape[], bool srcInnerPad,
                           std::initializer_list<const char*> steps, const Loc& loc, Init init, Comb comb, Fin fin,
                           bool tree_sum) {
    begin_epoch(P_V);
    const uint32_t d0 = srcShape ? srcShape[0] : 0, d1 = srcShape ? srcShape[1] : 0;
    const uint32_t stride = (uint32_t)((ascendc_emu_adv::align32((uint64_t)d1 * sizeof(T))) / sizeof(T));
    bool ok = check_ub_position(api, "dstTensor", dst.pos_, loc) && check_ub_position(api, "srcTensor", src.pos_, loc);
    if (!d0 || !d1) {
        report_error("adv-shape", "vector-param-invalid", P_V, api, loc, "%s srcShape is [%u, %u]: both must be >= 1",
                     api, d0, d1);
        ok = false;
    }
    if (!srcInnerPad && stride != d1) {
        report_error("adv-shape", "misaligned-access", P_V, api, loc,
                     "%s srcInnerPad is false but the last axis (%u x %zu B) is not 32-byte aligned; on this SoC the "
                     "API supports only srcInnerPad = true with the last axis padded to %u elements", api, d1,
                     sizeof(T), stride);
        ok = false;
    }
    const uint32_t outN = Pat::ar ? d0 : d1;
    ok = src.emu_check(0, (uint64_t)(d0 ? d0 - 1 : 0) * stride + d1, false, P_V, api, loc) && ok;
    ok = dst.emu_check(0, outN, true, P_V, api, loc) && ok;
    uint32_t mx = 0, mn = 0;
    ascendc_emu_adv::reduce_tmp_bytes(d0, d1, sizeof(T), Pat::ar, mx, mn);
    char what[64];
    snprintf(what, sizeof what, "a [%u, %u] %s tile", d0, d1, dtype_name<T>());
    ok = take_tmp(api, tmp, mn, mx, what, loc) && ok;
    if (ok) {
        const T* s = (const T*)src.ptr_;
        T* d = (T*)dst.ptr_;
        const uint32_t len = Pat::ar ? d1 : d0;
        std::vector<calc_t<T>> v(len);
        for (uint32_t o = 0; o < outN; o++) {
            for (uint32_t k = 0; k < len; k++)
                v[k] = (calc_t<T>)(Pat::ar ? s[(uint64_t)o * stride + k] : s[(uint64_t)k * stride + o]);
            calc_t<T> acc;
            if (tree_sum) {
                acc = (calc_t<T>)AscendC::detail_red::level_sum<T>(v);
                v.resize(len);
            } else {
                acc = init(v[0]);
                for (uint32_t k = 1; k < len; k++) acc = comb(acc, v[k]);
            }
            d[o] = (T)fin(acc, len);
        }
    }
    restore_norm();
    trace_steps(api, steps, dtype_name<T>(), (uint64_t)d0 * d1, sizeof(T), loc);
}
}  // namespace adv
}  // namespace ascendc_emu

namespace AscendC {
// 归约操作/Sum接口/Sum.md
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                const LocalTensor<uint8_t>& sharedTmpBuffer, const SumParams& sumParams, EMU_LOC) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value, "Sum: half or float");
    ascendc_emu::adv::rows_reduce<T, T>("Sum", dstTensor, srcTensor, &sharedTmpBuffer, sumParams.outter,
                                        sumParams.inner, sumParams.n,
                                        ascendc_emu_adv::sum_tmp_bytes(sumParams.n, sizeof(T)),
                                        {"BlockReduceSum", "WholeReduceSum"}, loc, [](T v, uint32_t) { return v; });
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SumParams& sumParams, EMU_LOC) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value, "Sum: half or float");
    ascendc_emu::adv::rows_reduce<T, T>("Sum", dstTensor, srcTensor, nullptr, sumParams.outter, sumParams.inner,
                                        sumParams.n, ascendc_emu_adv::sum_tmp_bytes(sumParams.n, sizeof(T)),
                                        {"BlockReduceSum", "WholeReduceSum"}, loc, [](T v, uint32_t) { return v; });
}
// 归约操作/Mean接口/Mean.md: the row sum (in accType) divided by n.
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const MeanParams& meanParams, EMU_LOC) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value && ascendc_emu::adv::is_f16_or_f32<accType>::value,
                  "Mean: half or float");
    ascendc_emu::adv::rows_reduce<T, accType>(
        "Mean", dstTensor, srcTensor, &sharedTmpBuffer, meanParams.outter, meanParams.inner, meanParams.n,
        ascendc_emu_adv::mean_tmp_bytes(meanParams.n, sizeof(T), sizeof(accType)),
        {"BlockReduceSum", "WholeReduceSum", "Muls"}, loc,
        [](accType v, uint32_t n) { return (accType)((float)v * (1.0f / (float)n)); });
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const MeanParams& meanParams,
                 EMU_LOC) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value && ascendc_emu::adv::is_f16_or_f32<accType>::value,
                  "Mean: half or float");
    ascendc_emu::adv::rows_reduce<T, accType>(
        "Mean", dstTensor, srcTensor, nullptr, meanParams.outter, meanParams.inner, meanParams.n,
        ascendc_emu_adv::mean_tmp_bytes(meanParams.n, sizeof(T), sizeof(accType)),
        {"BlockReduceSum", "WholeReduceSum", "Muls"}, loc,
        [](accType v, uint32_t n) { return (accType)((float)v * (1.0f / (float)n)); });
}

// Pattern reductions: 归约操作/{ReduceSum-90,ReduceMax-91,ReduceMin-92,ReduceMean,ReduceProd,ReduceAny,ReduceAll}.md
#define ASCENDC_EMU_PATTERN_REDUCE(NAME, ASSERT_T, STEPS, TREE, INIT, COMB, FIN)                                \
    template <class T, class pattern, bool isReuseSource = false>                                              \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                         \
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[], bool srcInnerPad, \
                     EMU_LOC) {                                                                                \
        static_assert(ASSERT_T, #NAME ": unsupported data type (see the API's doc page)");                     \
        using C = ascendc_emu::calc_t<T>;                                                                      \
        ascendc_emu::adv::pattern_reduce<T, pattern>(#NAME, dstTensor, srcTensor, &sharedTmpBuffer, srcShape,  \
                                                     srcInnerPad, STEPS, loc, INIT, COMB, FIN, TREE);          \
    }                                                                                                          \
    template <class T, class pattern, bool isReuseSource = false>                                              \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t srcShape[], \
                     bool srcInnerPad, EMU_LOC) {                                                              \
        static_assert(ASSERT_T, #NAME ": unsupported data type (see the API's doc page)");                     \
        using C = ascendc_emu::calc_t<T>;                                                                      \
        ascendc_emu::adv::pattern_reduce<T, pattern>(#NAME, dstTensor, srcTensor, nullptr, srcShape,           \
                                                     srcInnerPad, STEPS, loc, INIT, COMB, FIN, TREE);          \
    }
#define ASCENDC_EMU_ID [](C a) { return a; }
#define ASCENDC_EMU_KEEP [](C a, uint32_t) { return a; }
ASCENDC_EMU_PATTERN_REDUCE(ReduceSum, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Add", "WholeReduceSum"), true,
                           ASCENDC_EMU_ID, [](C a, C b) { return a + b; }, ASCENDC_EMU_KEEP)
ASCENDC_EMU_PATTERN_REDUCE(ReduceMean, (std::is_same<T, float>::value), ASCENDC_EMU_STEPS("Add", "WholeReduceSum", "Muls"),
                           true, ASCENDC_EMU_ID, [](C a, C b) { return a + b; },
                           [](C a, uint32_t n) { return (C)(a * (1.0f / (float)n)); })
ASCENDC_EMU_PATTERN_REDUCE(ReduceMax, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Max", "WholeReduceMax"), false, ASCENDC_EMU_ID,
                           [](C a, C b) { return b > a ? b : a; }, ASCENDC_EMU_KEEP)
ASCENDC_EMU_PATTERN_REDUCE(ReduceMin, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Min", "WholeReduceMin"), false, ASCENDC_EMU_ID,
                           [](C a, C b) { return b < a ? b : a; }, ASCENDC_EMU_KEEP)
ASCENDC_EMU_PATTERN_REDUCE(ReduceProd, (std::is_same<T, float>::value), ASCENDC_EMU_STEPS("Mul", "Mul"), false,
                           ASCENDC_EMU_ID, [](C a, C b) { return a * b; }, ASCENDC_EMU_KEEP)
ASCENDC_EMU_PATTERN_REDUCE(ReduceAny, (ascendc_emu::adv::one_of<T, uint8_t, float>::value),
                           ASCENDC_EMU_STEPS("Max", "WholeReduceMax"), false, [](C a) { return (C)(a != 0); },
                           [](C a, C b) { return (C)(a != 0 || b != 0); }, ASCENDC_EMU_KEEP)
ASCENDC_EMU_PATTERN_REDUCE(ReduceAll, (ascendc_emu::adv::one_of<T, uint8_t, float>::value),
                           ASCENDC_EMU_STEPS("Min", "WholeReduceMin"), false, [](C a) { return (C)(a != 0); },
                           [](C a, C b) { return (C)(a != 0 && b != 0); }, ASCENDC_EMU_KEEP)
#undef ASCENDC_EMU_ID
#undef ASCENDC_EMU_KEEP

// 归约操作/ReduceXorSum接口/ReduceXorSum.md: sum over calCount of (src0 ^ src1), int16_t.
namespace detail_xorsum {
template <class T>
inline void run(const LocalTensor<T>& dst, const LocalTensor<T>& s0, const LocalTensor<T>& s1,
                const LocalTensor<uint8_t>* tmp, uint32_t n, const ascendc_emu::Loc& loc) {
    static_assert(std::is_same<T, int16_t>::value, "ReduceXorSum: int16_t");
    using namespace ascendc_emu;
    begin_epoch(P_V);
    bool ok = s0.emu_check(0, n, false, P_V, "ReduceXorSum", loc);
    ok = s1.emu_check(0, n, false, P_V, "ReduceXorSum", loc) && ok;
    ok = dst.emu_check(0, 1, true, P_V, "ReduceXorSum", loc) && ok;
    ok = adv::take_tmp("ReduceXorSum", ascendc_emu_adv::TmpKind::Xor, sizeof(T), tmp, n, "int16", loc) && ok;
    if (ok) {
        const T *a = (const T*)s0.ptr_, *b = (const T*)s1.ptr_;
        int32_t s = 0;
        for (uint32_t i = 0; i < n; i++) s += (int16_t)(a[i] ^ b[i]);
        ((T*)dst.ptr_)[0] = (T)s;
    }
    adv::trace_steps("ReduceXorSum", {"Or", "And", "Not", "And", "Cast", "ReduceSum"}, "int16", n, 2, loc);
}
}  // namespace detail_xorsum
template <typename T, bool isReuseSource = false>
inline void ReduceXorSum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                         const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                         const uint32_t calCount, EMU_LOC) {
    detail_xorsum::run(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void ReduceXorSum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                         const LocalTensor<T>& src1Tensor, const uint32_t calCount, EMU_LOC) {
    detail_xorsum::run(dstTensor, src0Tensor, src1Tensor, nullptr, calCount, loc);
}

// 数学计算/CumSum接口/CumSum.md: prefix sums of an [outter, inner] tile along the last axis (isLastAxis) or down
// the first; LINEBYLINE adds row after row, SKLANSKY in the binary rounds of the Sklansky scan (fp32 for half).
namespace detail_cumsum {
template <class T>
inline void run(const CumSumConfig& cfg, const LocalTensor<T>& dst, const LocalTensor<T>& lastRow,
                const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp, const CumSumInfo& info,
                const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    static_assert(adv::is_f16_or_f32<T>::value, "CumSum: half or float");
    const char* api = "CumSum";
    begin_epoch(P_V);
    const uint32_t R = info.outter, C = info.inner;
    bool ok = adv::check_ub_position(api, "dstTensor", dst.pos_, loc) && adv::check_ub_position(api, "srcTensor", src.pos_, loc);
    if (!R || !C) {
        report_error("adv-shape", "vector-param-invalid", P_V, api, loc,
                     "CumSum cumSumInfo outter=%u inner=%u: both must be > 0", R, C);
        ok = false;
    }
    if (((uint64_t)C * sizeof(T)) % 32) {
        report_error("adv-shape", "misaligned-access", P_V, api, loc,
                     "CumSum cumSumInfo.inner=%u is %s B per row; inner * sizeof(T) must be a multiple of 32 B", C,
                     EMU_N((uint64_t)C * sizeof(T)));
        ok = false;
    }
    const uint64_t n = (uint64_t)R * C;
    ok = src.emu_check(0, n, false, P_V, api, loc) && ok;
    ok = dst.emu_check(0, n, true, P_V, api, loc) && ok;
    if (cfg.outputLastRow) ok = lastRow.emu_check(0, C, true, P_V, api, loc) && ok;
    uint32_t need = ascendc_emu_adv::cumsum_tmp_bytes(R, C, sizeof(T), cfg.isLastAxis);
    ok = adv::take_tmp(api, tmp, need, need, "the tile", loc) && ok;
    if (ok) {
        const T* s = (const T*)src.ptr_;
        T* d = (T*)dst.ptr_;
        // axis view: `lines` independent prefix scans of `len` elements, element k of line l at off(l, k)
        const uint32_t lines = cfg.isLastAxis ? R : C, len = cfg.isLastAxis ? C : R;
        auto off = [&](uint32_t l, uint32_t k) -> uint64_t {
            return cfg.isLastAxis ? (uint64_t)l * C + k : (uint64_t)k * C + l;
        };
        std::vector<float> v(len);
        for (uint32_t l = 0; l < lines; l++) {
            for (uint32_t k = 0; k < len; k++) v[k] = (float)s[off(l, k)];
            if (cfg.algorithm == CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY) {
                for (uint32_t w = 1; w < len; w <<= 1)  // round: each upper half adds the last of its lower half
                    for (uint32_t b = 0; b < len; b += 2 * w)
                        for (uint32_t j = b + w; j < b + 2 * w && j < len; j++) v[j] = v[b + w - 1] + v[j];
            } else {
                for (uint32_t k = 1; k < len; k++) v[k] = v[k - 1] + v[k];
            }
            for (uint32_t k = 0; k < len; k++) d[off(l, k)] = (T)v[k];
        }
        if (cfg.outputLastRow) memcpy(lastRow.ptr_, d + (uint64_t)(R - 1) * C, (size_t)C * sizeof(T));
    }
    restore_norm();
    adv::trace_steps(api, cfg.isLastAxis ? ASCENDC_EMU_STEPS("Transpose", "Add", "Transpose") : ASCENDC_EMU_STEPS("Add"),
                     "float", n, 4, loc);
}
}  // namespace detail_cumsum
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
inline void CumSum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo, EMU_LOC) {
    detail_cumsum::run(config, dstTensor, lastRowTensor, srcTensor, &sharedTmpBuffer, cumSumInfo, loc);
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
inline void CumSum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                   const CumSumInfo& cumSumInfo, EMU_LOC) {
    detail_cumsum::run(config, dstTensor, lastRowTensor, srcTensor, nullptr, cumSumInfo, loc);
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_ADV_REDUCE_H_
