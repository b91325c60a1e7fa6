// Register-API forms the public Reg softmax uses, beside reg_api.h / reg_cast.h: ExpSub (复合计算/ExpSub.md:
// dst_i = exp(src0_i - src1_i), half sources computed in float; with a half source and a float destination lane k
// reads source lane 2k + layout, RegLayout.md), Duplicate's tensor mode (数据填充/Duplicate.md: srcReg's lowest
// element broadcast to the selected lanes), and ReduceSum / ReduceMax / ReduceMin, which public kernels call as the
// named forms of Reduce<ReduceType::SUM / MAX / MIN> (归约计算/Reduce.md).
#ifndef ASCENDC_EMU_ASCENDC_EMU_REG_COMPOUND_H_
#define ASCENDC_EMU_ASCENDC_EMU_REG_COMPOUND_H_
#include <cmath>
#include "reg_cast.h"

namespace AscendC {
namespace Reg {
template <typename T = DefaultType, typename U = DefaultType, RegLayout layout = RegLayout::ZERO,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V>
inline void ExpSub(S& dstReg, V& srcReg0, V& srcReg1, MaskReg& mask, EMU_LOC) {
    using D = typename S::ElemType;
    using E = typename V::ElemType;
    static_assert(std::is_same<D, float>::value && (std::is_same<E, float>::value || std::is_same<E, half>::value),
                  "Reg::ExpSub: float from float or half sources (ExpSub.md)");
    static_assert(layout == RegLayout::ZERO || layout == RegLayout::ONE, "Reg::ExpSub: RegLayout ZERO or ONE");
    const V a = srcReg0, b = srcReg1;
    S out = dstReg;
    ascendc_emu::reg::trace<D>("ExpSub", S::kLanes, loc);
    constexpr uint32_t step = sizeof(D) / sizeof(E);  // 1 (float) or 2 (half)
    const uint32_t off = step == 2 ? (uint32_t)layout : 0u;
    for (uint32_t k = 0; k < S::kLanes; k++) {
        const uint32_t j = step * k + off;
        if (ascendc_emu::reg::lane_on<E>(mask, j)) {
            const float x = (float)ascendc_emu::calc_t<E>(a.get(j)), y = (float)ascendc_emu::calc_t<E>(b.get(j));
            out.put(k, std::exp(x - y));
        } else if (mode == MaskMergeMode::ZEROING) {
            out.put(k, 0.0f);
        }
    }
    dstReg = out;
}

enum class HighLowPart { LOWEST };
template <typename T = DefaultType, HighLowPart pos = HighLowPart::LOWEST, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename S>
inline void Duplicate(S& dstReg, S& srcReg, MaskReg& mask, EMU_LOC) {
    using V = typename S::ElemType;
    ascendc_emu::reg::trace<V>("Duplicate", ascendc_emu::reg::active<V>(mask), loc);
    const V v = srcReg.get(0);
    ascendc_emu::reg::apply<V, mode>(dstReg, mask, [&](uint32_t) { return v; });
}

template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename S, typename V>
inline void ReduceSum(S& dstReg, V srcReg, MaskReg mask, EMU_LOC) {
    Reduce<ReduceType::SUM, T, U, mode>(dstReg, srcReg, mask, loc);
}
template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename S, typename V>
inline void ReduceMax(S& dstReg, V srcReg, MaskReg mask, EMU_LOC) {
    Reduce<ReduceType::MAX, T, U, mode>(dstReg, srcReg, mask, loc);
}
template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename S, typename V>
inline void ReduceMin(S& dstReg, V srcReg, MaskReg mask, EMU_LOC) {
    Reduce<ReduceType::MIN, T, U, mode>(dstReg, srcReg, mask, loc);
}
}  // namespace Reg
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_REG_COMPOUND_H_
