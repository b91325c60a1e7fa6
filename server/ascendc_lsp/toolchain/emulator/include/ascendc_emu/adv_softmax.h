// Softmax family (clean-room), docs/zh/api/SIMD-API/高阶API/激活函数/SoftMax接口/: SoftMax, SimpleSoftMax,
// SoftmaxFlash, SoftmaxFlashV2, SoftmaxFlashV3, SoftmaxGrad, SoftmaxGradFront, AdjustSoftMaxRes and
// LogSoftMax (LogSoftMax接口/). An [m, k] input (k = last axis, 32-byte aligned; m = product of the others) is
// processed row by row as each page's Python formula states: row max, subtract, exp, row sum (binary tree per
// 256-byte repeat then over the repeats, in fp32), divide. Per-row results (max, sum, exp-max, mean) are 32-byte
// blocks holding one value. The rows are done in passes of SoftMaxTiling.splitM rows that the tmp space must hold
// (the host SoftMaxTilingFunc computed splitM for a given localWorkSpaceSize); with config.isCheckTiling the API
// recomputes the passes when the tiling does not describe the shape, as the docs say.
// isDataFormatNZ: element (r, c) of the [m, k] view sits at (c / C0) * m * C0 + r * C0 + c % C0, C0 = 32 B / sizeof(T)
// (the NZ layout of cube.h); the per-row blocks stay row-major.
#ifndef ASCENDC_EMU_ASCENDC_EMU_ADV_SOFTMAX_H_
#define ASCENDC_EMU_ASCENDC_EMU_ADV_SOFTMAX_H_
#include "adv_common.h"
#include "../kernel_tiling/kernel_tiling.h"

namespace AscendC {
struct SoftMaxShapeInfo {
    uint32_t srcM;
    uint32_t srcK;
    uint32_t oriSrcM;
    uint32_t oriSrcK;
};
enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };
struct SoftmaxConfig {
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};
struct SoftMaxParams {
    uint32_t srcM;
    uint32_t srcK;
    uint32_t oriSrcM;
    uint32_t oriSrcK;
    uint32_t loopCnt;
    uint32_t splitMeanCnt;
    float alpha;
};

// Kernel-side tiling computation (SoftmaxFlashV2.md "kernel侧tiling计算接口"): the host SoftMaxFlashV2TilingFunc's
// result for the same shape and tmp size.
constexpr SoftMaxTiling SoftMaxFlashV2TilingFunc(const SoftMaxShapeInfo& shapeInfo, const uint32_t dataTypeSize1,
                                                 const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                                 const bool isUpdate = false, const bool isBasicBlock = false,
                                                 const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false) {
    (void)isBasicBlock; (void)isDataFormatNZ; (void)isFlashOutputBrc;
    uint32_t f[16] = {};
    ascendc_emu_adv::sm_tiling(shapeInfo.srcM, shapeInfo.srcK,
                               ascendc_emu_adv::sm_row_bytes(ascendc_emu_adv::SmKind::FlashV2, shapeInfo.srcK,
                                                             dataTypeSize1, isUpdate),
                               localWorkSpaceSize, 32 / (dataTypeSize2 ? dataTypeSize2 : 4), f);
    SoftMaxTiling t{};
    t.srcM = f[0]; t.srcK = f[1]; t.srcSize = f[2]; t.outMaxM = f[3]; t.outMaxK = f[4]; t.outMaxSize = f[5];
    t.splitM = f[6]; t.splitK = f[7]; t.splitSize = f[8]; t.reduceM = f[9]; t.reduceK = f[10]; t.reduceSize = f[11];
    t.rangeM = f[12]; t.tailM = f[13]; t.tailSplitSize = f[14]; t.tailReduceSize = f[15];
    return t;
}
}  // namespace AscendC

