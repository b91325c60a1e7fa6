// High-level data-arrangement and filter APIs (clean-room): Broadcast / BroadCast (张量变换/Broadcast.md), Fill of
// global memory (张量变换/Fill-97.md), Pad / UnPad along the last axis (张量变换/Pad.md, UnPad.md), Select with a
// byte mask (数据过滤/Select-95.md) and DropOut (数据过滤/DropOut.md).
#ifndef ASCENDC_EMU_ASCENDC_EMU_ADV_TRANSFORM_H_
#define ASCENDC_EMU_ASCENDC_EMU_ADV_TRANSFORM_H_
#include "adv_common.h"
#include "../kernel_tiling/kernel_tiling.h"

namespace AscendC {
struct PadParams {
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
    int32_t padValue = 0;
};
struct UnPadParams {
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
};
struct SelectWithBytesMaskShapeInfo {
    SelectWithBytesMaskShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
struct DropOutShapeInfo {
    DropOutShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};

// ---- Broadcast (Broadcast.md; BroadCast is the former name): dim 1 or 2, axis 0 or 1; dense row-major tensors.
// dst[i][j] = src[i % srcShape[0]][j % srcShape[1]] (a broadcast axis has srcShape[axis] == 1).
namespace detail_brc {
template <class T, int32_t dim, int32_t axis>
inline void run(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t* dstShape,
                const uint32_t* srcShape, const LocalTensor<uint8_t>* tmp, const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    static_assert(dim == 1 || dim == 2, "Broadcast: dim must be 1 or 2");
    static_assert(axis == 0 || axis == 1, "Broadcast: axis must be 0 or 1");
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                  "Broadcast: b8/b16/b32/b64 data types (int8_t, uint8_t, half, float on every SoC)");
    if (!adv::check_dtype_soc(api, dtype_name<T>(), "Ascend 950",
                              adv::one_of<T, int8_t, uint8_t, half, float>::value || adv::soc_is("Ascend950"), loc))
        return;
    begin_epoch(P_V);
    const uint32_t dr = dim == 2 ? dstShape[0] : 1, dc = dim == 2 ? dstShape[1] : dstShape[0];
    const uint32_t sr = dim == 2 ? srcShape[0] : 1, sc = dim == 2 ? srcShape[1] : srcShape[0];
    bool ok = adv::check_ub_position(api, "dstLocal", dst.pos_, loc) &&
              adv::check_ub_position(api, "srcLocal", src.pos_, loc);
    if (!dr || !dc || !sr || !sc || dr % sr || dc % sc) {
        report_error("adv-shape", "vector-param-invalid", P_V, api, loc,
                     "%s srcShape [%u, %u] cannot broadcast to dstShape [%u, %u]: every dst axis must be a multiple "
                     "of the src axis (1 on the broadcast axis)", api, sr, sc, dr, dc);
        ok = false;
    }
    if (dim == 2 && axis == 0 && ((uint64_t)sc * sizeof(T)) % 32) {
        report_error("adv-shape", "misaligned-access", P_V, api, loc,
                     "%s with dim=2, axis=0 needs srcShape[1] (%u x %zu B) 32-byte aligned", api, sc, sizeof(T));
        ok = false;
    }
    const uint64_t dn = (uint64_t)dr * dc, sn = (uint64_t)sr * sc;
    ok = ok && src.emu_check(0, sn, false, P_V, api, loc);
    ok = ok && dst.emu_check(0, dn, true, P_V, api, loc);
    adv::warn_overlap(api, "dstLocal", dst, dn * sizeof(T), "srcLocal", src, sn * sizeof(T), loc, true);
    // temporary space: one 32-byte block per source row for the brcb step (axis 1), plus the aligned copy when
    // the output row is not 32-byte aligned (GatherMask step)
    uint64_t need = 0, use = 0;
    ascendc_emu_adv::broadcast_tmp(dr, dc, sizeof(T), axis, use, need);
    ok = adv::take_tmp(api, tmp, need, use, "the broadcast", loc) && ok;
    if (ok) {
        std::vector<T> s((const T*)src.ptr_, (const T*)src.ptr_ + sn);  // in-place calls read the source first
        T* d = (T*)dst.ptr_;
        for (uint32_t i = 0; i < dr; i++)
            for (uint32_t j = 0; j < dc; j++) d[(uint64_t)i * dc + j] = s[(uint64_t)(i % sr) * sc + j % sc];
    }
    restore_norm();
    adv::trace_steps(api, axis == 1 ? ASCENDC_EMU_STEPS("Brcb", "Copy", "GatherMask") : ASCENDC_EMU_STEPS("Copy"),
                     dtype_name<T>(), dn, sizeof(T), loc);
}
}  // namespace detail_brc
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], const LocalTensor<uint8_t>& sharedTmpBuffer, EMU_LOC) {
    detail_brc::run<T, dim, axis>("Broadcast", dstLocal, srcLocal, dstShape, srcShape, &sharedTmpBuffer, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], EMU_LOC) {
    detail_brc::run<T, dim, axis>("Broadcast", dstLocal, srcLocal, dstShape, srcShape, nullptr, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], const LocalTensor<uint8_t>& sharedTmpBuffer, EMU_LOC) {
    detail_brc::run<T, dim, axis>("BroadCast", dstLocal, srcLocal, dstShape, srcShape, &sharedTmpBuffer, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], EMU_LOC) {
    detail_brc::run<T, dim, axis>("BroadCast", dstLocal, srcLocal, dstShape, srcShape, nullptr, loc);
}

