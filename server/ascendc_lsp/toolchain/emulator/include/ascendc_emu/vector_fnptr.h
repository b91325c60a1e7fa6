// Exact-signature overloads of the count-form vector APIs, so a kernel can pass them as function pointers or
// template arguments (e.g. `template <..., void (*op)(const LocalTensor<T>&, const LocalTensor<T>&,
// const LocalTensor<T>&, const int32_t&)>` with `Div`). The emulator's own overloads carry a defaulted Loc
// argument (the caller's line), which changes their type. These take a trailing parameter pack that must be
// empty: a pointer to them has the documented type, while a direct call still picks the Loc overload (a function
// template without a trailing pack is more specialised). A call through the pointer reports at the line of the
// core's previous API call.
#ifndef ASCENDC_EMU_ASCENDC_EMU_VECTOR_FNPTR_H_
#define ASCENDC_EMU_ASCENDC_EMU_VECTOR_FNPTR_H_
#include "vector_support.h"

#define ASCENDC_EMU_FNPTR_ENABLE typename... E, typename std::enable_if<sizeof...(E) == 0, int>::type = 0
#define ASCENDC_EMU_FNPTR_LOC ::ascendc_emu::last_loc_or(::ascendc_emu::Loc())
#define ASCENDC_EMU_FNPTR_BINARY(NAME)                                                                         \
    template <typename T, ASCENDC_EMU_FNPTR_ENABLE>                                                             \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,         \
                     const int32_t& count, E...) {                                                              \
        NAME(dst, src0, src1, count, ASCENDC_EMU_FNPTR_LOC);                                                    \
    }
// Level-0 binary forms (uint64_t mask or mask[], uint8_t repeatTime, BinaryRepeatParams): the emulator's own
// overloads take the repeat count as any integer type R (so a too-large count can be reported), this one only
// as uint8_t, the documented type; with the empty pack it loses to them in a call.
#define ASCENDC_EMU_FNPTR_BINARY0(NAME)                                                                        \
    template <typename T, bool isSetMask = true, typename R,                                                    \
              typename std::enable_if<std::is_same<R, uint8_t>::value, int>::type = 0, ASCENDC_EMU_FNPTR_ENABLE> \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,         \
                     uint64_t mask, const R repeatTime, const BinaryRepeatParams& p, E...) {                    \
        NAME<T, isSetMask>(dst, src0, src1, mask, repeatTime, p, ASCENDC_EMU_FNPTR_LOC);                        \
    }                                                                                                           \
    template <typename T, bool isSetMask = true, typename R,                                                    \
              typename std::enable_if<std::is_same<R, uint8_t>::value, int>::type = 0, ASCENDC_EMU_FNPTR_ENABLE> \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,         \
                     const uint64_t mask[], const R repeatTime, const BinaryRepeatParams& p, E...) {            \
        NAME<T, isSetMask>(dst, src0, src1, mask, repeatTime, p, ASCENDC_EMU_FNPTR_LOC);                        \
    }
#define ASCENDC_EMU_FNPTR_UNARY(NAME)                                                                          \
    template <typename T, ASCENDC_EMU_FNPTR_ENABLE>                                                             \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count, E...) {        \
        NAME(dst, src, count, ASCENDC_EMU_FNPTR_LOC);                                                           \
    }
#define ASCENDC_EMU_FNPTR_SCALAR(NAME)                                                                         \
    template <typename T, bool isSetMask = true, ASCENDC_EMU_FNPTR_ENABLE>                                      \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const ascendc_emu::nd_t<T>& scalarValue, \
                     const int32_t& count, E...) {                                                              \
        NAME<T, isSetMask>(dst, src, scalarValue, count, ASCENDC_EMU_FNPTR_LOC);                                \
    }

namespace AscendC {
ASCENDC_EMU_FNPTR_BINARY(Add)
ASCENDC_EMU_FNPTR_BINARY(Sub)
ASCENDC_EMU_FNPTR_BINARY(Mul)
ASCENDC_EMU_FNPTR_BINARY(Div)
ASCENDC_EMU_FNPTR_BINARY(Max)
ASCENDC_EMU_FNPTR_BINARY(Min)
ASCENDC_EMU_FNPTR_BINARY(AddRelu)
ASCENDC_EMU_FNPTR_BINARY(SubRelu)
ASCENDC_EMU_FNPTR_BINARY(And)
ASCENDC_EMU_FNPTR_BINARY(Or)
ASCENDC_EMU_FNPTR_BINARY0(Add)
ASCENDC_EMU_FNPTR_BINARY0(Sub)
ASCENDC_EMU_FNPTR_BINARY0(Mul)
ASCENDC_EMU_FNPTR_BINARY0(Div)
ASCENDC_EMU_FNPTR_BINARY0(Max)
ASCENDC_EMU_FNPTR_BINARY0(Min)
ASCENDC_EMU_FNPTR_BINARY0(AddRelu)
ASCENDC_EMU_FNPTR_BINARY0(SubRelu)
ASCENDC_EMU_FNPTR_BINARY0(And)
ASCENDC_EMU_FNPTR_BINARY0(Or)
ASCENDC_EMU_FNPTR_BINARY(FusedMulAdd)
ASCENDC_EMU_FNPTR_BINARY(MulAddRelu)
ASCENDC_EMU_FNPTR_UNARY(Exp)
ASCENDC_EMU_FNPTR_UNARY(Ln)
ASCENDC_EMU_FNPTR_UNARY(Abs)
ASCENDC_EMU_FNPTR_UNARY(Reciprocal)
ASCENDC_EMU_FNPTR_UNARY(Sqrt)
ASCENDC_EMU_FNPTR_UNARY(Rsqrt)
ASCENDC_EMU_FNPTR_UNARY(Relu)
ASCENDC_EMU_FNPTR_UNARY(Not)
ASCENDC_EMU_FNPTR_SCALAR(Adds)
ASCENDC_EMU_FNPTR_SCALAR(Muls)
ASCENDC_EMU_FNPTR_SCALAR(Maxs)
ASCENDC_EMU_FNPTR_SCALAR(Mins)
ASCENDC_EMU_FNPTR_SCALAR(LeakyRelu)
ASCENDC_EMU_FNPTR_SCALAR(ShiftLeft)
ASCENDC_EMU_FNPTR_SCALAR(ShiftRight)
template <typename T, ASCENDC_EMU_FNPTR_ENABLE>
inline void Duplicate(const LocalTensor<T>& dst, const ascendc_emu::nd_t<T>& scalarValue, const int32_t& count, E...) {
    Duplicate(dst, scalarValue, count, ASCENDC_EMU_FNPTR_LOC);
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_VECTOR_FNPTR_H_
