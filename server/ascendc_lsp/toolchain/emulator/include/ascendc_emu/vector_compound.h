// Compound and conversion APIs beyond vector.h / vector_ext.h (clean-room, docs/zh/api/SIMD-API/基础API/
// Memory矢量计算/复合计算/, 类型转换/, 逻辑计算/, 基础算术/, 数据填充/): mask forms of FusedMulAdd / MulAddDst /
// Axpy, MulAddRelu (FusedMulAddRelu), AddReluCast / SubReluCast / MulCast, AddDeqRelu, SetDeqScale with
// CastDequant (CastDeq), shifts by a tensor, ShiftRight with rounding, Duplicate from a tensor, and the Ascend950
// ISASI ops Neg / Prelu / Mull / AbsSub / ExpSub / Truncate.
#ifndef ASCENDC_EMU_ASCENDC_EMU_VECTOR_COMPOUND_H_
#define ASCENDC_EMU_ASCENDC_EMU_VECTOR_COMPOUND_H_
#include "vector_support.h"

// Per-SoC availability / element types (knowledge/api/vector-binary.yaml, cast.yaml; compared by a test).
#define ASCENDC_EMU_DTYPES_MulAddRelu                                                                        \
    "Ascend910B:half float;Ascend910_93:half float;Ascend310P:half float;Ascend310B:half float;"             \
    "Ascend950:half float int64_t uint64_t"
#define ASCENDC_EMU_DTYPES_Prelu "Ascend950:half float"
#define ASCENDC_EMU_DTYPES_AbsSub "Ascend950:half float"
#define ASCENDC_EMU_DTYPES_ExpSub "Ascend950:half float"
#define ASCENDC_EMU_DTYPES_Mull "Ascend950:int32_t uint32_t"
#define ASCENDC_EMU_DTYPES_Neg "Ascend950:int8_t int16_t half int32_t float int64_t"
#define ASCENDC_EMU_DTYPES_Truncate "Ascend950:half float bfloat16_t"
#define ASCENDC_EMU_DTYPES_Duplicate_tensor                                                                   \
    "Ascend950:bool int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t"
#define ASCENDC_EMU_DTYPES_Shift_tensor "Ascend950:int8_t uint8_t int16_t uint16_t int32_t uint32_t int64_t uint64_t"

namespace AscendC {
struct VdeqInfo {
    float vdeqScale[16] = {};
    int16_t vdeqOffset[16] = {};
    bool vdeqSignMode[16] = {};
    VdeqInfo() {}
    VdeqInfo(const float s[16], const int16_t o[16], const bool m[16]) {
        for (int i = 0; i < 16; i++) { vdeqScale[i] = s[i]; vdeqOffset[i] = o[i]; vdeqSignMode[i] = m[i]; }
    }
};

// ---- SetDeqScale (类型转换/寄存器配置说明/SetDeqScale.md): the DEQSCALE register used by Cast int32->half,
// AddDeqRelu and CastDequant.
inline void SetDeqScale(half scale) {
    ascendc_emu::VecRegs& r = ascendc_emu::vregs();
    r.deq_scale = (float)scale;
    r.deq_set = 1;
}
inline void SetDeqScale(float scale, int16_t offset, bool signMode) {
    ascendc_emu::VecRegs& r = ascendc_emu::vregs();
    r.deq_scale = scale;
    r.deq_offset = (int16_t)(offset & 0x1ff) >= 256 ? (int16_t)((offset & 0x1ff) - 512) : (int16_t)(offset & 0x1ff);
    r.deq_sign = signMode;
    r.deq_set = 1;
}
// Vector quantisation: 16 (scale, offset, signMode) triples written into vdeq (16 x 64 bit, 128 B); DEQSCALE
// then points at that table. Layout per 64-bit entry (our choice, the docs do not fix it): float scale in bits
// 0..31, 9-bit offset in bits 37..45, signMode in bit 46.
template <typename T>
inline void SetDeqScale(const LocalTensor<T>& vdeq, const VdeqInfo& vdeqInfo, EMU_LOC) {
    using namespace ascendc_emu;
    begin_epoch(P_S);
    if (vdeq.emu_check_bytes(0, 128, true, P_S, "SetDeqScale", loc)) {
        for (int i = 0; i < 16; i++) {
            uint32_t sb;
            memcpy(&sb, &vdeqInfo.vdeqScale[i], 4);
            uint64_t e = sb | ((uint64_t)(vdeqInfo.vdeqOffset[i] & 0x1ff) << 37) |
                         ((uint64_t)(vdeqInfo.vdeqSignMode[i] ? 1 : 0) << 46);
            memcpy(vdeq.ptr_ + i * 8, &e, 8);
        }
        vregs().vdeq_addr = (uint64_t)(uintptr_t)vdeq.ptr_;
        vregs().deq_set = 1;
    }
    trace_scalar("SetDeqScale", SP_UB, loc, false);
}
}  // namespace AscendC