// Fill (Fill-97.md) is InitGlobalMemory's other name: utils.h.

// ---- Pad / UnPad (Pad.md, UnPad.md) on a [height, width] tensor. Pad: the source rows are packed at
// srcWidth (tiling.srcWidth); the result rows are leftPad + srcWidth + rightPad wide (scenario 1, width not 32 B
// aligned), or, when srcWidth is already aligned, the last rightPad columns of each row are set (scenario 2).
// UnPad: packed rows of width - leftPad - rightPad from rows of the aligned width.
namespace detail_pad {
template <class T, class TL>
inline void pad(const LocalTensor<T>& dst, const LocalTensor<T>& src, const PadParams& p,
                const LocalTensor<uint8_t>* tmp, const TL& t, const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    static_assert(adv::one_of<T, int16_t, uint16_t, half, int32_t, uint32_t, float>::value,
                  "Pad: int16_t, uint16_t, half, int32_t, uint32_t or float");
    const char* api = "Pad";
    begin_epoch(P_V);
    const uint32_t h = t.srcHeight, w = t.srcWidth, ow = t.srcOriWidth ? t.srcOriWidth : w;
    const uint32_t alignW = (uint32_t)(((uint64_t)w * sizeof(T) + 31) / 32 * 32 / sizeof(T));
    const bool aligned = alignW == w;
    const uint32_t outW = aligned ? w : w + p.leftPad + p.rightPad;
    bool ok = adv::check_ub_position(api, "dstTensor", dst.pos_, loc) && adv::check_ub_position(api, "srcTensor", src.pos_, loc);
    if (!h || !w) {
        report_error("adv-shape", "tiling-runtime", P_V, api, loc,
                     "Pad tiling has height=%u width=%u: compute it with PadTilingFunc on the host", h, w);
        ok = false;
    } else if (aligned && (p.leftPad || ow + p.rightPad != w)) {
        report_error("adv-shape", "vector-param-invalid", P_V, api, loc,
                     "Pad on an aligned width %u (%u valid) only pads on the right, and rightPad must be %u "
                     "(leftPad=%u, rightPad=%u)", w, ow, w - ow, p.leftPad, p.rightPad);
        ok = false;
    } else if (!aligned && outW > alignW) {
        report_error("adv-shape", "vector-param-invalid", P_V, api, loc,
                     "Pad width %u + leftPad %u + rightPad %u = %u exceeds %u, the width rounded up to 32 B", w,
                     p.leftPad, p.rightPad, outW, alignW);
        ok = false;
    }
    if (((uint64_t)h * w * sizeof(T)) % 32) {
        report_error("adv-shape", "misaligned-access", P_V, api, loc,
                     "Pad source holds %s B, not a multiple of 32 B (the docs require the source data to be)",
                     EMU_N((uint64_t)h * w * sizeof(T)));
        ok = false;
    }
    ok = ok && src.emu_check(0, (uint64_t)h * w, false, P_V, api, loc);
    ok = ok && dst.emu_check(0, (uint64_t)h * outW, true, P_V, api, loc);
    ok = ok && adv::take_tmp(api, tmp, 0, (uint64_t)h * alignW * sizeof(T), "the padded rows", loc);
    if (ok) {
        std::vector<T> s((const T*)src.ptr_, (const T*)src.ptr_ + (uint64_t)h * w);
        T* d = (T*)dst.ptr_;
        const T pv = (T)p.padValue;
        for (uint32_t r = 0; r < h; r++)
            for (uint32_t c = 0; c < outW; c++) {
                T v;
                if (aligned) v = c < ow ? s[(uint64_t)r * w + c] : pv;
                else v = (c < p.leftPad || c >= p.leftPad + w) ? pv : s[(uint64_t)r * w + c - p.leftPad];
                d[(uint64_t)r * outW + c] = v;
            }
    }
    restore_norm();
    adv::trace_steps(api, {"Duplicate", "Copy", "GatherMask"}, dtype_name<T>(), (uint64_t)h * outW, sizeof(T), loc);
}
template <class T, class TL>
inline void unpad(const LocalTensor<T>& dst, const LocalTensor<T>& src, const UnPadParams& p,
                  const LocalTensor<uint8_t>* tmp, const TL& t, const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    static_assert(adv::one_of<T, int16_t, uint16_t, half, int32_t, uint32_t, float>::value,
                  "UnPad: int16_t, uint16_t, half, int32_t, uint32_t or float");
    const char* api = "UnPad";
    begin_epoch(P_V);
    const uint32_t h = t.srcHeight, w = t.srcWidth;
    bool ok = adv::check_ub_position(api, "dstTensor", dst.pos_, loc) && adv::check_ub_position(api, "srcTensor", src.pos_, loc);
    if (!h || !w || p.leftPad + p.rightPad >= w) {
        report_error("adv-shape", "tiling-runtime", P_V, api, loc,
                     "UnPad of [%u, %u] by leftPad=%u rightPad=%u leaves no column (tiling from UnPadTilingFunc?)", h,
                     w, p.leftPad, p.rightPad);
        ok = false;
    } else if (((uint64_t)w * sizeof(T)) % 32) {
        report_error("adv-shape", "misaligned-access", P_V, api, loc,
                     "UnPad source width %u x %zu B is not 32-byte aligned; UnPad only removes columns from aligned "
                     "rows", w, sizeof(T));
        ok = false;
    }
    const uint32_t outW = ok ? w - p.leftPad - p.rightPad : 0;
    ok = ok && src.emu_check(0, (uint64_t)h * w, false, P_V, api, loc);
    ok = ok && dst.emu_check(0, (uint64_t)h * outW, true, P_V, api, loc);
    ok = ok && adv::take_tmp(api, tmp, 0, (uint64_t)h * w * sizeof(T), "the rows", loc);
    if (ok) {
        std::vector<T> s((const T*)src.ptr_, (const T*)src.ptr_ + (uint64_t)h * w);
        T* d = (T*)dst.ptr_;
        for (uint32_t r = 0; r < h; r++)
            for (uint32_t c = 0; c < outW; c++) d[(uint64_t)r * outW + c] = s[(uint64_t)r * w + c + p.leftPad];
    }
    restore_norm();
    adv::trace_steps(api, {"GatherMask"}, dtype_name<T>(), (uint64_t)h * w, sizeof(T), loc);
}
}  // namespace detail_pad
template <typename T>
inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const PadParams& padParams,
                const LocalTensor<uint8_t>& sharedTmpBuffer, const PadTiling& tiling, EMU_LOC) {
    detail_pad::pad(dstTensor, srcTensor, padParams, &sharedTmpBuffer, tiling, loc);
}
template <typename T>
inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const PadParams& padParams,
                const PadTiling& tiling, EMU_LOC) {
    detail_pad::pad(dstTensor, srcTensor, padParams, nullptr, tiling, loc);
}
template <typename T>
inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const UnPadParams& unPadParams,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, const UnPadTiling& tiling, EMU_LOC) {
    detail_pad::unpad(dstTensor, srcTensor, unPadParams, &sharedTmpBuffer, tiling, loc);
}
template <typename T>
inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const UnPadParams& unPadParams,
                  const UnPadTiling& tiling, EMU_LOC) {
    detail_pad::unpad(dstTensor, srcTensor, unPadParams, nullptr, tiling, loc);
}

