// High-level quantisation APIs (clean-room), docs/zh/api/SIMD-API/高阶API/量化操作/: AscendQuant (float/half ->
// int8: the inputs converted to half, Muls/Mul by scale then Adds/Add offset in half, half -> int8 with round half
// to even, saturating; the Ascend 950 dstT forms also to fp8_e4m3fn_t / fp8_e5m2_t / hifloat8_t through fp32),
// AscendDequant (int32 [m, n] -> dstT: fp32 product with the first calCount scales of each
// row, one rounding; rows of dst padded to 32 B) and AscendAntiQuant (int8 -> half/bfloat16_t:
// scale * (src + offset), per tensor or per channel, with or without transposition), in the classic forms.
#ifndef ASCENDC_EMU_ASCENDC_EMU_ADV_QUANT_H_
#define ASCENDC_EMU_ASCENDC_EMU_ADV_QUANT_H_
#include "adv_common.h"

namespace AscendC {
struct AscendQuantConfig {
    uint32_t calcCount = 0;
    uint32_t offsetCount = 0;
    uint32_t scaleCount = 0;
    uint32_t workLocalSize = 0;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};
enum class DeQuantMode { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };
struct DequantParams {
    uint32_t m;
    uint32_t n;
    uint32_t calCount;
};
struct AntiQuantShapeInfo {
    uint32_t offsetHeight{0};
    uint32_t offsetWidth{0};
    uint32_t scaleHeight{0};
    uint32_t scaleWidth{0};
};
}  // namespace AscendC

namespace ascendc_emu {
namespace adv {
namespace quant {
inline int8_t sat_int8(float v) {
    if (std::isnan(v)) return 0;
    float r = std::nearbyint(v);  // round half to even ("四舍六入五成双")
    return (int8_t)(r > 127.0f ? 127.0f : r < -128.0f ? -128.0f : r);
}
// AscendQuant.md 实现原理: float operands become half first; the product and the sum are each rounded to half.
inline int8_t quant1(float x, float scale, float offset) {
    half xh = (half)x, sh = (half)scale, oh = (half)offset;
    half t = (half)((float)xh * (float)sh);
    half u = (half)((float)t + (float)oh);
    return sat_int8((float)u);
}
template <class S> inline float scale_of(S v) { return (float)v; }
template <> inline float scale_of<uint64_t>(uint64_t v) {  // DEQSCALE format: the fp32 scale in the low 32 bits
    uint32_t lo = (uint32_t)v;
    float f;
    memcpy(&f, &lo, 4);
    return f;
}
// The Ascend 950 8-bit float destinations (AscendQuant.md 表2: fp8_e4m3fn_t, fp8_e5m2_t, hifloat8_t). The page
// describes the half chain for int8_t only; for these the product and the sum are kept in fp32 (one rounding each)
// and the result is converted by the destination type's default rounding of 表4 (e4m3/e5m2: CAST_RINT, hifloat8:
// CAST_ROUND) with saturation (ascendc_emu/fp8.h).
template <class D> struct is_fp8_dst : std::integral_constant<bool, std::is_same<D, fp8_e4m3fn_t>::value ||
                                                                    std::is_same<D, fp8_e5m2_t>::value ||
                                                                    std::is_same<D, hifloat8_t>::value> {};
inline void store(int8_t* d, float x, float scale, float offset) { *d = quant1(x, scale, offset); }
template <class D, class = typename std::enable_if<is_fp8_dst<D>::value>::type>
inline void store(D* d, float x, float scale, float offset) {
    const float t = x * scale;
    *d = D(t + offset);
}
}  // namespace quant
}  // namespace adv
}  // namespace ascendc_emu

