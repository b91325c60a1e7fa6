// Vector API (PIPE_V), clean-room from the documented semantics: count ("level 2") form and mask/repeat
// ("level 0") form. One repeat reads 8 data blocks of 32 B; block strides and repeat strides are in 32-byte
// units; the per-core mask register is either a 128-bit lane mask (normal mode) or an element count
// (counter mode). Each element is computed in fp32 for half/bfloat16 and rounded once (RNE).
#ifndef ASCENDC_EMU_ASCENDC_EMU_VECTOR_H_
#define ASCENDC_EMU_ASCENDC_EMU_VECTOR_H_
#include "data_copy.h"
#include "vector_dtypes.h"

namespace AscendC {
struct BinaryRepeatParams {
    uint32_t blockNumber = 8;
    uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
    uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false;
    BinaryRepeatParams() {}
    BinaryRepeatParams(uint8_t dB, uint8_t s0B, uint8_t s1B, uint8_t dR, uint8_t s0R, uint8_t s1R)
        : dstBlkStride(dB), src0BlkStride(s0B), src1BlkStride(s1B), dstRepStride(dR), src0RepStride(s0R),
          src1RepStride(s1R) {}
};
struct UnaryRepeatParams {
    uint32_t blockNumber = 8;
    uint16_t dstBlkStride = 1, srcBlkStride = 1;
    uint8_t dstRepStride = 8, srcRepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false, halfBlock = false;
    UnaryRepeatParams() {}
    UnaryRepeatParams(uint16_t dB, uint16_t sB, uint8_t dR, uint8_t sR)
        : dstBlkStride(dB), srcBlkStride(sB), dstRepStride(dR), srcRepStride(sR) {}
};
struct BrcbRepeatParams {
    uint16_t dstBlkStride = 1;
    uint16_t dstRepStride = 8;
    BrcbRepeatParams() {}
    BrcbRepeatParams(uint16_t dB, uint16_t dR) : dstBlkStride(dB), dstRepStride(dR) {}
};
// UNKNOWN: the Reg::CastTrait default (辅助数据类型/RoundMode.md), no rounding asked for (rounds like CAST_NONE).
enum class RoundMode : uint8_t { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD, UNKNOWN };
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint32_t ONE_BLK_SIZE = 32;
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr uint32_t DEFAULT_BLK_NUM = 8;
constexpr uint32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint32_t MAX_REPEAT_TIMES = 255;
}  // namespace AscendC

