// Whole-tensor operator forms of the vector APIs (docs: 基础算术/Add.md, Sub.md, Mul.md, Div.md, 逻辑计算/And.md,
// Or.md, 比较与选择/Compare.md "整个tensor参与计算"): `dst = src0 + src1` runs Add over dst.GetSize()
// elements; `dst = src0 < src1` runs Compare over src0.GetSize() elements into the bit mask dst.
// An operator cannot take the caller's line as a defaulted argument: reports name the core's previous API call.
#ifndef ASCENDC_EMU_ASCENDC_EMU_VECTOR_OPERATORS_H_
#define ASCENDC_EMU_ASCENDC_EMU_VECTOR_OPERATORS_H_
#include "vector_cmpsel.h"

namespace ascendc_emu {
enum class TensorOp : uint8_t { ADD, SUB, MUL, DIV, AND, OR, LT, GT, LE, GE, EQ, NE };
// The right-hand side of `dst = a op b`; evaluated by LocalTensor::operator=.
template <class T, TensorOp OP>
struct TensorExpr {
    using emu_tensor_expr = int;
    const AscendC::LocalTensor<T>& a;
    const AscendC::LocalTensor<T>& b;
    template <class D>
    void emu_assign(const AscendC::LocalTensor<D>& dst) const {
        Loc loc = last_loc_or(Loc());
        using AscendC::CMPMODE;
        if constexpr (OP >= TensorOp::LT) {
            constexpr CMPMODE m = OP == TensorOp::LT ? CMPMODE::LT : OP == TensorOp::GT ? CMPMODE::GT
                                : OP == TensorOp::LE ? CMPMODE::LE : OP == TensorOp::GE ? CMPMODE::GE
                                : OP == TensorOp::EQ ? CMPMODE::EQ : CMPMODE::NE;
            AscendC::Compare(dst, a, b, m, a.GetSize(), loc);
        } else {
            static_assert(std::is_same<D, T>::value, "dst = a op b needs one element type");
            int32_t n = (int32_t)dst.GetSize();
            if constexpr (OP == TensorOp::ADD) AscendC::Add(dst, a, b, n, loc);
            else if constexpr (OP == TensorOp::SUB) AscendC::Sub(dst, a, b, n, loc);
            else if constexpr (OP == TensorOp::MUL) AscendC::Mul(dst, a, b, n, loc);
            else if constexpr (OP == TensorOp::DIV) AscendC::Div(dst, a, b, n, loc);
            else if constexpr (OP == TensorOp::AND) AscendC::And(dst, a, b, n, loc);
            else AscendC::Or(dst, a, b, n, loc);
        }
    }
};
}  // namespace ascendc_emu

#define ASCENDC_EMU_TENSOR_OPERATOR(SYM, OP)                                                                   \
    template <typename T>                                                                                       \
    inline ascendc_emu::TensorExpr<T, ascendc_emu::TensorOp::OP> operator SYM(const LocalTensor<T>& a,          \
                                                                               const LocalTensor<T>& b) {       \
        return {a, b};                                                                                          \
    }

namespace AscendC {
ASCENDC_EMU_TENSOR_OPERATOR(+, ADD)
ASCENDC_EMU_TENSOR_OPERATOR(-, SUB)
ASCENDC_EMU_TENSOR_OPERATOR(*, MUL)
ASCENDC_EMU_TENSOR_OPERATOR(/, DIV)
ASCENDC_EMU_TENSOR_OPERATOR(&, AND)
ASCENDC_EMU_TENSOR_OPERATOR(|, OR)
ASCENDC_EMU_TENSOR_OPERATOR(<, LT)
ASCENDC_EMU_TENSOR_OPERATOR(>, GT)
ASCENDC_EMU_TENSOR_OPERATOR(<=, LE)
ASCENDC_EMU_TENSOR_OPERATOR(>=, GE)
ASCENDC_EMU_TENSOR_OPERATOR(==, EQ)
ASCENDC_EMU_TENSOR_OPERATOR(!=, NE)
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_VECTOR_OPERATORS_H_