namespace ascendc_emu {
using AscendC::LocalTensor;
// Generic mixed-type binary op: count form and level-0 form (lane size = the wider type, as Cast).
template <class T, class U, class F>
inline void mixed2(const char* api, const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                   int64_t count, const Loc& loc, F f) {
    uint8_t* d = dst.ptr_;
    const uint8_t *x = src0.ptr_, *y = src1.ptr_;
    run2(api, count, loc, [&](int64_t i) { f(d + i * sizeof(T), x + i * sizeof(U), y + i * sizeof(U)); }, dst, src0, src1);
}
template <class T, class U, class F>
inline void mixed0(const char* api, const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                   int repeat, const AscendC::BinaryRepeatParams& p, const Loc& loc, F f) {
    int lsz = sizeof(T) > sizeof(U) ? (int)sizeof(T) : (int)sizeof(U);
    run0(api, lsz, repeat, loc, f, dst, p.dstBlkStride, p.dstRepStride, src_(src0, p.src0BlkStride, p.src0RepStride),
         src_(src1, p.src1BlkStride, p.src1RepStride));
}
inline void set_mask(bool isSetMask, int lanesz, uint64_t mask, const char* api, const Loc& loc) {
    if (isSetMask) mask_arg_cont(256 / lanesz, (int64_t)mask, api, loc);
}
inline void set_mask(bool isSetMask, int lanesz, const uint64_t* mask, const char* api, const Loc& loc) {
    if (isSetMask) mask_arg_bits(256 / lanesz, mask, api, loc);
}
// Cast of an intermediate already rounded to U (the compound ops compute in U, then convert; RINT, saturating).
template <class T, class U> inline void cast_store(uint8_t* d, calc_t<U> v) {
    U u = (U)v;
    T t = Caster<T, U>::go(u, RM::RINT);
    memcpy(d, &t, sizeof(T));
}
// DEQSCALE applied to an int32 -> half conversion (AddDeqRelu, CastDequant s322fp16): round(x * scale).
inline half deq_half(double x, const char* api, const Loc& loc) {
    deq_note(api, loc);
    return half::from_bits(float_to_half_bits(x * deq_scale()));
}
}  // namespace ascendc_emu

