// High-level normalisation APIs (clean-room), docs/zh/api/SIMD-API/高阶API/归一化操作/: LayerNorm ([B, S, H] with
// mean/variance, and [A, R] with mean/rstd), RmsNorm, DeepNorm, BatchNorm, GroupNorm, Normalize, WelfordUpdate,
// WelfordFinalize, LayerNormGrad, LayerNormGradBeta. Statistics are computed in fp32 over the valid part of the last
// axis (originalHLength / rLength) with the vector unit's tree order (BlockReduce per 256-byte repeat, then over the
// repeats); rstd = 1 / sqrt(var + eps). Shapes come from the API's tiling struct (bLength, sLength, hLength,
// originalHLength ... as the host Get*TilingInfo filled them) or its para struct.
#ifndef ASCENDC_EMU_ASCENDC_EMU_ADV_NORM_H_
#define ASCENDC_EMU_ASCENDC_EMU_ADV_NORM_H_
#include "adv_common.h"
#include "../kernel_tiling/kernel_tiling.h"

namespace AscendC {
struct LayerNormConfig {
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
    bool isOutputRstd = true;
};
constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};
struct LayerNormPara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};
struct NormalizeConfig {
    ReducePattern reducePattern = ReducePattern::AR;
    int32_t aLength = -1;
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
};
constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false, false, false};
constexpr NormalizeConfig NLCFG_NOBETA = {ReducePattern::AR, -1, true, false, false};
constexpr NormalizeConfig NLCFG_NOGAMMA = {ReducePattern::AR, -1, false, true, false};
constexpr NormalizeConfig NLCFG_NOOPT = {ReducePattern::AR, -1, true, true, false};
struct NormalizePara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};
struct WelfordUpdateConfig {
    bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};
constexpr WelfordUpdateConfig WELFORD_UPDATE_ENABLE_INPLACE_CFG = {true};
struct WelfordUpdateParam {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t abComputeLength;
    float nRec;
};
struct WelfordFinalizeConfig {
    bool isCorrection = false;
};
constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};
struct WelfordFinalizePara {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t headCount;
    uint32_t headCountLength;
    uint32_t tailCount;
    uint32_t tailCountLength;
    float abRec;
    float rRec;
    float rRecWithCorrection;
};
}  // namespace AscendC

namespace ascendc_emu {
namespace adv {
namespace norm {
template <class T> inline float ld(const LocalTensor<T>& t, uint64_t i) { return (float)((const T*)t.ptr_)[i]; }
template <class T> inline void st(const LocalTensor<T>& t, uint64_t i, float v) { ((T*)t.ptr_)[i] = (T)v; }
// fp32 sum of v[0..n) in the vector unit's order.
inline float tree(const float* v, uint32_t n) {
    std::vector<float> w(v, v + n);
    return AscendC::detail_red::level_sum<float>(w);
}
inline float rstd_of(float var, float eps) { return 1.0f / std::sqrt(var + eps); }
EMU_RT_FN bool check_shape(const char* api, uint32_t rows, uint32_t h, uint32_t oriH, uint32_t typeSize,
                           const char* what, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    if (!rows || !h || !oriH || oriH > h) {
        report_error("adv-shape", "tiling-runtime", P_V, api, loc,
                     "%s %s gives %u rows of %u (valid %u): rows, the last axis and its valid length must be > 0 "
                     "and valid <= last axis (tiling from the host Get*TilingInfo?)", api, what, rows, h, oriH);
        return false;
    }
    if (((uint64_t)h * typeSize) % 32) {
        report_error("adv-shape", "misaligned-access", P_V, api, loc,
                     "%s last axis %u x %u B is not a multiple of 32 B; pad it (the valid length is %u)", api, h,
                     typeSize, oriH);
        return false;
    }
    return true;
}
#else
;
#endif
// Temporary space (adv_shared.h, the sizes the host queries return): at least one row per pass; the tiling's
// tmpBufSize (bytes, as the host shims fill it) must fit in what the kernel passes.
using ascendc_emu_adv::NormKind;
inline uint64_t row_tmp(NormKind k, uint32_t h, uint32_t typeSize) { return ascendc_emu_adv::norm_row_tmp(k, h, typeSize); }
template <class T>
inline bool tmp(const char* api, const LocalTensor<uint8_t>* t, uint32_t tilingBytes, uint64_t need, uint64_t use,
                const Loc& loc) {
    if (t && t->ptr_ && tilingBytes && tilingBytes > t->size_) {
        report_error("tmp-buffer-size", "ub-out-of-bounds", P_V, api, loc,
                     "%s: the tiling was computed for %s B of temporary space (tmpBufSize), but sharedTmpBuffer holds "
                     "%s B: the API would write %s B past it", api, EMU_N(tilingBytes), EMU_N(t->size_),
                     EMU_N(tilingBytes - t->size_));
        return false;
    }
    return take_tmp(api, t, need, use, "the normalised rows", loc);
}
}  // namespace norm
}  // namespace adv
}  // namespace ascendc_emu