namespace ascendc_emu {
namespace adv {
namespace sm {
using AscendC::SoftMaxShapeInfo;
using ascendc_emu_adv::SmKind;

struct Shape {
    uint32_t m = 0, k = 0, oriM = 0, oriK = 0;
    bool nz = false;
    uint32_t c0 = 8;
    uint64_t at(uint32_t r, uint32_t c) const {
        return nz ? (uint64_t)(c / c0) * m * c0 + (uint64_t)r * c0 + c % c0 : (uint64_t)r * k + c;
    }
};

// The shape: softmaxShapeInfo when given, else the tiling's; oriSrcK < srcK limits the reductions.
EMU_RT_FN bool resolve(const char* api, uint32_t tm, uint32_t tk, const SoftMaxShapeInfo& s, uint32_t cfgOriM,
                       uint32_t cfgOriK, uint32_t typeSize, bool nz, Shape& out, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    out.m = s.srcM ? s.srcM : tm;
    out.k = s.srcK ? s.srcK : tk;
    out.oriM = s.oriSrcM ? s.oriSrcM : cfgOriM ? cfgOriM : out.m;
    out.oriK = s.oriSrcK ? s.oriSrcK : cfgOriK ? cfgOriK : out.k;
    out.nz = nz;
    out.c0 = 32 / typeSize;
    if (!out.m || !out.k) {
        report_error("adv-shape", "tiling-runtime", P_V, api, loc,
                     "%s has no shape: softmaxShapeInfo is [%u, %u] and the tiling says [%u, %u]; pass a "
                     "SoftMaxShapeInfo or the tiling from the host SoftMaxTilingFunc", api, s.srcM, s.srcK, tm, tk);
        return false;
    }
    if (((uint64_t)out.k * typeSize) % 32) {
        report_error("adv-shape", "misaligned-access", P_V, api, loc,
                     "%s last axis srcK=%u is %s B, not a multiple of 32 B: pad it (oriSrcK keeps the real length)",
                     api, out.k, EMU_N((uint64_t)out.k * typeSize));
        return false;
    }
    if (out.oriK > out.k || out.oriM > out.m) {
        report_error("adv-shape", "vector-param-invalid", P_V, api, loc,
                     "%s oriSrcM x oriSrcK = %u x %u exceeds srcM x srcK = %u x %u", api, out.oriM, out.oriK, out.m,
                     out.k);
        return false;
    }
    return true;
}
#else
;
#endif

// Rows per pass and the tmp space they need: the tiling's splitM when the tiling describes this shape, else (with
// isCheckTiling) as many rows as the space holds.
EMU_RT_FN bool passes(const char* api, const AscendC::tiling::SoftMaxTiling& t, const Shape& sh, uint32_t rowBytes,
                      bool isCheckTiling, const LocalTensor<uint8_t>* tmp, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    uint64_t have;
    if (tmp) {
        if (!check_ub_position(api, "sharedTmpBuffer", tmp->pos_, loc)) return false;
        have = tmp->ptr_ ? tmp->size_ : 0;
    } else {
        Block& b = blk();
        uint64_t cap = space_capacity(SP_UB), used = b.pipe ? b.pipe->used[SP_UB] : 0;
        have = b.pipe ? (cap > used ? cap - used : 0) : ~0ull;
    }
    const bool consistent = t.srcM == sh.m && t.srcK == sh.k && t.splitM > 0;
    uint64_t rows;
    if (consistent) {
        rows = t.splitM < sh.m ? t.splitM : sh.m;
        uint64_t need = rows * rowBytes;
        if (have < need) {
            report_error("tmp-buffer-size", tmp ? "ub-out-of-bounds" : "ub-overflow", P_V, api, loc,
                         "%s: the SoftMaxTiling was computed for passes of splitM=%u rows of srcK=%u (%s B of temporary "
                         "space each pass), but %s holds %s B: the API would write %s B past it (compute the tiling "
                         "with the localWorkSpaceSize the kernel really provides)", api, t.splitM, sh.k, EMU_N(need),
                         tmp ? "sharedTmpBuffer" : "the free Unified Buffer", EMU_N(have), EMU_N(need - have));
            return false;
        }
    } else {
        if (!isCheckTiling && (t.srcM || t.srcK)) {
            report_error("softmax-tiling", "tiling-runtime", P_V, api, loc,
                         "%s: SoftMaxTiling describes [%u, %u] with splitM=%u but the shape is [%u, %u], and "
                         "config.isCheckTiling is false, so the API would use the wrong tiling", api, t.srcM, t.srcK,
                         t.splitM, sh.m, sh.k);
            return false;
        }
        rows = have / rowBytes;
        if (rows == 0) {
            report_error("tmp-buffer-size", tmp ? "ub-out-of-bounds" : "ub-overflow", P_V, api, loc,
                         "%s needs at least %s B of temporary space for one row of srcK=%u (GetSoftMax*MinTmpSize), "
                         "but %s holds %s B", api, EMU_N(rowBytes), sh.k,
                         tmp ? "sharedTmpBuffer" : "the free Unified Buffer", EMU_N(have));
            return false;
        }
    }
    if (tmp && tmp->ptr_) {
        uint64_t use = (rows < sh.m ? rows : sh.m) * rowBytes;
        if (use > have) use = have;
        return tmp->emu_check_bytes(0, use, true, P_V, api, loc);
    }
    return true;
}
#else
;
#endif

template <class T> inline float ld(const LocalTensor<T>& t, uint64_t i) { return (float)((const T*)t.ptr_)[i]; }
template <class T> inline void st(const LocalTensor<T>& t, uint64_t i, float v) { ((T*)t.ptr_)[i] = (T)v; }
template <class T> inline constexpr uint32_t blk_elems() { return 32 / sizeof(T); }
template <class T> inline float get_blk(const LocalTensor<T>& t, uint32_t r) { return ld(t, (uint64_t)r * blk_elems<T>()); }
template <class T> inline void put_blk(const LocalTensor<T>& t, uint32_t r, float v) {
    T x = (T)v;
    T* p = (T*)t.ptr_ + (uint64_t)r * blk_elems<T>();
    for (uint32_t i = 0; i < blk_elems<T>(); i++) p[i] = x;
}
// fp32 row sum in the vector unit's order (tree per 256-byte repeat, then over the repeats).
inline float row_sum(std::vector<float>& v, uint32_t n) {
    std::vector<float> w(v.begin(), v.begin() + n);
    return AscendC::detail_red::level_sum<float>(w);
}
template <class T>
inline bool check_data(const char* api, const char* what, const LocalTensor<T>& t, uint64_t n, bool write,
                       const Loc& loc) {
    return check_ub_position(api, what, t.pos_, loc) && t.emu_check(0, n, write, P_V, api, loc);
}
template <class T>
inline bool check_blocks(const char* api, const char* what, const LocalTensor<T>& t, uint32_t m, bool write,
                         const Loc& loc) {
    return check_data(api, what, t, (uint64_t)m * blk_elems<T>(), write, loc);
}
inline void trace(const char* api, std::initializer_list<const char*> steps, const Shape& sh, const Loc& loc) {
    trace_steps(api, steps, "float", (uint64_t)sh.m * sh.k, 4, loc);
}
}  // namespace sm
}  // namespace adv
}  // namespace ascendc_emu

