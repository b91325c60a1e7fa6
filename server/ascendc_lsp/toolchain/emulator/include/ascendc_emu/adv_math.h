// High-level elementwise APIs (clean-room): lib/math (Log, Tanh, Sin, Asin, Floor, Power, Sign, Erf, ...) and
// lib/activation (Sigmoid, Silu, Swish, Gelu, FasterGelu(V2), GeGLU, SwiGLU, ReGlu). Each element is computed in
// fp32 (16-bit inputs widen exactly) following the formula of the API's doc page, and rounded once to the
// output type; the trace shows the vector steps (a Cast in and out for 16-bit types). Semantics per page under
// docs/zh/api/SIMD-API/高阶API/ (数学计算/<Api>接口/<Api>.md, 激活函数/...), cited at each API.
#ifndef ASCENDC_EMU_ASCENDC_EMU_ADV_MATH_H_
#define ASCENDC_EMU_ASCENDC_EMU_ADV_MATH_H_
#include "adv_common.h"

namespace AscendC {
// ---- configuration types of the math APIs (field names and defaults as the doc pages print them)
enum class TanhAlgo { INTRINSIC = 0, SUBSECTION_COMPENSATION };
struct TanhConfig { TanhAlgo algo = TanhAlgo::INTRINSIC; };
constexpr TanhConfig DEFAULT_TANH_CONFIG{};
enum class PowerAlgo { INTRINSIC = 0, DOUBLE_FLOAT_TECH };
struct PowerConfig { PowerAlgo algo = PowerAlgo::INTRINSIC; };
constexpr PowerConfig defaultPowerConfig{};
enum class AtanAlgo { TAYLOR_EXPANSION = 0, POLYNOMIAL_APPROXIMATION };
struct AtanConfig { AtanAlgo algo = AtanAlgo::TAYLOR_EXPANSION; };
constexpr AtanConfig defaultAtanConfig{};
enum class ErfAlgo { PADE_APPROXIMATION = 0, SUBSECTION_POLYNOMIAL_APPROXIMATION };
struct ErfConfig { ErfAlgo algo = ErfAlgo::PADE_APPROXIMATION; };
constexpr ErfConfig defaultErfConfig{};
constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;
enum class FmodAlgo { NORMAL = 0, ITERATION_COMPENSATION = 1 };
struct FmodConfig { FmodAlgo algo = FmodAlgo::NORMAL; uint32_t iterationNum = FMOD_ITERATION_NUM_MAX; };
constexpr FmodConfig DEFAULT_FMOD_CONFIG{};
struct RintConfig { bool isReuseSource; };
constexpr RintConfig DEFAULT_RINT_CONFIG{false};
struct SinCosConfig { bool isReuseSource; };
constexpr SinCosConfig DEFAULT_SINCOS_CONFIG{false};
struct FmaConfig { bool isReuseSource; };
constexpr FmaConfig DEFAULT_FMA_CONFIG{false};
struct IsInfConfig { bool isReuseSource; };
constexpr IsInfConfig DEFAULT_IS_INF_CONFIG{false};
struct IsNanConfig { bool isReuseSource; };
constexpr IsNanConfig DEFAULT_IS_NAN_CONFIG{false};
struct ClampConfig { bool isReuseSource; };
constexpr ClampConfig DEFAULT_CLAMP_CONFIG{false};
struct BitwiseAndConfig { bool isReuseSource; };
constexpr BitwiseAndConfig DEFAULT_BITWISE_AND_CONFIG{false};
struct BitwiseOrConfig { bool isReuseSource; };
constexpr BitwiseOrConfig DEFAULT_BITWISE_OR_CONFIG{false};
struct BitwiseXorConfig { bool isReuseSource; };
constexpr BitwiseXorConfig DEFAULT_BITWISE_XOR_CONFIG{false};
struct BitwiseNotConfig { bool isReuseSource; };
constexpr BitwiseNotConfig DEFAULT_BITWISE_NOT_CONFIG{false};
struct LogicalAndConfig { bool isReuseSource; };
constexpr LogicalAndConfig DEFAULT_LOGICAL_AND_CONFIG{false};
struct LogicalOrConfig { bool isReuseSource; };
constexpr LogicalOrConfig DEFAULT_LOGICAL_OR_CONFIG{false};
struct LogicalXorConfig { bool isReuseSource; };
constexpr LogicalXorConfig DEFAULT_LOGICAL_XOR_CONFIG{false};
struct LogicalNotConfig { bool isReuseSource; };
constexpr LogicalNotConfig DEFAULT_LOGICAL_NOT_CONFIG{false};
struct LogicalAndsConfig { bool isReuseSource; int8_t scalarTensorIndex; };
constexpr LogicalAndsConfig DEFAULT_LOGICAL_ANDS_CONFIG{false, 1};
struct LogicalOrsConfig { bool isReuseSource; int8_t scalarTensorIndex; };
constexpr LogicalOrsConfig DEFAULT_LOGICAL_ORS_CONFIG{false, 1};
}  // namespace AscendC

namespace ascendc_emu {
namespace adv {
// fp32 scalar formulas, one per API (the doc page each follows is named at the API below).
inline float f_sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }
inline float f_tanh(float x) {
    if (std::isnan(x)) return x;
    float c = x > 10.0f ? 10.0f : x < -10.0f ? -10.0f : x;  // tanh is +-1 in fp32 beyond |x| = 9.01
    float e = std::exp(2.0f * c);
    return (e - 1.0f) / (e + 1.0f);
}
inline float f_silu(float x) { return x / (1.0f + std::exp(-x)); }
inline float f_gelu(float x) { return x / (1.0f + std::exp(-1.5957691216057308f * (x + 0.044715f * x * x * x))); }
inline float f_faster_gelu(float x) {  // x / (1 + exp(-1.702|x|)) * exp(0.851 (x - |x|))
    float a = std::fabs(x);
    return x / (1.0f + std::exp(-1.702f * a)) * std::exp(0.851f * (x - a));
}
inline float f_faster_gelu_v2(float x) {  // x * (sgn(x) * [-0.1444 (clip(|0.7071x|, max 1.769) - 1.769)^2 + 0.5] + 0.5)
    float s = (x + 1e-12f) / std::fabs(x + 1e-12f);
    float c = std::fabs(0.7071f * x);
    if (c > 1.769f) c = 1.769f;
    float d = c - 1.769f;
    return x * (s * (-0.1444f * d * d + 0.5f) + 0.5f);
}
inline float f_sign(float x) { return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : 0.0f; }  // NaN -> 0 (Sign.md example)
inline float f_frac(float x) { return std::isinf(x) ? 0.0f : x - std::trunc(x); }  // Frac(-258.41888) = -0.41888428
inline float f_round(float x) { return std::round(x); }                              // Round(3.5) = 4, ties away
inline float f_rint(float x) { return std::nearbyint(x); }                           // ties to even
// Digamma via recurrence to x >= 6 and the asymptotic series; reflection for x < 0.
inline float f_digamma(float xf) {
    double x = xf, r = 0;
    if (std::isnan(x)) return xf;
    if (x <= 0 && std::floor(x) == x) return NAN;
    if (x < 0) return (float)(f_digamma((float)(1 - x)) - M_PI / std::tan(M_PI * x));
    while (x < 6) { r -= 1 / x; x += 1; }
    double f = 1 / (x * x);
    return (float)(r + std::log(x) - 0.5 / x - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132)))));
}

