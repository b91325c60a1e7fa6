// SIMT short vector types (docs/zh/api/SIMT-API/SIMT编程简介/扩展语法/内置数据类型-139.md, 短向量类型): packed
// x/y(/z/w) components, naturally aligned to their whole size (表2), the make_<type> constructors, and
// component-wise arithmetic as the devkit samples use it (`z2[i] = x2[i] + y2[i]` on half2).
#ifndef ASCENDC_EMU_ASCENDC_EMU_SIMT_VECTOR_H_
#define ASCENDC_EMU_ASCENDC_EMU_SIMT_VECTOR_H_
#include <cstdint>
#include "fp16.h"

namespace ascendc_emu {
namespace simt {
template <class T>
struct alignas(2 * sizeof(T)) Vec2 {
    T x, y;
};
template <class T>
struct alignas(4 * sizeof(T)) Vec4 {
    T x, y, z, w;
};
#define ASCENDC_EMU_VEC_OP(op)                                                                                   \
    template <class T>                                                                                           \
    inline Vec2<T> operator op(const Vec2<T>& a, const Vec2<T>& b) {                                             \
        return Vec2<T>{(T)(a.x op b.x), (T)(a.y op b.y)};                                                        \
    }                                                                                                            \
    template <class T>                                                                                           \
    inline Vec4<T> operator op(const Vec4<T>& a, const Vec4<T>& b) {                                             \
        return Vec4<T>{(T)(a.x op b.x), (T)(a.y op b.y), (T)(a.z op b.z), (T)(a.w op b.w)};                      \
    }                                                                                                            \
    template <class T>                                                                                           \
    inline Vec2<T>& operator op##=(Vec2<T>& a, const Vec2<T>& b) { return a = a op b; }                          \
    template <class T>                                                                                           \
    inline Vec4<T>& operator op##=(Vec4<T>& a, const Vec4<T>& b) { return a = a op b; }
ASCENDC_EMU_VEC_OP(+)
ASCENDC_EMU_VEC_OP(-)
ASCENDC_EMU_VEC_OP(*)
ASCENDC_EMU_VEC_OP(/)
#undef ASCENDC_EMU_VEC_OP
template <class T>
inline bool operator==(const Vec2<T>& a, const Vec2<T>& b) { return a.x == b.x && a.y == b.y; }
template <class T>
inline bool operator==(const Vec4<T>& a, const Vec4<T>& b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
}  // namespace simt
}  // namespace ascendc_emu

#define ASCENDC_EMU_VEC_TYPES(T, n2, n4)                                                                  \
    using n2 = ascendc_emu::simt::Vec2<T>;                                                                \
    using n4 = ascendc_emu::simt::Vec4<T>;                                                                \
    inline n2 make_##n2(T x, T y) { return n2{x, y}; }                                                    \
    inline n4 make_##n4(T x, T y, T z, T w) { return n4{x, y, z, w}; }
ASCENDC_EMU_VEC_TYPES(unsigned char, uchar2, uchar4)
ASCENDC_EMU_VEC_TYPES(signed char, char2, char4)
ASCENDC_EMU_VEC_TYPES(unsigned short, ushort2, ushort4)
ASCENDC_EMU_VEC_TYPES(short, short2, short4)
ASCENDC_EMU_VEC_TYPES(unsigned int, uint2, uint4)
ASCENDC_EMU_VEC_TYPES(int, int2, int4)
ASCENDC_EMU_VEC_TYPES(unsigned long long, ulonglong2, ulonglong4)
ASCENDC_EMU_VEC_TYPES(long long, longlong2, longlong4)
ASCENDC_EMU_VEC_TYPES(unsigned long, ulong2, ulong4)
ASCENDC_EMU_VEC_TYPES(long, long2, long4)
ASCENDC_EMU_VEC_TYPES(float, float2, float4)
#undef ASCENDC_EMU_VEC_TYPES
using half2 = ascendc_emu::simt::Vec2<half>;
using bfloat16x2_t = ascendc_emu::simt::Vec2<bfloat16_t>;
inline half2 make_half2(half x, half y) { return half2{x, y}; }
inline bfloat16x2_t make_bfloat16x2(bfloat16_t x, bfloat16_t y) { return bfloat16x2_t{x, y}; }
#endif  // ASCENDC_EMU_ASCENDC_EMU_SIMT_VECTOR_H_
