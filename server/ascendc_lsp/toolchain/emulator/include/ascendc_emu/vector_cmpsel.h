// Compare / Compares / Select mask-and-repeat forms, Compare into the CMPMASK register, GetCmpMask / SetCmpMask
// and the register forms of Select. Clean-room from docs/zh/api/SIMD-API/基础API/Memory矢量计算/比较与选择/.
#ifndef ASCENDC_EMU_ASCENDC_EMU_VECTOR_CMPSEL_H_
#define ASCENDC_EMU_ASCENDC_EMU_VECTOR_CMPSEL_H_
#include "vector_support.h"

// Per-SoC source types of Compare / Compares (knowledge/api/compare-select.yaml; int32_t compares EQ only).
#define ASCENDC_EMU_DTYPES_Compare                                                                           \
    "Ascend910B:half float int32_t;Ascend910_93:half float int32_t;Ascend310P:half float;"                   \
    "Ascend310B:half float;Ascend910A:half float;"                                                           \
    "Ascend950:int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t double"

#define ASCENDC_EMU_DTYPES_Compare_register                                                                  \
    "Ascend910B:half float;Ascend910_93:half float;Ascend310P:half float;Ascend310B:half float;"             \
    "Ascend910A:half float;Ascend950:half float"
#define ASCENDC_EMU_DTYPES_CompareScalar                                                                     \
    "Ascend910B:half float int32_t;Ascend910_93:half float int32_t;Ascend310P:half float;"                   \
    "Ascend310B:int16_t uint16_t half int32_t uint32_t float;"                                               \
    "Ascend950:int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t double"

namespace ascendc_emu {
// Level-0 compare: one result bit per lane position, bit r * lanes + l of dst (the mask gates which bits are
// written; A2/A3/310P ignore the mask argument of Compare and compare every lane, per Compare.md).
template <class T, class U, class GetB>
inline void compare0(const char* api, const LocalTensor<U>& dst, const LocalTensor<T>& src0, uint32_t s0blk,
                     uint32_t s0rep, AscendC::CMPMODE mode, int repeat, bool mask_applies, const Loc& loc, GetB get_b,
                     uint64_t b_extent, const LocalTensor<T>* src1) {
    begin_epoch(P_V);
    check_dtype<T>(api, strcmp(api, "Compare") ? ASCENDC_EMU_DTYPES_CompareScalar : ASCENDC_EMU_DTYPES_Compare, loc);
    const char* prof = soc_profile();
    if (std::is_same<T, int32_t>::value && mode != AscendC::CMPMODE::EQ &&
        (!strcmp(prof, "Ascend910B") || !strcmp(prof, "Ascend910_93")))
        report_error("dtype-unsupported", "api-dtype-unsupported", P_V, api, loc,
                     "%s on int32_t supports CMPMODE::EQ only on %s", api, rt().soc.name);
    const int lanes = 256 / (int)sizeof(T);
    Plan p = plan(lanes, repeat);
    if (!mask_applies && !p.counter) p.full_max = p.last_max = lanes - 1;
    auto on = [&](int r, int l) { return mask_applies || p.counter ? active(p, r, l) : true; };
    bool ok = src0.emu_check_bytes(0, extent(p, (int)sizeof(T), s0blk, s0rep), false, P_V, api, loc);
    if (src1) ok = src1->emu_check_bytes(0, b_extent, false, P_V, api, loc) && ok;
    uint64_t bits = (uint64_t)p.reps * lanes;
    ok = dst.emu_check_bytes(0, (bits + 7) / 8, true, P_V, api, loc) && ok;
    uint64_t elems = 0;
    if (ok)
        for (int r = 0; r < p.reps; r++)
            for (int l = 0; l < lanes; l++) {
                if (!on(r, l)) continue;
                elems++;
                calc_t<T> a = ldx<T>(src0.ptr_ + lane_off(r, l, (int)sizeof(T), s0blk, s0rep));
                bool v = AscendC::detail_cmp::cmp<T>(a, get_b(r, l), mode);
                uint64_t bit = (uint64_t)r * lanes + l;
                uint8_t& byte = dst.ptr_[bit / 8];
                byte = (uint8_t)(v ? byte | (1u << (bit % 8)) : byte & ~(1u << (bit % 8)));
            }
    trace_vec(api, dtype_name<T>(), elems, (uint64_t)p.reps, loc);
}
inline bool compare_mask_applies() {
    const char* s = soc_profile();
    return !strcmp(s, "Ascend950") || !strcmp(s, "Ascend310B");
}

// Level-0 select: dst lane = bit ? src0 lane : b(r, l); bit(r, l) gives the selMask bit.
template <class T, class GetBit, class GetB>
inline void select0(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                    const AscendC::BinaryRepeatParams& p, int repeat, const Loc& loc, GetBit bit, GetB get_b,
                    const AscendC::LocalTensor<T>* src1) {
    begin_epoch(P_V);
    const int lanes = 256 / (int)sizeof(T);
    Plan pl = plan(lanes, repeat);
    bool ok = src0.emu_check_bytes(0, extent(pl, (int)sizeof(T), p.src0BlkStride, p.src0RepStride), false, P_V,
                                   "Select", loc);
    if (src1)
        ok = src1->emu_check_bytes(0, extent(pl, (int)sizeof(T), p.src1BlkStride, p.src1RepStride), false, P_V,
                                   "Select", loc) && ok;
    ok = dst.emu_check_bytes(0, extent(pl, (int)sizeof(T), p.dstBlkStride, p.dstRepStride), true, P_V, "Select", loc) && ok;
    uint64_t elems = 0;
    if (ok)
        for (int r = 0; r < pl.reps; r++)
            for (int l = 0; l < lanes; l++) {
                if (!active(pl, r, l)) continue;
                elems++;
                uint8_t* d = dst.ptr_ + lane_off(r, l, (int)sizeof(T), p.dstBlkStride, p.dstRepStride);
                if (bit(r, l)) memcpy(d, src0.ptr_ + lane_off(r, l, (int)sizeof(T), p.src0BlkStride, p.src0RepStride), sizeof(T));
                else {
                    T v = get_b(r, l);
                    memcpy(d, &v, sizeof(T));
                }
            }
    trace_vec("Select", dtype_name<T>(), elems, (uint64_t)pl.reps, loc);
}
// selMask bits of a tensor for a level-0 Select: mode 0 reuses the first `lanes` bits for every repeat, modes 1
// and 2 consume `lanes` bits per repeat.
template <class U>
inline bool sel_bits_ok(const AscendC::LocalTensor<U>& sel, AscendC::SELMODE mode, int lanes, int reps, const Loc& loc) {
    uint64_t bits = mode == AscendC::SELMODE::VSEL_CMPMASK_SPR ? (uint64_t)lanes : (uint64_t)lanes * reps;
    return sel.emu_check_bytes(0, (bits + 7) / 8, false, P_V, "Select", loc);
}
inline bool bit_at(const uint8_t* m, uint64_t i) { return (m[i / 8] >> (i % 8)) & 1; }
}  // namespace ascendc_emu

