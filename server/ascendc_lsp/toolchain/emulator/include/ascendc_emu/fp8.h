// The 8-bit float element types of Ascend 950 (clean-room), as the bisheng compiler provides them at global scope:
// fp8_e4m3fn_t, fp8_e5m2_t, hifloat8_t and fp8_e8m0_t, one byte each, converted from and to float.
// Formats: docs/zh/api/SIMD-API/基础API/数据结构/内置数据类型.md (表5 ranges: e4m3fn +-448, e5m2 +-57344; 表6 the
// hifloat8 dot-field encodings). Conversions into them follow docs/zh/api/SIMD-API/基础API/数据结构/
// precision_conversion.md (fp8_e4m3fn_t / fp8_e5m2_t: CAST_RINT; hifloat8_t: CAST_ROUND, half away from zero) and
// Reg矢量计算/类型转换/Cast.md ("float转hifloat8_t转换规则"), in the default saturation mode whose boundary values are
// listed in docs/zh/api/附录/Reg矢量计算接口边界值汇总.md (Cast 表34): float -> e4m3: +-inf and overflow give +-448,
// NaN stays NaN; float -> e5m2: +-inf and overflow give +-57344, NaN gives 0. hifloat8 (no saturation column in the
// table): overflow and +-inf give +-2^15 (its largest finite value), NaN stays NaN (8'b10000000).
#ifndef ASCENDC_EMU_ASCENDC_EMU_FP8_H_
#define ASCENDC_EMU_ASCENDC_EMU_FP8_H_
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace ascendc_emu {
namespace fp8 {
// IEEE-like 8-bit format with `eb` exponent and `mb` mantissa bits, bias 2^(eb-1)-1, subnormals; round to nearest,
// ties to even, saturating at max_finite (the format's largest finite value); NaN gives nan_code.
inline uint8_t encode_ieee(double v, int eb, int mb, double max_finite, uint8_t nan_code) {
    if (std::isnan(v)) return nan_code;
    const uint8_t sign = std::signbit(v) ? 0x80 : 0;
    double a = std::fabs(v);
    const int bias = (1 << (eb - 1)) - 1, emin = 1 - bias;
    if (a == 0) return sign;
    int e;
    std::frexp(a, &e);
    e -= 1;  // a in [2^e, 2^(e+1))
    const int q = e < emin ? emin : e;
    double r = std::nearbyint(std::ldexp(a, mb - q));  // integer significand; nearbyint: ties to even
    double rv = std::ldexp(r, q - mb);
    if (std::isinf(a) || rv > max_finite) rv = max_finite;  // saturation mode
    if (rv < std::ldexp(1.0, emin)) {
        const uint32_t m = (uint32_t)std::ldexp(rv, mb - emin);
        return (uint8_t)(sign | m);
    }
    std::frexp(rv, &e);
    e -= 1;
    const uint32_t m = (uint32_t)(std::ldexp(rv, mb - e)) - (1u << mb);
    return (uint8_t)(sign | ((uint32_t)(e + bias) << mb) | m);
}
// `fn` (e4m3fn): no infinities, only S.1111.111 is NaN; otherwise the all-ones exponent is inf / NaN (IEEE).
inline double decode_ieee(uint8_t b, int eb, int mb, bool fn) {
    const int bias = (1 << (eb - 1)) - 1;
    const uint32_t E = (b >> mb) & ((1u << eb) - 1), M = b & ((1u << mb) - 1);
    const double s = (b & 0x80) ? -1.0 : 1.0;
    if (fn) {
        if (E == (1u << eb) - 1 && M == (1u << mb) - 1) return NAN;
    } else if (E == (1u << eb) - 1) {
        return M ? NAN : s * INFINITY;
    }
    if (E == 0) return s * std::ldexp((double)M, 1 - bias - mb);
    return s * std::ldexp((double)(M + (1u << mb)), (int)E - bias - mb);
}

// hifloat8: sign, a dot field D giving the exponent width, a sign-magnitude exponent with an implicit leading 1,
// and 3/3/3/2/1 mantissa bits for |Ev| = 0, 1, 2..3, 4..7, 8..15; D = 4'b0000 is the subnormal 2^(M-23), M in 1..7.
constexpr uint8_t HIF8_NAN = 0x80, HIF8_POS_INF = 0x6F, HIF8_NEG_INF = 0xEF, HIF8_MAX = 0x6E;  // 0x6E = 2^15
inline int hif8_mant_bits(int ev) {
    const int a = ev < 0 ? -ev : ev;
    return a <= 3 ? 3 : a <= 7 ? 2 : 1;
}
inline uint8_t hif8_pack(uint8_t sign, int ev, uint32_t m) {
    const int a = ev < 0 ? -ev : ev;
    const uint32_t es = ev < 0 ? 1u : 0u;
    if (a == 0) return (uint8_t)(sign | (0x1u << 3) | m);                                       // D = 0001
    if (a == 1) return (uint8_t)(sign | (0x1u << 4) | (es << 3) | m);                           // D = 001
    if (a <= 3) return (uint8_t)(sign | (0x1u << 5) | (es << 4) | ((uint32_t)(a - 2) << 3) | m);  // D = 01
    if (a <= 7) return (uint8_t)(sign | (0x2u << 5) | (es << 4) | ((uint32_t)(a - 4) << 2) | m);  // D = 10
    return (uint8_t)(sign | (0x3u << 5) | (es << 4) | ((uint32_t)(a - 8) << 1) | m);              // D = 11
}
// CAST_ROUND (half away from zero) as Cast.md's float -> hifloat8_t rule, then saturation.
inline uint8_t encode_hif8(double v) {
    if (std::isnan(v)) return HIF8_NAN;
    const uint8_t sign = std::signbit(v) ? 0x80 : 0;
    const double a = std::fabs(v);
    if (std::isinf(a)) return sign | HIF8_MAX;
    if (a == 0) return 0;  // -0 too: 8'b10000000 is NaN
    int ev;
    std::frexp(a, &ev);
    ev -= 1;
    if (ev > 15) return sign | HIF8_MAX;
    if (ev < -23) return 0;
    if (ev == -23) return sign | 0x01;  // [2^-23, 2^-22) rounds half away to the smallest subnormal 2^-22
    if (ev <= -16) {                      // subnormal 2^ev; the first fraction bit rounds it up to 2^(ev+1)
        const bool up = std::ldexp(a, -ev) >= 1.5;
        const int e2 = up ? ev + 1 : ev;
        if (e2 == -15) return hif8_pack(sign, -15, 0);
        return (uint8_t)(sign | (uint32_t)(e2 + 23));
    }
    const int mb = hif8_mant_bits(ev);
    double m = std::floor(std::ldexp(a, mb - ev) + 0.5) - std::ldexp(1.0, mb);  // half away from zero
    if (m >= std::ldexp(1.0, mb)) {
        ev += 1;
        m = 0;
    }
    if (ev > 15 || (ev == 15 && m >= 1)) return sign | HIF8_MAX;  // (15, 1) is the infinity code: saturate
    return hif8_pack(sign, ev, (uint32_t)m);
}
inline double decode_hif8(uint8_t b) {
    if (b == HIF8_NAN) return NAN;
    const double s = (b & 0x80) ? -1.0 : 1.0;
    if ((b & 0x7F) == HIF8_POS_INF) return s * INFINITY;
    const uint32_t u = b & 0x7F;
    int ev, mb;
    uint32_t m;
    if ((u >> 5) == 3 || (u >> 5) == 2 || (u >> 5) == 1) {  // D = 11, 10, 01
        const uint32_t d = u >> 5;
        const int eb = d == 3 ? 4 : d == 2 ? 3 : 2;
        mb = 5 - eb;
        const uint32_t e = (u >> mb) & ((1u << eb) - 1);
        const int mag = (int)((1u << (eb - 1)) | (e & ((1u << (eb - 1)) - 1)));
        ev = (e >> (eb - 1)) ? -mag : mag;
        m = u & ((1u << mb) - 1);
    } else if ((u >> 4) == 1) {  // D = 001
        ev = ((u >> 3) & 1) ? -1 : 1;
        mb = 3;
        m = u & 7;
    } else if ((u >> 3) == 1) {  // D = 0001
        ev = 0;
        mb = 3;
        m = u & 7;
    } else {  // D = 0000: subnormal 2^(M-23), M = 0 is zero
        m = u & 7;
        return m ? s * std::ldexp(1.0, (int)m - 23) : 0.0;
    }
    return s * std::ldexp(1.0 + std::ldexp((double)m, -mb), ev);
}
}  // namespace fp8
}  // namespace ascendc_emu