// The four forms of a unary API (sharedTmpBuffer x calCount present/absent) share this body.
template <class T, class F>
inline void unary(const char* api, TmpKind kind, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                  const LocalTensor<uint8_t>* tmp, uint64_t count, std::initializer_list<const char*> steps,
                  const Loc& loc, F f) {
    T* d = (T*)dst.ptr_;
    const T* s = (const T*)src.ptr_;
    elementwise(api, kind, dst, tmp, count, sizeof(T), steps, loc,
                [&](uint64_t i) { stf(d, i, f(ldf(s, i))); }, src);
}
template <class T, class F>
inline void binary(const char* api, TmpKind kind, const LocalTensor<T>& dst, const LocalTensor<T>& a,
                   const LocalTensor<T>& b, const LocalTensor<uint8_t>* tmp, uint64_t count,
                   std::initializer_list<const char*> steps, const Loc& loc, F f) {
    T* d = (T*)dst.ptr_;
    const T* x = (const T*)a.ptr_;
    const T* y = (const T*)b.ptr_;
    elementwise(api, kind, dst, tmp, count, sizeof(T), steps, loc,
                [&](uint64_t i) { stf(d, i, f(ldf(x, i), ldf(y, i))); }, a, b);
}
template <class T, class F>
inline void scalar_op(const char* api, TmpKind kind, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<uint8_t>* tmp, uint64_t count, std::initializer_list<const char*> steps,
                      const Loc& loc, F f) {
    unary(api, kind, dst, src, tmp, count, steps, loc, f);
}
}  // namespace adv
}  // namespace ascendc_emu