// Count + continuous-mask + bit-mask forms of a same-type binary op written with EXPR over a, b and (old) dst d.
#define ASCENDC_EMU_BINARY3(NAME, EXPR, TABLE)                                                                  \
    template <typename T>                                                                                       \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,         \
                     const int32_t& count, EMU_LOC) {                                                           \
        using namespace ascendc_emu;                                                                            \
        check_dtype<T>(#NAME, TABLE, loc);                                                                      \
        mixed2(#NAME, dst, src0, src1, count, loc, [&](uint8_t* pd, const uint8_t* px, const uint8_t* py) {     \
            calc_t<T> a = ldx<T>(px), b = ldx<T>(py), d = ldx<T>(pd); (void)d; stx<T>(pd, (EXPR)); });           \
    }                                                                                                           \
    template <typename T, bool isSetMask = true, typename M>                                                    \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, M mask, \
                     const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, EMU_LOC) {               \
        using namespace ascendc_emu;                                                                            \
        check_dtype<T>(#NAME, TABLE, loc);                                                                      \
        set_mask(isSetMask, (int)sizeof(T), mask, #NAME, loc);                                                  \
        mixed0(#NAME, dst, src0, src1, repeatTime, repeatParams, loc,                                           \
               [&](uint8_t* pd, const uint8_t* px, const uint8_t* py) {                                         \
                   calc_t<T> a = ldx<T>(px), b = ldx<T>(py), d = ldx<T>(pd); (void)d; stx<T>(pd, (EXPR)); });   \
    }

// T <- U binary ops with a conversion of the U-typed result (AddReluCast and co.).
#define ASCENDC_EMU_BINARY_CAST(NAME, EXPR, COUNT_T)                                                            \
    template <typename T, typename U>                                                                           \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,         \
                     COUNT_T count, EMU_LOC) {                                                                  \
        using namespace ascendc_emu;                                                                            \
        mixed2(#NAME, dst, src0, src1, (int64_t)count, loc, [&](uint8_t* pd, const uint8_t* px, const uint8_t* py) { \
            calc_t<U> a = ldx<U>(px), b = ldx<U>(py); cast_store<T, U>(pd, (EXPR)); });                           \
    }                                                                                                           \
    template <typename T, typename U, bool isSetMask = true, typename M>                                        \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, M mask, \
                     const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, EMU_LOC) {               \
        using namespace ascendc_emu;                                                                            \
        set_mask(isSetMask, (int)(sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U)), mask, #NAME, loc);           \
        mixed0(#NAME, dst, src0, src1, repeatTime, repeatParams, loc,                                           \
               [&](uint8_t* pd, const uint8_t* px, const uint8_t* py) {                                         \
                   calc_t<U> a = ldx<U>(px), b = ldx<U>(py); cast_store<T, U>(pd, (EXPR)); });                   \
    }

namespace AscendC {
using ascendc_emu::calc_t;
// MulAddRelu (复合计算/MulAddRelu.md; FusedMulAddRelu before 8.5): dst = relu(src0 * dst + src1).
ASCENDC_EMU_BINARY3(MulAddRelu, ascendc_emu::op_relu<T>(a * d + b), ASCENDC_EMU_DTYPES_MulAddRelu)
ASCENDC_EMU_BINARY3(FusedMulAddRelu, ascendc_emu::op_relu<T>(a * d + b), ASCENDC_EMU_DTYPES_MulAddRelu)
// Ascend950 ISASI binaries (基础算术/Prelu(ISASI).md, 复合计算/AbsSub(ISASI).md): Prelu = x >= 0 ? x : x * alpha.
ASCENDC_EMU_BINARY3(Prelu, a >= 0 ? a : a * b, ASCENDC_EMU_DTYPES_Prelu)
ASCENDC_EMU_BINARY3(AbsSub, ascendc_emu::vabs<T>(a - b), ASCENDC_EMU_DTYPES_AbsSub)

// Mask forms of FusedMulAdd (dst = src0 * dst + src1) and MulAddDst (dst = src0 * src1 + dst), 复合计算/.
template <typename T, bool isSetMask = true, typename M>
inline void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, M mask,
                        const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, EMU_LOC) {
    using namespace ascendc_emu;
    set_mask(isSetMask, (int)sizeof(T), mask, "FusedMulAdd", loc);
    mixed0("FusedMulAdd", dst, src0, src1, repeatTime, repeatParams, loc,
           [&](uint8_t* pd, const uint8_t* px, const uint8_t* py) { stx<T>(pd, ldx<T>(px) * ldx<T>(pd) + ldx<T>(py)); });
}
template <typename T, typename U, bool isSetMask = true, typename M>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, M mask,
                      const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, EMU_LOC) {
    using namespace ascendc_emu;
    set_mask(isSetMask, (int)(sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U)), mask, "MulAddDst", loc);
    mixed0("MulAddDst", dst, src0, src1, repeatTime, repeatParams, loc,
           [&](uint8_t* pd, const uint8_t* px, const uint8_t* py) {
               stx<T>(pd, (calc_t<T>)((float)ldx<U>(px) * (float)ldx<U>(py) + (float)ldx<T>(pd)));
           });
}
// Axpy with a bit mask (the continuous-mask form is in vector.h): dst += scalar * src.
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const ascendc_emu::nd_t<U>& scalarValue,
                 uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& p, EMU_LOC) {
    using namespace ascendc_emu;
    int lanesz = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
    if (isSetMask) mask_arg_bits(256 / lanesz, mask, "Axpy", loc);
    float s = (float)scalarValue;
    run0("Axpy", lanesz, repeatTime, loc, [&](uint8_t* d, const uint8_t* x, const uint8_t* dd) {
        (void)dd; stx<T>(d, (calc_t<T>)((float)ldx<T>(d) + (float)ldx<U>(x) * s)); },
        dst, p.dstBlkStride, p.dstRepStride, src_(src, p.srcBlkStride, p.srcRepStride),
        src_(dst, p.dstBlkStride, p.dstRepStride));
}

