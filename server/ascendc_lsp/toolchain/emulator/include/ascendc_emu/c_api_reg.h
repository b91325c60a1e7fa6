// The register C API (SIMD-API/C-API/reg/, Ascend 950), the subset the public samples use: the register types
// (reg_data_types/data_type_definition.md: vector_<T> holds VL = 256 bytes, vector_bool one bit per VL byte),
// asc_create_mask_b8/b16/b32 (asc_create_mask.md), asc_update_mask_b8/b16/b32 (asc_update_mask.md), asc_load
// (reg_load/asc_load.md: VL bytes from any UB address), asc_store (reg_store/asc_store.md: VL elements, or the
// first `count`), and the masked element-wise arithmetic asc_add / asc_sub / asc_mul / asc_div / asc_max / asc_min
// (arithmetic_compute/asc_<op>.md, ZEROING: unselected destination elements become 0). Built on the C++ register
// API of reg_api.h (AscendC::Reg::RegTensor / MaskReg), so both tiers share one semantics and one trace.
// Like the C API's data movement (c_api.h), the __ubuf__ pointers are plain addresses here (a C-API kernel's
// `__ubuf__ T buf[n]` arrays are locals); the carry forms of asc_add and the fp8/fp4/int4 registers are not
// declared rather than run with guessed semantics.
#ifndef ASCENDC_EMU_ASCENDC_EMU_C_API_REG_H_
#define ASCENDC_EMU_ASCENDC_EMU_C_API_REG_H_
#include <cstring>
#include "reg_api.h"

using vector_bool = AscendC::Reg::MaskReg;
using vector_int8_t = AscendC::Reg::RegTensor<int8_t>;
using vector_uint8_t = AscendC::Reg::RegTensor<uint8_t>;
using vector_int16_t = AscendC::Reg::RegTensor<int16_t>;
using vector_uint16_t = AscendC::Reg::RegTensor<uint16_t>;
using vector_int32_t = AscendC::Reg::RegTensor<int32_t>;
using vector_uint32_t = AscendC::Reg::RegTensor<uint32_t>;
using vector_int64_t = AscendC::Reg::RegTensor<int64_t>;
using vector_uint64_t = AscendC::Reg::RegTensor<uint64_t>;
using vector_half = AscendC::Reg::RegTensor<half>;
using vector_bfloat16_t = AscendC::Reg::RegTensor<bfloat16_t>;
using vector_float = AscendC::Reg::RegTensor<float>;

// asc_create_mask.md: the pat_mode values, in the order of AscendC::Reg::MaskPattern.
enum asc_mask_pattern_t {
    PAT_ALL = 0, PAT_VL1, PAT_VL2, PAT_VL3, PAT_VL4, PAT_VL8, PAT_VL16, PAT_VL32, PAT_VL64, PAT_VL128, PAT_M3,
    PAT_M4, PAT_H, PAT_Q, PAT_ALLF = 15
};

namespace ascendc_emu {
namespace c_api_reg {
template <class T>
inline vector_bool create_mask(asc_mask_pattern_t pat) {
    using AscendC::Reg::MaskPattern;
    switch (pat) {
        case PAT_ALL: return AscendC::Reg::CreateMask<T, MaskPattern::ALL>();
        case PAT_VL1: return AscendC::Reg::CreateMask<T, MaskPattern::VL1>();
        case PAT_VL2: return AscendC::Reg::CreateMask<T, MaskPattern::VL2>();
        case PAT_VL3: return AscendC::Reg::CreateMask<T, MaskPattern::VL3>();
        case PAT_VL4: return AscendC::Reg::CreateMask<T, MaskPattern::VL4>();
        case PAT_VL8: return AscendC::Reg::CreateMask<T, MaskPattern::VL8>();
        case PAT_VL16: return AscendC::Reg::CreateMask<T, MaskPattern::VL16>();
        case PAT_VL32: return AscendC::Reg::CreateMask<T, MaskPattern::VL32>();
        case PAT_VL64: return AscendC::Reg::CreateMask<T, MaskPattern::VL64>();
        case PAT_VL128: return AscendC::Reg::CreateMask<T, MaskPattern::VL128>();
        case PAT_M3: return AscendC::Reg::CreateMask<T, MaskPattern::M3>();
        case PAT_M4: return AscendC::Reg::CreateMask<T, MaskPattern::M4>();
        case PAT_H: return AscendC::Reg::CreateMask<T, MaskPattern::H>();
        case PAT_Q: return AscendC::Reg::CreateMask<T, MaskPattern::Q>();
        case PAT_ALLF: return AscendC::Reg::CreateMask<T, MaskPattern::ALLF>();
    }
    return AscendC::Reg::CreateMask<T, MaskPattern::ALLF>();
}
}  // namespace c_api_reg
}  // namespace ascendc_emu