namespace AscendC {
namespace detail_norm {
using namespace ascendc_emu::adv::norm;
using ascendc_emu::Loc;
using ascendc_emu::P_V;

// LayerNorm [B, S, H] (LayerNorm.md first form): mean = sum(x / H), var = sum((x - mean)^2 / H) over the valid
// H, y = (x - mean) * rstd * gamma + beta; mean and variance [B*S] in T.
template <class T>
inline void layernorm(const LocalTensor<T>& out, const LocalTensor<T>& mean, const LocalTensor<T>& var,
                      const LocalTensor<T>& x, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                      const LocalTensor<uint8_t>* t, float eps, const LayerNormTiling& tl, const Loc& loc) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value, "LayerNorm: half or float");
    const char* api = "LayerNorm";
    ascendc_emu::begin_epoch(P_V);
    const uint32_t rows = tl.bLength * tl.sLength, h = tl.hLength, oh = tl.originalHLength ? tl.originalHLength : h;
    bool ok = check_shape(api, rows, h, oh, sizeof(T), "LayerNormTiling [bLength*sLength, hLength]", loc);
    ok = ok && x.emu_check(0, (uint64_t)rows * h, false, P_V, api, loc);
    ok = ok && gamma.emu_check(0, h, false, P_V, api, loc) && beta.emu_check(0, h, false, P_V, api, loc);
    ok = ok && out.emu_check(0, (uint64_t)rows * h, true, P_V, api, loc);
    ok = ok && mean.emu_check(0, rows, true, P_V, api, loc) && var.emu_check(0, rows, true, P_V, api, loc);
    ok = ok && tmp<T>(api, t, tl.tmpBufSize, row_tmp(NormKind::LayerNorm, h, sizeof(T)), rows * row_tmp(NormKind::LayerNorm, h, sizeof(T)), loc);
    if (ok) {
        std::vector<float> v(h), d(h);
        const float inv = 1.0f / (float)oh;
        for (uint32_t r = 0; r < rows; r++) {
            for (uint32_t c = 0; c < h; c++) v[c] = ld(x, (uint64_t)r * h + c) * inv;
            const float mu = tree(v.data(), oh);
            for (uint32_t c = 0; c < h; c++) {
                d[c] = ld(x, (uint64_t)r * h + c) - mu;
                v[c] = d[c] * d[c] * inv;
            }
            const float s2 = tree(v.data(), oh), rs = std::exp(-0.5f * std::log(s2 + eps));
            for (uint32_t c = 0; c < h; c++) st(out, (uint64_t)r * h + c, d[c] * rs * ld(gamma, c) + ld(beta, c));
            st(mean, r, mu);
            st(var, r, s2);
        }
    }
    ascendc_emu::restore_norm();
    ascendc_emu::adv::trace_steps(api, {"Muls", "ReduceSum", "Sub", "Mul", "Muls", "ReduceSum", "Adds", "Ln", "Muls",
                                        "Exp", "Mul", "Mul", "Add"}, "float", (uint64_t)rows * h, 4, loc);
}

// LayerNorm [A, R] (LayerNorm.md second form) and Normalize (Normalize.md: mean and variance given).
template <class U, class T>
inline void layernorm_ar(const char* api, const LocalTensor<T>& out, const LocalTensor<float>* mean,
                         const LocalTensor<float>& rstdOrVar, const LocalTensor<float>* inMean,
                         const LocalTensor<float>* inVar, const LocalTensor<T>& x, const LocalTensor<U>& gamma,
                         const LocalTensor<U>& beta, const LocalTensor<uint8_t>* t, float eps, uint32_t a, uint32_t r,
                         uint32_t rPad, bool noBeta, bool noGamma, bool onlyOutput, bool outRstd, const Loc& loc) {
    static_assert(ascendc_emu::adv::is_float_like<T>::value && ascendc_emu::adv::is_float_like<U>::value,
                  "LayerNorm/Normalize: half, bfloat16_t or float");
    ascendc_emu::begin_epoch(P_V);
    const uint32_t rp = rPad ? rPad : r;
    bool ok = check_shape(api, a, rp, r, sizeof(T), "para [aLength, rLengthWithPadding]", loc);
    ok = ok && x.emu_check(0, (uint64_t)a * rp, false, P_V, api, loc);
    if (!noGamma) ok = ok && gamma.emu_check(0, r, false, P_V, api, loc);
    if (!noBeta) ok = ok && beta.emu_check(0, r, false, P_V, api, loc);
    ok = ok && out.emu_check(0, (uint64_t)a * rp, true, P_V, api, loc);
    if (inMean) ok = ok && inMean->emu_check(0, a, false, P_V, api, loc) && inVar->emu_check(0, a, false, P_V, api, loc);
    if (!onlyOutput) {
        if (mean) ok = ok && mean->emu_check(0, a, true, P_V, api, loc);
        ok = ok && rstdOrVar.emu_check(0, a, true, P_V, api, loc);
    }
    ok = ok && tmp<T>(api, t, 0, row_tmp(NormKind::LayerNormAR, rp, sizeof(T)), a * row_tmp(NormKind::LayerNormAR, rp, sizeof(T)), loc);
    if (ok) {
        std::vector<float> v(rp), d(rp);
        const float inv = 1.0f / (float)r;
        for (uint32_t i = 0; i < a; i++) {
            float mu, s2;
            if (inMean) {
                mu = ld(*inMean, i);
                s2 = ld(*inVar, i);
            } else {
                for (uint32_t c = 0; c < rp; c++) v[c] = ld(x, (uint64_t)i * rp + c) * inv;
                mu = tree(v.data(), r);
                for (uint32_t c = 0; c < rp; c++) {
                    float dc = ld(x, (uint64_t)i * rp + c) - mu;
                    v[c] = dc * dc * inv;
                }
                s2 = tree(v.data(), r);
            }
            const float rs = rstd_of(s2, eps);
            for (uint32_t c = 0; c < rp; c++) {
                float y = (ld(x, (uint64_t)i * rp + c) - mu) * rs;
                if (!noGamma && c < r) y *= ld(gamma, c);
                if (!noBeta && c < r) y += ld(beta, c);
                st(out, (uint64_t)i * rp + c, y);
            }
            if (!onlyOutput) {
                if (mean) st(*mean, i, mu);
                st(rstdOrVar, i, outRstd ? rs : s2);
            }
        }
    }
    ascendc_emu::restore_norm();
    ascendc_emu::adv::trace_steps(api, inMean ? ASCENDC_EMU_STEPS("Adds", "Rsqrt", "Sub", "Mul", "Mul", "Add")
                                              : ASCENDC_EMU_STEPS("Muls", "Add", "WholeReduceSum", "Sub", "Mul", "Add",
                                                                  "WholeReduceSum", "Adds", "Rsqrt", "Mul", "Mul", "Add"),
                                  "float", (uint64_t)a * rp, 4, loc);
}

