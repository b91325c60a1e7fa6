// The register-level vector API (AscendC::Reg, Ascend 950), the core subset public kernels use most: RegTensor,
// MaskReg (CreateMask, UpdateMask), aligned UB <-> register moves (LoadAlign, StoreAlign, DIST_NORM, with or
// without PostUpdate), element-wise arithmetic (Add, Sub, Mul, Div, Max, Min; Adds, Muls, Maxs, Mins; Exp, Abs, Relu, Sqrt, Ln, Neg), Duplicate,
// Arange, Reduce (SUM / MAX / MIN), PairReduceElem, Gather, MaskReg loads / stores, MaskGenWithRegTensor, and
// asc_vf_call. Clean-room, from docs/zh/api/SIMD-API/基础API/Reg矢量计算/ (寄存器数据类型/RegTensor.md,
// MaskReg.md; Reg数据搬入/连续对齐搬入（LoadAlign）.md; Reg数据搬出/连续对齐搬出（StoreAlign）.md; 基础算术/*.md;
// 数据填充/Duplicate.md; 索引操作/Arange.md; 归约计算/Reduce.md; 离散操作/Gather.md; 辅助数据类型/MaskMergeMode.md; VF调用/asc_vf_call.md).
// A RegTensor is VL = 256 bytes; a MaskReg has one bit per byte of VL (element i of a b16 type is bit 2i, of a
// b32 type bit 4i). ZEROING (the default) clears unselected destination elements, MERGING keeps them; StoreAlign
// writes the selected elements only. Raw __ubuf__ pointers are checked against the core's UB like the CCE layer's.
// Forms outside this subset (RegTraitNumTwo, other load/store distributions, AddrReg, the decreasing Arange) do
// not compile here rather than run with guessed semantics.
#ifndef ASCENDC_EMU_ASCENDC_EMU_REG_API_H_
#define ASCENDC_EMU_ASCENDC_EMU_REG_API_H_
#include <cmath>
#include <limits>
#include <vector>
#include "cce.h"

#ifndef __simd_callee__
#define __simd_callee__
#endif

namespace AscendC {
namespace Reg {
constexpr uint32_t VL_BYTES = 256;
struct RegTrait {
    uint32_t regNum;
};
constexpr RegTrait RegTraitNumOne = {1};
constexpr RegTrait RegTraitNumTwo = {2};
struct DefaultType {};
enum class MaskPattern { ALL, VL1, VL2, VL3, VL4, VL8, VL16, VL32, VL64, VL128, M3, M4, H, Q, ALLF = 15 };
enum class MaskMergeMode { UNKNOWN, MERGING, ZEROING };
// DIST_UNPACK_B16 / DIST_PACK_B32: Reg数据搬入/连续对齐搬入（LoadAlign）.md, Reg数据搬出/连续对齐搬出（StoreAlign）.md (the
// half-VL forms Reg::Cast between b16 and b32 pairs with, reg_cast.h).
enum class LoadDist { DIST_NORM, DIST_UNPACK_B16 };
enum class PostLiteral { POST_MODE_NORMAL, POST_MODE_UPDATE };
enum class StoreDist { DIST_NORM, DIST_PACK_B32, DIST_FIRST_ELEMENT_B32 };
enum class IndexOrder { INCREASE_ORDER, DECREASE_ORDER };

struct MaskReg {
    uint8_t bits[VL_BYTES / 8] = {};
    bool byte_on(uint32_t b) const { return (bits[b / 8] >> (b % 8)) & 1u; }
    void set_byte(uint32_t b, bool on) {
        if (on) bits[b / 8] = (uint8_t)(bits[b / 8] | (1u << (b % 8)));
        else bits[b / 8] = (uint8_t)(bits[b / 8] & ~(1u << (b % 8)));
    }
};

template <typename T, const RegTrait& regTrait = RegTraitNumOne>
struct RegTensor {
    static_assert(regTrait.regNum == 1, "RegTensor with RegTraitNumTwo is not emulated");
    static constexpr uint32_t kLanes = VL_BYTES / (uint32_t)sizeof(T);
    using ElemType = T;
    alignas(32) uint8_t bytes[VL_BYTES] = {};
    T get(uint32_t i) const { T v; memcpy(&v, bytes + i * sizeof(T), sizeof(T)); return v; }
    void put(uint32_t i, T v) { memcpy(bytes + i * sizeof(T), &v, sizeof(T)); }
};
}  // namespace Reg
}  // namespace AscendC