// ---- Select with a byte mask (Select-95.md): mask value 0 picks the first source, non-zero the second.
namespace detail_selb {
template <class T, class U, class GetA, class GetB>
inline void run(const LocalTensor<T>& dst, const LocalTensor<T>& tsrc, const LocalTensor<U>& mask,
                const LocalTensor<uint8_t>& tmp, const SelectWithBytesMaskShapeInfo& info, GetA a, GetB b,
                const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    static_assert(adv::is_f16_or_f32<T>::value, "Select (byte mask): T is half or float");
    static_assert(adv::one_of<U, bool, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t>::value,
                  "Select (byte mask): mask is bool or an integer type");
    const char* api = "Select";
    begin_epoch(P_V);
    const uint32_t m = info.firstAxis, k = info.srcLastAxis, km = info.maskLastAxis;
    bool ok = true;
    if (!m || !k || km < k) {
        report_error("adv-shape", "vector-param-invalid", P_V, api, loc,
                     "Select info firstAxis=%u srcLastAxis=%u maskLastAxis=%u: all > 0 and maskLastAxis >= "
                     "srcLastAxis", m, k, km);
        ok = false;
    }
    if (((uint64_t)k * sizeof(T)) % 32 || ((uint64_t)km * sizeof(U)) % 32 || km % 16) {
        report_error("adv-shape", "misaligned-access", P_V, api, loc,
                     "Select source last axis %u x %zu B must be 32-byte aligned and the mask last axis %u x %zu B "
                     "32-byte aligned with a multiple of 16 elements", k, sizeof(T), km, sizeof(U));
        ok = false;
    }
    ok = ok && tsrc.emu_check(0, (uint64_t)m * k, false, P_V, api, loc);
    ok = ok && mask.emu_check(0, (uint64_t)m * km, false, P_V, api, loc);
    ok = ok && dst.emu_check(0, (uint64_t)m * k, true, P_V, api, loc);
    uint64_t need = ascendc_emu_adv::select_bytes_row_tmp(k);
    ok = ok && adv::take_tmp(api, &tmp, need, (uint64_t)m * need, "the mask rows", loc);
    if (ok) {
        const U* mk = (const U*)mask.ptr_;
        T* d = (T*)dst.ptr_;
        for (uint32_t r = 0; r < m; r++)
            for (uint32_t c = 0; c < k; c++) {
                uint64_t i = (uint64_t)r * k + c;
                d[i] = mk[(uint64_t)r * km + c] == 0 ? a(i) : b(i);
            }
    }
    restore_norm();
    adv::trace_steps(api, km != k ? ASCENDC_EMU_STEPS("GatherMask", "Cast", "Compare", "Select")
                                  : ASCENDC_EMU_STEPS("Cast", "Compare", "Select"),
                     dtype_name<T>(), (uint64_t)m * k, sizeof(T), loc);
}
}  // namespace detail_selb
template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, ascendc_emu::nd_t<T> src1,
                   const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   const SelectWithBytesMaskShapeInfo& info, EMU_LOC) {
    const T* s = (const T*)src0.ptr_;
    const T v = src1;
    detail_selb::run(dst, src0, mask, sharedTmpBuffer, info, [&](uint64_t i) { return s[i]; },
                     [&](uint64_t) { return v; }, loc);
}
template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T>& dst, ascendc_emu::nd_t<T> src0, const LocalTensor<T>& src1,
                   const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   const SelectWithBytesMaskShapeInfo& info, EMU_LOC) {
    const T* s = (const T*)src1.ptr_;
    const T v = src0;
    detail_selb::run(dst, src1, mask, sharedTmpBuffer, info, [&](uint64_t) { return v; },
                     [&](uint64_t i) { return s[i]; }, loc);
}
// SelectWithBytesMask: the name the byte-mask Select had in earlier CANN releases (its implementation and API check
// still carry it); public kernels call it with the same arguments.
template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, ascendc_emu::nd_t<T> src1,
                                const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                const SelectWithBytesMaskShapeInfo& info, EMU_LOC) {
    Select<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info, loc);
}
template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T>& dst, ascendc_emu::nd_t<T> src0, const LocalTensor<T>& src1,
                                const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                const SelectWithBytesMaskShapeInfo& info, EMU_LOC) {
    Select<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info, loc);
}