// RmsNorm (RmsNorm.md): y = x / sqrt(mean(x^2) + eps) * gamma over [B*S, H], mean over originalHLength.
template <class T>
inline void rmsnorm(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& gamma,
                    const LocalTensor<uint8_t>* t, float eps, const RmsNormTiling& tl, const Loc& loc) {
    static_assert(ascendc_emu::adv::is_float_like<T>::value, "RmsNorm: half, bfloat16_t or float");
    const char* api = "RmsNorm";
    ascendc_emu::begin_epoch(P_V);
    const uint32_t rows = tl.bLength * tl.sLength, h = tl.hLength, oh = tl.originalHLength ? tl.originalHLength : h;
    bool ok = check_shape(api, rows, h, oh, sizeof(T), "RmsNormTiling [bLength*sLength, hLength]", loc);
    ok = ok && src.emu_check(0, (uint64_t)rows * h, false, P_V, api, loc) && gamma.emu_check(0, h, false, P_V, api, loc);
    ok = ok && dst.emu_check(0, (uint64_t)rows * h, true, P_V, api, loc);
    ok = ok && tmp<T>(api, t, 0, row_tmp(NormKind::RmsNorm, h, sizeof(T)), rows * row_tmp(NormKind::RmsNorm, h, sizeof(T)), loc);
    if (ok) {
        std::vector<float> v(h);
        const float inv = tl.reciprocalOfHLength > 0 ? tl.reciprocalOfHLength : 1.0f / (float)oh;
        for (uint32_t r = 0; r < rows; r++) {
            for (uint32_t c = 0; c < h; c++) {
                float xv = ld(src, (uint64_t)r * h + c);
                v[c] = xv * xv * inv;
            }
            const float rs = rstd_of(tree(v.data(), oh), eps);
            for (uint32_t c = 0; c < h; c++) st(dst, (uint64_t)r * h + c, ld(src, (uint64_t)r * h + c) * rs * ld(gamma, c));
        }
    }
    ascendc_emu::restore_norm();
    ascendc_emu::adv::trace_steps(api, {"Mul", "Muls", "ReduceSum", "Adds", "Sqrt", "Div", "Mul"}, "float",
                                  (uint64_t)rows * h, 4, loc);
}

// DeepNorm (DeepNorm.md / its example): X1 = alpha * x + gx, then LayerNorm of X1; mean and the variance [B*S].
// The third output is the variance, not 1/sqrt(var + eps), although the parameter is named rstdLocal: the page's own
// example prints 106.3125 there (the variance of its X1 rows), and the devkit's deepnorm sample checks it against
// np.mean((X1 - mean) ** 2) (examples/01_simd_cpp_api/04_advanced_api/02_normalization/deepnorm/scripts/gen_data.py).
template <class T>
inline void deepnorm(const LocalTensor<T>& dst, const LocalTensor<T>& mean, const LocalTensor<T>& rstd,
                     const LocalTensor<T>& src, const LocalTensor<T>& gx, const LocalTensor<T>& beta,
                     const LocalTensor<T>& gamma, const LocalTensor<uint8_t>* t, float alpha, float eps,
                     const DeepNormTiling& tl, const Loc& loc) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value, "DeepNorm: half or float");
    const char* api = "DeepNorm";
    ascendc_emu::begin_epoch(P_V);
    const uint32_t rows = tl.bLength * tl.sLength, h = tl.hLength, oh = tl.originalHLength ? tl.originalHLength : h;
    bool ok = check_shape(api, rows, h, oh, sizeof(T), "DeepNormTiling [bLength*sLength, hLength]", loc);
    if (ok && h > 2040) {
        ascendc_emu::report_error("adv-shape", "vector-param-invalid", P_V, api, loc,
                                  "DeepNorm H=%u exceeds 2040, the documented limit", h);
        ok = false;
    }
    ok = ok && src.emu_check(0, (uint64_t)rows * h, false, P_V, api, loc) && gx.emu_check(0, (uint64_t)rows * h, false, P_V, api, loc);
    ok = ok && gamma.emu_check(0, h, false, P_V, api, loc) && beta.emu_check(0, h, false, P_V, api, loc);
    ok = ok && dst.emu_check(0, (uint64_t)rows * h, true, P_V, api, loc);
    ok = ok && mean.emu_check(0, rows, true, P_V, api, loc) && rstd.emu_check(0, rows, true, P_V, api, loc);
    ok = ok && tmp<T>(api, t, tl.tmpBufSize, row_tmp(NormKind::DeepNorm, h, sizeof(T)), rows * row_tmp(NormKind::DeepNorm, h, sizeof(T)), loc);
    if (ok) {
        std::vector<float> x1(h), v(h);
        const float inv = 1.0f / (float)oh;
        for (uint32_t r = 0; r < rows; r++) {
            for (uint32_t c = 0; c < h; c++) {
                uint64_t i = (uint64_t)r * h + c;
                x1[c] = alpha * ld(src, i) + ld(gx, i);
                v[c] = x1[c] * inv;
            }
            const float mu = tree(v.data(), oh);
            for (uint32_t c = 0; c < h; c++) v[c] = (x1[c] - mu) * (x1[c] - mu) * inv;
            const float var = tree(v.data(), oh);
            const float rs = rstd_of(var, eps);
            for (uint32_t c = 0; c < h; c++) st(dst, (uint64_t)r * h + c, (x1[c] - mu) * rs * ld(gamma, c) + ld(beta, c));
            st(mean, r, mu);
            st(rstd, r, var);
        }
    }
    ascendc_emu::restore_norm();
    ascendc_emu::adv::trace_steps(api, {"Muls", "Add", "Muls", "ReduceSum", "Sub", "Mul", "Muls", "ReduceSum", "Adds",
                                        "Rsqrt", "Mul", "Mul", "Add"}, "float", (uint64_t)rows * h, 4, loc);
}