namespace ascendc_emu {
using AscendC::LocalTensor;

// Non-deduced parameter: the scalar converts to the tensor's element type (callers pass float for half).
template <class T> struct nd { using type = T; };
template <class T> using nd_t = typename nd<T>::type;
template <class T> inline calc_t<T> ld(const uint8_t* p) { T v; memcpy(&v, p, sizeof(T)); return (calc_t<T>)v; }
template <class T> inline void st(uint8_t* p, calc_t<T> v) { T t = (T)v; memcpy(p, &t, sizeof(T)); }

// ---- mask register
inline void set_mask_cont(int lanes, uint64_t n) {
    Block& b = blk();
    if (b.counter_mode) { b.mask_lo = n; b.mask_hi = 0; return; }
    if (n > (uint64_t)lanes) n = (uint64_t)lanes;
    b.mask_lo = n >= 64 ? ~0ull : ((1ull << n) - 1);
    b.mask_hi = n >= 128 ? ~0ull : n > 64 ? ((1ull << (n - 64)) - 1) : 0;
}
inline void restore_norm() {  // count-form APIs leave the mask register in normal mode, all lanes on
    Block& b = blk();
    b.counter_mode = false;
    b.mask_hi = b.mask_lo = ~0ull;
}
inline bool lane_on(int lane) {
    Block& b = blk();
    lane &= 127;
    return lane < 64 ? (b.mask_lo >> lane) & 1 : (b.mask_hi >> (lane - 64)) & 1;
}
// Validates and installs the mask argument of a level-0 call (isSetMask = true).
EMU_RT_FN void mask_arg_cont(int lanes, int64_t mask, const char* api, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    if (blk().counter_mode) { set_mask_cont(lanes, (uint64_t)mask); return; }
    if (mask > lanes || mask < 0)
        report_error("mask-range", "vector-param-invalid", P_V, api, loc,
                     "%s mask is %lld but one repeat of this data type has only %d lanes (256 B / sizeof(T)); the "
                     "valid range is 1 ~ %d", api, (long long)mask, lanes, lanes);
    else if (mask == 0)
        report_warning("mask-zero", "vector-param-invalid", P_V, api, loc,
                       "%s mask is 0: the instruction does nothing (some chips raise \"the MASK instruction is all 0\")",
                       api);
    set_mask_cont(lanes, mask < 0 ? 0 : (uint64_t)mask);
}
#else
;
#endif
EMU_RT_FN void mask_arg_bits(int lanes, const uint64_t* mask, const char* api, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    Block& b = blk();
    if (b.counter_mode) { b.mask_lo = mask[0]; b.mask_hi = 0; return; }
    if (mask[0] == 0 && mask[1] == 0)
        report_warning("mask-zero", "vector-param-invalid", P_V, api, loc,
                       "%s maskHigh and maskLow are both 0: the instruction does nothing", api);
    if (lanes <= 64 && mask[1] != 0)
        report_warning("mask-range", "vector-param-invalid", P_V, api, loc,
                       "%s maskHigh is 0x%llx but a repeat of this type has only %d lanes: maskHigh is ignored", api,
                       (unsigned long long)mask[1], lanes);
    b.mask_lo = mask[0];
    b.mask_hi = lanes <= 64 ? 0 : mask[1];
}
#else
;
#endif
EMU_RT_FN int check_repeat(int64_t repeat, const char* api, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    if (repeat > 255 || repeat < 0) {
        report_error("repeat-range", "vector-param-invalid", P_V, api, loc,
                     "%s repeatTime is %lld; its valid range is 0 ~ 255 (an 8-bit field: the hardware runs %lld repeats); "
                     "split the call or use the count form", api, (long long)repeat, (long long)(repeat & 255));
        return (int)(repeat & 255);
    }
    return (int)repeat;
}
#else
;
#endif

// Which lanes run in a level-0 call.
struct Plan {
    int reps = 0, lanes = 0, full_max = -1, last_max = -1;  // highest active lane in full / last repeat
    bool counter = false;
    uint64_t n = 0;
    uint64_t mask_lo = 0, mask_hi = 0;  // the lane mask (normal mode), read once per call
};
EMU_RT_FN Plan plan(int lanes, int repeat)
#if ASCENDC_EMU_RT_BODIES
{
    Block& b = blk();
    Plan p;
    p.lanes = lanes;
    if (b.counter_mode) {
        p.counter = true;
        p.n = b.mask_lo;
        p.reps = (int)((p.n + lanes - 1) / lanes);
        p.full_max = lanes - 1;
        p.last_max = p.n ? (int)((p.n - 1) % lanes) : -1;
    } else {
        p.reps = repeat;
        p.mask_lo = b.mask_lo;
        p.mask_hi = b.mask_hi;
        for (int l = lanes - 1; l >= 0; l--) if (lane_on(l)) { p.full_max = l; break; }
        p.last_max = p.full_max;
    }
    return p;
}
#else
;
#endif
inline bool active(const Plan& p, int r, int lane) {  // lane_on() of the mask the call started with
    if (p.counter) return (uint64_t)r * p.lanes + lane < p.n;
    lane &= 127;
    return lane < 64 ? (p.mask_lo >> lane) & 1 : (p.mask_hi >> (lane - 64)) & 1;
}
// Byte offset of (repeat r, lane) for an operand of element size sz with strides in 32-byte units.
inline uint64_t lane_off(int r, int lane, int sz, uint32_t blk, uint32_t rep) {
    int epb = 32 / sz;
    return (uint64_t)r * rep * 32 + (uint64_t)(lane / epb) * blk * 32 + (uint64_t)(lane % epb) * sz;
}
EMU_RT_FN uint64_t extent(const Plan& p, int sz, uint32_t blk, uint32_t rep)
#if ASCENDC_EMU_RT_BODIES
{
    if (p.reps <= 0 || p.full_max < 0) return 0;
    int epb = 32 / sz;
    auto top = [&](int lm) -> uint64_t {
        if (lm < 0) return 0;
        if (blk == 0) return (uint64_t)((lm < epb - 1 ? lm : epb - 1) + 1) * sz;
        return lane_off(0, lm, sz, blk, 0) + sz;
    };
    uint64_t a = p.reps > 1 ? (uint64_t)(p.reps - 2) * rep * 32 + top(p.full_max) : 0;
    uint64_t c = (uint64_t)(p.reps - 1) * rep * 32 + top(p.last_max);
    return a > c ? a : c;
}
#else
;
#endif

EMU_RT_FN void trace_vec(const char* api, const char* dtype, uint64_t elems, uint64_t repeats, const Loc& loc,
                      const char* extra_k = nullptr, long long extra_v = 0)
#if ASCENDC_EMU_RT_BODIES
{
    dtype_gate(api, dtype, loc);  // per-SoC element types (vector_dtypes.h)
    Ev ev;
    trace_begin(ev, P_V, api, loc);
    if (ev.on) {
        ev.j.s("dtype", dtype).i("elements", (long long)elems).i("repeats", (long long)repeats);
        if (extra_k) ev.j.i(extra_k, extra_v);
    }
    trace_end(ev);
}
#else
;
#endif

// Operand of a vector instruction: tensor + strides (32-byte units) for the level-0 form.
struct Opnd {
    uint8_t* base;
    int sz;
    uint32_t blk, rep;
};

// Level-0 driver: checks operands, then calls f(r, lane, ptrs...) for every active lane in documented order.
template <class F, class D, class... S>
inline void run0(const char* api, int lane_sz, int repeat, const Loc& loc, F f, const LocalTensor<D>& dst,
                 uint32_t dblk, uint32_t drep, const std::pair<const LocalTensor<S>*, std::pair<uint32_t, uint32_t>>&... srcs) {
    begin_epoch(P_V);
    Plan p = plan(256 / lane_sz, repeat);
    bool ok = true;
    uint64_t elems = 0;
    (void)std::initializer_list<int>{(ok = srcs.first->emu_check_bytes(0, extent(p, (int)sizeof(S), srcs.second.first,
                                                                                srcs.second.second),
                                                                         false, P_V, api, loc) && ok, 0)...};
    ok = dst.emu_check_bytes(0, extent(p, (int)sizeof(D), dblk, drep), true, P_V, api, loc) && ok;
    if (ok) {
        for (int r = 0; r < p.reps; r++)
            for (int l = 0; l < p.lanes; l++) {
                if (!active(p, r, l)) continue;
                elems++;
                f(dst.ptr_ + lane_off(r, l, (int)sizeof(D), dblk, drep),
                  (srcs.first->ptr_ + lane_off(r, l, (int)sizeof(S), srcs.second.first, srcs.second.second))...);
            }
    }
    trace_vec(api, dtype_name<D>(), elems, (uint64_t)p.reps, loc);
}
template <class S>
inline std::pair<const LocalTensor<S>*, std::pair<uint32_t, uint32_t>> src_(const LocalTensor<S>& t, uint32_t blk,
                                                                            uint32_t rep) {
    return {&t, {blk, rep}};
}

// Count-form driver: f(i) computes element i.
template <class F, class D, class... S>
inline void run2(const char* api, int64_t count, const Loc& loc, F f, const LocalTensor<D>& dst,
                 const LocalTensor<S>&... srcs) {
    begin_epoch(P_V);
    if (count < 0) {
        report_error("count-range", "vector-param-invalid", P_V, api, loc, "%s count is %lld (negative)", api,
                     (long long)count);
        count = 0;
    }
    bool ok = true;
    (void)std::initializer_list<int>{(ok = srcs.emu_check(0, (uint64_t)count, false, P_V, api, loc) && ok, 0)...};
    ok = dst.emu_check(0, (uint64_t)count, true, P_V, api, loc) && ok;
    if (ok)
        for (int64_t i = 0; i < count; i++) f(i);
    restore_norm();
    size_t wide = sizeof(D);
    (void)std::initializer_list<int>{(wide = sizeof(S) > wide ? sizeof(S) : wide, 0)...};
    trace_vec(api, dtype_name<D>(), (uint64_t)count, ((uint64_t)count * wide + 255) / 256, loc);
}

// ---- per-element operations (fp32 for 16-bit floats, native otherwise)
template <class T> inline calc_t<T> op_relu(calc_t<T> a) { return a > 0 ? a : calc_t<T>(0); }
template <class T> inline calc_t<T> vabs(calc_t<T> a) { return a < 0 ? -a : a; }
}  // namespace ascendc_emu

