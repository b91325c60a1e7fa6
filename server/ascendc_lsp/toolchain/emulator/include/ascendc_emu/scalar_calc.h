// Scalar helpers of 标量计算 not in utils.h: CeilDivision (docs/zh/api/SIMD-API/基础API/标量计算/CeilDivision.md),
// num1 / num2 rounded up; a zero divisor gives 0 here, like utils.h DivCeil, rather than a host crash.
#ifndef ASCENDC_EMU_ASCENDC_EMU_SCALAR_CALC_H_
#define ASCENDC_EMU_ASCENDC_EMU_SCALAR_CALC_H_
#include <cstdint>

namespace AscendC {
__aicore__ constexpr inline int32_t CeilDivision(int32_t num1, int32_t num2) {
    return num2 == 0 ? 0 : (num1 + num2 - 1) / num2;
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_SCALAR_CALC_H_