// BatchNorm (BatchNorm.md): statistics over B for each of the S*H features; gamma/beta per batch row.
template <class T>
inline void batchnorm(const LocalTensor<T>& out, const LocalTensor<T>& mean, const LocalTensor<T>& var,
                      const LocalTensor<T>& x, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                      const LocalTensor<uint8_t>* t, float eps, const BatchNormTiling& tl, const Loc& loc) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value, "BatchNorm: half or float");
    const char* api = "BatchNorm";
    ascendc_emu::begin_epoch(P_V);
    const uint32_t b = tl.originalBLength, f = tl.meanVarSize ? tl.meanVarSize : tl.shCurLength;
    bool ok = check_shape(api, b, f, f, sizeof(T), "BatchNormTiling [originalBLength, S*H]", loc);
    ok = ok && x.emu_check(0, (uint64_t)b * f, false, P_V, api, loc);
    ok = ok && gamma.emu_check(0, b, false, P_V, api, loc) && beta.emu_check(0, b, false, P_V, api, loc);
    ok = ok && out.emu_check(0, (uint64_t)b * f, true, P_V, api, loc);
    ok = ok && mean.emu_check(0, f, true, P_V, api, loc) && var.emu_check(0, f, true, P_V, api, loc);
    ok = ok && tmp<T>(api, t, tl.tmpBufSize, ascendc_emu_adv::batchnorm_tmp(f), ascendc_emu_adv::batchnorm_tmp(f), loc);
    if (ok) {
        std::vector<float> col(b);
        const float inv = 1.0f / (float)b;
        for (uint32_t j = 0; j < f; j++) {
            for (uint32_t i = 0; i < b; i++) col[i] = ld(x, (uint64_t)i * f + j) * inv;
            const float mu = tree(col.data(), b);
            for (uint32_t i = 0; i < b; i++) {
                float dv = ld(x, (uint64_t)i * f + j) - mu;
                col[i] = dv * dv * inv;
            }
            const float s2 = tree(col.data(), b), rs = rstd_of(s2, eps);
            for (uint32_t i = 0; i < b; i++)
                st(out, (uint64_t)i * f + j, (ld(x, (uint64_t)i * f + j) - mu) * rs * ld(gamma, i) + ld(beta, i));
            st(mean, j, mu);
            st(var, j, s2);
        }
    }
    ascendc_emu::restore_norm();
    ascendc_emu::adv::trace_steps(api, {"Muls", "Add", "Sub", "Mul", "Muls", "Add", "Adds", "Rsqrt", "Mul", "Mul", "Add"},
                                  "float", (uint64_t)b * f, 4, loc);
}