// AddReluCast / SubReluCast / MulCast (复合计算/): the op in U, then a saturating RINT conversion to T.
ASCENDC_EMU_BINARY_CAST(AddReluCast, ascendc_emu::op_relu<U>(a + b), const uint32_t)
ASCENDC_EMU_BINARY_CAST(SubReluCast, ascendc_emu::op_relu<U>(a - b), const uint32_t)
ASCENDC_EMU_BINARY_CAST(MulCast, a * b, uint32_t)

// AddDeqRelu (复合计算/AddDeqRelu.md): half dst = relu(deq(int32 src0 + src1)), deq = RINT(x * DEQSCALE).
template <typename T = half, typename U = int32_t>
inline void AddDeqRelu(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                       const int32_t& count, EMU_LOC) {
    using namespace ascendc_emu;
    static_assert(std::is_same<T, half>::value && std::is_same<U, int32_t>::value, "AddDeqRelu: half <- int32_t");
    mixed2("AddDeqRelu", dst, src0, src1, count, loc, [&](uint8_t* pd, const uint8_t* px, const uint8_t* py) {
        int32_t a, b;
        memcpy(&a, px, 4);
        memcpy(&b, py, 4);
        half h = deq_half((double)((int64_t)a + b), "AddDeqRelu", loc);
        if ((float)h < 0) h = half(0.0f);
        memcpy(pd, &h, 2);
    });
}
template <typename T = half, typename U = int32_t, bool isSetMask = true, typename M>
inline void AddDeqRelu(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, M mask,
                       const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, EMU_LOC) {
    using namespace ascendc_emu;
    static_assert(std::is_same<T, half>::value && std::is_same<U, int32_t>::value, "AddDeqRelu: half <- int32_t");
    set_mask(isSetMask, 4, mask, "AddDeqRelu", loc);
    mixed0("AddDeqRelu", dst, src0, src1, repeatTime, repeatParams, loc,
           [&](uint8_t* pd, const uint8_t* px, const uint8_t* py) {
               int32_t a, b;
               memcpy(&a, px, 4);
               memcpy(&b, py, 4);
               half h = deq_half((double)((int64_t)a + b), "AddDeqRelu", loc);
               if ((float)h < 0) h = half(0.0f);
               memcpy(pd, &h, 2);
           });
}