#ifndef ASCENDC_EMU_FP8_TYPES
#define ASCENDC_EMU_FP8_TYPES 1
#define ASCENDC_EMU_FP8_TYPE(NAME, ENCODE, DECODE)                                                        \
    struct NAME {                                                                                         \
        uint8_t bits_;                                                                                    \
        NAME() = default;                                                                                 \
        template <class U, class = typename std::enable_if<std::is_arithmetic<U>::value ||               \
                                                           std::is_class<U>::value>::type>               \
        NAME(U _v_) : bits_(ENCODE) {}                                                                    \
        operator float() const { return (float)DECODE; }                                                  \
        static NAME from_bits(uint8_t b) { NAME x; x.bits_ = b; return x; }                               \
    };
ASCENDC_EMU_FP8_TYPE(fp8_e4m3fn_t, ascendc_emu::fp8::encode_ieee((double)(float)_v_, 4, 3, 448.0, 0x7F),
                     ascendc_emu::fp8::decode_ieee(bits_, 4, 3, true))
ASCENDC_EMU_FP8_TYPE(fp8_e5m2_t, ascendc_emu::fp8::encode_ieee((double)(float)_v_, 5, 2, 57344.0, 0x00),
                     ascendc_emu::fp8::decode_ieee(bits_, 5, 2, false))