// GroupNorm (GroupNorm.md): [N, C, HW] with C split in g groups of d channels; statistics per (n, group).
template <class T>
inline void groupnorm(const LocalTensor<T>& out, const LocalTensor<T>& mean, const LocalTensor<T>& var,
                      const LocalTensor<T>& x, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                      const LocalTensor<uint8_t>* t, float eps, const GroupNormTiling& tl, const Loc& loc) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value, "GroupNorm: half or float");
    const char* api = "GroupNorm";
    ascendc_emu::begin_epoch(P_V);
    const uint32_t n = tl.n, c = tl.c, hw = tl.hw, g = tl.g;
    bool ok = true;
    if (!n || !c || !hw || !g || c % g) {
        ascendc_emu::report_error("adv-shape", "tiling-runtime", P_V, api, loc,
                                  "GroupNorm tiling n=%u c=%u hw=%u groupNum=%u: all > 0 and c a multiple of groupNum "
                                  "(GetGroupNormNDTilingInfo on the host?)", n, c, hw, g);
        ok = false;
    }
    const uint32_t d = ok ? c / g : 0;
    const uint64_t total = (uint64_t)n * c * hw;
    ok = ok && x.emu_check(0, total, false, P_V, api, loc) && out.emu_check(0, total, true, P_V, api, loc);
    ok = ok && gamma.emu_check(0, c, false, P_V, api, loc) && beta.emu_check(0, c, false, P_V, api, loc);
    ok = ok && mean.emu_check(0, (uint64_t)n * g, true, P_V, api, loc) && var.emu_check(0, (uint64_t)n * g, true, P_V, api, loc);
    ok = ok && tmp<T>(api, t, tl.tmpBufSize, ascendc_emu_adv::groupnorm_tmp(d * hw), total * 4, loc);
    if (ok) {
        const uint32_t m = d * hw;
        std::vector<float> v(m);
        const float inv = 1.0f / (float)m;
        for (uint32_t ni = 0; ni < n; ni++)
            for (uint32_t gi = 0; gi < g; gi++) {
                const uint64_t base = ((uint64_t)ni * c + (uint64_t)gi * d) * hw;
                for (uint32_t k = 0; k < m; k++) v[k] = ld(x, base + k) * inv;
                const float mu = tree(v.data(), m);
                for (uint32_t k = 0; k < m; k++) {
                    float dv = ld(x, base + k) - mu;
                    v[k] = dv * dv * inv;
                }
                const float s2 = tree(v.data(), m), rs = rstd_of(s2, eps);
                for (uint32_t k = 0; k < m; k++) {
                    const uint32_t ch = gi * d + k / hw;
                    st(out, base + k, (ld(x, base + k) - mu) * rs * ld(gamma, ch) + ld(beta, ch));
                }
                st(mean, (uint64_t)ni * g + gi, mu);
                st(var, (uint64_t)ni * g + gi, s2);
            }
    }
    ascendc_emu::restore_norm();
    ascendc_emu::adv::trace_steps(api, {"Muls", "ReduceSum", "Sub", "Mul", "Muls", "ReduceSum", "Adds", "Rsqrt", "Mul",
                                        "Mul", "Add"}, "float", total, 4, loc);
}
}  // namespace detail_norm

// ---- public forms
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                      const LocalTensor<uint8_t>& sharedTmpBuffer, const ascendc_emu::nd_t<T> epsilon,
                      const LayerNormTiling& tiling, EMU_LOC) {
    detail_norm::layernorm(output, outputMean, outputVariance, inputX, gamma, beta, &sharedTmpBuffer, (float)epsilon,
                           tiling, loc);
}
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                      const ascendc_emu::nd_t<T> epsilon, const LayerNormTiling& tiling, EMU_LOC) {
    detail_norm::layernorm(output, outputMean, outputVariance, inputX, gamma, beta, nullptr, (float)epsilon, tiling, loc);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                      const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const float epsilon, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const LayerNormPara& para, const LayerNormSeparateTiling& tiling, EMU_LOC) {
    (void)tiling;
    detail_norm::layernorm_ar<U, T>("LayerNorm", output, &outputMean, outputRstd, nullptr, nullptr, inputX, gamma, beta,
                                    &sharedTmpBuffer, epsilon, para.aLength, para.rLength, para.rLengthWithPadding,
                                    config.isNoBeta, config.isNoGamma, config.isOnlyOutput, config.isOutputRstd, loc);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                      const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const float epsilon, const LayerNormPara& para,
                      const LayerNormSeparateTiling& tiling, EMU_LOC) {
    (void)tiling;
    detail_norm::layernorm_ar<U, T>("LayerNorm", output, &outputMean, outputRstd, nullptr, nullptr, inputX, gamma, beta,
                                    nullptr, epsilon, para.aLength, para.rLength, para.rLengthWithPadding,
                                    config.isNoBeta, config.isNoGamma, config.isOnlyOutput, config.isOutputRstd, loc);
}
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                      const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                      const LocalTensor<uint8_t>& sharedTmpBuffer, const float epsilon, const NormalizePara& para,
                      EMU_LOC) {
    detail_norm::layernorm_ar<U, T>("Normalize", output, nullptr, outputRstd, &inputMean, &inputVariance, inputX, gamma,
                                    beta, &sharedTmpBuffer, epsilon, para.aLength, para.rLength,
                                    para.rLengthWithPadding, config.isNoBeta, config.isNoGamma, config.isOnlyOutput,
                                    true, loc);
}
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                      const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                      const float epsilon, const NormalizePara& para, EMU_LOC) {
    detail_norm::layernorm_ar<U, T>("Normalize", output, nullptr, outputRstd, &inputMean, &inputVariance, inputX, gamma,
                                    beta, nullptr, epsilon, para.aLength, para.rLength, para.rLengthWithPadding,
                                    config.isNoBeta, config.isNoGamma, config.isOnlyOutput, true, loc);
}
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const ascendc_emu::nd_t<T> epsilon,
                    const RmsNormTiling& tiling, EMU_LOC) {
    detail_norm::rmsnorm(dstLocal, srcLocal, gammaLocal, &sharedTmpBuffer, (float)epsilon, tiling, loc);
}
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
                    const ascendc_emu::nd_t<T> epsilon, const RmsNormTiling& tiling, EMU_LOC) {
    detail_norm::rmsnorm(dstLocal, srcLocal, gammaLocal, nullptr, (float)epsilon, tiling, loc);
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
                     const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                     const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                     const ascendc_emu::nd_t<T> alpha, const ascendc_emu::nd_t<T> epsilon, const DeepNormTiling& tiling,
                     EMU_LOC) {
    detail_norm::deepnorm(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal, &sharedTmpBuffer,
                          (float)alpha, (float)epsilon, tiling, loc);
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
                     const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                     const LocalTensor<T>& gammaLocal, const ascendc_emu::nd_t<T> alpha,
                     const ascendc_emu::nd_t<T> epsilon, const DeepNormTiling& tiling, EMU_LOC) {
    detail_norm::deepnorm(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal, nullptr,
                          (float)alpha, (float)epsilon, tiling, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamm, const LocalTensor<T>& beta,
                      const ascendc_emu::nd_t<T> epsilon, const BatchNormTiling& tiling, EMU_LOC) {
    detail_norm::batchnorm(output, outputMean, outputVariance, inputX, gamm, beta, nullptr, (float)epsilon, tiling, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamm, const LocalTensor<T>& beta,
                      const LocalTensor<uint8_t>& sharedTmpBuffer, const ascendc_emu::nd_t<T> epsilon,
                      const BatchNormTiling& tiling, EMU_LOC) {
    detail_norm::batchnorm(output, outputMean, outputVariance, inputX, gamm, beta, &sharedTmpBuffer, (float)epsilon,
                           tiling, loc);
}
template <typename T, bool isReuseSource = false>
inline void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                      const ascendc_emu::nd_t<T> epsilon, const GroupNormTiling& tiling, EMU_LOC) {
    detail_norm::groupnorm(output, outputMean, outputVariance, inputX, gamma, beta, nullptr, (float)epsilon, tiling, loc);
}
template <typename T, bool isReuseSource = false>
inline void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                      const LocalTensor<uint8_t>& sharedTmpBuffer, const ascendc_emu::nd_t<T> epsilon,
                      const GroupNormTiling& tiling, EMU_LOC) {
    detail_norm::groupnorm(output, outputMean, outputVariance, inputX, gamma, beta, &sharedTmpBuffer, (float)epsilon,
                           tiling, loc);
}