// ---- DropOut (DropOut.md): byte mode (mask bytes, mode 1/2) or bit mode (mask bits, mode 3/4); mode 0 infers it
// from maskLastAxis against srcLastAxis. Kept elements are scaled by 1 / keepProb, dropped ones are 0.
namespace detail_dropout {
template <class T, uint32_t mode>
inline void run(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& mask,
                const LocalTensor<uint8_t>* tmp, float keepProb, const DropOutShapeInfo& info,
                const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    static_assert(adv::is_float_like<T>::value, "DropOut: half, bfloat16_t or float");
    static_assert(mode <= 4, "DropOut: dropOutMode is 0..4");
    const char* api = "DropOut";
    begin_epoch(P_V);
    const uint32_t m = info.firstAxis, k = info.srcLastAxis, km = info.maskLastAxis;
    const bool byteMode = mode == 1 || mode == 2 || (mode == 0 && km >= k);
    bool ok = true;
    if (!m || !k || !km) {
        report_error("adv-shape", "vector-param-invalid", P_V, api, loc,
                     "DropOut info firstAxis=%u srcLastAxis=%u maskLastAxis=%u: all must be > 0", m, k, km);
        ok = false;
    }
    if (!(keepProb > 0.0f && keepProb < 1.0f))
        report_warning("adv-param", "vector-param-invalid", P_V, api, loc,
                       "DropOut keepProb %g is outside (0, 1), the documented range", (double)keepProb);
    if (ok && !byteMode && (uint64_t)km * 8 < k) {
        report_error("adv-shape", "vector-param-invalid", P_V, api, loc,
                     "DropOut bit mode: maskLastAxis %u bytes hold %u bits, fewer than srcLastAxis %u", km, km * 8, k);
        ok = false;
    }
    ok = ok && src.emu_check(0, (uint64_t)m * k, false, P_V, api, loc);
    ok = ok && mask.emu_check(0, (uint64_t)m * km, false, P_V, api, loc);
    ok = ok && dst.emu_check(0, (uint64_t)m * k, true, P_V, api, loc);
    uint64_t need = ascendc_emu_adv::dropout_row_tmp(k, byteMode);
    ok = ok && adv::take_tmp(api, tmp, need, (uint64_t)m * need, "the mask rows", loc);
    if (ok) {
        const uint8_t* mk = mask.ptr_;
        const T* s = (const T*)src.ptr_;
        T* d = (T*)dst.ptr_;
        const float scale = 1.0f / keepProb;
        for (uint32_t r = 0; r < m; r++)
            for (uint32_t c = 0; c < k; c++) {
                bool keep;
                if (byteMode) keep = mk[(uint64_t)r * km + c] != 0;
                else {
                    uint64_t bit = (uint64_t)r * km * 8 + c;
                    keep = (mk[bit / 8] >> (bit % 8)) & 1;
                }
                uint64_t i = (uint64_t)r * k + c;
                d[i] = keep ? (T)((float)s[i] * scale) : (T)0.0f;
            }
    }
    restore_norm();
    adv::trace_steps(api, {"GatherMask", "Select", "Muls"}, dtype_name<T>(), (uint64_t)m * k, sizeof(T), loc);
}
}  // namespace detail_dropout
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& maskLocal,
                    const float keepProb, const DropOutShapeInfo& info, EMU_LOC) {
    detail_dropout::run<T, dropOutMode>(dstLocal, srcLocal, maskLocal, nullptr, keepProb, info, loc);
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& maskLocal,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const float keepProb, const DropOutShapeInfo& info,
                    EMU_LOC) {
    detail_dropout::run<T, dropOutMode>(dstLocal, srcLocal, maskLocal, &sharedTmpBuffer, keepProb, info, loc);
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_ADV_TRANSFORM_H_