ASCENDC_EMU_FP8_TYPE(hifloat8_t, ascendc_emu::fp8::encode_hif8((double)(float)_v_), ascendc_emu::fp8::decode_hif8(bits_))
#undef ASCENDC_EMU_FP8_TYPE
// fp8_e8m0_t: the 8 exponent bits of a bfloat16 (内置数据类型.md: sign and mantissa dropped), 2^(E-127); used as
// the MX scale type. 0xFF is NaN. Conversion from a value takes the exponent of its bfloat16 (truncation).
struct fp8_e8m0_t {
    uint8_t bits_;
    fp8_e8m0_t() = default;
    template <class U, class = typename std::enable_if<std::is_arithmetic<U>::value || std::is_class<U>::value>::type>
    fp8_e8m0_t(U v) : bits_(encode((double)(float)v)) {}
    operator float() const { return bits_ == 0xFF ? NAN : std::ldexp(1.0f, (int)bits_ - 127); }
    static fp8_e8m0_t from_bits(uint8_t b) { fp8_e8m0_t x; x.bits_ = b; return x; }
    static uint8_t encode(double v) {
        if (std::isnan(v) || v <= 0) return v == 0 ? 0 : 0xFF;
        int e;
        std::frexp(v, &e);
        const int E = e - 1 + 127;
        return (uint8_t)(E < 0 ? 0 : E > 254 ? 254 : E);
    }
};
// fp4x2_e2m1_t / fp4x2_e1m2_t (内置数据类型.md 表5: two 4-bit floats, e2m1 within +-6, e1m2 within +-7 * 2^-2, packed
// into one byte): storage only. Kernels name them as element types of MX data that moves as bytes (LoadData,
// DataCopy); the page does not say which nibble holds the first value, so no value conversion is offered.
struct fp4x2_e2m1_t {
    uint8_t bits_;
};
struct fp4x2_e1m2_t {
    uint8_t bits_;
};
static_assert(sizeof(fp8_e4m3fn_t) == 1 && sizeof(fp8_e5m2_t) == 1 && sizeof(hifloat8_t) == 1 &&
                  sizeof(fp8_e8m0_t) == 1 && sizeof(fp4x2_e2m1_t) == 1 && sizeof(fp4x2_e1m2_t) == 1, "8-bit float layout");
#endif
#endif  // ASCENDC_EMU_ASCENDC_EMU_FP8_H_