// CastDequant (复合计算/CastDequant.md; CastDeq before 8.5): int16 -> int8/uint8 as saturate(RINT(x * scale) +
// offset) with the DEQSCALE (scale, offset, signMode), or per-element entries j = i % 16 of the vdeq table when
// isVecDeq; int32 -> half as RINT(x * scale). halfBlock: the 8-bit results fill the lower half of each 32-byte
// destination block (16 results per block) instead of packing.
namespace detail_deq {
template <class T, class U>
inline void one(uint8_t* d, const uint8_t* s, uint64_t lane, bool vec, const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    if (std::is_same<U, int32_t>::value) {
        int32_t x;
        memcpy(&x, s, 4);
        half h = deq_half((double)x, "CastDequant", loc);
        memcpy(d, &h, sizeof(T) < 2 ? sizeof(T) : 2);
        return;
    }
    int16_t x;
    memcpy(&x, s, 2);
    VecRegs& r = vregs();
    float scale = r.deq_scale;
    int off = r.deq_offset;
    bool sign = r.deq_sign;
    if (vec && r.vdeq_addr) {
        uint64_t e;
        memcpy(&e, (const uint8_t*)(uintptr_t)r.vdeq_addr + (lane % 16) * 8, 8);
        uint32_t sb = (uint32_t)e;
        memcpy(&scale, &sb, 4);
        int o9 = (int)((e >> 37) & 0x1ff);
        off = o9 >= 256 ? o9 - 512 : o9;
        sign = (e >> 46) & 1;
    }
    double v = std::nearbyint((double)x * scale) + off;
    double lo = sign ? -128 : 0, hi = sign ? 127 : 255;
    v = v < lo ? lo : v > hi ? hi : v;
    if (sign) { int8_t o = (int8_t)v; memcpy(d, &o, 1); }
    else { uint8_t o = (uint8_t)v; memcpy(d, &o, 1); }
}
}  // namespace detail_deq
template <typename T, typename U, bool isVecDeq = true, bool halfBlock = true>
inline void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count, EMU_LOC) {
    using namespace ascendc_emu;
    static_assert((std::is_same<U, int16_t>::value && sizeof(T) == 1) ||
                      (std::is_same<U, int32_t>::value && std::is_same<T, half>::value),
                  "CastDequant converts int16_t -> int8_t/uint8_t or int32_t -> half");
    if (!vregs().deq_set)
        report_warning("deqscale-unset", "precision-mismatch", P_V, "CastDequant", loc,
                       "CastDequant uses the DEQSCALE register, but SetDeqScale was never called");
    uint8_t* d = dst.ptr_;
    const uint8_t* s = src.ptr_;
    bool hb = halfBlock && sizeof(T) == 1;
    uint64_t dst_elems = hb ? ((uint64_t)count + 15) / 16 * 32 : count;
    begin_epoch(P_V);
    bool ok = src.emu_check(0, count, false, P_V, "CastDequant", loc);
    ok = dst.emu_check(0, dst_elems, true, P_V, "CastDequant", loc) && ok;
    if (ok)
        for (uint32_t i = 0; i < count; i++) {
            uint64_t di = hb ? (uint64_t)i / 16 * 32 + i % 16 : i;
            detail_deq::one<T, U>(d + di * sizeof(T), s + (uint64_t)i * sizeof(U), i, isVecDeq, loc);
        }
    restore_norm();
    trace_vec("CastDequant", dtype_name<T>(), count, ((uint64_t)count * sizeof(U) + 255) / 256, loc);
}
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true, typename M>
inline void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src, M mask, uint8_t repeatTime,
                        const UnaryRepeatParams& p, EMU_LOC) {
    using namespace ascendc_emu;
    static_assert((std::is_same<U, int16_t>::value && sizeof(T) == 1) ||
                      (std::is_same<U, int32_t>::value && std::is_same<T, half>::value),
                  "CastDequant converts int16_t -> int8_t/uint8_t or int32_t -> half");
    set_mask(isSetMask, (int)sizeof(U), mask, "CastDequant", loc);
    // lane l of a repeat uses vdeq entry l % 16 (the position inside its 32-byte source block)
    begin_epoch(P_V);
    const int lanes = 256 / (int)sizeof(U);
    Plan pl = plan(lanes, repeatTime);
    bool ok = src.emu_check_bytes(0, extent(pl, (int)sizeof(U), p.srcBlkStride, p.srcRepStride), false, P_V,
                                  "CastDequant", loc);
    ok = dst.emu_check_bytes(0, extent(pl, (int)sizeof(T), p.dstBlkStride, p.dstRepStride), true, P_V, "CastDequant",
                             loc) && ok;
    uint64_t elems = 0;
    if (ok)
        for (int r = 0; r < pl.reps; r++)
            for (int l = 0; l < lanes; l++)
                if (active(pl, r, l)) {
                    detail_deq::one<T, U>(dst.ptr_ + lane_off(r, l, (int)sizeof(T), p.dstBlkStride, p.dstRepStride),
                                          src.ptr_ + lane_off(r, l, (int)sizeof(U), p.srcBlkStride, p.srcRepStride),
                                          (uint64_t)l, isVecDeq, loc);
                    elems++;
                }
    trace_vec("CastDequant", dtype_name<T>(), elems, (uint64_t)pl.reps, loc);
}
template <typename T, typename U, bool isVecDeq = true, bool halfBlock = true>
inline void CastDeq(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count, EMU_LOC) {
    CastDequant<T, U, isVecDeq, halfBlock>(dst, src, count, loc);
}
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true, typename M>
inline void CastDeq(const LocalTensor<T>& dst, const LocalTensor<U>& src, M mask, uint8_t repeatTime,
                    const UnaryRepeatParams& p, EMU_LOC) {
    CastDequant<T, U, isSetMask, isVecDeq, halfBlock>(dst, src, mask, repeatTime, p, loc);
}