namespace AscendC {
// ---- Compare level-0 (Compare.md)
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& p, EMU_LOC) {
    using namespace ascendc_emu;
    if (isSetMask) mask_arg_bits(256 / sizeof(T), mask, "Compare", loc);
    Plan pl = plan(256 / (int)sizeof(T), repeatTime);
    compare0("Compare", dst, src0, p.src0BlkStride, p.src0RepStride, cmpMode, repeatTime, compare_mask_applies(), loc,
             [&](int r, int l) { return ldx<T>(src1.ptr_ + lane_off(r, l, (int)sizeof(T), p.src1BlkStride, p.src1RepStride)); },
             extent(pl, (int)sizeof(T), p.src1BlkStride, p.src1RepStride), &src1);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    const uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& p, EMU_LOC) {
    using namespace ascendc_emu;
    if (isSetMask) mask_arg_cont(256 / sizeof(T), (int64_t)mask, "Compare", loc);
    Plan pl = plan(256 / (int)sizeof(T), repeatTime);
    compare0("Compare", dst, src0, p.src0BlkStride, p.src0RepStride, cmpMode, repeatTime, compare_mask_applies(), loc,
             [&](int r, int l) { return ldx<T>(src1.ptr_ + lane_off(r, l, (int)sizeof(T), p.src1BlkStride, p.src1RepStride)); },
             extent(pl, (int)sizeof(T), p.src1BlkStride, p.src1RepStride), &src1);
}
// ---- Compares level-0 (Compares.md): scalar second operand.
template <typename T, typename U, bool isSetMask = true>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const ascendc_emu::nd_t<T> src1Scalar,
                     CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams& p, EMU_LOC) {
    using namespace ascendc_emu;
    if (isSetMask) mask_arg_bits(256 / sizeof(T), mask, "Compares", loc);
    calc_t<T> b = (calc_t<T>)(T)src1Scalar;
    compare0("CompareScalar", dst, src0, p.srcBlkStride, p.srcRepStride, cmpMode, repeatTime, true, loc,
             [&](int, int) { return b; }, 0, (const LocalTensor<T>*)nullptr);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const ascendc_emu::nd_t<T> src1Scalar,
                     CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams& p, EMU_LOC) {
    using namespace ascendc_emu;
    if (isSetMask) mask_arg_cont(256 / sizeof(T), (int64_t)mask, "Compares", loc);
    calc_t<T> b = (calc_t<T>)(T)src1Scalar;
    compare0("CompareScalar", dst, src0, p.srcBlkStride, p.srcRepStride, cmpMode, repeatTime, true, loc,
             [&](int, int) { return b; }, 0, (const LocalTensor<T>*)nullptr);
}
template <typename T, typename U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const ascendc_emu::nd_t<T> src1Scalar,
                          CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams& p,
                          EMU_LOC) {
    Compares<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, mask, repeatTime, p, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const ascendc_emu::nd_t<T> src1Scalar,
                          CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams& p,
                          EMU_LOC) {
    Compares<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, mask, repeatTime, p, loc);
}