// Unary API with the four documented forms; TP is the template parameter list after T (with defaults).
#define ASCENDC_EMU_ADV_UNARY(NAME, KIND, ASSERT_T, STEPS, FN, ...)                                             \
    template <typename T, bool isReuseSource = false __VA_ARGS__>                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                          \
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, EMU_LOC) {           \
        static_assert(ASSERT_T, #NAME ": unsupported data type (see the API's doc page)");                      \
        ::ascendc_emu::adv::unary(#NAME, ::ascendc_emu_adv::TmpKind::KIND, dstTensor, srcTensor,                \
                                  &sharedTmpBuffer, calCount, STEPS, loc, FN);                                  \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false __VA_ARGS__>                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                          \
                     const LocalTensor<uint8_t>& sharedTmpBuffer, EMU_LOC) {                                    \
        static_assert(ASSERT_T, #NAME ": unsupported data type (see the API's doc page)");                      \
        ::ascendc_emu::adv::unary(#NAME, ::ascendc_emu_adv::TmpKind::KIND, dstTensor, srcTensor,                \
                                  &sharedTmpBuffer, srcTensor.GetSize(), STEPS, loc, FN);                       \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false __VA_ARGS__>                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount, \
                     EMU_LOC) {                                                                                 \
        static_assert(ASSERT_T, #NAME ": unsupported data type (see the API's doc page)");                      \
        ::ascendc_emu::adv::unary(#NAME, ::ascendc_emu_adv::TmpKind::KIND, dstTensor, srcTensor, nullptr,       \
                                  calCount, STEPS, loc, FN);                                                    \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false __VA_ARGS__>                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, EMU_LOC) {               \
        static_assert(ASSERT_T, #NAME ": unsupported data type (see the API's doc page)");                      \
        ::ascendc_emu::adv::unary(#NAME, ::ascendc_emu_adv::TmpKind::KIND, dstTensor, srcTensor, nullptr,       \
                                  srcTensor.GetSize(), STEPS, loc, FN);                                         \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false __VA_ARGS__, ASCENDC_EMU_ADV_FNPTR_ENABLE>                 \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                          \
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, E...) {              \
        static_assert(ASSERT_T, #NAME ": unsupported data type (see the API's doc page)");                      \
        ::ascendc_emu::adv::unary(#NAME, ::ascendc_emu_adv::TmpKind::KIND, dstTensor, srcTensor,                \
                                  &sharedTmpBuffer, calCount, STEPS, ::ascendc_emu::adv::fnptr_loc(), FN);      \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false __VA_ARGS__, ASCENDC_EMU_ADV_FNPTR_ENABLE>                 \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount, \
                     E...) {                                                                                    \
        static_assert(ASSERT_T, #NAME ": unsupported data type (see the API's doc page)");                      \
        ::ascendc_emu::adv::unary(#NAME, ::ascendc_emu_adv::TmpKind::KIND, dstTensor, srcTensor, nullptr,       \
                                  calCount, STEPS, ::ascendc_emu::adv::fnptr_loc(), FN);                        \
    }


namespace AscendC {
using ascendc_emu::adv::unary;
// 激活函数/Sigmoid接口/Sigmoid.md: 1 / (1 + e^-x)
ASCENDC_EMU_ADV_UNARY(Sigmoid, Sigmoid, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Muls", "Exp", "Adds", "Reciprocal"),
                      ::ascendc_emu::adv::f_sigmoid)
// 数学计算/Tanh接口/Tanh.md: (e^2x - 1) / (e^2x + 1)
ASCENDC_EMU_ADV_UNARY(Tanh, Tanh, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Maxs", "Mins", "Muls", "Exp", "Adds", "Adds", "Div"),
                      ::ascendc_emu::adv::f_tanh, , const TanhConfig& config = DEFAULT_TANH_CONFIG)
// 数学计算/Log接口/Log-79.md: ln x, log2 x, log10 x (the ln forms take no sharedTmpBuffer in the docs; the
// emulator also accepts one)
ASCENDC_EMU_ADV_UNARY(Log, Log, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Ln"), [](float x) { return std::log(x); })
ASCENDC_EMU_ADV_UNARY(Log2, Log2, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Ln", "Muls"), [](float x) { return std::log2(x); })
ASCENDC_EMU_ADV_UNARY(Log10, Log10, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Ln", "Muls"),
                      [](float x) { return std::log10(x); })
// 数学计算/Sign接口/Sign.md: -1 / 0 / 1; NaN gives 0
ASCENDC_EMU_ADV_UNARY(Sign, Sign, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Compare", "Select", "Compare", "Select"),
                      ::ascendc_emu::adv::f_sign)
// 数学计算/{Sin,Cos,Tan,Asin,Acos,Atan,Sinh,Cosh,Asinh,Acosh,Atanh,Erf,Erfc}接口
ASCENDC_EMU_ADV_UNARY(Sin, Sin, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Muls", "Cast", "Sub", "Mul", "Mul", "Add", "Mul", "Add"),
                      [](float x) { return std::sin(x); }, , const SinConfig& config = defaultSinConfig)
ASCENDC_EMU_ADV_UNARY(Cos, Cos, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Muls", "Cast", "Sub", "Mul", "Mul", "Add", "Mul", "Add"),
                      [](float x) { return std::cos(x); }, , const CosConfig& config = defaultCosConfig)
ASCENDC_EMU_ADV_UNARY(Tan, Tan, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Muls", "Cast", "Sub", "Mul", "Mul", "Add", "Mul", "Add", "Div"),
                      [](float x) { return std::tan(x); })
ASCENDC_EMU_ADV_UNARY(Asin, Asin, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Abs", "Mul", "Sqrt", "Mul", "Add", "Mul", "Add", "Select"),
                      [](float x) { return std::asin(x); })
ASCENDC_EMU_ADV_UNARY(Acos, Acos, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Abs", "Mul", "Sqrt", "Mul", "Add", "Mul", "Add", "Select"),
                      [](float x) { return std::acos(x); })
ASCENDC_EMU_ADV_UNARY(Atan, Atan, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Abs", "Div", "Mul", "Add", "Mul", "Add", "Select"),
                      [](float x) { return std::atan(x); }, , const AtanConfig& config = defaultAtanConfig)
ASCENDC_EMU_ADV_UNARY(Sinh, Sinh, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Exp", "Reciprocal", "Sub", "Muls"),
                      [](float x) { return std::sinh(x); })
ASCENDC_EMU_ADV_UNARY(Cosh, Cosh, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Exp", "Reciprocal", "Add", "Muls"),
                      [](float x) { return std::cosh(x); })
ASCENDC_EMU_ADV_UNARY(Asinh, Asinh, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Abs", "Mul", "Adds", "Sqrt", "Add", "Ln", "Mul"),
                      [](float x) { return std::asinh(x); })
ASCENDC_EMU_ADV_UNARY(Acosh, Acosh, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Mul", "Adds", "Sqrt", "Add", "Ln"),
                      [](float x) { return std::acosh(x); })
ASCENDC_EMU_ADV_UNARY(Atanh, Atanh, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Adds", "Muls", "Adds", "Div", "Ln", "Muls"),
                      [](float x) { return std::atanh(x); })
ASCENDC_EMU_ADV_UNARY(Erf, Erf, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Maxs", "Mins", "Mul", "Muls", "Adds", "Mul", "Adds", "Div"),
                      [](float x) { return std::erf(x); }, , const ErfConfig& config = defaultErfConfig)
ASCENDC_EMU_ADV_UNARY(Erfc, Erfc, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Abs", "Mul", "Muls", "Exp", "Mul", "Adds", "Div", "Select"),
                      [](float x) { return std::erfc(x); })
// 数学计算/{Floor,Ceil,Round,Trunc,Frac}接口: rounding to an integral value kept in the float type
ASCENDC_EMU_ADV_UNARY(Floor, Floor, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Cast", "Cast"), [](float x) { return std::floor(x); })
ASCENDC_EMU_ADV_UNARY(Ceil, Ceil, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Cast", "Cast"), [](float x) { return std::ceil(x); })
// AscendC::Ceil(a, b) on two integers: the ceiling division an earlier SDK utility provided under this name (samples
// call AscendC::Ceil(bytes, 32)); not on the current pages.
template <typename T, typename U,
          typename std::enable_if<std::is_integral<T>::value && std::is_integral<U>::value, int>::type = 0>
constexpr auto Ceil(T a, U b) -> typename std::common_type<T, U>::type {
    using R = typename std::common_type<T, U>::type;
    return b == 0 ? (R)a : (R)(((R)a + (R)b - 1) / (R)b);
}
ASCENDC_EMU_ADV_UNARY(Round, Round, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Cast", "Cast"), ::ascendc_emu::adv::f_round)
ASCENDC_EMU_ADV_UNARY(Trunc, Trunc, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Cast", "Cast"), [](float x) { return std::trunc(x); })
ASCENDC_EMU_ADV_UNARY(Frac, Frac, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Cast", "Cast", "Sub"), ::ascendc_emu::adv::f_frac)
// 数学计算/{Lgamma,Digamma}接口
ASCENDC_EMU_ADV_UNARY(Lgamma, Lgamma, ASCENDC_EMU_HF,
                      ASCENDC_EMU_STEPS("Adds", "Ln", "Mul", "Adds", "Div", "Add", "Mul", "Add", "Ln", "Sub", "Select"),
                      [](float x) { return std::lgamma(x); })
ASCENDC_EMU_ADV_UNARY(Digamma, Digamma, ASCENDC_EMU_HF,
                      ASCENDC_EMU_STEPS("Adds", "Reciprocal", "Add", "Ln", "Mul", "Muls", "Adds", "Mul", "Sub", "Select"),
                      ::ascendc_emu::adv::f_digamma)

// 数学计算/Rint接口/Rint.md: nearest integer, ties to even (config first, T deduced).
template <const RintConfig& config = DEFAULT_RINT_CONFIG, typename T>
inline void Rint(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const uint32_t count, EMU_LOC) {
    static_assert(ASCENDC_EMU_HF, "Rint: half or float");
    unary("Rint", ascendc_emu_adv::TmpKind::Rint, dst, src, &sharedTmpBuffer, count, ASCENDC_EMU_STEPS("Cast", "Cast"), loc,
          ascendc_emu::adv::f_rint);
}
template <const RintConfig& config = DEFAULT_RINT_CONFIG, typename T>
inline void Rint(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, EMU_LOC) {
    static_assert(ASCENDC_EMU_HF, "Rint: half or float");
    unary("Rint", ascendc_emu_adv::TmpKind::Rint, dst, src, nullptr, count, ASCENDC_EMU_STEPS("Cast", "Cast"), loc,
          ascendc_emu::adv::f_rint);
}

// 数学计算/Exp接口/Exp-81.md: e^x; taylorExpandLevel selects the NPU's expansion (the emulator computes e^x in fp32).
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, EMU_LOC) {
    static_assert(ASCENDC_EMU_HF, "Exp (high-level): half or float");
    if (taylorExpandLevel == 0)
        unary("Exp", ascendc_emu_adv::TmpKind::Exp, dstLocal, srcLocal, &sharedTmpBuffer, calCount,
              ASCENDC_EMU_STEPS("Exp"), loc, [](float x) { return std::exp(x); });
    else
        unary("Exp", ascendc_emu_adv::TmpKind::Exp, dstLocal, srcLocal, &sharedTmpBuffer, calCount,
              ASCENDC_EMU_STEPS("Cast", "Sub", "Exp", "Mul", "Adds", "Mul", "Adds", "Mul"), loc,
              [](float x) { return std::exp(x); });
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t calCount, EMU_LOC) {
    static_assert(ASCENDC_EMU_HF, "Exp (high-level): half or float");
    unary("Exp", ascendc_emu_adv::TmpKind::Exp, dstLocal, srcLocal, nullptr, calCount,
          taylorExpandLevel == 0 ? ASCENDC_EMU_STEPS("Exp")
                                 : ASCENDC_EMU_STEPS("Cast", "Sub", "Exp", "Mul", "Adds", "Mul", "Adds", "Mul"),
          loc, [](float x) { return std::exp(x); });
}

// 激活函数/Silu接口/Silu.md: x / (1 + e^-x); 激活函数/Swish接口/Swish.md: x / (1 + e^(-beta x)).
template <typename T, bool isReuseSource = false>
inline void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize, EMU_LOC) {
    static_assert(ASCENDC_EMU_HF, "Silu: half or float");
    unary("Silu", ascendc_emu_adv::TmpKind::Silu, dstLocal, srcLocal, nullptr, dataSize,
          ASCENDC_EMU_STEPS("Muls", "Exp", "Adds", "Div"), loc, ascendc_emu::adv::f_silu);
}
template <typename T, bool isReuseSource = false>
inline void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t dataSize, EMU_LOC) {
    static_assert(ASCENDC_EMU_HF, "Silu: half or float");
    unary("Silu", ascendc_emu_adv::TmpKind::Silu, dstLocal, srcLocal, &sharedTmpBuffer, dataSize,
          ASCENDC_EMU_STEPS("Muls", "Exp", "Adds", "Div"), loc, ascendc_emu::adv::f_silu);
}
template <typename T, bool isReuseSource = false>
inline void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
                  const ascendc_emu::nd_t<T> scalarValue, EMU_LOC) {
    static_assert(ASCENDC_EMU_HF, "Swish: half or float");
    const float beta = (float)(T)scalarValue;
    unary("Swish", ascendc_emu_adv::TmpKind::Swish, dstLocal, srcLocal, nullptr, dataSize,
          ASCENDC_EMU_STEPS("Muls", "Exp", "Adds", "Div"), loc, [beta](float x) { return x / (1.0f + std::exp(-beta * x)); });
}

// 激活函数/Gelu接口/{Gelu,FasterGelu,FasterGeluV2}.md
#define ASCENDC_EMU_GELU(NAME, KIND, STEPS, FN)                                                                 \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                             \
    inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                            \
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize, EMU_LOC) {           \
        static_assert(ASCENDC_EMU_HF, #NAME ": half or float");                                                 \
        unary(#NAME, ascendc_emu_adv::TmpKind::KIND, dstLocal, srcLocal, &sharedTmpBuffer, dataSize, STEPS, loc, \
              FN);                                                                                              \
    }                                                                                                           \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                             \
    inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize,   \
                     EMU_LOC) {                                                                                 \
        static_assert(ASCENDC_EMU_HF, #NAME ": half or float");                                                 \
        unary(#NAME, ascendc_emu_adv::TmpKind::KIND, dstLocal, srcLocal, nullptr, dataSize, STEPS, loc, FN);    \
    }
ASCENDC_EMU_GELU(Gelu, Gelu, ASCENDC_EMU_STEPS("Mul", "Mul", "Muls", "Add", "Muls", "Exp", "Adds", "Div"),
                 ascendc_emu::adv::f_gelu)
ASCENDC_EMU_GELU(FasterGelu, FasterGelu, ASCENDC_EMU_STEPS("Abs", "Muls", "Exp", "Adds", "Sub", "Muls", "Exp", "Div", "Mul"),
                 ascendc_emu::adv::f_faster_gelu)
ASCENDC_EMU_GELU(FasterGeluV2, FasterGeluV2,
                 ASCENDC_EMU_STEPS("Adds", "Abs", "Div", "Muls", "Abs", "Mins", "Adds", "Mul", "Muls", "Adds", "Mul", "Adds", "Mul"),
                 ascendc_emu::adv::f_faster_gelu_v2)

// GLU variants: dst = src0 * act(src1). 激活函数/GeGLU接口/GeGLU.md (tanh-form GELU, a = -0.0713548162726,
// b = 22.363860002236), SwiGLU接口/SwiGLU.md (Swish with beta = scalarValue), ReGlu接口/ReGlu.md (Relu).
namespace detail_glu {
template <class T, class F>
inline void glu(const char* api, ascendc_emu_adv::TmpKind kind, const LocalTensor<T>& dst, const LocalTensor<T>& s0,
                const LocalTensor<T>& s1, const LocalTensor<uint8_t>* tmp, uint64_t n,
                std::initializer_list<const char*> steps, const ascendc_emu::Loc& loc, F f) {
    ascendc_emu::adv::binary(api, kind, dst, s0, s1, tmp, n, steps, loc, [&](float a, float b) { return a * f(b); });
}
inline float gelu_tanh(float x) { return 1.0f / (1.0f + std::exp(-0.0713548162726f * x * (22.363860002236f + x * x))); }
}  // namespace detail_glu
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, EMU_LOC) {
    static_assert(ASCENDC_EMU_HF, "GeGLU: half or float");
    detail_glu::glu("GeGLU", ascendc_emu_adv::TmpKind::GeGLU, dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer,
                    calCount, ASCENDC_EMU_STEPS("Mul", "Adds", "Mul", "Muls", "Exp", "Adds", "Div", "Mul"), loc,
                    detail_glu::gelu_tanh);
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, EMU_LOC) {
    GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, srcTensor0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  uint32_t calCount, EMU_LOC) {
    static_assert(ASCENDC_EMU_HF, "GeGLU: half or float");
    detail_glu::glu("GeGLU", ascendc_emu_adv::TmpKind::GeGLU, dstTensor, srcTensor0, srcTensor1, nullptr, calCount,
                    ASCENDC_EMU_STEPS("Mul", "Adds", "Mul", "Muls", "Exp", "Adds", "Div", "Mul"), loc,
                    detail_glu::gelu_tanh);
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  EMU_LOC) {
    GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, srcTensor0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
                   EMU_LOC) {
    static_assert(ascendc_emu::adv::is_float_like<T>::value, "SwiGLU: half, bfloat16_t or float");
    const float beta = scalarValue;
    detail_glu::glu("SwiGLU", ascendc_emu_adv::TmpKind::SwiGLU, dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer,
                    calCount, ASCENDC_EMU_STEPS("Muls", "Exp", "Adds", "Div", "Mul"), loc,
                    [beta](float x) { return x / (1.0f + std::exp(-beta * x)); });
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, const LocalTensor<uint8_t>& sharedTmpBuffer, EMU_LOC) {
    SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, sharedTmpBuffer, srcTensor0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, const uint32_t calCount, EMU_LOC) {
    static_assert(ascendc_emu::adv::is_float_like<T>::value, "SwiGLU: half, bfloat16_t or float");
    const float beta = scalarValue;
    detail_glu::glu("SwiGLU", ascendc_emu_adv::TmpKind::SwiGLU, dstTensor, srcTensor0, srcTensor1, nullptr, calCount,
                    ASCENDC_EMU_STEPS("Muls", "Exp", "Adds", "Div", "Mul"), loc,
                    [beta](float x) { return x / (1.0f + std::exp(-beta * x)); });
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, EMU_LOC) {
    SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, srcTensor0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, EMU_LOC) {
    static_assert(ascendc_emu::adv::is_float_like<T>::value, "ReGlu: half, bfloat16_t or float");
    detail_glu::glu("ReGlu", ascendc_emu_adv::TmpKind::ReGlu, dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer,
                    calCount, ASCENDC_EMU_STEPS("Maxs", "Mul"), loc, [](float x) { return x > 0.0f ? x : 0.0f; });
}
template <typename T, bool isReuseSource = false>
inline void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  const uint32_t calCount, EMU_LOC) {
    static_assert(ascendc_emu::adv::is_float_like<T>::value, "ReGlu: half, bfloat16_t or float");
    detail_glu::glu("ReGlu", ascendc_emu_adv::TmpKind::ReGlu, dstTensor, srcTensor0, srcTensor1, nullptr, calCount,
                    ASCENDC_EMU_STEPS("Maxs", "Mul"), loc, [](float x) { return x > 0.0f ? x : 0.0f; });
}

// 数学计算/Power接口/Power.md: tensor^tensor, tensor^scalar, scalar^tensor (each with and without tmp/count).
namespace detail_pow {
inline float pw(float a, float b) { return std::pow(a, b); }
// Integer Power (int32_t everywhere, the other 8/16/32-bit integers on Ascend 950; PowerConfig INTRINSIC: "fast
// power", square-and-multiply): products wrap as the integer multiply does; a negative exponent gives 1 / base^n
// truncated (0, except for bases 1 and -1).
template <class T> inline T ipow(T base, T exp) {
    if (std::is_signed<T>::value && (int64_t)exp < 0) {
        if (base == (T)1) return (T)1;
        if ((int64_t)base == -1) return ((int64_t)exp & 1) ? base : (T)1;
        return (T)0;
    }
    uint64_t b = (uint64_t)(int64_t)base, r = 1, e = (uint64_t)(int64_t)exp;
    for (; e; e >>= 1, b *= b)
        if (e & 1) r *= b;
    return (T)r;
}
template <class T> constexpr bool pow_type() {
    return ascendc_emu::adv::is_float_like<T>::value ||
           ascendc_emu::adv::one_of<T, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t>::value;
}
template <class T> inline bool pow_soc(const ascendc_emu::Loc& loc) {
    return ascendc_emu::adv::check_dtype_soc("Power", ascendc_emu::dtype_name<T>(), "Ascend 950",
                                              !std::is_integral<T>::value || std::is_same<T, int32_t>::value ||
                                                  ascendc_emu::adv::soc_is("Ascend950"),
                                              loc);
}
// F(i) -> T: the integer forms through the elementwise driver (no float round trip).
template <class T, class F, class... S>
inline void ints(const LocalTensor<T>& d, const LocalTensor<uint8_t>* tmp, uint64_t n, const ascendc_emu::Loc& loc,
                 F f, const LocalTensor<S>&... srcs) {
    T* out = (T*)d.ptr_;
    ascendc_emu::adv::elementwise("Power", ascendc_emu_adv::TmpKind::Power, d, tmp, n, sizeof(T),
                                  ASCENDC_EMU_STEPS("Mul", "Mul", "ShiftRight", "Select"), loc,
                                  [&](uint64_t i) { out[i] = f(i); }, srcs...);
}
template <class T>
inline void tt(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b,
               const LocalTensor<uint8_t>* tmp, uint64_t n, const ascendc_emu::Loc& loc) {
    static_assert(pow_type<T>(), "Power: half, bfloat16_t, float or an 8/16/32-bit integer type");
    if (!pow_soc<T>(loc)) return;
    if constexpr (std::is_integral<T>::value) {
        const T *x = (const T*)a.ptr_, *y = (const T*)b.ptr_;
        ints(d, tmp, n, loc, [&](uint64_t i) { return ipow<T>(x[i], y[i]); }, a, b);
    } else {
        ascendc_emu::adv::binary("Power", ascendc_emu_adv::TmpKind::Power, d, a, b, tmp, n,
                                 ASCENDC_EMU_STEPS("Abs", "Ln", "Mul", "Exp", "Cast", "Compare", "Select", "Select"),
                                 loc, pw);
    }
}
template <class T>
inline void ts(const LocalTensor<T>& d, const LocalTensor<T>& a, T s, const LocalTensor<uint8_t>* tmp, uint64_t n,
               const ascendc_emu::Loc& loc) {
    static_assert(pow_type<T>(), "Power: half, bfloat16_t, float or an 8/16/32-bit integer type");
    if (!pow_soc<T>(loc)) return;
    if constexpr (std::is_integral<T>::value) {
        const T* x = (const T*)a.ptr_;
        ints(d, tmp, n, loc, [&](uint64_t i) { return ipow<T>(x[i], s); }, a);
    } else {
        const float e = (float)s;
        unary("Power", ascendc_emu_adv::TmpKind::Power, d, a, tmp, n,
              ASCENDC_EMU_STEPS("Abs", "Ln", "Muls", "Exp", "Compare", "Select", "Select"), loc,
              [e](float x) { return std::pow(x, e); });
    }
}
template <class T>
inline void st(const LocalTensor<T>& d, T s, const LocalTensor<T>& b, const LocalTensor<uint8_t>* tmp, uint64_t n,
               const ascendc_emu::Loc& loc) {
    static_assert(pow_type<T>(), "Power: half, bfloat16_t, float or an 8/16/32-bit integer type");
    if (!pow_soc<T>(loc)) return;
    if constexpr (std::is_integral<T>::value) {
        const T* y = (const T*)b.ptr_;
        ints(d, tmp, n, loc, [&](uint64_t i) { return ipow<T>(s, y[i]); }, b);
    } else {
        const float base = (float)s;
        unary("Power", ascendc_emu_adv::TmpKind::Power, d, b, tmp, n,
              ASCENDC_EMU_STEPS("Muls", "Exp", "Cast", "Compare", "Select", "Select"), loc,
              [base](float y) { return std::pow(base, y); });
    }
}
}  // namespace detail_pow
#define ASCENDC_EMU_POW_T template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
ASCENDC_EMU_POW_T inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                                    const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                    uint32_t calCount, EMU_LOC) {
    detail_pow::tt(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount, loc);
}
ASCENDC_EMU_POW_T inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                                    const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                    EMU_LOC) {
    detail_pow::tt(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, src0Tensor.GetSize(), loc);
}
ASCENDC_EMU_POW_T inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                                    const LocalTensor<T>& src1Tensor, uint32_t calCount, EMU_LOC) {
    detail_pow::tt(dstTensor, src0Tensor, src1Tensor, nullptr, calCount, loc);
}
ASCENDC_EMU_POW_T inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                                    const LocalTensor<T>& src1Tensor, EMU_LOC) {
    detail_pow::tt(dstTensor, src0Tensor, src1Tensor, nullptr, src0Tensor.GetSize(), loc);
}
ASCENDC_EMU_POW_T inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                                    const ascendc_emu::nd_t<T>& src1Scalar, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                    uint32_t calCount, EMU_LOC) {
    detail_pow::ts<T>(dstTensor, src0Tensor, (T)src1Scalar, &sharedTmpBuffer, calCount, loc);
}
ASCENDC_EMU_POW_T inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                                    const ascendc_emu::nd_t<T>& src1Scalar, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                    EMU_LOC) {
    detail_pow::ts<T>(dstTensor, src0Tensor, (T)src1Scalar, &sharedTmpBuffer, src0Tensor.GetSize(), loc);
}
ASCENDC_EMU_POW_T inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                                    const ascendc_emu::nd_t<T>& src1Scalar, uint32_t calCount, EMU_LOC) {
    detail_pow::ts<T>(dstTensor, src0Tensor, (T)src1Scalar, nullptr, calCount, loc);
}
ASCENDC_EMU_POW_T inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                                    const ascendc_emu::nd_t<T>& src1Scalar, EMU_LOC) {
    detail_pow::ts<T>(dstTensor, src0Tensor, (T)src1Scalar, nullptr, src0Tensor.GetSize(), loc);
}
ASCENDC_EMU_POW_T inline void Power(const LocalTensor<T>& dstTensor, const ascendc_emu::nd_t<T>& src0Scalar,
                                    const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                    uint32_t calCount, EMU_LOC) {
    detail_pow::st<T>(dstTensor, (T)src0Scalar, src1Tensor, &sharedTmpBuffer, calCount, loc);
}
ASCENDC_EMU_POW_T inline void Power(const LocalTensor<T>& dstTensor, const ascendc_emu::nd_t<T>& src0Scalar,
                                    const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                    EMU_LOC) {
    detail_pow::st<T>(dstTensor, (T)src0Scalar, src1Tensor, &sharedTmpBuffer, src1Tensor.GetSize(), loc);
}
ASCENDC_EMU_POW_T inline void Power(const LocalTensor<T>& dstTensor, const ascendc_emu::nd_t<T>& src0Scalar,
                                    const LocalTensor<T>& src1Tensor, uint32_t calCount, EMU_LOC) {
    detail_pow::st<T>(dstTensor, (T)src0Scalar, src1Tensor, nullptr, calCount, loc);
}
ASCENDC_EMU_POW_T inline void Power(const LocalTensor<T>& dstTensor, const ascendc_emu::nd_t<T>& src0Scalar,
                                    const LocalTensor<T>& src1Tensor, EMU_LOC) {
    detail_pow::st<T>(dstTensor, (T)src0Scalar, src1Tensor, nullptr, src1Tensor.GetSize(), loc);
}
#undef ASCENDC_EMU_POW_T

// Binary float APIs with the four forms: 数学计算/Fmod接口/Fmod.md (C fmod), Hypot接口/Hypot.md.
#define ASCENDC_EMU_ADV_BINARY(NAME, KIND, ASSERT_T, STEPS, FN, ...)                                            \
    template <typename T, bool isReuseSource = false __VA_ARGS__>                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,                         \
                     const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,             \
                     const uint32_t calCount, EMU_LOC) {                                                        \
        static_assert(ASSERT_T, #NAME ": unsupported data type (see the API's doc page)");                      \
        ::ascendc_emu::adv::binary(#NAME, ::ascendc_emu_adv::TmpKind::KIND, dstTensor, src0Tensor, src1Tensor,  \
                                   &sharedTmpBuffer, calCount, STEPS, loc, FN);                                 \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false __VA_ARGS__>                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,                         \
                     const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer, EMU_LOC) {  \
        static_assert(ASSERT_T, #NAME ": unsupported data type (see the API's doc page)");                      \
        ::ascendc_emu::adv::binary(#NAME, ::ascendc_emu_adv::TmpKind::KIND, dstTensor, src0Tensor, src1Tensor,  \
                                   &sharedTmpBuffer, src0Tensor.GetSize(), STEPS, loc, FN);                     \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false __VA_ARGS__>                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,                         \
                     const LocalTensor<T>& src1Tensor, const uint32_t calCount, EMU_LOC) {                      \
        static_assert(ASSERT_T, #NAME ": unsupported data type (see the API's doc page)");                      \
        ::ascendc_emu::adv::binary(#NAME, ::ascendc_emu_adv::TmpKind::KIND, dstTensor, src0Tensor, src1Tensor,  \
                                   nullptr, calCount, STEPS, loc, FN);                                          \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false __VA_ARGS__>                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,                         \
                     const LocalTensor<T>& src1Tensor, EMU_LOC) {                                               \
        static_assert(ASSERT_T, #NAME ": unsupported data type (see the API's doc page)");                      \
        ::ascendc_emu::adv::binary(#NAME, ::ascendc_emu_adv::TmpKind::KIND, dstTensor, src0Tensor, src1Tensor,  \
                                   nullptr, src0Tensor.GetSize(), STEPS, loc, FN);                              \
    }
ASCENDC_EMU_ADV_BINARY(Fmod, Fmod, ASCENDC_EMU_HF, ASCENDC_EMU_STEPS("Div", "Cast", "Mul", "Sub", "Compare", "Select"),
                       [](float a, float b) { return std::fmod(a, b); }, , const FmodConfig& config = DEFAULT_FMOD_CONFIG)
ASCENDC_EMU_ADV_BINARY(Hypot, Hypot, ascendc_emu::adv::is_float_like<T>::value,
                       ASCENDC_EMU_STEPS("Abs", "Abs", "Max", "Min", "Div", "Mul", "Adds", "Sqrt", "Mul"),
                       [](float a, float b) { return std::hypot(a, b); })

// 数学计算/Xor接口/Xor-82.md: bitwise xor of int16_t/uint16_t.
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, EMU_LOC) {
    static_assert(ascendc_emu::adv::one_of<T, int16_t, uint16_t>::value, "Xor: int16_t or uint16_t");
    T* d = (T*)dstTensor.ptr_;
    const T* a = (const T*)src0Tensor.ptr_;
    const T* b = (const T*)src1Tensor.ptr_;
    ascendc_emu::adv::elementwise("Xor", ascendc_emu_adv::TmpKind::Xor, dstTensor, &sharedTmpBuffer, calCount, sizeof(T),
                                  ASCENDC_EMU_STEPS("Or", "And", "Not", "And"), loc,
                                  [&](uint64_t i) { d[i] = (T)(a[i] ^ b[i]); }, src0Tensor, src1Tensor);
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                const LocalTensor<uint8_t>& sharedTmpBuffer, EMU_LOC) {
    Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                const uint32_t calCount, EMU_LOC) {
    static_assert(ascendc_emu::adv::one_of<T, int16_t, uint16_t>::value, "Xor: int16_t or uint16_t");
    T* d = (T*)dstTensor.ptr_;
    const T* a = (const T*)src0Tensor.ptr_;
    const T* b = (const T*)src1Tensor.ptr_;
    ascendc_emu::adv::elementwise("Xor", ascendc_emu_adv::TmpKind::Xor, dstTensor, nullptr, calCount, sizeof(T),
                                  ASCENDC_EMU_STEPS("Or", "And", "Not", "And"), loc,
                                  [&](uint64_t i) { d[i] = (T)(a[i] ^ b[i]); }, src0Tensor, src1Tensor);
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                EMU_LOC) {
    Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize(), loc);
}

// 数学计算/Axpy接口/Axpy-80.md: dst += scalar * src (src half with dst float allowed); always takes sharedTmpBuffer.
template <typename T, typename U, bool isReuseSource = false>
inline void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor, const U scalarValue,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, EMU_LOC) {
    static_assert(ASCENDC_EMU_HF && ascendc_emu::adv::is_f16_or_f32<U>::value, "Axpy: half or float");
    T* d = (T*)dstTensor.ptr_;
    const U* s = (const U*)srcTensor.ptr_;
    const float a = (float)scalarValue;
    ascendc_emu::adv::elementwise("Axpy", ascendc_emu_adv::TmpKind::Axpy, dstTensor, &sharedTmpBuffer, calCount, sizeof(U),
                                  ASCENDC_EMU_STEPS("Muls", "Add"), loc,
                                  [&](uint64_t i) { d[i] = (T)((float)d[i] + (float)s[i] * a); }, srcTensor, dstTensor);
}

// 数学计算/Clamp接口/{ClampMax,ClampMin}.md: values above (below) the scalar become the scalar.
#define ASCENDC_EMU_CLAMP1(NAME, EXPR)                                                                          \
    template <typename T, bool isReuseSource = false>                                                           \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                          \
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const ascendc_emu::nd_t<T> scalar,            \
                     const uint32_t calCount, EMU_LOC) {                                                        \
        static_assert(ASCENDC_EMU_HF, #NAME ": half or float");                                                 \
        const float s = (float)scalar;                                                                          \
        unary(#NAME, ascendc_emu_adv::TmpKind::Clamp, dstTensor, srcTensor, &sharedTmpBuffer, calCount,         \
              ASCENDC_EMU_STEPS("CompareScalar", "Select"), loc, [s](float x) { return EXPR; });                \
    }                                                                                                           \
    template <typename T, bool isReuseSource = false>                                                           \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                          \
                     const ascendc_emu::nd_t<T> scalar, const uint32_t calCount, EMU_LOC) {                     \
        static_assert(ASCENDC_EMU_HF, #NAME ": half or float");                                                 \
        const float s = (float)scalar;                                                                          \
        unary(#NAME, ascendc_emu_adv::TmpKind::Clamp, dstTensor, srcTensor, nullptr, calCount,                  \
              ASCENDC_EMU_STEPS("CompareScalar", "Select"), loc, [s](float x) { return EXPR; });                \
    }
ASCENDC_EMU_CLAMP1(ClampMax, x > s ? s : x)
ASCENDC_EMU_CLAMP1(ClampMin, x < s ? s : x)

// 数学计算/IsFinite接口/IsFinite.md, IsInf接口/IsInf.md, IsNan接口/IsNan.md: 1 / 0 in dst's type (bool: true/false).
namespace detail_class {
template <class D, class S, class P>
inline void classify(const char* api, ascendc_emu_adv::TmpKind kind, const LocalTensor<D>& dst,
                     const LocalTensor<S>& src, const LocalTensor<uint8_t>* tmp, uint64_t n,
                     const ascendc_emu::Loc& loc, P pred) {
    static_assert(ascendc_emu::adv::is_float_like<S>::value, "IsFinite/IsInf/IsNan: the source is a float type");
    static_assert(ascendc_emu::adv::one_of<D, bool, half, float, bfloat16_t>::value,
                  "IsFinite/IsInf/IsNan: the result is bool, half, bfloat16_t or float");
    D* d = (D*)dst.ptr_;
    const S* s = (const S*)src.ptr_;
    ascendc_emu::adv::elementwise(api, kind, dst, tmp, n, sizeof(S), ASCENDC_EMU_STEPS("Compare", "Select"), loc,
                                  [&](uint64_t i) { d[i] = (D)(pred((float)s[i]) ? 1 : 0); }, src);
}
}  // namespace detail_class
// The three are Ascend 950 APIs only (each page's 产品支持情况: A2/A3 不支持): declared for arch 3510 only, as the
// device headers of other architectures do not declare them, so a kernel's own IsFinite class stays unambiguous.
#if __NPU_ARCH__ == 3510
template <typename T, typename U>
inline void IsFinite(const LocalTensor<U>& dst, const LocalTensor<T>& src, uint32_t calCount, EMU_LOC) {
    detail_class::classify("IsFinite", ascendc_emu_adv::TmpKind::IsInf, dst, src, nullptr, calCount, loc,
                           [](float x) { return std::isfinite(x); });
}
template <const IsInfConfig& config = DEFAULT_IS_INF_CONFIG, typename T, typename U>
inline void IsInf(const LocalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                  const uint32_t count, EMU_LOC) {
    detail_class::classify("IsInf", ascendc_emu_adv::TmpKind::IsInf, dst, src, &sharedTmpBuffer, count, loc,
                           [](float x) { return std::isinf(x); });
}
template <const IsInfConfig& config = DEFAULT_IS_INF_CONFIG, typename T, typename U>
inline void IsInf(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count, EMU_LOC) {
    detail_class::classify("IsInf", ascendc_emu_adv::TmpKind::IsInf, dst, src, nullptr, count, loc,
                           [](float x) { return std::isinf(x); });
}
template <const IsNanConfig& config = DEFAULT_IS_NAN_CONFIG, typename T, typename U>
inline void IsNan(const LocalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                  const uint32_t count, EMU_LOC) {
    detail_class::classify("IsNan", ascendc_emu_adv::TmpKind::IsNan, dst, src, &sharedTmpBuffer, count, loc,
                           [](float x) { return std::isnan(x); });
}
template <const IsNanConfig& config = DEFAULT_IS_NAN_CONFIG, typename T, typename U>
inline void IsNan(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count, EMU_LOC) {
    detail_class::classify("IsNan", ascendc_emu_adv::TmpKind::IsNan, dst, src, nullptr, count, loc,
                           [](float x) { return std::isnan(x); });
}
#endif  // __NPU_ARCH__ == 3510

// 数学计算/Fma接口/Fma.md: dst = src0 * src1 + src2 (one rounding of the fp32 result).
template <const FmaConfig& config = DEFAULT_FMA_CONFIG, typename T>
inline void Fma(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                const LocalTensor<T>& src2, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count,
                EMU_LOC) {
    static_assert(ASCENDC_EMU_HF, "Fma: half or float");
    T* d = (T*)dst.ptr_;
    const T *a = (const T*)src0.ptr_, *b = (const T*)src1.ptr_, *c = (const T*)src2.ptr_;
    ascendc_emu::adv::elementwise("Fma", ascendc_emu_adv::TmpKind::Fma, dst, &sharedTmpBuffer, count, sizeof(T),
                                  ASCENDC_EMU_STEPS("FusedMulAdd"), loc,
                                  [&](uint64_t i) { d[i] = (T)std::fma((float)a[i], (float)b[i], (float)c[i]); },
                                  src0, src1, src2);
}
template <const FmaConfig& config = DEFAULT_FMA_CONFIG, typename T>
inline void Fma(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                const LocalTensor<T>& src2, const uint32_t count, EMU_LOC) {
    static_assert(ASCENDC_EMU_HF, "Fma: half or float");
    T* d = (T*)dst.ptr_;
    const T *a = (const T*)src0.ptr_, *b = (const T*)src1.ptr_, *c = (const T*)src2.ptr_;
    ascendc_emu::adv::elementwise("Fma", ascendc_emu_adv::TmpKind::Fma, dst, nullptr, count, sizeof(T),
                                  ASCENDC_EMU_STEPS("FusedMulAdd"), loc,
                                  [&](uint64_t i) { d[i] = (T)std::fma((float)a[i], (float)b[i], (float)c[i]); },
                                  src0, src1, src2);
}

// 数学计算/SinCos接口/SinCos.md: dst0 = sin(src), dst1 = cos(src).
template <const SinCosConfig& config = DEFAULT_SINCOS_CONFIG, typename T>
inline void SinCos(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count, EMU_LOC) {
    Sin<T>(dst0, src, sharedTmpBuffer, count, loc);
    Cos<T>(dst1, src, sharedTmpBuffer, count, loc);
}
template <const SinCosConfig& config = DEFAULT_SINCOS_CONFIG, typename T>
inline void SinCos(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src,
                   const uint32_t count, EMU_LOC) {
    Sin<T>(dst0, src, count, loc);
    Cos<T>(dst1, src, count, loc);
}

// 数学计算/Clamp接口/Clamp.md: min/max each a tensor or a scalar (Ascend950 register API; emulated the same way).
namespace detail_clamp {
template <class T, class V> inline float at(const V& v, uint64_t) { return (float)(T)v; }
template <class T, class V> inline float at(const LocalTensor<V>& v, uint64_t i) { return (float)((const V*)v.ptr_)[i]; }
template <class V> inline void check(const LocalTensor<V>& v, uint64_t n, const ascendc_emu::Loc& loc) {
    v.emu_check(0, n, false, ascendc_emu::P_V, "Clamp", loc);
}
template <class V> inline void check(const V&, uint64_t, const ascendc_emu::Loc&) {}
}  // namespace detail_clamp
template <const ClampConfig& config = DEFAULT_CLAMP_CONFIG, typename T, typename U, typename S>
inline void Clamp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& min, const S& max,
                  const uint32_t count, EMU_LOC) {
    T* d = (T*)dst.ptr_;
    const T* s = (const T*)src.ptr_;
    detail_clamp::check(min, count, loc);
    detail_clamp::check(max, count, loc);
    ascendc_emu::adv::elementwise("Clamp", ascendc_emu_adv::TmpKind::Clamp, dst, nullptr, count, sizeof(T),
                                  ASCENDC_EMU_STEPS("Max", "Min"), loc, [&](uint64_t i) {
                                      float x = (float)s[i], lo = detail_clamp::at<T>(min, i),
                                            hi = detail_clamp::at<T>(max, i);
                                      x = x < lo ? lo : x;
                                      d[i] = (T)(x > hi ? hi : x);
                                  }, src);
}

