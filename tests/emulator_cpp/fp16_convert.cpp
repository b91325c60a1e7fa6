// Checks the fast 16-bit float conversions of fp16.h against the general, libm-based encoder they replace on the
// hot path (encode_float_bits with RM::RINT) and against the defining formula of binary16 -> binary32.
// Prints "ok <cases>" and exits 0, or names the first difference and exits 1.
#include <cstdio>
#include <random>
#include "ascendc_emu/fp16.h"

using namespace ascendc_emu;

// a kernel's half constants are constant expressions
static_assert(half_bits_constexpr(0.5) == 0x3800 && half_bits_constexpr(65519.0) == 0x7bff, "constexpr half");
static_assert(half_bits_constexpr(65520.0) == 0x7c00 && half_bits_constexpr(-3.0) == 0xc200, "constexpr half");
static_assert(half_bits_constexpr(5.960464477539063e-08) == 1 && half_bits_constexpr(2.9802322387695312e-08) == 0,
              "constexpr half subnormals");
constexpr half kQuarter = 0.25f;  // half's constructor in a constant expression (cann-ops' logical_not)
static_assert(kQuarter.bits_ == 0x3400, "constexpr half constructor");

static float half_ref(uint16_t h) {  // the definition: (-1)^s * 2^(e-15) * 1.m, subnormals 2^-14 * 0.m
    uint32_t sign = (h >> 15) & 1u, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    float v;
    if (exp == 0) v = std::ldexp((float)man, -24);
    else if (exp == 31) v = man ? NAN : INFINITY;
    else v = std::ldexp((float)(man | 0x400u), (int)exp - 25);
    return sign ? -v : v;
}

static int check_float(float f, unsigned long long* n) {
    (*n)++;
    uint32_t a = float_to_half_rne(f), b = encode_rne_bits((double)f, 10, 5);
    if (a != b) { printf("float %.9g -> half: float path 0x%x, double path 0x%x\n", (double)f, a, b); return 1; }
    return 0;
}

static int check(double x, unsigned long long* n) {
    (*n)++;
    if ((double)(float)x == x && check_float((float)x, n)) return 1;
    uint32_t a = encode_rne_bits(x, 10, 5), b = encode_float_bits(x, 10, 5, RM::RINT);
    if (a != b) { printf("half %.17g: fast 0x%x, general 0x%x\n", x, a, b); return 1; }
    if (x == x && x != 0 && (a = half_bits_constexpr(x)) != b) {  // the constant-expression path (-0.0 gives +0)
        printf("half %.17g: constexpr 0x%x, general 0x%x\n", x, a, b);
        return 1;
    }
    a = encode_rne_bits(x, 7, 8), b = encode_float_bits(x, 7, 8, RM::RINT);
    if (a != b) { printf("bf16 %.17g: fast 0x%x, general 0x%x\n", x, a, b); return 1; }
    return 0;
}

int main() {
    unsigned long long n = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        float a = half_bits_to_float((uint16_t)h), b = half_ref((uint16_t)h);
        uint32_t ua, ub;
        memcpy(&ua, &a, 4);
        memcpy(&ub, &b, 4);
        n++;
        if (ua != ub) { printf("half 0x%x -> float: fast 0x%x, reference 0x%x\n", h, ua, ub); return 1; }
        // the half itself, the midpoints to both neighbours (exact ties) and a hair either side
        double v = b;
        if (check(v, &n)) return 1;
        if (std::isfinite(v)) {
            double up = (double)half_ref((uint16_t)(h + 1)), mid = (v + up) / 2;
            if (std::isfinite(up) && (h & 0x7fffu) != 0x7bffu && (h & 0x7fffu) != 0x7fffu) {
                if (check(mid, &n) || check(std::nextafter(mid, 0.0), &n) || check(std::nextafter(mid, 1e300), &n)) return 1;
                if (check(-mid, &n)) return 1;
            }
        }
    }
    // float32 bit patterns with a stride (every exponent, many mantissas), and their bf16 ties
    for (uint64_t u = 0; u <= 0xffffffffull; u += 4093) {
        uint32_t w = (uint32_t)u;
        float f;
        memcpy(&f, &w, 4);
        if (check((double)f, &n)) return 1;
        uint32_t tie = (w & 0xffff0000u) | 0x8000u;
        memcpy(&f, &tie, 4);
        if (check((double)f, &n)) return 1;
    }
    // every seventh float around the half range (subnormal halves up to overflow), both signs
    for (uint32_t w = 0x32800000u; w <= 0x47800100u; w += 7) {
        float f;
        memcpy(&f, &w, 4);
        if (check_float(f, &n) || check_float(-f, &n)) return 1;
    }
    // doubles: the overflow edges, tiny values, and random bit patterns
    const double edges[] = {65504.0, 65519.99999999999, 65520.0, 65520.00000000001, 3.3895313892515355e38,
                            3.3961775292304e38, 5.960464477539063e-08, 2.9802322387695312e-08, 2.98023223876953e-08,
                            1e-300, -1e-320, 0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 1e308};
    for (double x : edges)
        if (check(x, &n)) return 1;
    std::mt19937_64 rng(7);
    for (int i = 0; i < 3000000; i++) {
        uint64_t u = rng();
        double x;
        memcpy(&x, &u, 8);
        if (check(x, &n)) return 1;
        // doubles near the 16-bit range
        u = (u & 0x800fffffffffffffull) | ((uint64_t)(1023 - 30 + (int)(rng() % 60)) << 52);
        memcpy(&x, &u, 8);
        if (check(x, &n)) return 1;
    }
    // the conversion operators use the fast path
    for (uint32_t h = 0; h < 65536; h++) {
        half x = half::from_bits((uint16_t)h);
        half y = (float)x;
        if (!std::isnan((float)x) && y.bits_ != h) { printf("half round trip 0x%x -> 0x%x\n", h, y.bits_); return 1; }
    }
    printf("ok %llu\n", n);
    return 0;
}