namespace ascendc_emu {
namespace reg {
using AscendC::Reg::MaskReg;
using AscendC::Reg::MaskMergeMode;
template <class T> inline bool lane_on(const MaskReg& m, uint32_t i) { return m.byte_on(i * (uint32_t)sizeof(T)); }
template <class T> inline MaskReg first_lanes(uint32_t n) {
    MaskReg m;
    const uint32_t lanes = AscendC::Reg::VL_BYTES / (uint32_t)sizeof(T);
    for (uint32_t i = 0; i < lanes && i < n; i++) m.set_byte(i * (uint32_t)sizeof(T), true);
    return m;
}
template <class T> inline uint32_t active(const MaskReg& m) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < AscendC::Reg::VL_BYTES / sizeof(T); i++) n += lane_on<T>(m, i);
    return n;
}
template <class T> inline void trace(const char* api, uint32_t elems, const Loc& loc) {
    begin_epoch(P_V);
    trace_vec(api, dtype_name<T>(), elems, 1, loc);
}
// out_i = f(i) on the selected lanes; the others cleared (ZEROING) or kept (MERGING)
template <class T, MaskMergeMode mode, class R, class F>
inline void apply(R& dst, const MaskReg& mask, F f) {
    static_assert(mode != MaskMergeMode::UNKNOWN, "MaskMergeMode::UNKNOWN is for conversions only");
    R out = dst;
    for (uint32_t i = 0; i < R::kLanes; i++) {
        if (lane_on<T>(mask, i)) out.put(i, f(i));
        else if (mode == MaskMergeMode::ZEROING) out.put(i, (T)(calc_t<T>)0);
    }
    dst = out;
}
template <class T> inline T cvt(calc_t<T> v) { return (T)v; }
template <class T> constexpr bool is_float() {
    return std::is_floating_point<T>::value || std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value;
}
}  // namespace reg
}  // namespace ascendc_emu