// 数学计算/Where接口/Where.md: dst = condition ? src0 : src1, each source a tensor or a scalar.
namespace detail_where {
template <class T, class V> inline T at(const V& v, uint64_t) { return (T)v; }
template <class T, class V> inline T at(const LocalTensor<V>& v, uint64_t i) { return ((const V*)v.ptr_)[i]; }
}  // namespace detail_where
template <typename T, typename U, typename S, typename V>
inline void Where(const LocalTensor<T>& dst, const U& src0, const S& src1, const LocalTensor<V>& condition,
                  const uint32_t count, EMU_LOC) {
    T* d = (T*)dst.ptr_;
    const V* c = (const V*)condition.ptr_;
    detail_clamp::check(src0, count, loc);
    detail_clamp::check(src1, count, loc);
    ascendc_emu::adv::elementwise("Where", ascendc_emu_adv::TmpKind::Where, dst, nullptr, count, sizeof(T),
                                  ASCENDC_EMU_STEPS("Select"), loc, [&](uint64_t i) {
                                      d[i] = c[i] ? detail_where::at<T>(src0, i) : detail_where::at<T>(src1, i);
                                  }, condition);
}

// 数学计算/Logical*接口, Bitwise*接口 (Ascend950 register APIs): results 1/0 (bool) and integer bit operations.
#define ASCENDC_EMU_LOGIC2(NAME, CFG, DEF, EXPR)                                                                \
    template <const CFG& config = DEF, typename T, typename U>                                                  \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,         \
                     const uint32_t count, EMU_LOC) {                                                           \
        T* d = (T*)dst.ptr_;                                                                                    \
        const U *a = (const U*)src0.ptr_, *b = (const U*)src1.ptr_;                                             \
        ascendc_emu::adv::elementwise(#NAME, ascendc_emu_adv::TmpKind::Logical, dst, nullptr, count, sizeof(U), \
                                      ASCENDC_EMU_STEPS("Compare", "Compare", "Select"), loc, [&](uint64_t i) { \
                                          bool x = (float)a[i] != 0.0f, y = (float)b[i] != 0.0f;                \
                                          d[i] = (T)(EXPR);                                                     \
                                      }, src0, src1);                                                           \
    }