// ---- Compare into the 128-bit CMPMASK register (Compare（结果存入寄存器）.md): one repeat, masked lanes give 0.
namespace detail_cmp {
template <class T>
inline void compare_reg(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE m, const BinaryRepeatParams& p,
                        const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    check_dtype<T>("Compare", ASCENDC_EMU_DTYPES_Compare_register, loc);
    const int lanes = 256 / (int)sizeof(T);
    Plan pl = plan(lanes, 1);
    bool ok = src0.emu_check_bytes(0, extent(pl, (int)sizeof(T), p.src0BlkStride, p.src0RepStride), false, P_V, "Compare", loc);
    ok = src1.emu_check_bytes(0, extent(pl, (int)sizeof(T), p.src1BlkStride, p.src1RepStride), false, P_V, "Compare", loc) && ok;
    VecRegs& rg = vregs();
    rg.cmp_mask[0] = rg.cmp_mask[1] = 0;
    uint64_t elems = 0;
    if (ok)
        for (int l = 0; l < lanes; l++)
            if (active(pl, 0, l)) {
                elems++;
                calc_t<T> a = ldx<T>(src0.ptr_ + lane_off(0, l, (int)sizeof(T), p.src0BlkStride, p.src0RepStride));
                calc_t<T> b = ldx<T>(src1.ptr_ + lane_off(0, l, (int)sizeof(T), p.src1BlkStride, p.src1RepStride));
                if (cmp<T>(a, b, m)) rg.cmp_mask[l / 64] |= 1ull << (l % 64);
            }
    trace_vec("Compare", dtype_name<T>(), elems, 1, loc);
}
}  // namespace detail_cmp
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask[],
                    const BinaryRepeatParams& repeatParams, EMU_LOC) {
    if (isSetMask) ascendc_emu::mask_arg_bits(256 / sizeof(T), mask, "Compare", loc);
    detail_cmp::compare_reg(src0, src1, cmpMode, repeatParams, loc);
}
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask,
                    const BinaryRepeatParams& repeatParams, EMU_LOC) {
    if (isSetMask) ascendc_emu::mask_arg_cont(256 / sizeof(T), (int64_t)mask, "Compare", loc);
    detail_cmp::compare_reg(src0, src1, cmpMode, repeatParams, loc);
}
// GetCmpMask (GetCmpMask(ISASI).md): the 128-bit register into dst (dst must have 128 B of room).
template <typename T>
inline void GetCmpMask(const LocalTensor<T>& dst, EMU_LOC) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    if (dst.emu_check_bytes(0, 128, true, P_V, "GetCmpMask", loc, 16)) memcpy(dst.ptr_, vregs().cmp_mask, 16);
    trace_vec("GetCmpMask", dtype_name<T>(), 128 / sizeof(T), 1, loc);
}
// SetCmpMask (SetCmpMask(ISASI).md): loads the register from src: the selMask bits (Select mode 0), the scalar
// src1[0] (mode 1) or a selMask address (mode 2); which one is used is up to the next Select.
template <typename T>
inline void SetCmpMask(const LocalTensor<T>& src, EMU_LOC) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    if (src.emu_check_bytes(0, 16, false, P_V, "SetCmpMask", loc, 16)) {
        VecRegs& rg = vregs();
        memcpy(rg.cmp_mask, src.ptr_, 16);
        rg.cmp_scalar = 0;
        memcpy(&rg.cmp_scalar, src.ptr_, sizeof(T) < 8 ? sizeof(T) : 8);
        memcpy(&rg.cmp_sel_addr, src.ptr_, 8);
    }
    trace_vec("SetCmpMask", dtype_name<T>(), 16 / sizeof(T), 1, loc);
}