namespace AscendC {
namespace detail_softmax {
using namespace ascendc_emu::adv::sm;
using ascendc_emu::Loc;

// Common prologue: shape, operand bounds, tmp passes. Returns false when the call must do nothing.
template <class T>
inline bool prologue(const char* api, SmKind kind, bool update, const SoftMaxTiling& tiling,
                     const SoftMaxShapeInfo& info, const SoftmaxConfig& cfg, bool nz, const LocalTensor<T>& src,
                     const LocalTensor<uint8_t>* tmp, Shape& sh, const Loc& loc) {
    ascendc_emu::begin_epoch(ascendc_emu::P_V);
    if (!resolve(api, tiling.srcM, tiling.srcK, info, cfg.oriSrcM, cfg.oriSrcK, sizeof(T), nz, sh, loc)) return false;
    bool ok = check_data(api, "srcTensor", src, (uint64_t)sh.m * sh.k, false, loc);
    uint32_t rowBytes = ascendc_emu_adv::sm_row_bytes(kind, sh.k, sizeof(T), update);
    return passes(api, tiling, sh, rowBytes, cfg.isCheckTiling, tmp, loc) && ok;
}

// LogSoftMaxTiling has SoftMaxTiling's fields (the same X-macro list).
inline SoftMaxTiling from_log(const LogSoftMaxTiling& l) {
    SoftMaxTiling t;
#define ASCENDC_EMU_COPY_FIELD(type, name) t.name = l.name;
    ASCENDC_EMU_TILING_FIELDS_LogSoftMaxTiling(ASCENDC_EMU_COPY_FIELD)
#undef ASCENDC_EMU_COPY_FIELD
    return t;
}

// SoftMax / LogSoftMax: dst = exp(x - max) / sum (LogSoftMax: log10 of it), max and sum as blocks.
template <class T, class U>
inline void softmax(const char* api, SmKind kind, const LocalTensor<T>& dst, const LocalTensor<U>* sum,
                    const LocalTensor<U>* max, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& info, const SoftmaxConfig& cfg, bool nz,
                    const Loc& loc) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value && ascendc_emu::adv::is_f16_or_f32<U>::value,
                  "SoftMax: half or float");
    Shape sh;
    bool ok = prologue(api, kind, false, tiling, info, cfg, nz, src, tmp, sh, loc);
    if (ok) {
        ok = check_data(api, "dstTensor", dst, (uint64_t)sh.m * sh.k, true, loc);
        if (sum) ok = check_blocks(api, "sumTensor", *sum, sh.m, true, loc) && ok;
        if (max) ok = check_blocks(api, "maxTensor", *max, sh.m, true, loc) && ok;
    }
    if (ok) {
        std::vector<float> e(sh.k);
        for (uint32_t r = 0; r < sh.m; r++) {
            float mx = -INFINITY;
            for (uint32_t c = 0; c < sh.oriK; c++) mx = std::fmax(mx, ld(src, sh.at(r, c)));
            for (uint32_t c = 0; c < sh.k; c++) e[c] = std::exp(ld(src, sh.at(r, c)) - mx);
            float s = row_sum(e, sh.oriK);
            for (uint32_t c = 0; c < sh.k; c++) {
                float v = e[c] / s;
                st(dst, sh.at(r, c), kind == SmKind::LogSoftMax ? std::log10(v) : v);
            }
            if (sum) put_blk(*sum, r, s);
            if (max) put_blk(*max, r, mx);
        }
    }
    ascendc_emu::restore_norm();
    if (kind == SmKind::LogSoftMax)
        trace(api, {"ReduceMax", "Brcb", "Sub", "Exp", "ReduceSum", "Brcb", "Div", "Ln", "Muls"}, sh, loc);
    else
        trace(api, {"ReduceMax", "Brcb", "Sub", "Exp", "ReduceSum", "Brcb", "Div"}, sh, loc);
}

