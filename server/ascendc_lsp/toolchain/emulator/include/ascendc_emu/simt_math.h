// SIMT integer math intrinsics and built-in constants, from docs/zh/api/SIMT-API/数学函数/整型数学库函数/ (__popc,
// __clz, __ffs, __brev, __byte_perm, __mulhi/__umulhi/__mul64hi/__umul64hi, __mul24/__umul24, __sad/__usad,
// __hadd/__rhadd/__uhadd/__urhadd, umin/umax, llmin/llmax/ullmin/ullmax) and SIMT编程简介/扩展语法/内置宏.md
// (ASCRT_* float constants of math_constants.h).
#ifndef ASCENDC_EMU_ASCENDC_EMU_SIMT_MATH_H_
#define ASCENDC_EMU_ASCENDC_EMU_SIMT_MATH_H_
#include <cstdint>

inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popc(unsigned long x) { return __builtin_popcountl(x); }
inline int __popc(unsigned long long x) { return __builtin_popcountll(x); }
// __clz.md: leading zeros from the most significant bit; all bits for 0.
inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
inline int __clz(long x) { return x ? __builtin_clzl((unsigned long)x) : (int)(8 * sizeof(long)); }
inline int __clz(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
// __ffs.md: 1-based position of the least significant set bit, 0 when none.
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffs(long x) { return __builtin_ffsl(x); }
inline int __ffs(long long x) { return __builtin_ffsll(x); }
template <class U>
inline U ascendc_emu_brev(U x) {
    U r = 0;
    for (unsigned i = 0; i < 8 * sizeof(U); i++, x >>= 1) r = (U)((r << 1) | (x & 1));
    return r;
}
inline unsigned int __brev(unsigned int x) { return ascendc_emu_brev(x); }
inline unsigned long __brev(unsigned long x) { return ascendc_emu_brev(x); }
inline unsigned long long __brev(unsigned long long x) { return ascendc_emu_brev(x); }
// __byte_perm.md: bytes of (y << 32 | x) picked by the low 3 bits of each selector nibble, low to high.
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
    uint64_t v = ((uint64_t)y << 32) | x;
    unsigned int r = 0;
    for (int k = 0; k < 4; k++) r |= (unsigned int)((v >> (8 * ((s >> (4 * k)) & 7))) & 0xFF) << (8 * k);
    return r;
}
inline int __mulhi(int x, int y) { return (int)(((int64_t)x * y) >> 32); }
inline unsigned int __umulhi(unsigned int x, unsigned int y) { return (unsigned int)(((uint64_t)x * y) >> 32); }
inline long long __mul64hi(long long x, long long y) { return (long long)(((__int128)x * y) >> 64); }
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
    return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
inline long long __mul_i32toi64(int x, int y) { return (long long)x * y; }
// __mul24.md: the low 24 bits of each operand (sign-extended for the signed form), low 32 bits of the product.
inline int __mul24(int x, int y) {
    int64_t a = (int64_t)((int32_t)((uint32_t)x << 8) >> 8), b = (int64_t)((int32_t)((uint32_t)y << 8) >> 8);
    return (int)(uint32_t)(a * b);
}
inline unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xFFFFFFu) * (y & 0xFFFFFFu); }
inline unsigned int __sad(int x, int y, unsigned int z) {
    return (unsigned int)(x > y ? (int64_t)x - y : (int64_t)y - x) + z;
}
inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return (x > y ? x - y : y - x) + z; }
// __hadd / __rhadd: (x + y) >> 1 and (x + y + 1) >> 1 without overflow of the sum.
inline int __hadd(int x, int y) { return (int)(((int64_t)x + y) >> 1); }
inline int __rhadd(int x, int y) { return (int)(((int64_t)x + y + 1) >> 1); }
inline unsigned int __uhadd(unsigned int x, unsigned int y) { return (unsigned int)(((uint64_t)x + y) >> 1); }
inline unsigned int __urhadd(unsigned int x, unsigned int y) { return (unsigned int)(((uint64_t)x + y + 1) >> 1); }
inline unsigned int umin(const unsigned int x, const unsigned int y) { return x < y ? x : y; }
inline unsigned int umax(const unsigned int x, const unsigned int y) { return x > y ? x : y; }
inline long long llmin(const long long x, const long long y) { return x < y ? x : y; }
inline long long llmax(const long long x, const long long y) { return x > y ? x : y; }
inline unsigned long long ullmin(const unsigned long long x, const unsigned long long y) { return x < y ? x : y; }
inline unsigned long long ullmax(const unsigned long long x, const unsigned long long y) { return x > y ? x : y; }

#define ASCRT_INF_F __builtin_huge_valf()
#define ASCRT_NAN_F __builtin_nanf("")
#define ASCRT_MIN_DENORM_F 1.40129846e-45F
#define ASCRT_MAX_NORMAL_F 3.40282347e+38F
#define ASCRT_NEG_ZERO_F (-0.0F)
#define ASCRT_ZERO_F 0.0F
#define ASCRT_ONE_F 1.0F
#define ASCRT_SQRT_HALF_F 0.707106781F
#define ASCRT_SQRT_TWO_F 1.414213562F
#define ASCRT_THIRD_F 0.333333333F
#define ASCRT_PIO4_F 0.785398163F
#define ASCRT_PIO2_F 1.570796327F
#define ASCRT_3PIO4_F 2.356194490F
#define ASCRT_2_OVER_PI_F 0.636619772F
#define ASCRT_SQRT_2_OVER_PI_F 0.797884561F
#define ASCRT_PI_F 3.141592654F
#define ASCRT_L2E_F 1.442695041F
#define ASCRT_L2T_F 3.321928094F
#define ASCRT_LG2_F 0.301029996F
#define ASCRT_LGE_F 0.434294482F
#define ASCRT_LN2_F 0.693147181F
#define ASCRT_LNT_F 2.302585093F
#define ASCRT_LNPI_F 1.144729886F
#define ASCRT_TWO_TO_M126_F 1.175494351e-38F
#define ASCRT_TWO_TO_126_F 8.507059173e+37F
#define ASCRT_NORM_HUGE_F 3.402823466e+38F
#define ASCRT_TWO_TO_23_F 8388608.0F
#define ASCRT_TWO_TO_24_F 16777216.0F
#define ASCRT_TWO_TO_31_F 2147483648.0F
#define ASCRT_TWO_TO_32_F 4294967296.0F
#define ASCRT_REMQUO_BITS_F 3
#define ASCRT_REMQUO_MASK_F 7
#define ASCRT_TRIG_PLOSS_F 105615.0F
#define ASCRT_MIN_VAL_S (-2147483647 - 1)
#define ASCRT_MAX_VAL_S 2147483647
#endif  // ASCENDC_EMU_ASCENDC_EMU_SIMT_MATH_H_