ASCENDC_EMU_LOGIC2(LogicalAnd, LogicalAndConfig, DEFAULT_LOGICAL_AND_CONFIG, x && y)
ASCENDC_EMU_LOGIC2(LogicalOr, LogicalOrConfig, DEFAULT_LOGICAL_OR_CONFIG, x || y)
ASCENDC_EMU_LOGIC2(LogicalXor, LogicalXorConfig, DEFAULT_LOGICAL_XOR_CONFIG, x != y)
template <const LogicalNotConfig& config = DEFAULT_LOGICAL_NOT_CONFIG, typename T, typename U>
inline void LogicalNot(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count, EMU_LOC) {
    T* d = (T*)dst.ptr_;
    const U* a = (const U*)src.ptr_;
    ascendc_emu::adv::elementwise("LogicalNot", ascendc_emu_adv::TmpKind::Logical, dst, nullptr, count, sizeof(U),
                                  ASCENDC_EMU_STEPS("Compare", "Select"), loc,
                                  [&](uint64_t i) { d[i] = (T)((float)a[i] == 0.0f); }, src);
}
#define ASCENDC_EMU_LOGIC_S(NAME, CFG, DEF, OP)                                                                 \
    template <const CFG& config = DEF, typename T, typename U, typename S>                                      \
    inline void NAME(const LocalTensor<T>& dst, const U& src0, const S& src1, const uint32_t count, EMU_LOC) {  \
        T* d = (T*)dst.ptr_;                                                                                    \
        detail_clamp::check(src0, count, loc);                                                                  \
        detail_clamp::check(src1, count, loc);                                                                  \
        ascendc_emu::adv::elementwise(#NAME, ascendc_emu_adv::TmpKind::Logical, dst, nullptr, count, sizeof(T), \
                                      ASCENDC_EMU_STEPS("Compare", "Compare", "Select"), loc, [&](uint64_t i) { \
                                          bool x = detail_clamp::at<float>(src0, i) != 0.0f;                    \
                                          bool y = detail_clamp::at<float>(src1, i) != 0.0f;                    \
                                          d[i] = (T)(x OP y);                                                   \
                                      });                                                                       \
    }