// SimpleSoftMax: dst = exp(x - inMax) / inSum with the caller's blocks.
template <class T, class U>
inline void simple(const LocalTensor<T>& dst, const LocalTensor<U>& inSum, const LocalTensor<U>& inMax,
                   const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& info, const SoftmaxConfig& cfg, bool nz, const Loc& loc) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value, "SimpleSoftMax: half or float");
    const char* api = "SimpleSoftMax";
    Shape sh;
    bool ok = prologue(api, SmKind::SoftMax, false, tiling, info, cfg, nz, src, tmp, sh, loc);
    if (ok) {
        ok = check_data(api, "dstTensor", dst, (uint64_t)sh.m * sh.k, true, loc);
        ok = check_blocks(api, "inSumTensor", inSum, sh.m, false, loc) && ok;
        ok = check_blocks(api, "inMaxTensor", inMax, sh.m, false, loc) && ok;
    }
    if (ok)
        for (uint32_t r = 0; r < sh.m; r++) {
            float mx = get_blk(inMax, r), s = get_blk(inSum, r);
            for (uint32_t c = 0; c < sh.k; c++) st(dst, sh.at(r, c), std::exp(ld(src, sh.at(r, c)) - mx) / s);
        }
    ascendc_emu::restore_norm();
    trace(api, {"Sub", "Exp", "Div"}, sh, loc);
}

// SoftmaxFlash (v1) and SoftmaxFlashV2: the pages' Python formulas. v1 normalises dst and rescales expMax;
// V2 leaves dst = exp(x - max) unnormalised. `reduceMax` (V2 only) receives the row max of x alone.
template <class T, class U, class E>
inline void flash(const char* api, bool v2, bool update, const LocalTensor<T>& dst, const LocalTensor<U>* reduceMax,
                  const LocalTensor<U>& sum, const LocalTensor<U>& max, const LocalTensor<T>& src,
                  const LocalTensor<E>& expMax, const LocalTensor<U>& inSum, const LocalTensor<U>& inMax,
                  const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& info,
                  const SoftmaxConfig& cfg, bool nz, const Loc& loc) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value && ascendc_emu::adv::is_f16_or_f32<U>::value,
                  "SoftmaxFlash: half or float");
    Shape sh;
    bool ok = prologue(api, v2 ? SmKind::FlashV2 : SmKind::Flash, update, tiling, info, cfg, nz, src, tmp, sh, loc);
    if (ok) {
        ok = check_data(api, "dstTensor", dst, (uint64_t)sh.m * sh.k, true, loc);
        ok = check_blocks(api, "sumTensor", sum, sh.m, true, loc) && ok;
        ok = check_blocks(api, "maxTensor", max, sh.m, true, loc) && ok;
        if (reduceMax) ok = check_blocks(api, "outReduceMax", *reduceMax, sh.m, true, loc) && ok;
        if (update) {
            ok = check_blocks(api, "expMaxTensor", expMax, sh.m, true, loc) && ok;
            ok = check_blocks(api, "inSumTensor", inSum, sh.m, false, loc) && ok;
            ok = check_blocks(api, "inMaxTensor", inMax, sh.m, false, loc) && ok;
        }
    }
    if (ok) {
        std::vector<float> e(sh.k);
        for (uint32_t r = 0; r < sh.m; r++) {
            float rm = -INFINITY;
            for (uint32_t c = 0; c < sh.oriK; c++) rm = std::fmax(rm, ld(src, sh.at(r, c)));
            float mx = rm, im = 0, is = 0;
            if (update) {
                im = get_blk(inMax, r);
                is = get_blk(inSum, r);
                mx = std::fmax(im, rm);
            }
            for (uint32_t c = 0; c < sh.k; c++) e[c] = std::exp(ld(src, sh.at(r, c)) - mx);
            float s = row_sum(e, sh.oriK), em = 0;
            if (update) {
                em = std::exp(im - mx);
                s = em * is + s;
            }
            for (uint32_t c = 0; c < sh.k; c++) st(dst, sh.at(r, c), v2 ? e[c] : e[c] / s);
            put_blk(sum, r, s);
            put_blk(max, r, mx);
            if (reduceMax) put_blk(*reduceMax, r, rm);
            if (update) put_blk(expMax, r, v2 ? em : em * is / s);
        }
    }
    ascendc_emu::restore_norm();
    if (update)
        trace(api, {"ReduceMax", "Brcb", "Max", "Sub", "Exp", "Sub", "Exp", "ReduceSum", "Brcb", "Mul", "Add"}, sh, loc);
    else
        trace(api, {"ReduceMax", "Brcb", "Sub", "Exp", "ReduceSum", "Brcb"}, sh, loc);
}