__simd_callee__ inline vector_bool asc_create_mask_b8(asc_mask_pattern_t pat) {
    return ascendc_emu::c_api_reg::create_mask<uint8_t>(pat);
}
__simd_callee__ inline vector_bool asc_create_mask_b16(asc_mask_pattern_t pat) {
    return ascendc_emu::c_api_reg::create_mask<uint16_t>(pat);
}
__simd_callee__ inline vector_bool asc_create_mask_b32(asc_mask_pattern_t pat) {
    return ascendc_emu::c_api_reg::create_mask<uint32_t>(pat);
}
// asc_update_mask.md: the first min(value, VL_T) elements; value -= VL_T, clamped at 0.
__simd_callee__ inline vector_bool asc_update_mask_b8(uint32_t& value) { return AscendC::Reg::UpdateMask<uint8_t>(value); }
__simd_callee__ inline vector_bool asc_update_mask_b16(uint32_t& value) { return AscendC::Reg::UpdateMask<uint16_t>(value); }
__simd_callee__ inline vector_bool asc_update_mask_b32(uint32_t& value) { return AscendC::Reg::UpdateMask<uint32_t>(value); }

// asc_load.md: VL bytes from src, no alignment required.
template <class T>
__simd_callee__ inline void asc_load(AscendC::Reg::RegTensor<T>& dst, __ubuf__ T* src, EMU_LOC) {
    ascendc_emu::reg::trace<T>("asc_load", AscendC::Reg::RegTensor<T>::kLanes, loc);
    memcpy(dst.bytes, (const void*)src, AscendC::Reg::VL_BYTES);
}
// asc_store.md: VL elements, or the first `count` of them.
template <class T>
__simd_callee__ inline void asc_store(__ubuf__ T* dst, AscendC::Reg::RegTensor<T> src, uint32_t count, EMU_LOC) {
    const uint32_t n = count < AscendC::Reg::RegTensor<T>::kLanes ? count : AscendC::Reg::RegTensor<T>::kLanes;
    ascendc_emu::reg::trace<T>("asc_store", n, loc);
    memcpy((void*)dst, src.bytes, (size_t)n * sizeof(T));
}
template <class T>
__simd_callee__ inline void asc_store(__ubuf__ T* dst, AscendC::Reg::RegTensor<T> src, EMU_LOC) {
    asc_store(dst, src, AscendC::Reg::RegTensor<T>::kLanes, loc);
}

// arithmetic_compute/asc_<op>.md: dst_i = src0_i <op> src1_i on the mask's elements, the others 0 (ZEROING).
#define ASCENDC_EMU_C_REG_BINARY(NAME, REG_OP)                                                                   \
    template <class T>                                                                                           \
    __simd_callee__ inline void NAME(AscendC::Reg::RegTensor<T>& dst, AscendC::Reg::RegTensor<T> src0,          \
                                     AscendC::Reg::RegTensor<T> src1, vector_bool mask, EMU_LOC) {              \
        AscendC::Reg::REG_OP<T, AscendC::Reg::MaskMergeMode::ZEROING>(dst, src0, src1, mask, loc);               \
    }
ASCENDC_EMU_C_REG_BINARY(asc_add, Add)
ASCENDC_EMU_C_REG_BINARY(asc_sub, Sub)
ASCENDC_EMU_C_REG_BINARY(asc_mul, Mul)
ASCENDC_EMU_C_REG_BINARY(asc_div, Div)
ASCENDC_EMU_C_REG_BINARY(asc_max, Max)
ASCENDC_EMU_C_REG_BINARY(asc_min, Min)
#undef ASCENDC_EMU_C_REG_BINARY
#endif  // ASCENDC_EMU_ASCENDC_EMU_C_API_REG_H_
