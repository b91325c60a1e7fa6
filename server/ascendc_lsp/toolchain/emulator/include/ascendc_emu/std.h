// AscendC::Std: the C++ standard library subset the devkit documents for kernels (docs/zh/api/Utils-API/CPP标准库/:
// 类型特性/*.md, 算法/min, max, 数学函数/abs, 容器函数/tuple, make_tuple, get, 通用工具/integer_sequence). Each page
// describes the std:: facility of the same name, so on the CPU the std:: one is that facility.
#ifndef ASCENDC_EMU_ASCENDC_EMU_STD_H_
#define ASCENDC_EMU_ASCENDC_EMU_STD_H_
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace AscendC {
namespace Std {
// 类型特性 (each with its _t / _v form where std:: has one)
using std::add_const;
using std::add_const_t;
using std::add_cv;
using std::add_cv_t;
using std::add_lvalue_reference;
using std::add_lvalue_reference_t;
using std::add_pointer;
using std::add_pointer_t;
using std::add_rvalue_reference;
using std::add_rvalue_reference_t;
using std::add_volatile;
using std::add_volatile_t;
using std::conditional;
using std::conditional_t;
using std::enable_if;
using std::enable_if_t;
using std::integral_constant;
using std::bool_constant;
using std::true_type;
using std::false_type;
using std::is_array;
using std::is_array_v;
using std::is_base_of;
using std::is_base_of_v;
using std::is_const;
using std::is_const_v;
using std::is_convertible;
using std::is_convertible_v;
using std::is_floating_point;
using std::is_floating_point_v;
using std::is_integral;
using std::is_integral_v;
using std::is_pointer;
using std::is_pointer_v;
using std::is_reference;
using std::is_reference_v;
using std::is_same;
using std::is_same_v;
using std::is_void;
using std::is_void_v;
using std::remove_const;
using std::remove_const_t;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_pointer;
using std::remove_pointer_t;
using std::remove_reference;
using std::remove_reference_t;
using std::remove_volatile;
using std::remove_volatile_t;
// integral_constant.md: `Int<v>` is integral_constant<size_t, v>
template <size_t v>
using Int = integral_constant<size_t, v>;

// 算法/min.md, max.md: the smaller / larger of two values (of one type; mixed types compare in their common type)
template <typename T, typename U>
inline constexpr auto min(const T& src0, const U& src1) {
    using C = std::common_type_t<T, U>;
    return static_cast<C>(src1) < static_cast<C>(src0) ? static_cast<C>(src1) : static_cast<C>(src0);
}
template <typename T, typename U>
inline constexpr auto max(const T& src0, const U& src1) {
    using C = std::common_type_t<T, U>;
    return static_cast<C>(src0) < static_cast<C>(src1) ? static_cast<C>(src1) : static_cast<C>(src0);
}
// 数学函数/abs.md
template <typename T>
inline constexpr T abs(const T src) {
    return src < T(0) ? static_cast<T>(-src) : src;
}

// 容器函数/tuple.md, make_tuple.md, get.md; 通用工具/integer_sequence.md
using std::get;
using std::make_tuple;
using std::tuple;
using std::tuple_element;
using std::tuple_size;
using std::index_sequence;
using std::make_index_sequence;
using std::integer_sequence;
using std::make_integer_sequence;
}  // namespace Std
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_STD_H_