// SoftmaxGrad (isFront: only the row sum of grad * src, as a block) and SoftmaxGradFront.
template <class T>
inline void grad(const char* api, bool front, const LocalTensor<T>& dst, const LocalTensor<T>& g,
                 const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling,
                 const SoftMaxShapeInfo& info, const SoftmaxConfig& cfg, bool nz, const Loc& loc) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value, "SoftmaxGrad: half or float");
    Shape sh;
    bool ok = prologue(api, SmKind::Grad, false, tiling, info, cfg, nz, src, tmp, sh, loc);
    if (ok) {
        ok = check_data(api, "gradTensor", g, (uint64_t)sh.m * sh.k, false, loc);
        ok = (front ? check_blocks(api, "dstTensor", dst, sh.m, true, loc)
                    : check_data(api, "dstTensor", dst, (uint64_t)sh.m * sh.k, true, loc)) && ok;
    }
    if (ok) {
        std::vector<float> p(sh.k), gv(sh.k), sv(sh.k);
        for (uint32_t r = 0; r < sh.m; r++) {
            for (uint32_t c = 0; c < sh.k; c++) {
                gv[c] = ld(g, sh.at(r, c));
                sv[c] = ld(src, sh.at(r, c));
                p[c] = gv[c] * sv[c];
            }
            float d = row_sum(p, sh.oriK);
            if (front) {
                put_blk(dst, r, d);
                continue;
            }
            for (uint32_t c = 0; c < sh.k; c++) st(dst, sh.at(r, c), (gv[c] - d) * sv[c]);
        }
    }
    ascendc_emu::restore_norm();
    if (front)
        trace(api, {"Mul", "ReduceSum", "Brcb"}, sh, loc);
    else
        trace(api, {"Mul", "ReduceSum", "Brcb", "Sub", "Mul"}, sh, loc);
}

// SoftmaxFlashV3 (Softmax PASA, SoftmaxFlashV3.md's pseudo-code): each of splitMeanCnt column groups is shifted
// by (global row mean - group mean) * alpha / (1 - alpha) before the flash update.
template <class T, class U>
inline void flash_v3(bool update, const LocalTensor<T>& dst, const LocalTensor<U>& mean, const LocalTensor<U>& sum,
                     const LocalTensor<U>& max, const LocalTensor<T>& src, const LocalTensor<T>& expMax,
                     const LocalTensor<U>& inMean, const LocalTensor<U>& inSum, const LocalTensor<U>& inMax,
                     const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling, const SoftMaxParams& prm,
                     const SoftmaxConfig& cfg, const Loc& loc) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value && std::is_same<U, float>::value,
                  "SoftmaxFlashV3: T half or float, U float");
    const char* api = "SoftmaxFlashV3";
    SoftMaxShapeInfo info{prm.srcM, prm.srcK, prm.oriSrcM, prm.oriSrcK};
    Shape sh;
    bool ok = prologue(api, SmKind::FlashV3, update, tiling, info, cfg, false, src, tmp, sh, loc);
    const uint32_t groups = prm.splitMeanCnt ? prm.splitMeanCnt : 8;
    if (ok && sh.k % groups) {
        ascendc_emu::report_error("adv-shape", "vector-param-invalid", ascendc_emu::P_V, api, loc,
                                  "SoftmaxFlashV3 srcK=%u is not a multiple of splitMeanCnt=%u", sh.k, groups);
        ok = false;
    }
    if (ok && update && prm.loopCnt == 0) {
        ascendc_emu::report_error("adv-shape", "vector-param-invalid", ascendc_emu::P_V, api, loc,
                                  "SoftmaxFlashV3 with isUpdate needs params.loopCnt >= 1");
        ok = false;
    }
    if (ok) {
        ok = check_data(api, "dstTensor", dst, (uint64_t)sh.m * sh.k, true, loc);
        ok = check_blocks(api, "meanTensor", mean, sh.m, true, loc) && ok;
        ok = check_blocks(api, "expSumTensor", sum, sh.m, true, loc) && ok;
        ok = check_blocks(api, "maxTensor", max, sh.m, true, loc) && ok;
        if (update) {
            ok = check_blocks(api, "expMaxTensor", expMax, sh.m, true, loc) && ok;
            ok = check_blocks(api, "inMeanTensor", inMean, sh.m, false, loc) && ok;
            ok = check_blocks(api, "inExpSumTensor", inSum, sh.m, false, loc) && ok;
            ok = check_blocks(api, "inMaxTensor", inMax, sh.m, false, loc) && ok;
        }
    }
    if (ok) {
        const float scalar = prm.alpha / (1.0f - prm.alpha);
        const uint32_t baseK = sh.k / groups;
        std::vector<float> x(sh.k), e(sh.k);
        for (uint32_t r = 0; r < sh.m; r++) {
            float tot = 0;
            for (uint32_t c = 0; c < sh.k; c++) {
                x[c] = ld(src, sh.at(r, c));
                tot += x[c];
            }
            const float gmean = tot / (float)sh.k;
            for (uint32_t j = 0; j < groups; j++) {
                float ls = 0;
                for (uint32_t c = j * baseK; c < (j + 1) * baseK; c++) ls += ld(src, sh.at(r, c));
                const float shift = (gmean - ls / (float)baseK) * scalar;
                for (uint32_t c = j * baseK; c < (j + 1) * baseK; c++) x[c] -= shift;
            }
            float mt = -INFINITY;
            for (uint32_t c = 0; c < sh.k; c++) mt = std::fmax(mt, x[c]);
            float xmean = gmean, xmax, sub, em = 0, s;
            if (!update) {
                xmax = mt;
                sub = mt;
            } else {
                const float im = get_blk(inMean, r), imax = get_blk(inMax, r), is = get_blk(inSum, r);
                xmean = (gmean + im * (float)(prm.loopCnt - 1)) / (float)prm.loopCnt;
                const float shiftCurr = (gmean - xmean) * scalar, shiftPrev = (im - xmean) * scalar;
                xmax = std::fmax(shiftCurr + mt, shiftPrev + imax);
                sub = xmax - shiftCurr;
                em = std::exp(imax - xmax + shiftPrev);
                (void)is;
            }
            for (uint32_t c = 0; c < sh.k; c++) e[c] = std::exp(x[c] - sub);
            s = row_sum(e, sh.k);
            if (update) s = em * get_blk(inSum, r) + s;
            for (uint32_t c = 0; c < sh.k; c++) st(dst, sh.at(r, c), e[c]);
            put_blk(mean, r, xmean);
            put_blk(max, r, xmax);
            put_blk(sum, r, s);
            if (update) put_blk(expMax, r, em);
        }
    }
    ascendc_emu::restore_norm();
    trace(api, {"BlockReduceSum", "Add", "BlockReduceSum", "Muls", "Sub", "ReduceMax", "Sub", "Exp", "ReduceSum",
                "Brcb", "Mul", "Add"}, sh, loc);
}
}  // namespace detail_softmax