// -------------------------------------------------------------------------------------------- the API
// Each family is generated by a macro so the count form, the continuous-mask form and the bit-mask form stay
// in step. Template parameter isSetMask (level 0): false = use the mask register as set by SetVectorMask.
#define ASCENDC_EMU_BINARY(NAME, EXPR)                                                                          \
    template <typename T>                                                                                       \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,         \
                     const int32_t& count, EMU_LOC) {                                                           \
        using namespace ascendc_emu;                                                                            \
        T* d = (T*)dst.ptr_; const T* x = (const T*)src0.ptr_; const T* y = (const T*)src1.ptr_;                \
        run2(#NAME, count, loc, [&](int64_t i) { calc_t<T> a = (calc_t<T>)x[i], b = (calc_t<T>)y[i];            \
            d[i] = (T)(EXPR); }, dst, src0, src1);                                                              \
    }                                                                                                           \
    template <typename T, bool isSetMask = true, typename R = int64_t>                                          \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,         \
                     uint64_t mask, const R repeatTime, const BinaryRepeatParams& p, EMU_LOC) {                 \
        using namespace ascendc_emu;                                                                            \
        if (isSetMask) mask_arg_cont(256 / sizeof(T), (int64_t)mask, #NAME, loc);                               \
        int rep = check_repeat(repeatTime, #NAME, loc);                                                         \
        run0(#NAME, sizeof(T), rep, loc, [&](uint8_t* d, const uint8_t* x, const uint8_t* y) {                  \
            calc_t<T> a = ld<T>(x), b = ld<T>(y); st<T>(d, (EXPR)); }, dst, p.dstBlkStride, p.dstRepStride,   \
            src_(src0, p.src0BlkStride, p.src0RepStride), src_(src1, p.src1BlkStride, p.src1RepStride));        \
    }                                                                                                           \
    template <typename T, bool isSetMask = true, typename R = int64_t>                                          \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,         \
                     const uint64_t mask[], const R repeatTime, const BinaryRepeatParams& p, EMU_LOC) {         \
        using namespace ascendc_emu;                                                                            \
        if (isSetMask) mask_arg_bits(256 / sizeof(T), mask, #NAME, loc);                                        \
        int rep = check_repeat(repeatTime, #NAME, loc);                                                         \
        run0(#NAME, sizeof(T), rep, loc, [&](uint8_t* d, const uint8_t* x, const uint8_t* y) {                  \
            calc_t<T> a = ld<T>(x), b = ld<T>(y); st<T>(d, (EXPR)); }, dst, p.dstBlkStride, p.dstRepStride,   \
            src_(src0, p.src0BlkStride, p.src0RepStride), src_(src1, p.src1BlkStride, p.src1RepStride));        \
    }

#define ASCENDC_EMU_UNARY(NAME, EXPR)                                                                           \
    template <typename T>                                                                                       \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count, EMU_LOC) {     \
        using namespace ascendc_emu;                                                                            \
        T* d = (T*)dst.ptr_; const T* x = (const T*)src.ptr_;                                                   \
        run2(#NAME, count, loc, [&](int64_t i) { calc_t<T> a = (calc_t<T>)x[i]; d[i] = (T)(EXPR); }, dst, src); \
    }                                                                                                           \
    template <typename T, bool isSetMask = true>                                                                \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,                       \
                     const int64_t repeatTime, const UnaryRepeatParams& p, EMU_LOC) {                           \
        using namespace ascendc_emu;                                                                            \
        if (isSetMask) mask_arg_cont(256 / sizeof(T), (int64_t)mask, #NAME, loc);                               \
        int rep = check_repeat(repeatTime, #NAME, loc);                                                         \
        run0(#NAME, sizeof(T), rep, loc, [&](uint8_t* d, const uint8_t* x) { calc_t<T> a = ld<T>(x);            \
            st<T>(d, (EXPR)); }, dst, p.dstBlkStride, p.dstRepStride, src_(src, p.srcBlkStride, p.srcRepStride)); \
    }                                                                                                           \
    template <typename T, bool isSetMask = true>                                                                \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],               \
                     const int64_t repeatTime, const UnaryRepeatParams& p, EMU_LOC) {                           \
        using namespace ascendc_emu;                                                                            \
        if (isSetMask) mask_arg_bits(256 / sizeof(T), mask, #NAME, loc);                                        \
        int rep = check_repeat(repeatTime, #NAME, loc);                                                         \
        run0(#NAME, sizeof(T), rep, loc, [&](uint8_t* d, const uint8_t* x) { calc_t<T> a = ld<T>(x);            \
            st<T>(d, (EXPR)); }, dst, p.dstBlkStride, p.dstRepStride, src_(src, p.srcBlkStride, p.srcRepStride)); \
    }

// Tensor-scalar ops: the scalar has the element type (U lets callers pass float for half etc.).
namespace ascendc_emu {
// Shifts as the vector unit does them, including counts of the type's width or more (C++ leaves those undefined):
// a logical shift gives 0, an arithmetic right shift the sign fill, 0 or -1 (Reg矢量计算/逻辑计算/ShiftRight.md and
// ShiftLeft.md 约束说明; public kernels take |x| of int32 as (x ^ (x >> 32)) - (x >> 32)).
template <class T, class S>
inline T shift_right_hw(T a, S b) {
    if ((int64_t)b >= (int64_t)(sizeof(T) * 8)) return std::is_signed<T>::value && a < 0 ? (T)-1 : (T)0;
    return (T)(a >> b);
}
template <class T, class S>
inline T shift_left_hw(T a, S b) {
    if ((int64_t)b >= (int64_t)(sizeof(T) * 8)) return (T)0;
    return (T)((typename std::make_unsigned<T>::type)a << b);
}
}  // namespace ascendc_emu

#define ASCENDC_EMU_SCALAR(NAME, EXPR)                                                                          \
    template <typename T, bool isSetMask = true>                                                                \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const ascendc_emu::nd_t<T>& scalarValue, \
                     const int32_t& count, EMU_LOC) {                                                           \
        using namespace ascendc_emu;                                                                            \
        T* d = (T*)dst.ptr_; const T* x = (const T*)src.ptr_;                                                   \
        calc_t<T> b = (calc_t<T>)(T)scalarValue;                                                                \
        run2(#NAME, count, loc, [&](int64_t i) { calc_t<T> a = (calc_t<T>)x[i]; d[i] = (T)(EXPR); }, dst, src); \
    }                                                                                                           \
    template <typename T, bool isSetMask = true>                                                                \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const ascendc_emu::nd_t<T>& scalarValue, \
                     uint64_t mask,                                                                             \
                     const int64_t repeatTime, const UnaryRepeatParams& p, EMU_LOC) {                           \
        using namespace ascendc_emu;                                                                            \
        if (isSetMask) mask_arg_cont(256 / sizeof(T), (int64_t)mask, #NAME, loc);                               \
        int rep = check_repeat(repeatTime, #NAME, loc);                                                         \
        calc_t<T> b = (calc_t<T>)(T)scalarValue;                                                                \
        run0(#NAME, sizeof(T), rep, loc, [&](uint8_t* d, const uint8_t* x) { calc_t<T> a = ld<T>(x);            \
            st<T>(d, (EXPR)); }, dst, p.dstBlkStride, p.dstRepStride, src_(src, p.srcBlkStride, p.srcRepStride)); \
    }                                                                                                           \
    template <typename T, bool isSetMask = true>                                                                \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const ascendc_emu::nd_t<T>& scalarValue, \
                     const uint64_t mask[], const int64_t repeatTime, const UnaryRepeatParams& p, EMU_LOC) {    \
        using namespace ascendc_emu;                                                                            \
        if (isSetMask) mask_arg_bits(256 / sizeof(T), mask, #NAME, loc);                                        \
        int rep = check_repeat(repeatTime, #NAME, loc);                                                         \
        calc_t<T> b = (calc_t<T>)(T)scalarValue;                                                                \
        run0(#NAME, sizeof(T), rep, loc, [&](uint8_t* d, const uint8_t* x) { calc_t<T> a = ld<T>(x);            \
            st<T>(d, (EXPR)); }, dst, p.dstBlkStride, p.dstRepStride, src_(src, p.srcBlkStride, p.srcRepStride)); \
    }

namespace AscendC {
using ascendc_emu::calc_t;
ASCENDC_EMU_BINARY(Add, a + b)
ASCENDC_EMU_BINARY(Sub, a - b)
ASCENDC_EMU_BINARY(Mul, a * b)
ASCENDC_EMU_BINARY(Div, a / b)
ASCENDC_EMU_BINARY(Max, a > b ? a : b)
ASCENDC_EMU_BINARY(Min, a < b ? a : b)
ASCENDC_EMU_BINARY(AddRelu, ascendc_emu::op_relu<T>(a + b))
ASCENDC_EMU_BINARY(SubRelu, ascendc_emu::op_relu<T>(a - b))
ASCENDC_EMU_BINARY(And, a & b)
ASCENDC_EMU_BINARY(Or, a | b)

ASCENDC_EMU_UNARY(Exp, std::exp(a))
ASCENDC_EMU_UNARY(Ln, std::log(a))
ASCENDC_EMU_UNARY(Abs, ascendc_emu::vabs<T>(a))
ASCENDC_EMU_UNARY(Reciprocal, calc_t<T>(1) / a)
ASCENDC_EMU_UNARY(Sqrt, std::sqrt(a))
ASCENDC_EMU_UNARY(Rsqrt, calc_t<T>(1) / std::sqrt(a))
ASCENDC_EMU_UNARY(Relu, ascendc_emu::op_relu<T>(a))
ASCENDC_EMU_UNARY(Not, ~a)

ASCENDC_EMU_SCALAR(Adds, a + b)
ASCENDC_EMU_SCALAR(Muls, a * b)
ASCENDC_EMU_SCALAR(Maxs, a > b ? a : b)
ASCENDC_EMU_SCALAR(Mins, a < b ? a : b)
ASCENDC_EMU_SCALAR(LeakyRelu, a >= 0 ? a : a * b)
ASCENDC_EMU_SCALAR(ShiftLeft, ascendc_emu::shift_left_hw(a, b))
ASCENDC_EMU_SCALAR(ShiftRight, ascendc_emu::shift_right_hw(a, b))

// dst = src0 * dst + src1
template <typename T>
inline void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                        const int32_t& count, EMU_LOC) {
    using namespace ascendc_emu;
    T* d = (T*)dst.ptr_; const T* x = (const T*)src0.ptr_; const T* y = (const T*)src1.ptr_;
    run2("FusedMulAdd", count, loc, [&](int64_t i) { d[i] = (T)((calc_t<T>)x[i] * (calc_t<T>)d[i] + (calc_t<T>)y[i]); },
         dst, src0, src1, dst);
}
// dst = src0 * src1 + dst
template <typename T, typename U = T>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                      const int32_t& count, EMU_LOC) {
    using namespace ascendc_emu;
    T* d = (T*)dst.ptr_; const U* x = (const U*)src0.ptr_; const U* y = (const U*)src1.ptr_;
    run2("MulAddDst", count, loc, [&](int64_t i) { d[i] = (T)((float)x[i] * (float)y[i] + (float)d[i]); },
         dst, src0, src1, dst);
}
// dst += scalar * src (src may be half while dst is float)
template <typename T, typename U>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const ascendc_emu::nd_t<U>& scalarValue, const int32_t& count,
                 EMU_LOC) {
    using namespace ascendc_emu;
    T* d = (T*)dst.ptr_; const U* x = (const U*)src.ptr_;
    calc_t<U> s = (calc_t<U>)scalarValue;
    if (std::is_same<T, U>::value)
        run2("Axpy", count, loc, [&](int64_t i) { d[i] = (T)((calc_t<T>)d[i] + (calc_t<T>)((calc_t<U>)x[i] * s)); },
             dst, src, dst);
    else
        run2("Axpy", count, loc, [&](int64_t i) { d[i] = (T)((calc_t<T>)d[i] + (calc_t<T>)(float)((float)x[i] * (float)s)); },
             dst, src, dst);
}
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const ascendc_emu::nd_t<U>& scalarValue, uint64_t mask,
                 const int64_t repeatTime, const UnaryRepeatParams& p, EMU_LOC) {
    using namespace ascendc_emu;
    int lanesz = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
    if (isSetMask) mask_arg_cont(256 / lanesz, (int64_t)mask, "Axpy", loc);
    int rep = check_repeat(repeatTime, "Axpy", loc);
    float s = (float)scalarValue;
    run0("Axpy", lanesz, rep, loc, [&](uint8_t* d, const uint8_t* x, const uint8_t* dd) {
        (void)dd; st<T>(d, (calc_t<T>)((float)ld<T>(d) + (float)ld<U>(x) * s)); },
        dst, p.dstBlkStride, p.dstRepStride, src_(src, p.srcBlkStride, p.srcRepStride),
        src_(dst, p.dstBlkStride, p.dstRepStride));
}

