// Reg::Cast (docs/zh/api/SIMD-API/基础API/Reg矢量计算/类型转换/Cast.md) with its CastTrait
// (辅助数据类型/RegLayout.md, SatMode.md, MaskMergeMode.md, RoundMode.md). Same width: lane i to lane i. Between
// b16 and b32 (RegLayout.md's pseudo-code): widening reads source lane 2k + layout into lane k; narrowing writes
// lane k to destination lane 2k + layout and zeroes every other destination lane. The mask selects by the source
// element (Cast.md: "mask会按照输入来筛选"). Rounding and saturation follow the element cast of the vector Cast
// (vector_ext.h Caster); SatMode::NO_SAT float -> integer keeps the low bits of the rounded value (Cast.md 表4),
// +/-inf go to the type's extremes and NaN to 0. Width ratios 1:4 / 4:1 and the fp8 / fp4 / int4 types are not
// declared rather than run with guessed semantics.
#ifndef ASCENDC_EMU_ASCENDC_EMU_REG_CAST_H_
#define ASCENDC_EMU_ASCENDC_EMU_REG_CAST_H_
#include <cmath>
#include <limits>
#include "reg_api.h"
#include "vector_ext.h"

namespace AscendC {
namespace Reg {
enum class RegLayout { UNKNOWN = -1, ZERO, ONE, TWO, THREE };
enum class SatMode { UNKNOWN = -1, NO_SAT, SAT };
struct CastTrait {
    RegLayout layoutMode = RegLayout::UNKNOWN;
    SatMode satMode = SatMode::UNKNOWN;
    MaskMergeMode mrgMode = MaskMergeMode::UNKNOWN;
    RoundMode roundMode = RoundMode::UNKNOWN;
};
constexpr CastTrait castTrait = {};
}  // namespace Reg
// Preset traits named by their fields (Z: RegLayout::ZERO, MrgZ: ZEROING, RndR / RandF: CAST_RINT / CAST_FLOOR,
// SatNS: NO_SAT), as public kernels and 关键特性说明.md (layoutZMrgZRandF for half -> int32_t floor) pass them.
constexpr Reg::CastTrait layoutZMrgZ = {Reg::RegLayout::ZERO, Reg::SatMode::UNKNOWN, Reg::MaskMergeMode::ZEROING,
                                        RoundMode::UNKNOWN};
constexpr Reg::CastTrait layoutZMrgZRandF = {Reg::RegLayout::ZERO, Reg::SatMode::UNKNOWN,
                                             Reg::MaskMergeMode::ZEROING, RoundMode::CAST_FLOOR};
constexpr Reg::CastTrait LayoutZMrgZRndRSatNS = {Reg::RegLayout::ZERO, Reg::SatMode::NO_SAT,
                                                 Reg::MaskMergeMode::ZEROING, RoundMode::CAST_RINT};
}  // namespace AscendC

namespace ascendc_emu {
namespace reg {
template <class D, class S>
inline D cast_lane(S v, const AscendC::Reg::CastTrait& trait) {
    const RM m = rm_of(trait.roundMode);
    if constexpr (std::is_integral<D>::value && !std::is_integral<S>::value) {
        if (trait.satMode == AscendC::Reg::SatMode::NO_SAT) {
            const double x = to_d<S>(v);
            if (std::isnan(x)) return (D)0;
            if (std::isinf(x)) return x > 0 ? std::numeric_limits<D>::max() : std::numeric_limits<D>::lowest();
            const double r = m == RM::FLOOR ? std::floor(x) : m == RM::CEIL ? std::ceil(x)
                           : m == RM::ROUND ? std::round(x) : m == RM::TRUNC ? std::trunc(x) : std::nearbyint(x);
            return (D)(int64_t)r;  // the low bits of the rounded value
        }
    }
    return Caster<D, S>::go(v, m);
}
}  // namespace reg
}  // namespace ascendc_emu

namespace AscendC {
namespace Reg {
template <typename T = DefaultType, typename U = DefaultType, const CastTrait& trait = castTrait, typename S,
          typename V>
inline void Cast(S& dstReg, V& srcReg, MaskReg& mask, EMU_LOC) {
    using D = typename S::ElemType;
    using E = typename V::ElemType;
    static_assert(std::is_same<T, DefaultType>::value || std::is_same<T, D>::value,
                  "Reg::Cast: T must be the destination RegTensor's element type");
    static_assert(std::is_same<U, DefaultType>::value || std::is_same<U, E>::value,
                  "Reg::Cast: U must be the source RegTensor's element type");
    static_assert(sizeof(D) == sizeof(E) || (sizeof(D) == 2 && sizeof(E) == 4) || (sizeof(D) == 4 && sizeof(E) == 2),
                  "Reg::Cast: only same-width and b16 <-> b32 conversions are emulated");
    static_assert(trait.mrgMode != MaskMergeMode::MERGING || sizeof(D) <= sizeof(E),
                  "Reg::Cast: MERGING is emulated for same-width and narrowing casts only");
    static_assert(sizeof(D) == sizeof(E) || trait.layoutMode == RegLayout::UNKNOWN ||
                      trait.layoutMode == RegLayout::ZERO || trait.layoutMode == RegLayout::ONE,
                  "Reg::Cast: b16 <-> b32 takes RegLayout::ZERO or ONE");
    const uint32_t layout = trait.layoutMode == RegLayout::UNKNOWN ? 0u : (uint32_t)trait.layoutMode;
    const bool merging = trait.mrgMode == MaskMergeMode::MERGING;
    const V src = srcReg;
    S out = dstReg;
    if constexpr (sizeof(D) == sizeof(E)) {
        ascendc_emu::reg::trace<D>("Cast", ascendc_emu::reg::active<E>(mask), loc);
        for (uint32_t i = 0; i < S::kLanes; i++) {
            if (ascendc_emu::reg::lane_on<E>(mask, i)) out.put(i, ascendc_emu::reg::cast_lane<D, E>(src.get(i), trait));
            else if (!merging) out.put(i, D{});
        }
    } else if constexpr (sizeof(D) > sizeof(E)) {  // b16 -> b32: lane k from source lane 2k + layout
        ascendc_emu::reg::trace<D>("Cast", S::kLanes, loc);
        for (uint32_t k = 0; k < S::kLanes; k++) {
            const uint32_t j = 2 * k + layout;
            if (ascendc_emu::reg::lane_on<E>(mask, j)) out.put(k, ascendc_emu::reg::cast_lane<D, E>(src.get(j), trait));
            else out.put(k, D{});
        }
    } else {  // b32 -> b16: lane k to destination lane 2k + layout, the other destination lanes 0
        ascendc_emu::reg::trace<E>("Cast", ascendc_emu::reg::active<E>(mask), loc);
        for (uint32_t k = 0; k < V::kLanes; k++) {
            const uint32_t j = 2 * k + layout;
            out.put(2 * k + (1 - layout % 2), D{});
            if (ascendc_emu::reg::lane_on<E>(mask, k)) out.put(j, ascendc_emu::reg::cast_lane<D, E>(src.get(k), trait));
            else if (!merging) out.put(j, D{});
        }
    }
    dstReg = out;
}
}  // namespace Reg
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_REG_CAST_H_