namespace AscendC {
namespace Reg {
// ---- MaskReg (MaskReg.md)
template <typename T, MaskPattern mode = MaskPattern::ALL, const RegTrait& regTrait = RegTraitNumOne>
inline MaskReg CreateMask() {
    static_assert(regTrait.regNum == 1, "CreateMask with RegTraitNumTwo is not emulated");
    const uint32_t lanes = VL_BYTES / (uint32_t)sizeof(T);
    MaskReg m;
    for (uint32_t i = 0; i < lanes; i++) {
        bool on = false;
        switch (mode) {
            case MaskPattern::ALL: on = true; break;
            case MaskPattern::VL1: on = i < 1; break;
            case MaskPattern::VL2: on = i < 2; break;
            case MaskPattern::VL3: on = i < 3; break;
            case MaskPattern::VL4: on = i < 4; break;
            case MaskPattern::VL8: on = i < 8; break;
            case MaskPattern::VL16: on = i < 16; break;
            case MaskPattern::VL32: on = i < 32; break;
            case MaskPattern::VL64: on = i < 64; break;
            case MaskPattern::VL128: on = i < 128; break;
            case MaskPattern::M3: on = i % 3 == 0; break;
            case MaskPattern::M4: on = i % 4 == 0; break;
            case MaskPattern::H: on = i < lanes / 2; break;
            case MaskPattern::Q: on = i < lanes / 4; break;
            case MaskPattern::ALLF: on = false; break;
        }
        if (on) m.set_byte(i * (uint32_t)sizeof(T), true);
    }
    return m;
}
// the first min(scalarValue, VL_T) elements; scalarValue -= VL_T (clamped at 0)
template <typename T, const RegTrait& regTrait = RegTraitNumOne>
inline MaskReg UpdateMask(uint32_t& scalarValue) {
    static_assert(regTrait.regNum == 1, "UpdateMask with RegTraitNumTwo is not emulated");
    const uint32_t lanes = VL_BYTES / (uint32_t)sizeof(T);
    MaskReg m = ascendc_emu::reg::first_lanes<T>(scalarValue);
    scalarValue = scalarValue < lanes ? 0 : scalarValue - lanes;
    return m;
}

// ---- UB <-> register (DIST_NORM: VL bytes, 32-byte aligned)
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U, typename E>
inline void LoadAlign(U& dstReg, E* srcAddr, EMU_LOC) {
    using namespace ascendc_emu;
    using V = typename U::ElemType;
    static_assert(std::is_same<typename std::remove_cv<E>::type, V>::value,
                  "LoadAlign: the UB pointer's element type must be the RegTensor's");
    reg::trace<V>("LoadAlign", U::kLanes, loc);
    LocalTensor<uint8_t> ub = raw_local((const uint8_t*)srcAddr, "LoadAlign", loc);
    if constexpr (dist == LoadDist::DIST_UNPACK_B16) {
        // VL/2 bytes read as u16; each element followed by a zero u16 (VL/2 bytes, 32-byte aligned).
        if (!ub.emu_check_bytes(0, VL_BYTES / 2, false, P_V, "LoadAlign", loc, 32)) return;
        memset(dstReg.bytes, 0, VL_BYTES);
        for (uint32_t i = 0; i < VL_BYTES / 4; i++) memcpy(dstReg.bytes + 4 * i, ub.ptr_ + 2 * i, 2);
    } else {
        if (!ub.emu_check_bytes(0, VL_BYTES, false, P_V, "LoadAlign", loc, 32)) return;
        memcpy(dstReg.bytes, ub.ptr_, VL_BYTES);
    }
}
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U, typename E>
inline void StoreAlign(E* dstAddr, U& srcReg, MaskReg& mask, EMU_LOC) {
    using namespace ascendc_emu;
    using V = typename U::ElemType;
    static_assert(std::is_same<E, V>::value, "StoreAlign: the UB pointer's element type must be the RegTensor's");
    if constexpr (dist == StoreDist::DIST_FIRST_ELEMENT_B32) {
        // the register's first b32 element, the mask ignored (4 bytes, 4-byte aligned).
        static_assert(sizeof(V) == 4, "StoreAlign DIST_FIRST_ELEMENT_B32 stores a b32 element");
        reg::trace<V>("StoreAlign", 1, loc);
        LocalTensor<uint8_t> ub = raw_local((uint8_t*)dstAddr, "StoreAlign", loc);
        if (!ub.emu_check_bytes(0, 4, true, P_V, "StoreAlign", loc, 4)) return;
        memcpy(ub.ptr_, srcReg.bytes, 4);
        return;
    }
    if constexpr (dist == StoreDist::DIST_PACK_B32) {
        // the low half of each selected b32 element, element i to half-slot i of dst (VL/2 bytes at most).
        reg::trace<uint32_t>("StoreAlign", reg::active<uint32_t>(mask), loc);
        uint32_t last = 0;
        for (uint32_t i = 0; i < VL_BYTES / 4; i++)
            if (reg::lane_on<uint32_t>(mask, i)) last = i + 1;
        if (!last) return;
        LocalTensor<uint8_t> ub = raw_local((uint8_t*)dstAddr, "StoreAlign", loc);
        if (!ub.emu_check_bytes(0, (uint64_t)last * 2, true, P_V, "StoreAlign", loc, 32)) return;
        for (uint32_t i = 0; i < last; i++)
            if (reg::lane_on<uint32_t>(mask, i)) memcpy(ub.ptr_ + 2 * i, srcReg.bytes + 4 * i, 2);
        return;
    }
    reg::trace<V>("StoreAlign", reg::active<V>(mask), loc);
    uint32_t last = 0;
    for (uint32_t i = 0; i < U::kLanes; i++)
        if (reg::lane_on<V>(mask, i)) last = i + 1;
    if (!last) return;
    LocalTensor<uint8_t> ub = raw_local((const uint8_t*)dstAddr, "StoreAlign", loc);
    if (!ub.emu_check_bytes(0, (uint64_t)last * sizeof(V), true, P_V, "StoreAlign", loc, 32)) return;
    for (uint32_t i = 0; i < last; i++)
        if (reg::lane_on<V>(mask, i)) memcpy(ub.ptr_ + i * sizeof(V), srcReg.bytes + i * sizeof(V), sizeof(V));
}

// MaskReg <-> UB (Reg数据搬入/MaskReg搬入（LoadAlign）.md, Reg数据搬出/MaskReg搬出（StoreAlign）.md), DIST_NORM: the
// mask's VL/8 = 32 bytes, bit b of the mask (VL byte b) as bit b % 8 of byte b / 8. The DIST_US / DIST_DS / DIST_PACK
// distributions are not declared here rather than run with a guessed bit order.
enum class MaskDist { DIST_NORM };
template <typename T = DefaultType, MaskDist dist = MaskDist::DIST_NORM, typename E>
inline void LoadAlign(MaskReg& mask, E* srcAddr, EMU_LOC) {
    using namespace ascendc_emu;
    reg::trace<uint8_t>("LoadAlign", VL_BYTES / 8, loc);
    LocalTensor<uint8_t> ub = raw_local((const uint8_t*)srcAddr, "LoadAlign", loc);
    if (!ub.emu_check_bytes(0, VL_BYTES / 8, false, P_V, "LoadAlign", loc, VL_BYTES / 8)) return;
    memcpy(mask.bits, ub.ptr_, VL_BYTES / 8);
}
template <typename T = DefaultType, MaskDist dist = MaskDist::DIST_NORM, typename E>
inline void StoreAlign(E* dstAddr, MaskReg& mask, EMU_LOC) {
    using namespace ascendc_emu;
    reg::trace<uint8_t>("StoreAlign", VL_BYTES / 8, loc);
    LocalTensor<uint8_t> ub = raw_local((const uint8_t*)dstAddr, "StoreAlign", loc);
    if (!ub.emu_check_bytes(0, VL_BYTES / 8, true, P_V, "StoreAlign", loc, VL_BYTES / 8)) return;
    memcpy(ub.ptr_, mask.bits, VL_BYTES / 8);
}
template <typename T = DefaultType, PostLiteral postMode, MaskDist dist = MaskDist::DIST_NORM, typename E>
inline void LoadAlign(MaskReg& mask, E*& srcAddr, int32_t offset, EMU_LOC) {
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "LoadAlign: POST_MODE_NORMAL is not supported");
    LoadAlign(mask, srcAddr, loc);
    srcAddr = (E*)((uint8_t*)srcAddr + offset);  // offset in bytes (MaskReg搬入 表2)
}
template <typename T = DefaultType, PostLiteral postMode, MaskDist dist = MaskDist::DIST_NORM, typename E>
inline void StoreAlign(E*& dstAddr, MaskReg& mask, int32_t offset, EMU_LOC) {
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "StoreAlign: POST_MODE_NORMAL is not supported");
    StoreAlign(dstAddr, mask, loc);
    dstAddr = (E*)((uint8_t*)dstAddr + offset);  // offset in bytes (MaskReg搬出 表2)
}