#define ASCENDC_EMU_SM_T template <typename T, bool isReuseSource = false, bool isBasicBlock = false, \
                                   bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
// ---- SoftMax (SoftMax.md): same types, half data with float sum/max, no sum/max; framework or shared tmp.
ASCENDC_EMU_SM_T inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                                     const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                     const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                     EMU_LOC) {
    detail_softmax::softmax("SoftMax", ascendc_emu_adv::SmKind::SoftMax, dstTensor, &sumTensor, &maxTensor, srcTensor,
                            nullptr, tiling, softmaxShapeInfo, config, isDataFormatNZ, loc);
}
ASCENDC_EMU_SM_T inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                                     const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                     const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                     EMU_LOC) {
    detail_softmax::softmax("SoftMax", ascendc_emu_adv::SmKind::SoftMax, dstTensor, &sumTensor, &maxTensor, srcTensor,
                            nullptr, tiling, softmaxShapeInfo, config, isDataFormatNZ, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    detail_softmax::softmax("SoftMax", ascendc_emu_adv::SmKind::SoftMax, dstTensor, (const LocalTensor<T>*)nullptr,
                            (const LocalTensor<T>*)nullptr, srcTensor, nullptr, tiling, softmaxShapeInfo, config,
                            false, loc);
}
ASCENDC_EMU_SM_T inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                                     const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                     const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                     const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    detail_softmax::softmax("SoftMax", ascendc_emu_adv::SmKind::SoftMax, dstTensor, &sumTensor, &maxTensor, srcTensor,
                            &sharedTmpBuffer, tiling, softmaxShapeInfo, config, isDataFormatNZ, loc);
}
ASCENDC_EMU_SM_T inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                                     const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                     const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                     const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    detail_softmax::softmax("SoftMax", ascendc_emu_adv::SmKind::SoftMax, dstTensor, &sumTensor, &maxTensor, srcTensor,
                            &sharedTmpBuffer, tiling, softmaxShapeInfo, config, isDataFormatNZ, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    detail_softmax::softmax("SoftMax", ascendc_emu_adv::SmKind::SoftMax, dstTensor, (const LocalTensor<T>*)nullptr,
                            (const LocalTensor<T>*)nullptr, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo,
                            config, false, loc);
}

// ---- SimpleSoftMax (SimpleSoftMax.md)
ASCENDC_EMU_SM_T inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                                           const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                                           const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                           EMU_LOC) {
    detail_softmax::simple(dstTensor, inSumTensor, inMaxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo, config,
                           isDataFormatNZ, loc);
}
ASCENDC_EMU_SM_T inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                                           const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                                           const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                           EMU_LOC) {
    detail_softmax::simple(dstTensor, inSumTensor, inMaxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo, config,
                           isDataFormatNZ, loc);
}
ASCENDC_EMU_SM_T inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                                           const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                                           const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                           const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    detail_softmax::simple(dstTensor, inSumTensor, inMaxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo,
                           config, isDataFormatNZ, loc);
}
ASCENDC_EMU_SM_T inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                                           const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                                           const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                           const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    detail_softmax::simple(dstTensor, inSumTensor, inMaxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo,
                           config, isDataFormatNZ, loc);
}