namespace AscendC {
namespace detail_quant {
using ascendc_emu::Loc;
template <class D> constexpr const char* fp8_name() {
    return std::is_same<D, fp8_e4m3fn_t>::value ? "fp8_e4m3fn_t" : std::is_same<D, fp8_e5m2_t>::value ? "fp8_e5m2_t"
                                                                                                       : "hifloat8_t";
}
// scale[i % scaleCount], offset[i % offsetCount] (per channel); counts of 0 mean a scalar.
template <class D, class T, class GetS, class GetO>
inline void quant(const LocalTensor<D>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                  uint32_t n, GetS scale, GetO offset, const Loc& loc) {
    using namespace ascendc_emu;
    static_assert(adv::is_float_like<T>::value, "AscendQuant: half, bfloat16_t or float input");
    static_assert(std::is_same<D, int8_t>::value || adv::quant::is_fp8_dst<D>::value,
                  "AscendQuant: dstT is int8_t, fp8_e4m3fn_t, fp8_e5m2_t or hifloat8_t (fp4x2 only in PER_GROUP)");
    const char* api = "AscendQuant";
    constexpr bool wide = !std::is_same<D, int8_t>::value;
    begin_epoch(P_V);
    bool ok = adv::check_ub_position(api, "dstTensor", dst.pos_, loc) && adv::check_ub_position(api, "srcTensor", src.pos_, loc);
    // AscendQuant.md: the 8-bit float destinations are Ascend 950 only
    ok = ok && (!wide || adv::check_dtype_soc(api, fp8_name<D>(), "Ascend 950", adv::soc_is("Ascend950"), loc));
    ok = ok && src.emu_check(0, n, false, P_V, api, loc);
    ok = ok && dst.emu_check(0, n, true, P_V, api, loc);
    ok = ok && adv::take_tmp(api, ascendc_emu_adv::TmpKind::AscendQuant, sizeof(T), tmp, n,
                             wide ? "the fp32 copy" : "the half copy", loc);
    if (ok) {
        const T* s = (const T*)src.ptr_;
        D* d = (D*)dst.ptr_;
        for (uint32_t i = 0; i < n; i++) adv::quant::store(d + i, (float)s[i], scale(i), offset(i));
    }
    restore_norm();
    adv::trace_steps(api, {"Cast", "Muls", "Adds", "Cast"}, wide ? "float" : "half", n, wide ? 4 : 2, loc);
}
template <class T>
inline void check_vec(const char* what, const LocalTensor<T>& t, uint32_t n, const Loc& loc) {
    t.emu_check(0, n, false, ascendc_emu::P_V, "AscendQuant", loc);
    (void)what;
}
// The three shapes of the API, for every destination type: per tensor (scalar scale and offset), per channel with
// a scale tensor and a scalar offset, per channel with scale and offset tensors.
template <class D, class T>
inline void per_tensor(const LocalTensor<D>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                       uint32_t n, float scale, float offset, const Loc& loc) {
    quant(dst, src, tmp, n, [&](uint32_t) { return scale; }, [&](uint32_t) { return offset; }, loc);
}
template <class D, class T>
inline void per_channel(const LocalTensor<D>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                        const LocalTensor<T>& scaleTensor, float offset, uint32_t scaleCount, uint32_t calCount,
                        const Loc& loc) {
    check_vec("scaleTensor", scaleTensor, scaleCount, loc);
    const T* sc = (const T*)scaleTensor.ptr_;
    const uint32_t k = scaleCount ? scaleCount : 1;
    quant(dst, src, tmp, calCount, [&](uint32_t i) { return (float)sc[i % k]; }, [&](uint32_t) { return offset; },
          loc);
}
template <class D, class T>
inline void per_channel2(const LocalTensor<D>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                         const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor, uint32_t scaleCount,
                         uint32_t offsetCount, uint32_t calCount, const Loc& loc) {
    check_vec("scaleTensor", scaleTensor, scaleCount, loc);
    check_vec("offsetTensor", offsetTensor, offsetCount, loc);
    const T *sc = (const T*)scaleTensor.ptr_, *of = (const T*)offsetTensor.ptr_;
    const uint32_t k = scaleCount ? scaleCount : 1, ko = offsetCount ? offsetCount : 1;
    quant(dst, src, tmp, calCount, [&](uint32_t i) { return (float)sc[i % k]; },
          [&](uint32_t i) { return (float)of[i % ko]; }, loc);
}
}  // namespace detail_quant

// AscendQuant.md, dstTensor int8_t: per tensor (scalar scale/offset), per channel (scaleCount scales repeat
// along the data; a scalar or tensor offset); with sharedTmpBuffer or the framework's temporary space.
#define ASCENDC_EMU_AQ_T template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
ASCENDC_EMU_AQ_T inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset, const uint32_t calCount, EMU_LOC) {
    detail_quant::per_tensor(dstTensor, srcTensor, &sharedTmpBuffer, calCount, scale, offset, loc);
}
ASCENDC_EMU_AQ_T inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset, EMU_LOC) {
    detail_quant::per_tensor(dstTensor, srcTensor, &sharedTmpBuffer, srcTensor.GetSize(), scale, offset, loc);
}
ASCENDC_EMU_AQ_T inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const float scale, const float offset, const uint32_t calCount, EMU_LOC) {
    detail_quant::per_tensor(dstTensor, srcTensor, nullptr, calCount, scale, offset, loc);
}
ASCENDC_EMU_AQ_T inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const float scale, const float offset, EMU_LOC) {
    detail_quant::per_tensor(dstTensor, srcTensor, nullptr, srcTensor.GetSize(), scale, offset, loc);
}
ASCENDC_EMU_AQ_T inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor, const ascendc_emu::nd_t<T> offset, const uint32_t scaleCount, const uint32_t calCount, EMU_LOC) {
    detail_quant::per_channel(dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, (float)offset, scaleCount, calCount, loc);
}
ASCENDC_EMU_AQ_T inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor, const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount, EMU_LOC) {
    detail_quant::per_channel2(dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, offsetTensor, scaleCount, offsetCount, calCount, loc);
}
ASCENDC_EMU_AQ_T inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor, const ascendc_emu::nd_t<T> offset, EMU_LOC) {
    detail_quant::per_channel(dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, (float)offset, scaleTensor.GetSize(), srcTensor.GetSize(), loc);
}
ASCENDC_EMU_AQ_T inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor, EMU_LOC) {
    detail_quant::per_channel2(dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, offsetTensor, scaleTensor.GetSize(), offsetTensor.GetSize(), srcTensor.GetSize(), loc);
}
ASCENDC_EMU_AQ_T inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<T>& scaleTensor, const ascendc_emu::nd_t<T> offset, const uint32_t scaleCount, const uint32_t calCount, EMU_LOC) {
    detail_quant::per_channel(dstTensor, srcTensor, nullptr, scaleTensor, (float)offset, scaleCount, calCount, loc);
}
ASCENDC_EMU_AQ_T inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor, const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount, EMU_LOC) {
    detail_quant::per_channel2(dstTensor, srcTensor, nullptr, scaleTensor, offsetTensor, scaleCount, offsetCount, calCount, loc);
}
ASCENDC_EMU_AQ_T inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<T>& scaleTensor, const ascendc_emu::nd_t<T> offset, EMU_LOC) {
    detail_quant::per_channel(dstTensor, srcTensor, nullptr, scaleTensor, (float)offset, scaleTensor.GetSize(), srcTensor.GetSize(), loc);
}
ASCENDC_EMU_AQ_T inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor, EMU_LOC) {
    detail_quant::per_channel2(dstTensor, srcTensor, nullptr, scaleTensor, offsetTensor, scaleTensor.GetSize(), offsetTensor.GetSize(), srcTensor.GetSize(), loc);
}
#undef ASCENDC_EMU_AQ_T
// The same forms with the destination type as a template parameter (AscendQuant.md: dstT int8_t, fp8_e4m3fn_t,
// fp8_e5m2_t, hifloat8_t; Ascend 950).
#define ASCENDC_EMU_AQ2_T template <typename dstT, typename srcT, bool isReuseSource = false>
ASCENDC_EMU_AQ2_T inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset, const uint32_t calCount, EMU_LOC) {
    detail_quant::per_tensor(dstTensor, srcTensor, &sharedTmpBuffer, calCount, scale, offset, loc);
}
ASCENDC_EMU_AQ2_T inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset, EMU_LOC) {
    detail_quant::per_tensor(dstTensor, srcTensor, &sharedTmpBuffer, srcTensor.GetSize(), scale, offset, loc);
}
ASCENDC_EMU_AQ2_T inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
    const float scale, const float offset, const uint32_t calCount, EMU_LOC) {
    detail_quant::per_tensor(dstTensor, srcTensor, nullptr, calCount, scale, offset, loc);
}
ASCENDC_EMU_AQ2_T inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
    const float scale, const float offset, EMU_LOC) {
    detail_quant::per_tensor(dstTensor, srcTensor, nullptr, srcTensor.GetSize(), scale, offset, loc);
}
ASCENDC_EMU_AQ2_T inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<srcT>& scaleTensor, const ascendc_emu::nd_t<srcT> offset, const uint32_t scaleCount, const uint32_t calCount, EMU_LOC) {
    detail_quant::per_channel(dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, (float)offset, scaleCount, calCount, loc);
}
ASCENDC_EMU_AQ2_T inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<srcT>& scaleTensor, const LocalTensor<srcT>& offsetTensor, const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount, EMU_LOC) {
    detail_quant::per_channel2(dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, offsetTensor, scaleCount, offsetCount, calCount, loc);
}
ASCENDC_EMU_AQ2_T inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<srcT>& scaleTensor, const ascendc_emu::nd_t<srcT> offset, EMU_LOC) {
    detail_quant::per_channel(dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, (float)offset, scaleTensor.GetSize(), srcTensor.GetSize(), loc);
}
ASCENDC_EMU_AQ2_T inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<srcT>& scaleTensor, const LocalTensor<srcT>& offsetTensor, EMU_LOC) {
    detail_quant::per_channel2(dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, offsetTensor, scaleTensor.GetSize(), offsetTensor.GetSize(), srcTensor.GetSize(), loc);
}
ASCENDC_EMU_AQ2_T inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
    const LocalTensor<srcT>& scaleTensor, const ascendc_emu::nd_t<srcT> offset, const uint32_t scaleCount, const uint32_t calCount, EMU_LOC) {
    detail_quant::per_channel(dstTensor, srcTensor, nullptr, scaleTensor, (float)offset, scaleCount, calCount, loc);
}
ASCENDC_EMU_AQ2_T inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
    const LocalTensor<srcT>& scaleTensor, const LocalTensor<srcT>& offsetTensor, const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount, EMU_LOC) {
    detail_quant::per_channel2(dstTensor, srcTensor, nullptr, scaleTensor, offsetTensor, scaleCount, offsetCount, calCount, loc);
}
ASCENDC_EMU_AQ2_T inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
    const LocalTensor<srcT>& scaleTensor, const ascendc_emu::nd_t<srcT> offset, EMU_LOC) {
    detail_quant::per_channel(dstTensor, srcTensor, nullptr, scaleTensor, (float)offset, scaleTensor.GetSize(), srcTensor.GetSize(), loc);
}
ASCENDC_EMU_AQ2_T inline void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
    const LocalTensor<srcT>& scaleTensor, const LocalTensor<srcT>& offsetTensor, EMU_LOC) {
    detail_quant::per_channel2(dstTensor, srcTensor, nullptr, scaleTensor, offsetTensor, scaleTensor.GetSize(), offsetTensor.GetSize(), srcTensor.GetSize(), loc);
}
#undef ASCENDC_EMU_AQ2_T