// MaskGenWithRegTensor (Reg数据搬入/MaskReg搬入（MaskGenWithRegTensor）.md): block `offset` of srcReg (16 B for b16,
// 8 B for b32) becomes the mask, each of its bits broadcast to the 2 (b16) or 4 (b32) mask bits of one element.
template <typename T = DefaultType, int16_t offset, typename U>
inline void MaskGenWithRegTensor(MaskReg& dst, U& srcReg, EMU_LOC) {
    using E = typename U::ElemType;
    constexpr uint32_t w = (uint32_t)sizeof(E), block = VL_BYTES / 8 / w;
    static_assert(w == 2 || w == 4, "MaskGenWithRegTensor: b16 or b32 source");
    static_assert(offset >= 0 && (uint32_t)offset < VL_BYTES / block,
                  "MaskGenWithRegTensor: offset in [0, 15] for b16, [0, 31] for b32");
    ascendc_emu::reg::trace<E>("MaskGenWithRegTensor", U::kLanes, loc);
    const uint8_t* src = srcReg.bytes + (uint32_t)offset * block;
    MaskReg m;
    for (uint32_t b = 0; b < VL_BYTES; b++) {
        const uint32_t k = b / w;
        m.set_byte(b, (src[k / 8] >> (k % 8)) & 1u);
    }
    dst = m;
}

