// Clean-room 16-bit float types for the AscendC CPU emulator.
// half = IEEE binary16, bfloat16_t = upper half of binary32. Conversions round to nearest, ties to even,
// done in one step from double so that int32 -> half never double-rounds.
#ifndef ASCENDC_EMU_ASCENDC_EMU_FP16_H_
#define ASCENDC_EMU_ASCENDC_EMU_FP16_H_
#include <cstdint>
#include <cstring>
#include <cmath>
#include <type_traits>
#include <limits>

namespace ascendc_emu {

// Round modes shared with AscendC::RoundMode (same order of meaning).
enum class RM : int { RINT, FLOOR, CEIL, ROUND, TRUNC, ODD };

// Encode a finite/inf/nan double into a small binary float format with M mantissa bits and E exponent bits.
// Returns the bit pattern. Overflow: RINT/ROUND -> inf; directed modes that round toward zero -> max finite.
inline uint32_t encode_float_bits(double x, int M, int E, RM mode) {
    const uint32_t sign = std::signbit(x) ? (1u << (M + E)) : 0u;
    const uint32_t expMask = ((1u << E) - 1u) << M;
    if (std::isnan(x)) return sign | expMask | (1u << (M - 1));
    double a = std::fabs(x);
    if (std::isinf(x)) return sign | expMask;
    if (a == 0.0) return sign;
    const int bias = (1 << (E - 1)) - 1;
    const int emin = 1 - bias, emax = bias;
    int e2;
    std::frexp(a, &e2);
    int exp = e2 - 1;                 // exponent of the leading bit
    if (exp < emin) exp = emin;       // subnormal range: fixed quantum
    double q = std::ldexp(a, M - exp);  // significand scaled to an integer grid (exact)
    const bool neg = sign != 0;
    double r;
    switch (mode) {
        case RM::RINT: r = std::nearbyint(q); break;  // default FP env: ties to even
        case RM::FLOOR: r = neg ? std::ceil(q) : std::floor(q); break;   // on magnitude
        case RM::CEIL: r = neg ? std::floor(q) : std::ceil(q); break;
        case RM::ROUND: r = std::round(q); break;      // ties away from zero
        case RM::TRUNC: r = std::trunc(q); break;
        case RM::ODD: {
            r = std::trunc(q);
            if (r != q && std::fmod(r, 2.0) == 0.0) r += 1.0;
            break;
        }
        default: r = std::nearbyint(q);
    }
    const double two_m1 = std::ldexp(1.0, M + 1), two_m = std::ldexp(1.0, M);
    if (r >= two_m1) { r *= 0.5; exp++; }
    const bool towardZero = mode == RM::TRUNC || mode == RM::ODD || (mode == RM::FLOOR && !neg) || (mode == RM::CEIL && neg);
    if (exp > emax) {
        if (towardZero) return sign | (expMask - (1u << M)) | ((1u << M) - 1u);
        return sign | expMask;
    }
    uint32_t ri = (uint32_t)r;
    if (r < two_m) return sign | ri;  // subnormal (or zero)
    return sign | ((uint32_t)(exp + bias) << M) | (ri - (uint32_t)two_m);
}

inline float half_bits_to_float(uint16_t h) {
    uint32_t sign = (h >> 15) & 1u, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    float v;
    if (exp == 0) v = std::ldexp((float)man, -24);
    else if (exp == 31) v = man ? NAN : INFINITY;
    else v = std::ldexp((float)(man | 0x400u), (int)exp - 25);
    return sign ? -v : v;
}
inline float bf16_bits_to_float(uint16_t b) {
    uint32_t u = (uint32_t)b << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
inline uint16_t float_to_half_bits(double x, RM m = RM::RINT) { return (uint16_t)encode_float_bits(x, 10, 5, m); }
inline uint16_t float_to_bf16_bits(double x, RM m = RM::RINT) { return (uint16_t)encode_float_bits(x, 7, 8, m); }
inline float double_to_float(double x, RM m = RM::RINT) {
    if (m == RM::RINT) return (float)x;
    uint32_t u = encode_float_bits(x, 23, 8, m);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

}  // namespace ascendc_emu

// Global-namespace types, as the bisheng compiler provides them.
struct half {
    uint16_t bits_;
    half() = default;
    template <class U, class = typename std::enable_if<std::is_arithmetic<U>::value>::type>
    constexpr half(U v) : bits_(ascendc_emu::float_to_half_bits((double)v)) {}
    operator float() const { return ascendc_emu::half_bits_to_float(bits_); }
    static half from_bits(uint16_t b) { half h; h.bits_ = b; return h; }
    half& operator+=(float o) { *this = half((float)*this + o); return *this; }
    half& operator-=(float o) { *this = half((float)*this - o); return *this; }
    half& operator*=(float o) { *this = half((float)*this * o); return *this; }
    half& operator/=(float o) { *this = half((float)*this / o); return *this; }
};
struct bfloat16_t {
    uint16_t bits_;
    bfloat16_t() = default;
    template <class U, class = typename std::enable_if<std::is_arithmetic<U>::value>::type>
    constexpr bfloat16_t(U v) : bits_(ascendc_emu::float_to_bf16_bits((double)v)) {}
    bfloat16_t(half h) : bits_(ascendc_emu::float_to_bf16_bits((float)h)) {}
    operator float() const { return ascendc_emu::bf16_bits_to_float(bits_); }
    static bfloat16_t from_bits(uint16_t b) { bfloat16_t h; h.bits_ = b; return h; }
    bfloat16_t& operator+=(float o) { *this = bfloat16_t((float)*this + o); return *this; }
    bfloat16_t& operator-=(float o) { *this = bfloat16_t((float)*this - o); return *this; }
    bfloat16_t& operator*=(float o) { *this = bfloat16_t((float)*this * o); return *this; }
    bfloat16_t& operator/=(float o) { *this = bfloat16_t((float)*this / o); return *this; }
};
static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2, "16-bit float layout");

namespace ascendc_emu {
template <class T> struct is_f16 : std::false_type {};
template <> struct is_f16<half> : std::true_type {};
template <> struct is_f16<bfloat16_t> : std::true_type {};
// Arithmetic type used to compute one element: fp32 for 16-bit floats (round once per op), else T itself.
template <class T> struct calc { using type = T; };
template <> struct calc<half> { using type = float; };
template <> struct calc<bfloat16_t> { using type = float; };
template <class T> using calc_t = typename calc<T>::type;

template <class T> constexpr const char* dtype_name() {
    return std::is_same<T, half>::value ? "half" : std::is_same<T, bfloat16_t>::value ? "bfloat16"
         : std::is_same<T, float>::value ? "float" : std::is_same<T, double>::value ? "double"
         : std::is_same<T, int8_t>::value ? "int8" : std::is_same<T, uint8_t>::value ? "uint8"
         : std::is_same<T, int16_t>::value ? "int16" : std::is_same<T, uint16_t>::value ? "uint16"
         : std::is_same<T, int32_t>::value ? "int32" : std::is_same<T, uint32_t>::value ? "uint32"
         : std::is_same<T, int64_t>::value ? "int64" : std::is_same<T, uint64_t>::value ? "uint64"
         : std::is_same<T, bool>::value ? "bool" : "other";
}
}  // namespace ascendc_emu
#endif  // ASCENDC_EMU_ASCENDC_EMU_FP16_H_