// ---- AscendDequant (AscendDequant.md)
namespace detail_quant {
template <class D, class GetS>
inline void dequant(const LocalTensor<D>& dst, const LocalTensor<int32_t>& src, DequantParams p, bool singleRow,
                    const LocalTensor<uint8_t>* tmp, bool scaleVec, uint64_t scaleLen, GetS scale, const Loc& loc) {
    using namespace ascendc_emu;
    static_assert(adv::is_float_like<D>::value, "AscendDequant: dstT is half, bfloat16_t or float");
    const char* api = "AscendDequant";
    begin_epoch(P_V);
    // DEQUANT_WITH_SINGLE_ROW: {1, n, calCount} with calCount a multiple of 32 B of dstT and n % calCount == 0
    // is computed as {n / calCount, calCount, calCount}
    if (singleRow && p.m == 1 && p.calCount && p.calCount % (32 / sizeof(D)) == 0 && p.n % p.calCount == 0)
        p = DequantParams{p.n / p.calCount, p.calCount, p.calCount};
    bool ok = adv::check_ub_position(api, "dstTensor", dst.pos_, loc) && adv::check_ub_position(api, "srcTensor", src.pos_, loc);
    if (!p.m || !p.calCount || p.calCount > p.n) {
        report_error("adv-shape", "vector-param-invalid", P_V, api, loc,
                     "AscendDequant params m=%u n=%u calCount=%u: m >= 1 and 1 <= calCount <= n", p.m, p.n,
                     p.calCount);
        ok = false;
    } else if (((uint64_t)p.n * 4) % 32) {
        report_error("adv-shape", "misaligned-access", P_V, api, loc,
                     "AscendDequant params.n=%u int32 values are %s B per row; n * sizeof(int32_t) must be a multiple "
                     "of 32 B", p.n, EMU_N((uint64_t)p.n * 4));
        ok = false;
    }
    if (ok && scaleVec && p.calCount > scaleLen) {
        report_error("adv-shape", "ub-out-of-bounds", P_V, api, loc,
                     "AscendDequant calCount=%u exceeds the %s elements of deqScale", p.calCount, EMU_N(scaleLen));
        ok = false;
    }
    const uint32_t nd = (uint32_t)(((uint64_t)p.n * sizeof(D) + 31) / 32 * 32 / sizeof(D));
    ok = ok && src.emu_check(0, (uint64_t)p.m * p.n, false, P_V, api, loc);
    ok = ok && dst.emu_check(0, (uint64_t)(p.m - 1) * nd + p.calCount, true, P_V, api, loc);
    ok = ok && adv::take_tmp(api, ascendc_emu_adv::TmpKind::AscendDequant, 4, tmp, p.n, "the fp32 row", loc);
    if (ok) {
        const int32_t* s = (const int32_t*)src.ptr_;
        D* d = (D*)dst.ptr_;
        for (uint32_t r = 0; r < p.m; r++)
            for (uint32_t c = 0; c < p.calCount; c++)
                d[(uint64_t)r * nd + c] = (D)((float)s[(uint64_t)r * p.n + c] * scale(c));
    }
    restore_norm();
    adv::trace_steps(api, {"Cast", "Cast", "Mul", "Cast"}, "float", (uint64_t)p.m * p.n, 4, loc);
}
}  // namespace detail_quant
#define ASCENDC_EMU_DQ_T template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
#define ASCENDC_EMU_DQ_VEC                                                                                   \
    deqScale.emu_check(0, deqScale.GetSize(), false, ascendc_emu::P_V, "AscendDequant", loc);                \
    const scaleT* sc = (const scaleT*)deqScale.ptr_;                                                          \
    auto get = [&](uint32_t c) { return ascendc_emu::adv::quant::scale_of<scaleT>(sc[c]); };