// PostUpdate forms: move VL bytes at the address, then advance the address by postUpdateStride elements
// (POST_MODE_UPDATE; POST_MODE_NORMAL is documented as unsupported).
template <typename T = DefaultType, PostLiteral postMode, LoadDist dist = LoadDist::DIST_NORM, typename U, typename E>
inline void LoadAlign(U& dstReg, E*& srcAddr, int32_t postUpdateStride, EMU_LOC) {
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "LoadAlign: POST_MODE_NORMAL is not supported");
    LoadAlign<T, dist>(dstReg, srcAddr, loc);
    srcAddr += postUpdateStride;
}
template <typename T = DefaultType, PostLiteral postMode, StoreDist dist = StoreDist::DIST_NORM, typename U,
          typename E>
inline void StoreAlign(E*& dstAddr, U& srcReg, int32_t postUpdateStride, MaskReg& mask, EMU_LOC) {
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "StoreAlign: POST_MODE_NORMAL is not supported");
    StoreAlign<T, dist>(dstAddr, srcReg, mask, loc);
    dstAddr += postUpdateStride;
}

// ---- element-wise arithmetic (基础算术/*.md)
#define ASCENDC_EMU_REG_BINARY(NAME, EXPR)                                                                        \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>                 \
    inline void NAME(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask, EMU_LOC) {                               \
        using V = typename U::ElemType;                                                                            \
        using C = ascendc_emu::calc_t<V>;                                                                          \
        ascendc_emu::reg::trace<V>(#NAME, ascendc_emu::reg::active<V>(mask), loc);                                \
        const U a = srcReg0, b = srcReg1;                                                                          \
        ascendc_emu::reg::apply<V, mode>(dstReg, mask, [&](uint32_t i) {                                          \
            C x = (C)a.get(i), y = (C)b.get(i);                                                                    \
            return (V)(EXPR);                                                                                      \
        });                                                                                                        \
    }
ASCENDC_EMU_REG_BINARY(Add, x + y)
ASCENDC_EMU_REG_BINARY(Sub, x - y)
ASCENDC_EMU_REG_BINARY(Mul, x * y)
ASCENDC_EMU_REG_BINARY(Max, x > y ? x : y)
ASCENDC_EMU_REG_BINARY(Min, x < y ? x : y)
#undef ASCENDC_EMU_REG_BINARY

template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
inline void Div(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask, EMU_LOC) {
    using V = typename U::ElemType;
    using C = ascendc_emu::calc_t<V>;
    static_assert(ascendc_emu::reg::is_float<V>(), "Reg::Div is emulated for half, bfloat16_t and float");
    ascendc_emu::reg::trace<V>("Div", ascendc_emu::reg::active<V>(mask), loc);
    const U a = srcReg0, b = srcReg1;
    ascendc_emu::reg::apply<V, mode>(dstReg, mask, [&](uint32_t i) { return (V)((C)a.get(i) / (C)b.get(i)); });
}

#define ASCENDC_EMU_REG_SCALAR(NAME, EXPR)                                                                        \
    template <typename T = DefaultType, typename S, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>     \
    inline void NAME(U& dstReg, U& srcReg, S scalarValue, MaskReg& mask, EMU_LOC) {                             \
        using V = typename U::ElemType;                                                                            \
        using C = ascendc_emu::calc_t<V>;                                                                          \
        ascendc_emu::reg::trace<V>(#NAME, ascendc_emu::reg::active<V>(mask), loc);                                \
        const U a = srcReg;                                                                                        \
        const C y = (C)(V)(C)scalarValue;                                                                             \
        ascendc_emu::reg::apply<V, mode>(dstReg, mask, [&](uint32_t i) {                                          \
            C x = (C)a.get(i);                                                                                     \
            return (V)(EXPR);                                                                                      \
        });                                                                                                        \
    }
ASCENDC_EMU_REG_SCALAR(Adds, x + y)
ASCENDC_EMU_REG_SCALAR(Muls, x * y)
ASCENDC_EMU_REG_SCALAR(Maxs, x > y ? x : y)
ASCENDC_EMU_REG_SCALAR(Mins, x < y ? x : y)
#undef ASCENDC_EMU_REG_SCALAR

#define ASCENDC_EMU_REG_UNARY(NAME, FLOAT_ONLY, EXPR)                                                             \
    template <typename T = DefaultType, auto mode = MaskMergeMode::ZEROING, typename U>                          \
    inline void NAME(U& dstReg, U& srcReg, MaskReg& mask, EMU_LOC) {                                            \
        using V = typename U::ElemType;                                                                            \
        using C = ascendc_emu::calc_t<V>;                                                                          \
        static_assert(!FLOAT_ONLY || ascendc_emu::reg::is_float<V>(),                                              \
                      "Reg::" #NAME " is emulated for half, bfloat16_t and float");                              \
        ascendc_emu::reg::trace<V>(#NAME, ascendc_emu::reg::active<V>(mask), loc);                                \
        const U a = srcReg;                                                                                        \
        ascendc_emu::reg::apply<V, (MaskMergeMode)mode>(dstReg, mask, [&](uint32_t i) {                           \
            C x = (C)a.get(i);                                                                                     \
            return (V)(EXPR);                                                                                      \
        });                                                                                                        \
    }
ASCENDC_EMU_REG_UNARY(Exp, true, std::exp((float)x))
ASCENDC_EMU_REG_UNARY(Sqrt, true, std::sqrt((float)x))
ASCENDC_EMU_REG_UNARY(Ln, true, std::log((float)x))
ASCENDC_EMU_REG_UNARY(Abs, false, x < (C)0 ? (C)-x : x)
ASCENDC_EMU_REG_UNARY(Relu, false, x > (C)0 ? x : (C)0)
ASCENDC_EMU_REG_UNARY(Neg, false, -x)
#undef ASCENDC_EMU_REG_UNARY

// ---- Reduce (归约计算/Reduce.md): SUM of the selected lanes (unselected lanes count as 0) by a binary tree of
// pairwise adds over the whole register, each add rounded to the destination type (int16/uint16 sources sum in
// int32/uint32); MAX / MIN: the value and the index of its first occurrence (unselected lanes count as the type's
// lowest / highest value; a NaN wins, the first NaN's index; max(-0, +0) = +0, min(-0, +0) = -0). The result is
// lane 0 of dstReg, the index (an unsigned integer of the element's width, read back by reinterpret_cast) lane 1,
// every other lane zero (ZEROING; MERGING "当前不支持"). No lane selected: 0, the lowest or the highest value.
enum class ReduceType { SUM = 0, MAX, MIN };
template <ReduceType type = ReduceType::SUM, typename T = DefaultType, typename U = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V>
inline void Reduce(S& dstReg, V srcReg, MaskReg mask, EMU_LOC) {
    using D = typename S::ElemType;
    using E = typename V::ElemType;
    using C = ascendc_emu::calc_t<D>;
    static_assert(mode == MaskMergeMode::ZEROING, "Reg::Reduce: MaskMergeMode::MERGING is not supported (Reduce.md)");
    static_assert(type == ReduceType::SUM || std::is_same<D, E>::value,
                  "Reg::Reduce MAX/MIN: the destination has the source's type");
    static_assert(type != ReduceType::SUM || std::is_same<D, E>::value ||
                      (std::is_same<D, int32_t>::value && std::is_same<E, int16_t>::value) ||
                      (std::is_same<D, uint32_t>::value && std::is_same<E, uint16_t>::value),
                  "Reg::Reduce SUM: the destination is the source type, or int32_t/uint32_t for int16_t/uint16_t");
    constexpr bool fl = ascendc_emu::reg::is_float<E>();
    ascendc_emu::reg::trace<E>("Reduce", ascendc_emu::reg::active<E>(mask), loc);
    S out;  // zeroed
    const uint32_t n = V::kLanes;
    if (type == ReduceType::SUM) {
        std::vector<D> v(n);
        for (uint32_t i = 0; i < n; i++)
            v[i] = ascendc_emu::reg::lane_on<E>(mask, i) ? (D)(C)srcReg.get(i) : (D)(C)0;
        for (uint32_t w = n; w > 1; w /= 2)
            for (uint32_t i = 0; i < w / 2; i++) {
                if constexpr (fl) v[i] = (D)((C)v[2 * i] + (C)v[2 * i + 1]);
                else v[i] = (D)((typename std::make_unsigned<D>::type)v[2 * i] +
                                (typename std::make_unsigned<D>::type)v[2 * i + 1]);  // wraps
            }
        out.put(0, v[0]);
    } else {
        const bool want_max = type == ReduceType::MAX;
        bool any = false, nan = false;
        uint32_t best = 0;
        double bv = 0;
        for (uint32_t i = 0; i < n && !nan; i++) {
            if (!ascendc_emu::reg::lane_on<E>(mask, i)) continue;
            const double x = (double)(ascendc_emu::calc_t<E>)srcReg.get(i);
            if (fl && std::isnan(x)) {
                nan = true;
                best = i;
                break;
            }
            bool better = !any || (want_max ? x > bv : x < bv);
            if (any && x == bv && x == 0 && std::signbit(x) != std::signbit(bv))
                better = want_max ? !std::signbit(x) : std::signbit(x);
            if (better) {
                any = true;
                best = i;
                bv = x;
            }
        }
        if (nan || any) {
            out.put(0, srcReg.get(best));
        } else {
            const double lim = fl ? (want_max ? -65504.0 : 65504.0) : 0;
            if (fl && sizeof(E) == 4) out.put(0, (D)(want_max ? std::numeric_limits<float>::lowest()
                                                              : std::numeric_limits<float>::max()));
            else if (fl) out.put(0, (D)(C)lim);  // half: +-65504 (bfloat16_t is not in the page's table)
            else out.put(0, want_max ? std::numeric_limits<D>::lowest() : std::numeric_limits<D>::max());
        }
        typename std::conditional<sizeof(D) == 8, uint64_t,
                                  typename std::conditional<sizeof(D) == 4, uint32_t, uint16_t>::type>::type idx =
            (decltype(idx))best;
        memcpy(out.bytes + sizeof(D), &idx, sizeof(D));
    }
    dstReg = out;
}

// ---- LocalMemBar (同步控制/LocalMemBar.md): orders the UB accesses of two pipelines inside a VF function. The
// emulator runs a VF function's instructions in program order, so every pair is already ordered; the pairs the
// page allows (表3) are checked at compile time.
enum class MemType { VEC_STORE, VEC_LOAD, SCALAR_STORE, SCALAR_LOAD, VEC_ALL, SCALAR_ALL };
template <MemType src, MemType dst>
inline void LocalMemBar() {
    using M = MemType;
    static_assert((src == M::VEC_STORE && (dst == M::VEC_LOAD || dst == M::VEC_STORE || dst == M::SCALAR_LOAD ||
                                           dst == M::SCALAR_STORE)) ||
                      (src == M::VEC_LOAD && (dst == M::VEC_STORE || dst == M::SCALAR_STORE)) ||
                      (src == M::SCALAR_STORE && (dst == M::VEC_LOAD || dst == M::VEC_STORE)) ||
                      (src == M::SCALAR_LOAD && dst == M::VEC_STORE) ||
                      (src == M::VEC_ALL && (dst == M::VEC_ALL || dst == M::SCALAR_ALL)) ||
                      (src == M::SCALAR_ALL && dst == M::VEC_ALL),
                  "LocalMemBar: this src/dst pair is not one LocalMemBar.md 表3 lists");
}

// ---- PairReduceElem (归约计算/PairReduceElem.md): dst[i] = src[2i] + src[2i + 1] for the low half (unselected
// source lanes count as 0, one rounding to T), the high half 0; SUM and ZEROING only, half / float.
enum class PairReduce { SUM = 0 };
template <PairReduce type = PairReduce::SUM, typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename U>
inline void PairReduceElem(U& dstReg, U srcReg, MaskReg mask, EMU_LOC) {
    using E = typename U::ElemType;
    using C = ascendc_emu::calc_t<E>;
    static_assert(std::is_same<E, half>::value || std::is_same<E, float>::value, "PairReduceElem: half or float");
    static_assert(mode == MaskMergeMode::ZEROING, "PairReduceElem: only ZEROING is supported (PairReduceElem.md)");
    ascendc_emu::reg::trace<E>("PairReduceElem", ascendc_emu::reg::active<E>(mask), loc);
    U out;
    auto at = [&](uint32_t i) { return ascendc_emu::reg::lane_on<E>(mask, i) ? (C)srcReg.get(i) : (C)0; };
    for (uint32_t i = 0; i < U::kLanes / 2; i++) out.put(i, (E)(at(2 * i) + at(2 * i + 1)));
    dstReg = out;
}

// ---- Gather (离散操作/Gather.md): dstReg[i] = srcReg[indexReg[i] % (VL / sizeof(T))] on every lane; the index type
// (uint8_t / uint16_t / uint32_t) has the element's width.
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V>
inline void Gather(S& dstReg, S& srcReg, V& indexReg, EMU_LOC) {
    using E = typename S::ElemType;
    using I = typename V::ElemType;
    static_assert(sizeof(E) == 1 || sizeof(E) == 2 || sizeof(E) == 4, "Reg::Gather: b8, b16 or b32 elements");
    static_assert(sizeof(I) == sizeof(E) && std::is_unsigned<I>::value,
                  "Reg::Gather: the index is uint8_t / uint16_t / uint32_t of the element's width");
    ascendc_emu::reg::trace<E>("Gather", S::kLanes, loc);
    const S src = srcReg;
    S out;
    for (uint32_t i = 0; i < S::kLanes; i++) out.put(i, src.get((uint32_t)indexReg.get(i) % S::kLanes));
    dstReg = out;
}

// ---- Duplicate (数据填充/Duplicate.md): the scalar into every element, or the selected ones
template <typename T = DefaultType, typename U, typename S>
inline void Duplicate(S& dstReg, U scalarValue, EMU_LOC) {
    using V = typename S::ElemType;
    ascendc_emu::reg::trace<V>("Duplicate", S::kLanes, loc);
    const V v = (V)(ascendc_emu::calc_t<V>)scalarValue;
    for (uint32_t i = 0; i < S::kLanes; i++) dstReg.put(i, v);
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, typename S>
inline void Duplicate(S& dstReg, U scalarValue, MaskReg& mask, EMU_LOC) {
    using V = typename S::ElemType;
    ascendc_emu::reg::trace<V>("Duplicate", ascendc_emu::reg::active<V>(mask), loc);
    const V v = (V)(ascendc_emu::calc_t<V>)scalarValue;
    ascendc_emu::reg::apply<V, mode>(dstReg, mask, [&](uint32_t) { return v; });
}

// ---- Arange (索引操作/Arange.md): scalarValue, scalarValue + 1, ... (the increasing order)
template <typename T = DefaultType, IndexOrder order = IndexOrder::INCREASE_ORDER, typename U, typename S>
inline void Arange(S& dstReg, U scalarValue, EMU_LOC) {
    static_assert(order == IndexOrder::INCREASE_ORDER, "Reg::Arange with DECREASE_ORDER is not emulated");
    using V = typename S::ElemType;
    using C = ascendc_emu::calc_t<V>;
    ascendc_emu::reg::trace<V>("Arange", S::kLanes, loc);
    for (uint32_t i = 0; i < S::kLanes; i++) dstReg.put(i, (V)((C)scalarValue + (C)i));
}
}  // namespace Reg
}  // namespace AscendC

// VF调用/asc_vf_call.md: runs the SIMD function funcPtr with the arguments on this core.
template <auto funcPtr, typename... Args>
inline void asc_vf_call(Args&&... args) {
    funcPtr(std::forward<Args>(args)...);
}
#endif  // ASCENDC_EMU_ASCENDC_EMU_REG_API_H_