// ---- Welford (WelfordUpdate.md, WelfordFinalize.md)
namespace detail_norm {
template <class T, class U>
inline void welford_update(const LocalTensor<U>& oMean, const LocalTensor<U>& oVar, const LocalTensor<U>& iMean,
                           const LocalTensor<U>& iVar, const LocalTensor<T>& x, const LocalTensor<uint8_t>* t,
                           const WelfordUpdateParam& p, bool inplace, const Loc& loc) {
    static_assert(ascendc_emu::adv::is_float_like<T>::value && std::is_same<U, float>::value,
                  "WelfordUpdate: T half/bfloat16_t/float, U float");
    const char* api = "WelfordUpdate";
    ascendc_emu::begin_epoch(P_V);
    bool ok = true;
    if (p.rnLength != 1 || !p.abComputeLength || p.abComputeLength > p.abLength || ((uint64_t)p.abLength * sizeof(T)) % 32) {
        ascendc_emu::report_error("adv-shape", "vector-param-invalid", P_V, api, loc,
                                  "WelfordUpdate para rnLength=%u abLength=%u abComputeLength=%u: rnLength must be 1, "
                                  "0 < abComputeLength <= abLength, abLength a multiple of 32 B", p.rnLength,
                                  p.abLength, p.abComputeLength);
        ok = false;
    }
    const uint32_t n = p.abLength;
    ok = ok && x.emu_check(0, n, false, P_V, api, loc) && iMean.emu_check(0, n, false, P_V, api, loc) &&
         iVar.emu_check(0, n, false, P_V, api, loc);
    ok = ok && oMean.emu_check(0, n, true, P_V, api, loc) && oVar.emu_check(0, n, true, P_V, api, loc);
    ok = ok && tmp<float>(api, t, 0, ascendc_emu_adv::welford_update_min_tmp(), ascendc_emu_adv::welford_update_max_tmp(n), loc);
    if (ok)
        for (uint32_t i = 0; i < n; i++) {
            const float m0 = ld(iMean, i), v0 = ld(iVar, i);
            if (i >= p.abComputeLength) {
                if (inplace) {
                    st(oMean, i, m0);
                    st(oVar, i, v0);
                }
                continue;
            }
            const float xv = ld(x, i), d = xv - m0, m1 = m0 + d * p.nRec;
            st(oMean, i, m1);
            st(oVar, i, v0 + d * (xv - m1));
        }
    ascendc_emu::restore_norm();
    ascendc_emu::adv::trace_steps(api, {"Sub", "Muls", "Add", "Sub", "Mul", "Add"}, "float", n, 4, loc);
}
// Merge of abLength partial (mean, M) pairs with their counts (counts tensor, or headCount for the first
// headCountLength entries and tailCount for the rest): mean = sum(count * mean) * rRec,
// var = (sum(M) + sum(count * (mean_i - mean)^2)) * rRec (rRecWithCorrection with isCorrection).
inline void welford_finalize(const LocalTensor<float>& oMean, const LocalTensor<float>& oVar,
                             const LocalTensor<float>& iMean, const LocalTensor<float>& iVar,
                             const LocalTensor<int32_t>* counts, const LocalTensor<uint8_t>* t,
                             const WelfordFinalizePara& p, bool correction, const Loc& loc) {
    const char* api = "WelfordFinalize";
    ascendc_emu::begin_epoch(P_V);
    bool ok = true;
    if (!p.abLength || p.abLength % 8 || (!counts && p.headCountLength + p.tailCountLength != p.abLength)) {
        ascendc_emu::report_error("adv-shape", "vector-param-invalid", P_V, api, loc,
                                  "WelfordFinalize para abLength=%u (a multiple of 8) with headCountLength=%u + "
                                  "tailCountLength=%u == abLength", p.abLength, p.headCountLength, p.tailCountLength);
        ok = false;
    }
    const uint32_t n = p.abLength;
    ok = ok && iMean.emu_check(0, n, false, P_V, api, loc) && iVar.emu_check(0, n, false, P_V, api, loc);
    if (counts) ok = ok && counts->emu_check(0, n, false, P_V, api, loc);
    ok = ok && oMean.emu_check(0, 1, true, P_V, api, loc) && oVar.emu_check(0, 1, true, P_V, api, loc);
    ok = ok && tmp<float>(api, t, 0, ascendc_emu_adv::welford_finalize_tmp(n), ascendc_emu_adv::welford_finalize_tmp(n), loc);
    if (ok) {
        std::vector<float> v(n), cnt(n);
        for (uint32_t i = 0; i < n; i++) {
            cnt[i] = counts ? (float)((const int32_t*)counts->ptr_)[i] : (float)(i < p.headCountLength ? p.headCount : p.tailCount);
            v[i] = cnt[i] * ld(iMean, i);
        }
        const float mu = tree(v.data(), n) * p.rRec;
        for (uint32_t i = 0; i < n; i++) {
            const float d = ld(iMean, i) - mu;
            v[i] = ld(iVar, i) + cnt[i] * d * d;
        }
        const float var = tree(v.data(), n) * (correction ? p.rRecWithCorrection : p.rRec);
        st(oMean, 0, mu);
        st(oVar, 0, var);
    }
    ascendc_emu::restore_norm();
    ascendc_emu::adv::trace_steps(api, {"Mul", "ReduceSum", "Muls", "Adds", "Mul", "Mul", "Add", "ReduceSum", "Muls"},
                                  "float", n, 4, loc);
}
}  // namespace detail_norm
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                          const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                          const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& sharedTmpBuffer,
                          const WelfordUpdateParam& para, EMU_LOC) {
    detail_norm::welford_update(outputMean, outputVariance, inputMean, inputVariance, inputX, &sharedTmpBuffer, para,
                                config.isInplace, loc);
}
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                          const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                          const LocalTensor<T>& inputX, const WelfordUpdateParam& para, EMU_LOC) {
    detail_norm::welford_update(outputMean, outputVariance, inputMean, inputVariance, inputX, nullptr, para,
                                config.isInplace, loc);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const WelfordFinalizePara& para, EMU_LOC) {
    detail_norm::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, nullptr, &sharedTmpBuffer, para,
                                  config.isCorrection, loc);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const LocalTensor<int32_t>& counts, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const WelfordFinalizePara& para, EMU_LOC) {
    detail_norm::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, &counts, &sharedTmpBuffer, para,
                                  config.isCorrection, loc);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const WelfordFinalizePara& para, EMU_LOC) {
    detail_norm::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, nullptr, nullptr, para,
                                  config.isCorrection, loc);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const LocalTensor<int32_t>& counts, const WelfordFinalizePara& para, EMU_LOC) {
    detail_norm::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, &counts, nullptr, para,
                                  config.isCorrection, loc);
}