// ---- shifts by a tensor of shift counts (逻辑计算/ShiftLeft（左移位数为Tensor）.md, Ascend950).
template <typename T, typename U>
inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1,
                      const int32_t& count, EMU_LOC) {
    using namespace ascendc_emu;
    check_dtype<T>("ShiftLeft", ASCENDC_EMU_DTYPES_Shift_tensor, loc);
    T* d = (T*)dst.ptr_;
    const T* x = (const T*)src0.ptr_;
    const U* s = (const U*)src1.ptr_;
    run2("ShiftLeft", count, loc, [&](int64_t i) {
        uint64_t n = (uint64_t)s[i];
        d[i] = n >= sizeof(T) * 8 ? (T)0 : (T)((uint64_t)x[i] << n); }, dst, src0, src1);
}
template <typename T, typename U>
inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1,
                       const int32_t& count, EMU_LOC) {
    using namespace ascendc_emu;
    check_dtype<T>("ShiftRight", ASCENDC_EMU_DTYPES_Shift_tensor, loc);
    T* d = (T*)dst.ptr_;
    const T* x = (const T*)src0.ptr_;
    const U* s = (const U*)src1.ptr_;
    run2("ShiftRight", count, loc, [&](int64_t i) {
        uint64_t n = (uint64_t)s[i];
        if (n >= sizeof(T) * 8) d[i] = std::is_signed<T>::value && x[i] < 0 ? (T)-1 : (T)0;
        else d[i] = (T)(x[i] >> n); }, dst, src0, src1);
}
// ShiftRight level-0 with rounding (逻辑计算/ShiftRight.md, roundEn: add the last bit shifted out).
template <typename T, bool isSetMask = true, typename M>
inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const ascendc_emu::nd_t<T>& scalarValue,
                       M mask, const uint8_t repeatTime, const UnaryRepeatParams& p, bool roundEn, EMU_LOC) {
    using namespace ascendc_emu;
    set_mask(isSetMask, (int)sizeof(T), mask, "ShiftRight", loc);
    int64_t n = (int64_t)scalarValue;
    run0("ShiftRight", sizeof(T), repeatTime, loc, [&](uint8_t* d, const uint8_t* x) {
        T v;
        memcpy(&v, x, sizeof(T));
        T r = n <= 0 ? v : (T)(v >> n);
        if (roundEn && n > 0 && n <= (int64_t)sizeof(T) * 8) r = (T)(r + (T)((v >> (n - 1)) & 1));
        memcpy(d, &r, sizeof(T)); }, dst, p.dstBlkStride, p.dstRepStride, src_(src, p.srcBlkStride, p.srcRepStride));
}

