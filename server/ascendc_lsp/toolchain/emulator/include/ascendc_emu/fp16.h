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

// Round to nearest, ties to even (RM::RINT) from the bits of the double: the same single rounding as
// encode_float_bits(x, M, E, RM::RINT) without its libm calls (every 16-bit float result of every vector op goes
// through here). Formats with E <= 8: a double below 2^-1022 rounds to zero in all of them.
inline uint32_t encode_rne_bits(double x, int M, int E) {
    uint64_t u;
    std::memcpy(&u, &x, sizeof u);
    const uint32_t sign = (uint32_t)(u >> 63) << (M + E);
    const uint32_t expMask = ((1u << E) - 1u) << M;
    const uint64_t ax = u & 0x7fffffffffffffffull;
    if (ax >= 0x7ff0000000000000ull) return ax > 0x7ff0000000000000ull ? (sign | expMask | (1u << (M - 1))) : (sign | expMask);
    const int biased = (int)(ax >> 52);
    if (biased == 0) return sign;  // zero or a double subnormal
    const int bias = (1 << (E - 1)) - 1, emin = 1 - bias, emax = bias;
    const uint64_t sig = (ax & 0x000fffffffffffffull) | 0x0010000000000000ull;  // 53 significant bits
    const int e = biased - 1023;                                                  // exponent of the leading bit
    int exp = e < emin ? emin : e;
    const int shift = 52 - M + (exp - e);  // bits of sig below the target's last place
    uint64_t r;
    if (shift >= 64) {
        r = 0;  // below half of the smallest subnormal
    } else {
        r = sig >> shift;
        const uint64_t rem = sig & ((1ull << shift) - 1), half = 1ull << (shift - 1);
        if (rem > half || (rem == half && (r & 1))) r++;
    }
    if (r >= (2ull << M)) { r >>= 1; exp++; }
    if (exp > emax) return sign | expMask;
    if (r < (1ull << M)) return sign | (uint32_t)r;  // subnormal (or zero)
    return sign | ((uint32_t)(exp + bias) << M) | (uint32_t)(r - (1ull << M));
}

// The same rounding from a float (the result type of every 16-bit vector op), with float arithmetic: a normal
// result rounds by adding half an ulp of the target (minus one, plus the kept lsb: ties to even) to the rebiased
// bits; a subnormal one by one float addition that lines the 10 kept bits up at the bottom of the significand
// (the FPU rounds to nearest even). Same bits as encode_rne_bits((double)f, 10, 5) (tests/emulator_cpp).
inline uint16_t float_to_half_rne(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    const uint32_t sign = (u >> 16) & 0x8000u;
    u &= 0x7fffffffu;
    if (u >= 0x47800000u) return (uint16_t)(sign | (u > 0x7f800000u ? 0x7e00u : 0x7c00u));  // >= 2^16, inf, NaN
    if (u < 0x38800000u) {  // below 2^-14: a subnormal half (or zero)
        const uint32_t magic_bits = 0x3f000000u;  // 0.5f: its ulp is 2^-24, the half subnormal quantum
        float m, a;
        std::memcpy(&m, &magic_bits, sizeof m);
        std::memcpy(&a, &u, sizeof a);
        a += m;
        uint32_t r;
        std::memcpy(&r, &a, sizeof r);
        return (uint16_t)(sign | (r - magic_bits));
    }
    const uint32_t lsb = (u >> 13) & 1u;
    u += 0xc8000fffu + lsb;  // rebias the exponent (127 -> 15) and round; a carry may reach the exponent (or inf)
    return (uint16_t)(sign | (u >> 13));
}

// The same round-to-nearest-even conversion as a constant expression (a kernel's `constexpr half k = 0.5f;`): by
// exact double arithmetic (scalings by 2, the 10-bit fraction); -0.0 gives +0. Only for constant evaluation: the
// runtime keeps the bit-level paths above.
constexpr uint32_t round_half_even_constexpr(double q) {
    uint64_t f = (uint64_t)q;
    const double d = q - (double)f;
    return (uint32_t)(d > 0.5 || (d == 0.5 && (f & 1u)) ? f + 1 : f);
}
constexpr uint16_t half_bits_constexpr(double x) {
    if (x != x) return 0x7e00u;
    uint16_t sign = 0;
    if (x < 0) {
        sign = 0x8000u;
        x = -x;
    }
    if (x <= 2.98023223876953125e-08) return sign;  // at most half the smallest subnormal (2^-25, a tie): zero
    if (x >= 65520.0) return (uint16_t)(sign | 0x7c00u);  // halfway past 65504 rounds to even: inf
    int e = 0;
    double m = x;
    while (m >= 2.0) { m /= 2; e++; }
    while (m < 1.0) { m *= 2; e--; }
    if (e < -14) return (uint16_t)(sign | round_half_even_constexpr(x * 16777216.0));  // subnormal: units of 2^-24
    uint32_t frac = round_half_even_constexpr((m - 1.0) * 1024.0);
    if (frac == 1024u) { frac = 0; e++; }
    return (uint16_t)(sign | ((uint32_t)(e + 15) << 10) | frac);
}

inline float half_bits_to_float(uint16_t h) {  // exact; NaN comes out as the canonical quiet NaN
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    uint32_t bits;
    if (exp == 31) {
        bits = sign | (man ? 0x7fc00000u : 0x7f800000u);
    } else if (exp) {
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    } else {
        float v = (float)man * 5.9604644775390625e-08f;  // man * 2^-24, exact
        std::memcpy(&bits, &v, sizeof bits);
        bits |= sign;
    }
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}
inline float bf16_bits_to_float(uint16_t b) {
    uint32_t u = (uint32_t)b << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
inline uint16_t float_to_half_bits(double x, RM m = RM::RINT) {
    return (uint16_t)(m == RM::RINT ? encode_rne_bits(x, 10, 5) : encode_float_bits(x, 10, 5, m));
}
inline uint16_t float_to_bf16_bits(double x, RM m = RM::RINT) {
    return (uint16_t)(m == RM::RINT ? encode_rne_bits(x, 7, 8) : encode_float_bits(x, 7, 8, m));
}
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
    constexpr half(U v)
        : bits_(__builtin_is_constant_evaluated() ? ascendc_emu::half_bits_constexpr((double)v)
                : std::is_same<U, float>::value   ? ascendc_emu::float_to_half_rne((float)v)
                                                  : ascendc_emu::float_to_half_bits((double)v)) {}
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