ASCENDC_EMU_DQ_T inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                           const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                           DequantParams params, EMU_LOC) {
    ASCENDC_EMU_DQ_VEC
    detail_quant::dequant(dstTensor, srcTensor, params, mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW, &sharedTmpBuffer,
                          true, deqScale.GetSize(), get, loc);
}
ASCENDC_EMU_DQ_T inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                           const LocalTensor<scaleT>& deqScale, DequantParams params, EMU_LOC) {
    ASCENDC_EMU_DQ_VEC
    detail_quant::dequant(dstTensor, srcTensor, params, mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW, nullptr, true,
                          deqScale.GetSize(), get, loc);
}
ASCENDC_EMU_DQ_T inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                           const scaleT deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                           DequantParams params, EMU_LOC) {
    const float s = ascendc_emu::adv::quant::scale_of<scaleT>(deqScale);
    detail_quant::dequant(dstTensor, srcTensor, params, mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW, &sharedTmpBuffer,
                          false, 0, [&](uint32_t) { return s; }, loc);
}
ASCENDC_EMU_DQ_T inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                           const scaleT deqScale, DequantParams params, EMU_LOC) {
    const float s = ascendc_emu::adv::quant::scale_of<scaleT>(deqScale);
    detail_quant::dequant(dstTensor, srcTensor, params, mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW, nullptr, false,
                          0, [&](uint32_t) { return s; }, loc);
}
ASCENDC_EMU_DQ_T inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                           const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                           const uint32_t calCount, EMU_LOC) {
    ASCENDC_EMU_DQ_VEC
    detail_quant::dequant(dstTensor, srcTensor, DequantParams{1, calCount, calCount},
                          mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW, &sharedTmpBuffer, true, deqScale.GetSize(), get,
                          loc);
}
ASCENDC_EMU_DQ_T inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                           const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                           EMU_LOC) {
    AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, sharedTmpBuffer, srcTensor.GetSize(), loc);
}
ASCENDC_EMU_DQ_T inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                           const LocalTensor<scaleT>& deqScale, const uint32_t calCount, EMU_LOC) {
    ASCENDC_EMU_DQ_VEC
    detail_quant::dequant(dstTensor, srcTensor, DequantParams{1, calCount, calCount},
                          mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW, nullptr, true, deqScale.GetSize(), get, loc);
}
ASCENDC_EMU_DQ_T inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                           const LocalTensor<scaleT>& deqScale, EMU_LOC) {
    AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, srcTensor.GetSize(), loc);
}
#undef ASCENDC_EMU_DQ_T
#undef ASCENDC_EMU_DQ_VEC