ASCENDC_EMU_LOGIC_S(LogicalAnds, LogicalAndsConfig, DEFAULT_LOGICAL_ANDS_CONFIG, &&)
ASCENDC_EMU_LOGIC_S(LogicalOrs, LogicalOrsConfig, DEFAULT_LOGICAL_ORS_CONFIG, ||)
#define ASCENDC_EMU_BITWISE2(NAME, CFG, DEF, OP)                                                                \
    template <const CFG& config = DEF, typename T>                                                              \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,         \
                     const uint32_t count, EMU_LOC) {                                                           \
        static_assert(std::is_integral<T>::value, #NAME ": integer types only");                                \
        T* d = (T*)dst.ptr_;                                                                                    \
        const T *a = (const T*)src0.ptr_, *b = (const T*)src1.ptr_;                                             \
        ascendc_emu::adv::elementwise(#NAME, ascendc_emu_adv::TmpKind::Bitwise, dst, nullptr, count, sizeof(T), \
                                      ASCENDC_EMU_STEPS(#OP), loc, [&](uint64_t i) { d[i] = (T)(a[i] OP b[i]); }, \
                                      src0, src1);                                                              \
    }
ASCENDC_EMU_BITWISE2(BitwiseAnd, BitwiseAndConfig, DEFAULT_BITWISE_AND_CONFIG, &)
ASCENDC_EMU_BITWISE2(BitwiseOr, BitwiseOrConfig, DEFAULT_BITWISE_OR_CONFIG, |)
ASCENDC_EMU_BITWISE2(BitwiseXor, BitwiseXorConfig, DEFAULT_BITWISE_XOR_CONFIG, ^)
template <const BitwiseNotConfig& config = DEFAULT_BITWISE_NOT_CONFIG, typename T>
inline void BitwiseNot(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, EMU_LOC) {
    static_assert(std::is_integral<T>::value, "BitwiseNot: integer types only");
    T* d = (T*)dst.ptr_;
    const T* a = (const T*)src.ptr_;
    ascendc_emu::adv::elementwise("BitwiseNot", ascendc_emu_adv::TmpKind::Bitwise, dst, nullptr, count, sizeof(T),
                                  ASCENDC_EMU_STEPS("Not"), loc, [&](uint64_t i) { d[i] = (T)~a[i]; }, src);
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_ADV_MATH_H_