// ---- SoftmaxFlash (SoftmaxFlash.md; isUpdate is a run-time argument)
ASCENDC_EMU_SM_T inline void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                                          const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                          const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
                                          const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                                          bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                          EMU_LOC) {
    detail_softmax::flash("SoftmaxFlash", false, isUpdate, dstTensor, (const LocalTensor<T>*)nullptr, sumTensor,
                          maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor, nullptr, tiling,
                          softmaxShapeInfo, config, isDataFormatNZ, loc);
}
ASCENDC_EMU_SM_T inline void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                                          const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                          const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inSumTensor,
                                          const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                                          bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                          EMU_LOC) {
    detail_softmax::flash("SoftmaxFlash", false, isUpdate, dstTensor, (const LocalTensor<float>*)nullptr, sumTensor,
                          maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor, nullptr, tiling,
                          softmaxShapeInfo, config, isDataFormatNZ, loc);
}
ASCENDC_EMU_SM_T inline void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                                          const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                          const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
                                          const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                          const SoftMaxTiling& tiling, bool isUpdate = false,
                                          const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    detail_softmax::flash("SoftmaxFlash", false, isUpdate, dstTensor, (const LocalTensor<T>*)nullptr, sumTensor,
                          maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor, &sharedTmpBuffer, tiling,
                          softmaxShapeInfo, config, isDataFormatNZ, loc);
}
ASCENDC_EMU_SM_T inline void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                                          const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                          const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inSumTensor,
                                          const LocalTensor<float>& inMaxTensor,
                                          const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                          bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                          EMU_LOC) {
    detail_softmax::flash("SoftmaxFlash", false, isUpdate, dstTensor, (const LocalTensor<float>*)nullptr, sumTensor,
                          maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor, &sharedTmpBuffer, tiling,
                          softmaxShapeInfo, config, isDataFormatNZ, loc);
}

// ---- SoftmaxFlashV2 (SoftmaxFlashV2.md; isUpdate is a template argument)
#define ASCENDC_EMU_SMV2_T template <typename T, bool isUpdate = false, bool isReuseSource = false, \
    bool isBasicBlock = false, bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
ASCENDC_EMU_SMV2_T inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                                              const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                              const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                                              const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                                              const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    detail_softmax::flash("SoftmaxFlashV2", true, isUpdate, dstTensor, (const LocalTensor<T>*)nullptr, expSumTensor,
                          maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, nullptr, tiling,
                          softmaxShapeInfo, config, isDataFormatNZ, loc);
}
ASCENDC_EMU_SMV2_T inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,
                                              const LocalTensor<T>& outExpSum, const LocalTensor<T>& outMax,
                                              const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax,
                                              const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax,
                                              const SoftMaxTiling& tiling,
                                              const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    detail_softmax::flash("SoftmaxFlashV2", true, isUpdate, dstTensor, &outReduceMax, outExpSum, outMax, srcTensor,
                          outExpMax, inExpSum, inMax, nullptr, tiling, softmaxShapeInfo, config, isDataFormatNZ, loc);
}
ASCENDC_EMU_SMV2_T inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor,
                                              const LocalTensor<float>& expSumTensor,
                                              const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                              const LocalTensor<half>& expMaxTensor,
                                              const LocalTensor<float>& inExpSumTensor,
                                              const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                                              const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    detail_softmax::flash("SoftmaxFlashV2", true, isUpdate, dstTensor, (const LocalTensor<float>*)nullptr,
                          expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, nullptr,
                          tiling, softmaxShapeInfo, config, isDataFormatNZ, loc);
}
ASCENDC_EMU_SMV2_T inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outExpSum,
                                              const LocalTensor<T>& outMax, const LocalTensor<T>& srcTensor,
                                              const LocalTensor<T>& outExpMax, const LocalTensor<T>& inExpSum,
                                              const LocalTensor<T>& inMax, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                              const SoftMaxTiling& tiling,
                                              const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    detail_softmax::flash("SoftmaxFlashV2", true, isUpdate, dstTensor, (const LocalTensor<T>*)nullptr, outExpSum,
                          outMax, srcTensor, outExpMax, inExpSum, inMax, &sharedTmpBuffer, tiling, softmaxShapeInfo,
                          config, isDataFormatNZ, loc);
}
ASCENDC_EMU_SMV2_T inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,
                                              const LocalTensor<T>& expSumTensor, const LocalTensor<T>& maxTensor,
                                              const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                                              const LocalTensor<T>& inExpSumTensor, const LocalTensor<T>& inMaxTensor,
                                              const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                              const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    detail_softmax::flash("SoftmaxFlashV2", true, isUpdate, dstTensor, &outReduceMax, expSumTensor, maxTensor,
                          srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, &sharedTmpBuffer, tiling,
                          softmaxShapeInfo, config, isDataFormatNZ, loc);
}
ASCENDC_EMU_SMV2_T inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor,
                                              const LocalTensor<float>& expSumTensor,
                                              const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                              const LocalTensor<half>& expMaxTensor,
                                              const LocalTensor<float>& inExpSumTensor,
                                              const LocalTensor<float>& inMaxTensor,
                                              const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                              const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    detail_softmax::flash("SoftmaxFlashV2", true, isUpdate, dstTensor, (const LocalTensor<float>*)nullptr,
                          expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
                          &sharedTmpBuffer, tiling, softmaxShapeInfo, config, isDataFormatNZ, loc);
}
#undef ASCENDC_EMU_SMV2_T