// ---- LayerNormGrad / LayerNormGradBeta (LayerNormGrad.md, LayerNormGradBeta.md; the formulas of the layernorm
// sample's golden): pd_xl = dy * gamma, pd_var = sum(-0.5 pd_xl (x - mean) (var + eps)^-1.5),
// pd_mean = sum(-pd_xl rstd) + pd_var / H * sum(-2 (x - mean)), pd_x = pd_mean / H + pd_var * 2 / H (x - mean)
// + pd_xl rstd; resForGamma = (x - mean) rstd. Beta: pd_gamma = sum over B*S of dy * resForGamma, pd_beta = sum dy.
namespace detail_norm {
template <class T>
inline void ln_grad(const LocalTensor<T>& pdx, const LocalTensor<T>& resForGamma, const LocalTensor<T>& dy,
                    const LocalTensor<T>& x, const LocalTensor<T>& var, const LocalTensor<T>& mean,
                    const LocalTensor<T>& gamma, const LocalTensor<uint8_t>* t, float eps,
                    const LayerNormGradTiling& tl, const Loc& loc) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value, "LayerNormGrad: half or float");
    const char* api = "LayerNormGrad";
    ascendc_emu::begin_epoch(P_V);
    const uint32_t rows = tl.bLength * tl.sLength, h = tl.hLength, oh = tl.originalHLength ? tl.originalHLength : h;
    bool ok = check_shape(api, rows, h, oh, sizeof(T), "LayerNormGradTiling [bLength*sLength, hLength]", loc);
    const uint64_t n = (uint64_t)rows * h;
    ok = ok && dy.emu_check(0, n, false, P_V, api, loc) && x.emu_check(0, n, false, P_V, api, loc);
    ok = ok && var.emu_check(0, rows, false, P_V, api, loc) && mean.emu_check(0, rows, false, P_V, api, loc);
    ok = ok && gamma.emu_check(0, h, false, P_V, api, loc);
    ok = ok && pdx.emu_check(0, n, true, P_V, api, loc) && resForGamma.emu_check(0, n, true, P_V, api, loc);
    ok = ok && tmp<T>(api, t, tl.stackBufferSize, row_tmp(NormKind::LayerNormGrad, h, sizeof(T)), rows * row_tmp(NormKind::LayerNormGrad, h, sizeof(T)), loc);
    if (ok) {
        std::vector<float> a(h), b(h), c(h), dm(h), pxl(h);
        const float inv = 1.0f / (float)oh;
        for (uint32_t r = 0; r < rows; r++) {
            const float mu = ld(mean, r), v = ld(var, r), rs = rstd_of(v, eps);
            const float p15 = std::pow(v + eps, -1.5f);
            for (uint32_t k = 0; k < h; k++) {
                const uint64_t i = (uint64_t)r * h + k;
                dm[k] = ld(x, i) - mu;
                pxl[k] = ld(dy, i) * ld(gamma, k);
                a[k] = -0.5f * pxl[k] * dm[k] * p15;
                b[k] = -pxl[k] * rs;
                c[k] = -2.0f * dm[k];
            }
            const float pdVar = tree(a.data(), oh);
            const float pdMean = tree(b.data(), oh) + pdVar * inv * tree(c.data(), oh);
            for (uint32_t k = 0; k < h; k++) {
                const uint64_t i = (uint64_t)r * h + k;
                st(pdx, i, pdMean * inv + pdVar * 2.0f * inv * dm[k] + pxl[k] * rs);
                st(resForGamma, i, dm[k] * rs);
            }
        }
    }
    ascendc_emu::restore_norm();
    ascendc_emu::adv::trace_steps(api, {"Mul", "Sub", "Adds", "Ln", "Muls", "Exp", "Mul", "Mul", "ReduceSum", "Mul",
                                        "ReduceSum", "Muls", "ReduceSum", "Mul", "Add", "Mul", "Add", "Mul"}, "float", n, 4, loc);
}
template <class T>
inline void ln_grad_beta(const LocalTensor<T>& pdGamma, const LocalTensor<T>& pdBeta, const LocalTensor<T>& resForGamma,
                         const LocalTensor<T>& dy, const LocalTensor<uint8_t>* t, const LayerNormGradBetaTiling& tl,
                         const Loc& loc) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value, "LayerNormGradBeta: half or float");
    const char* api = "LayerNormGradBeta";
    ascendc_emu::begin_epoch(P_V);
    const uint32_t rows = tl.bLength * tl.sLength, h = tl.hLength, oh = tl.originalHLength ? tl.originalHLength : h;
    bool ok = check_shape(api, rows, h, oh, sizeof(T), "LayerNormGradBetaTiling [bLength*sLength, hLength]", loc);
    const uint64_t n = (uint64_t)rows * h;
    ok = ok && dy.emu_check(0, n, false, P_V, api, loc) && resForGamma.emu_check(0, n, false, P_V, api, loc);
    ok = ok && pdGamma.emu_check(0, h, true, P_V, api, loc) && pdBeta.emu_check(0, h, true, P_V, api, loc);
    ok = ok && tmp<T>(api, t, tl.stackBufferSize, ascendc_emu_adv::lngradbeta_tmp(h), ascendc_emu_adv::lngradbeta_tmp(h), loc);
    if (ok)
        for (uint32_t k = 0; k < h; k++) {
            float g = 0, b = 0;  // the rows are added one after another (Add of row vectors)
            for (uint32_t r = 0; r < rows; r++) {
                const uint64_t i = (uint64_t)r * h + k;
                g += ld(dy, i) * ld(resForGamma, i);
                b += ld(dy, i);
            }
            st(pdGamma, k, g);
            st(pdBeta, k, b);
        }
    ascendc_emu::restore_norm();
    ascendc_emu::adv::trace_steps(api, {"Mul", "Add", "Add"}, "float", n, 4, loc);
}
}  // namespace detail_norm
// The trailing LayerNormGradShapeInfo (ND is the only documented format) is accepted as any type.
template <typename T, bool isReuseSource = false, class ShapeInfoT = int>
inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                          const LocalTensor<T>& inputX, const LocalTensor<T>& inputVariance,
                          const LocalTensor<T>& inputMean, const LocalTensor<T>& inputGamma,
                          const LocalTensor<uint8_t>& sharedTmpBuffer, const ascendc_emu::nd_t<T> epsilon,
                          const LayerNormGradTiling& tiling, const ShapeInfoT& shapeInfo = {}, EMU_LOC) {
    (void)shapeInfo;
    detail_norm::ln_grad(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma,
                         &sharedTmpBuffer, (float)epsilon, tiling, loc);
}
template <typename T, bool isReuseSource = false, class ShapeInfoT = int>
inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                          const LocalTensor<T>& inputX, const LocalTensor<T>& inputVariance,
                          const LocalTensor<T>& inputMean, const LocalTensor<T>& inputGamma,
                          const ascendc_emu::nd_t<T> epsilon, const LayerNormGradTiling& tiling,
                          const ShapeInfoT& shapeInfo = {}, EMU_LOC) {
    (void)shapeInfo;
    detail_norm::ln_grad(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma, nullptr,
                         (float)epsilon, tiling, loc);
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                              const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormGradBetaTiling& tiling,
                              EMU_LOC) {
    detail_norm::ln_grad_beta(outputPdGamma, outputPdBeta, resForGamma, inputDy, &sharedTmpBuffer, tiling, loc);
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                              const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                              const LayerNormGradBetaTiling& tiling, EMU_LOC) {
    detail_norm::ln_grad_beta(outputPdGamma, outputPdBeta, resForGamma, inputDy, nullptr, tiling, loc);
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_ADV_NORM_H_