// ---- Select level-0 (Select.md)
namespace detail_sel {
template <class T, class U>
inline void select_t(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                     const LocalTensor<T>& src1, SELMODE mode, int repeat, const BinaryRepeatParams& p,
                     const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    const int lanes = 256 / (int)sizeof(T);
    if (!sel_bits_ok(selMask, mode, lanes, repeat, loc)) return;
    const uint8_t* m = selMask.ptr_;
    bool spr = mode == SELMODE::VSEL_CMPMASK_SPR;
    select0(dst, src0, p, repeat, loc,
            [&](int r, int l) { return bit_at(m, spr ? (uint64_t)l : (uint64_t)r * lanes + l); },
            [&](int r, int l) {
                T v;
                memcpy(&v, src1.ptr_ + lane_off(r, l, (int)sizeof(T), p.src1BlkStride, p.src1RepStride), sizeof(T));
                return v;
            },
            &src1);
}
template <class T, class U>
inline void select_s(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
                     int repeat, const BinaryRepeatParams& p, const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    const int lanes = 256 / (int)sizeof(T);
    if (!sel_bits_ok(selMask, SELMODE::VSEL_TENSOR_SCALAR_MODE, lanes, repeat, loc)) return;
    const uint8_t* m = selMask.ptr_;
    select0(dst, src0, p, repeat, loc, [&](int r, int l) { return bit_at(m, (uint64_t)r * lanes + l); },
            [&](int, int) { return src1; }, (const LocalTensor<T>*)nullptr);
}
}  // namespace detail_sel
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
                   const BinaryRepeatParams& repeatParams, EMU_LOC) {
    ascendc_emu::mask_arg_bits(256 / sizeof(T), mask, "Select", loc);
    detail_sel::select_t(dst, selMask, src0, src1, selMode, repeatTime, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                   const BinaryRepeatParams& repeatParams, EMU_LOC) {
    ascendc_emu::mask_arg_cont(256 / sizeof(T), (int64_t)mask, "Select", loc);
    detail_sel::select_t(dst, selMask, src0, src1, selMode, repeatTime, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   ascendc_emu::nd_t<T> src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
                   const BinaryRepeatParams& repeatParams, EMU_LOC) {
    (void)selMode;  // a scalar src1 is mode 1
    ascendc_emu::mask_arg_bits(256 / sizeof(T), mask, "Select", loc);
    detail_sel::select_s(dst, selMask, src0, (T)src1, repeatTime, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   ascendc_emu::nd_t<T> src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                   const BinaryRepeatParams& repeatParams, EMU_LOC) {
    (void)selMode;
    ascendc_emu::mask_arg_cont(256 / sizeof(T), (int64_t)mask, "Select", loc);
    detail_sel::select_s(dst, selMask, src0, (T)src1, repeatTime, repeatParams, loc);
}
// Register forms (mask from SetVectorMask, selMask / scalar from SetCmpMask or a register Compare).
template <typename T, SELMODE selMode>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                   uint8_t repeatTime, const BinaryRepeatParams& repeatParams, EMU_LOC) {
    using namespace ascendc_emu;
    const int lanes = 256 / (int)sizeof(T);
    VecRegs& rg = vregs();
    auto b = [&](int r, int l) {
        T v;
        memcpy(&v, src1.ptr_ + lane_off(r, l, (int)sizeof(T), repeatParams.src1BlkStride, repeatParams.src1RepStride), sizeof(T));
        return v;
    };
    if (selMode == SELMODE::VSEL_CMPMASK_SPR) {
        uint64_t m[2] = {rg.cmp_mask[0], rg.cmp_mask[1]};
        select0(dst, src0, repeatParams, repeatTime, loc,
                [&](int, int l) { return bit_at((const uint8_t*)m, (uint64_t)l); }, b, &src1);
    } else {
        uint64_t bytes = ((uint64_t)lanes * repeatTime + 7) / 8;
        const uint8_t* m = ub_addr(rg.cmp_sel_addr, bytes, false, "Select", loc);
        if (!m) return;
        select0(dst, src0, repeatParams, repeatTime, loc,
                [&](int r, int l) { return bit_at(m, (uint64_t)r * lanes + l); }, b, &src1);
    }
}
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   uint8_t repeatTime, const BinaryRepeatParams& repeatParams, EMU_LOC) {
    using namespace ascendc_emu;
    T s;
    uint64_t raw = vregs().cmp_scalar;
    memcpy(&s, &raw, sizeof(T));
    detail_sel::select_s(dst, selMask, src0, s, repeatTime, repeatParams, loc);
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_VECTOR_CMPSEL_H_