// ---- AscendAntiQuant (AscendAntiQuant.md): PER_CHANNEL with tensors (no transposition: src [K, N],
// groupSize = K / offset rows, dst[i][j] = scale[i / g][j] * (src[i][j] + offset[i / g][j]); transposed: src
// [N, K], groupSize = K / offset columns) and PER_TENSOR with scalars. For half the sum is rounded to half before
// the product (the vector unit adds and multiplies in half); bfloat16_t computes in fp32.
namespace detail_quant {
template <class I, class O, bool trans, class GetS, class GetO>
inline void antiquant(const LocalTensor<O>& dst, const LocalTensor<I>& src, const LocalTensor<uint8_t>* tmp,
                      uint32_t k, bool perChannel, uint64_t scaleLen, const AntiQuantShapeInfo& info, GetS scale,
                      GetO offset, const Loc& loc) {
    using namespace ascendc_emu;
    static_assert(adv::one_of<I, int8_t>::value, "AscendAntiQuant: InputDataType int8_t");
    static_assert(adv::one_of<O, half, bfloat16_t>::value, "AscendAntiQuant: OutputDataType half or bfloat16_t");
    const char* api = "AscendAntiQuant";
    begin_epoch(P_V);
    const uint64_t total = src.GetSize();
    bool ok = adv::check_ub_position(api, "dst", dst.pos_, loc) && adv::check_ub_position(api, "src", src.pos_, loc);
    if (!k || total % k) {
        report_error("adv-shape", "vector-param-invalid", P_V, api, loc,
                     "AscendAntiQuant k=%u does not divide the %s source elements", k, EMU_N(total));
        ok = false;
    }
    const uint32_t n = ok ? (uint32_t)(total / k) : 0;
    // per-channel parameter shape: [rows, N] (no transposition) or [N, cols] (transposed)
    uint32_t groups = 1;
    if (ok && perChannel) {
        uint32_t ph = info.scaleHeight ? info.scaleHeight : info.offsetHeight;
        uint32_t pw = info.scaleWidth ? info.scaleWidth : info.offsetWidth;
        groups = trans ? (pw ? pw : (uint32_t)(scaleLen / n)) : (ph ? ph : (uint32_t)(scaleLen / n));
        if (!groups || k % groups) {
            report_error("adv-shape", "vector-param-invalid", P_V, api, loc,
                         "AscendAntiQuant: %u parameter groups along K=%u (scale/offset shape from shapeInfo or their "
                         "size %s / N=%u) must divide K", groups, k, EMU_N(scaleLen), n);
            ok = false;
        }
    }
    ok = ok && src.emu_check(0, total, false, P_V, api, loc);
    ok = ok && dst.emu_check(0, total, true, P_V, api, loc);
    ok = ok && adv::take_tmp(api, ascendc_emu_adv::TmpKind::AscendAntiQuant, sizeof(O), tmp, total, "the half copy", loc);
    if (ok) {
        const I* s = (const I*)src.ptr_;
        O* d = (O*)dst.ptr_;
        const uint32_t g = k / groups;
        for (uint32_t i = 0; i < (trans ? n : k); i++)
            for (uint32_t j = 0; j < (trans ? k : n); j++) {
                uint64_t idx = (uint64_t)i * (trans ? k : n) + j;
                uint64_t pidx = !perChannel ? 0 : trans ? (uint64_t)i * groups + j / g : (uint64_t)(i / g) * n + j;
                float x = (float)s[idx];
                float sum = std::is_same<O, half>::value ? (float)(O)(x + offset(pidx)) : x + offset(pidx);
                d[idx] = (O)(sum * scale(pidx));
            }
    }
    restore_norm();
    adv::trace_steps(api, {"Cast", "Add", "Mul"}, dtype_name<O>(), total, sizeof(O), loc);
}
}  // namespace detail_quant
#define ASCENDC_EMU_AAQ_T template <typename InputDataType, typename OutputDataType, bool isTranspose>
ASCENDC_EMU_AAQ_T inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                              const LocalTensor<OutputDataType>& offset,
                                              const LocalTensor<OutputDataType>& scale,
                                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                              const AntiQuantShapeInfo& shapeInfo = {}, EMU_LOC) {
    offset.emu_check(0, offset.GetSize(), false, ascendc_emu::P_V, "AscendAntiQuant", loc);
    scale.emu_check(0, scale.GetSize(), false, ascendc_emu::P_V, "AscendAntiQuant", loc);
    const OutputDataType *o = (const OutputDataType*)offset.ptr_, *s = (const OutputDataType*)scale.ptr_;
    detail_quant::antiquant<InputDataType, OutputDataType, isTranspose>(
        dst, src, &sharedTmpBuffer, k, true, scale.GetSize(), shapeInfo, [&](uint64_t i) { return (float)s[i]; },
        [&](uint64_t i) { return (float)o[i]; }, loc);
}
ASCENDC_EMU_AAQ_T inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                              const LocalTensor<OutputDataType>& scale,
                                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                              const AntiQuantShapeInfo& shapeInfo = {}, EMU_LOC) {
    scale.emu_check(0, scale.GetSize(), false, ascendc_emu::P_V, "AscendAntiQuant", loc);
    const OutputDataType* s = (const OutputDataType*)scale.ptr_;
    detail_quant::antiquant<InputDataType, OutputDataType, isTranspose>(
        dst, src, &sharedTmpBuffer, k, true, scale.GetSize(), shapeInfo, [&](uint64_t i) { return (float)s[i]; },
        [](uint64_t) { return 0.0f; }, loc);
}
ASCENDC_EMU_AAQ_T inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                              const ascendc_emu::nd_t<OutputDataType> offset,
                                              const ascendc_emu::nd_t<OutputDataType> scale,
                                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                              const AntiQuantShapeInfo& shapeInfo = {}, EMU_LOC) {
    const float o = (float)offset, s = (float)scale;
    detail_quant::antiquant<InputDataType, OutputDataType, isTranspose>(
        dst, src, &sharedTmpBuffer, k, false, 1, shapeInfo, [&](uint64_t) { return s; }, [&](uint64_t) { return o; },
        loc);
}
ASCENDC_EMU_AAQ_T inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                              const ascendc_emu::nd_t<OutputDataType> scale,
                                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                              const AntiQuantShapeInfo& shapeInfo = {}, EMU_LOC) {
    const float s = (float)scale;
    detail_quant::antiquant<InputDataType, OutputDataType, isTranspose>(
        dst, src, &sharedTmpBuffer, k, false, 1, shapeInfo, [&](uint64_t) { return s; }, [](uint64_t) { return 0.0f; },
        loc);
}
ASCENDC_EMU_AAQ_T inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                              const LocalTensor<OutputDataType>& offset,
                                              const LocalTensor<OutputDataType>& scale, const uint32_t k,
                                              const AntiQuantShapeInfo& shapeInfo = {}, EMU_LOC) {
    offset.emu_check(0, offset.GetSize(), false, ascendc_emu::P_V, "AscendAntiQuant", loc);
    scale.emu_check(0, scale.GetSize(), false, ascendc_emu::P_V, "AscendAntiQuant", loc);
    const OutputDataType *o = (const OutputDataType*)offset.ptr_, *s = (const OutputDataType*)scale.ptr_;
    detail_quant::antiquant<InputDataType, OutputDataType, isTranspose>(
        dst, src, nullptr, k, true, scale.GetSize(), shapeInfo, [&](uint64_t i) { return (float)s[i]; },
        [&](uint64_t i) { return (float)o[i]; }, loc);
}
ASCENDC_EMU_AAQ_T inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                              const ascendc_emu::nd_t<OutputDataType> offset,
                                              const ascendc_emu::nd_t<OutputDataType> scale, const uint32_t k,
                                              const AntiQuantShapeInfo& shapeInfo = {}, EMU_LOC) {
    const float o = (float)offset, s = (float)scale;
    detail_quant::antiquant<InputDataType, OutputDataType, isTranspose>(
        dst, src, nullptr, k, false, 1, shapeInfo, [&](uint64_t) { return s; }, [&](uint64_t) { return o; }, loc);
}
#undef ASCENDC_EMU_AAQ_T
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_ADV_QUANT_H_