// ---- SoftmaxFlashV3 (SoftmaxFlashV3.md)
template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                           const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                           const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                           const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                           const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling, const SoftMaxParams& params,
                           EMU_LOC) {
    detail_softmax::flash_v3(isUpdate, dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                             inMeanTensor, inExpSumTensor, inMaxTensor, nullptr, tiling, params, config, loc);
}
template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                           const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                           const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                           const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                           const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const SoftMaxTiling& tiling, const SoftMaxParams& params, EMU_LOC) {
    detail_softmax::flash_v3(isUpdate, dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                             inMeanTensor, inExpSumTensor, inMaxTensor, &sharedTmpBuffer, tiling, params, config, loc);
}

// ---- SoftmaxGrad / SoftmaxGradFront (SoftmaxGrad.md, SoftmaxGradFront.md)
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                         const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                                         bool isFront = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                         EMU_LOC) {
    detail_softmax::grad("SoftmaxGrad", isFront, dstTensor, gradTensor, srcTensor, nullptr, tiling, softmaxShapeInfo,
                         SOFTMAX_DEFAULT_CFG, isDataFormatNZ, loc);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                         const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                         const SoftMaxTiling& tiling, bool isFront = false,
                                         const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    detail_softmax::grad("SoftmaxGrad", isFront, dstTensor, gradTensor, srcTensor, &sharedTmpBuffer, tiling,
                         softmaxShapeInfo, SOFTMAX_DEFAULT_CFG, isDataFormatNZ, loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                             const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                             const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    detail_softmax::grad("SoftmaxGradFront", true, dstTensor, gradTensor, srcTensor, nullptr, tiling, softmaxShapeInfo,
                         config, isDataFormatNZ, loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                             const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    detail_softmax::grad("SoftmaxGradFront", true, dstTensor, gradTensor, srcTensor, &sharedTmpBuffer, tiling,
                         softmaxShapeInfo, config, isDataFormatNZ, loc);
}

// ---- LogSoftMax (LogSoftMax接口/LogSoftMax.md: log10 of the softmax); LogSoftMaxTiling has SoftMaxTiling's fields.
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
                       const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                       const LogSoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    const SoftMaxTiling t = detail_softmax::from_log(tiling);
    detail_softmax::softmax("LogSoftMax", ascendc_emu_adv::SmKind::LogSoftMax, dst, &sum, &max, src, &sharedTmpBuffer,
                            t, softmaxShapeInfo, SOFTMAX_DEFAULT_CFG, isDataFormatNZ, loc);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
                       const LocalTensor<T>& src, const LogSoftMaxTiling& tiling,
                       const SoftMaxShapeInfo& softmaxShapeInfo = {}, EMU_LOC) {
    const SoftMaxTiling t = detail_softmax::from_log(tiling);
    detail_softmax::softmax("LogSoftMax", ascendc_emu_adv::SmKind::LogSoftMax, dst, &sum, &max, src, nullptr, t,
                            softmaxShapeInfo, SOFTMAX_DEFAULT_CFG, isDataFormatNZ, loc);
}

// ---- AdjustSoftMaxRes (AdjustSoftMaxRes.md): rows whose max block equals the bits `from` get `to` everywhere;
// returns whether any row did.
template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
inline bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor, const uint32_t from,
                             const ascendc_emu::nd_t<T1> to, const SoftMaxShapeInfo& softmaxShapeInfo, EMU_LOC) {
    using namespace ascendc_emu::adv::sm;
    const char* api = "AdjustSoftMaxRes";
    ascendc_emu::begin_epoch(ascendc_emu::P_V);
    Shape sh;
    if (!resolve(api, 0, 0, softmaxShapeInfo, 0, 0, sizeof(T1), isDataFormatNZ, sh, loc)) return false;
    bool ok = check_data(api, "softMaxRes", softMaxRes, (uint64_t)sh.m * sh.k, true, loc);
    ok = check_blocks(api, "maxTensor", maxTensor, sh.m, false, loc) && ok;
    bool any = false;
    if (ok)
        for (uint32_t r = 0; r < sh.m; r++) {
            T2 v = ((const T2*)maxTensor.ptr_)[(uint64_t)r * blk_elems<T2>()];
            uint32_t bits = 0;
            memcpy(&bits, &v, sizeof(T2) < 4 ? sizeof(T2) : 4);
            if (bits != from) continue;
            any = true;
            for (uint32_t c = 0; c < sh.k; c++) ((T1*)softMaxRes.ptr_)[sh.at(r, c)] = (T1)to;
        }
    ascendc_emu::restore_norm();
    trace(api, {"Compare", "Select"}, sh, loc);
    return any;
}
#undef ASCENDC_EMU_SM_T
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_ADV_SOFTMAX_H_