// ---- Duplicate from a tensor (数据填充/Duplicate.md): every element of dst = src[0].
template <typename T>
inline void Duplicate(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count, EMU_LOC) {
    using namespace ascendc_emu;
    check_dtype<T>("Duplicate", ASCENDC_EMU_DTYPES_Duplicate_tensor, loc);  // this form exists on Ascend950 only
    begin_epoch(P_V);
    T v{};
    if (src.emu_check(0, 1, false, P_V, "Duplicate", loc)) memcpy(&v, src.ptr_, sizeof(T));
    T* d = (T*)dst.ptr_;
    run2("Duplicate", count, loc, [&](int64_t i) { d[i] = v; }, dst);
}

// ---- Ascend950 ISASI unary / binary ops.
template <typename T>
inline void Neg(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, EMU_LOC) {
    using namespace ascendc_emu;
    check_dtype<T>("Neg", ASCENDC_EMU_DTYPES_Neg, loc);
    T* d = (T*)dst.ptr_;
    const T* x = (const T*)src.ptr_;
    run2("Neg", count, loc, [&](int64_t i) { d[i] = (T)(-(calc_t<T>)x[i]); }, dst, src);
}
// Mull: the full product of two integers, low half to dst0, high half to dst1 (基础算术/Mull(ISASI).md).
template <typename T>
inline void Mull(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src0,
                 const LocalTensor<T>& src1, const uint32_t count, EMU_LOC) {
    using namespace ascendc_emu;
    static_assert(std::is_integral<T>::value && sizeof(T) <= 4, "Mull multiplies 32-bit integers");
    check_dtype<T>("Mull", ASCENDC_EMU_DTYPES_Mull, loc);
    T* lo = (T*)dst0.ptr_;
    T* hi = (T*)dst1.ptr_;
    const T* x = (const T*)src0.ptr_;
    const T* y = (const T*)src1.ptr_;
    bool ok = dst1.emu_check(0, count, true, P_V, "Mull", loc);
    run2("Mull", ok ? count : 0, loc, [&](int64_t i) {
        int64_t p = (int64_t)x[i] * (int64_t)y[i];
        uint64_t u = std::is_signed<T>::value ? (uint64_t)p : (uint64_t)x[i] * (uint64_t)y[i];
        lo[i] = (T)u;
        hi[i] = (T)(std::is_signed<T>::value ? (uint64_t)(p >> (sizeof(T) * 8)) : u >> (sizeof(T) * 8)); },
        dst0, src0, src1);
}
// ExpSub: dst = exp(src0 - src1), computed in fp32 (复合计算/ExpSub(ISASI).md).
template <typename T, typename U>
inline void ExpSub(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                   const uint32_t count, EMU_LOC) {
    using namespace ascendc_emu;
    check_dtype<U>("ExpSub", ASCENDC_EMU_DTYPES_ExpSub, loc);
    mixed2("ExpSub", dst, src0, src1, count, loc, [&](uint8_t* pd, const uint8_t* px, const uint8_t* py) {
        stx<T>(pd, (calc_t<T>)std::exp((float)ldx<U>(px) - (float)ldx<U>(py))); });
}
// Truncate: round to an integral value in the same float type (类型转换/Truncate(ISASI).md).
template <typename T, RoundMode roundMode>
inline void Truncate(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, EMU_LOC) {
    using namespace ascendc_emu;
    check_dtype<T>("Truncate", ASCENDC_EMU_DTYPES_Truncate, loc);
    T* d = (T*)dst.ptr_;
    const T* x = (const T*)src.ptr_;
    run2("Truncate", count, loc, [&](int64_t i) {
        double v = (double)(calc_t<T>)x[i];
        double r = roundMode == RoundMode::CAST_FLOOR ? std::floor(v) : roundMode == RoundMode::CAST_CEIL ? std::ceil(v)
                 : roundMode == RoundMode::CAST_ROUND ? std::round(v) : roundMode == RoundMode::CAST_TRUNC ? std::trunc(v)
                 : std::nearbyint(v);
        d[i] = (T)(calc_t<T>)r; }, dst, src);
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_VECTOR_COMPOUND_H_