template <typename T>
inline void Duplicate(const LocalTensor<T>& dst, const ascendc_emu::nd_t<T>& scalarValue, const int32_t& count, EMU_LOC) {
    using namespace ascendc_emu;
    T* d = (T*)dst.ptr_;
    T v = scalarValue;
    run2("Duplicate", count, loc, [&](int64_t i) { d[i] = v; }, dst);
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const ascendc_emu::nd_t<T>& scalarValue, uint64_t mask, const int64_t repeatTime,
                      const uint16_t dstBlockStride, const uint8_t dstRepeatStride, EMU_LOC) {
    using namespace ascendc_emu;
    if (isSetMask) mask_arg_cont(256 / sizeof(T), (int64_t)mask, "Duplicate", loc);
    int rep = check_repeat(repeatTime, "Duplicate", loc);
    T v = scalarValue;
    run0("Duplicate", sizeof(T), rep, loc, [&](uint8_t* d) { memcpy(d, &v, sizeof(T)); }, dst, dstBlockStride,
         dstRepeatStride);
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const ascendc_emu::nd_t<T>& scalarValue, const uint64_t mask[], const int64_t repeatTime,
                      const uint16_t dstBlockStride, const uint8_t dstRepeatStride, EMU_LOC) {
    using namespace ascendc_emu;
    if (isSetMask) mask_arg_bits(256 / sizeof(T), mask, "Duplicate", loc);
    int rep = check_repeat(repeatTime, "Duplicate", loc);
    T v = scalarValue;
    run0("Duplicate", sizeof(T), rep, loc, [&](uint8_t* d) { memcpy(d, &v, sizeof(T)); }, dst, dstBlockStride,
         dstRepeatStride);
}

// ---- mask register control
EMU_RT_FN void SetMaskCount()
#if ASCENDC_EMU_RT_BODIES
{ ascendc_emu::blk().counter_mode = true; }
#else
;
#endif
EMU_RT_FN void SetMaskNorm()
#if ASCENDC_EMU_RT_BODIES
{ ascendc_emu::blk().counter_mode = false; }
#else
;
#endif
EMU_RT_FN void ResetMask()
#if ASCENDC_EMU_RT_BODIES
{ ascendc_emu::blk().mask_hi = ascendc_emu::blk().mask_lo = ~0ull; }
#else
;
#endif
template <typename T = uint16_t, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
    ascendc_emu::Block& b = ascendc_emu::blk();
    if (mode == MaskMode::COUNTER) b.counter_mode = true;
    b.mask_hi = b.counter_mode ? 0 : maskHigh;
    b.mask_lo = maskLow;
}
template <typename T = uint16_t, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len) {
    if (mode == MaskMode::COUNTER) ascendc_emu::blk().counter_mode = true;
    ascendc_emu::set_mask_cont(256 / (int)sizeof(T), (uint64_t)len);
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_VECTOR_H_
