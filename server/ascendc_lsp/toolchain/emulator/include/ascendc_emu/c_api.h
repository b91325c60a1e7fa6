// The SIMD C API (`asc_*` functions on raw `__ubuf__` / `__gm__` pointers, c_api/asc_simd.h), the subset the
// devkit's C-API samples use: system variables, synchronisation, GM<->UB data movement and the element-wise
// vector computations in their "first count elements" form. Clean-room, from docs/zh/api/SIMD-API/C-API/
// (misc/asc_init.md; sys_var/asc_get_block_idx.md, asc_get_block_num.md, asc_get_vf_len.md; sync/asc_sync*.md,
// asc_lock.md; vector_datamove/asc_copy_gm2ub*/, asc_copy_ub2gm*/; vector_compute/asc_<op>.md).
// Each call completes when it returns (the emulator has no pipe timing for raw pointers): the asynchronous form,
// the `_sync` form and the explicit waits all see finished data. asc_sync_notify / asc_sync_wait / asc_sync_pipe
// go to the emulator's set_flag / wait_flag / pipe_barrier, so unpaired flags are still reported.
#ifndef ASCENDC_EMU_ASCENDC_EMU_C_API_H_
#define ASCENDC_EMU_ASCENDC_EMU_C_API_H_
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include "cce.h"

// ---- misc / sys_var ----------------------------------------------------------------------------------------
// misc/asc_init.md: initialises the core's state for the C API; the emulator's core starts initialised.
__aicore__ inline void asc_init() {}
__aicore__ inline int64_t asc_get_block_idx() { return AscendC::GetBlockIdx(); }
__aicore__ inline int64_t asc_get_block_num() { return AscendC::GetBlockNum(); }
// sys_var/asc_get_vf_len.md: the vector length in bytes (VL) of dav-3510.
__aicore__ inline constexpr uint32_t asc_get_vf_len() { return 256; }

// ---- sync --------------------------------------------------------------------------------------------------
__aicore__ inline void asc_sync_notify(pipe_t pipe, pipe_t tpipe, event_t id, EMU_LOC) { set_flag(pipe, tpipe, (int)id, loc); }
__aicore__ inline void asc_sync_wait(pipe_t pipe, pipe_t tpipe, event_t id, EMU_LOC) { wait_flag(pipe, tpipe, (int)id, loc); }
__aicore__ inline void asc_sync_pipe(pipe_t pipe, EMU_LOC) { pipe_barrier(pipe, loc); }
// sync/asc_sync.md: waits for every pipe of the core.
__aicore__ inline void asc_sync(EMU_LOC) { pipe_barrier(PIPE_ALL, loc); }
__aicore__ inline void asc_sync_vec(EMU_LOC) { pipe_barrier(PIPE_V, loc); }
__aicore__ inline void asc_sync_mte2(EMU_LOC) { pipe_barrier(PIPE_MTE2, loc); }
__aicore__ inline void asc_sync_mte3(EMU_LOC) { pipe_barrier(PIPE_MTE3, loc); }
// sync/asc_lock.md / asc_unlock.md: a mutex between pipes of one core; calls complete in program order here.
__aicore__ inline void asc_lock(pipe_t, uint8_t) {}
__aicore__ inline void asc_unlock(pipe_t, uint8_t) {}

// ---- vector_datamove ---------------------------------------------------------------------------------------
namespace ascendc_emu {
namespace c_api {
constexpr uint32_t kBlockBytes = 32;  // a DataBlock
inline uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
}  // namespace c_api
}  // namespace ascendc_emu

// asc_copy_gm2ub.md (dav-3510): `size` bytes; the UB side is filled to the next 32-byte DataBlock.
__aicore__ inline void asc_copy_gm2ub(__ubuf__ void* dst, __gm__ void* src, uint32_t size) { memcpy(dst, src, size); }
__aicore__ inline void asc_copy_gm2ub_sync(__ubuf__ void* dst, __gm__ void* src, uint32_t size) { memcpy(dst, src, size); }
__aicore__ inline void asc_copy_ub2gm(__gm__ void* dst, __ubuf__ void* src, uint32_t size) { memcpy(dst, src, size); }
__aicore__ inline void asc_copy_ub2gm_sync(__gm__ void* dst, __ubuf__ void* src, uint32_t size) { memcpy(dst, src, size); }
// High-dimensional form, n_burst blocks: on dav-3510 (asc_copy_gm2ub_arch_3510.md) len_burst is in bytes and the
// strides go from the start of one block to the start of the next, in bytes; on dav-2201
// (asc_copy_gm2ub_arch_2201.md) len_burst and the gaps (end of one block to start of the next) are in 32-byte
// DataBlocks.
namespace ascendc_emu {
namespace c_api {
inline void copy_bursts(void* dst, const void* src, uint32_t n_burst, uint32_t len_burst, uint32_t src_stride,
                        uint32_t dst_stride) {
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
    uint64_t len = len_burst, src_step = src_stride, dst_step = dst_stride;
#else
    uint64_t len = (uint64_t)len_burst * kBlockBytes;
    uint64_t src_step = len + (uint64_t)src_stride * kBlockBytes, dst_step = len + (uint64_t)dst_stride * kBlockBytes;
#endif
    for (uint32_t i = 0; i < n_burst; i++)
        memmove((uint8_t*)dst + i * dst_step, (const uint8_t*)src + i * src_step, len);
}
}  // namespace c_api
}  // namespace ascendc_emu
__aicore__ inline void asc_copy_gm2ub(__ubuf__ void* dst, __gm__ void* src, uint16_t n_burst, uint16_t len_burst,
                                      uint16_t src_stride, uint16_t dst_stride) {
    ascendc_emu::c_api::copy_bursts(dst, src, n_burst, len_burst, src_stride, dst_stride);
}
__aicore__ inline void asc_copy_ub2gm(__gm__ void* dst, __ubuf__ void* src, uint16_t n_burst, uint16_t len_burst,
                                      uint16_t src_stride, uint16_t dst_stride) {
    ascendc_emu::c_api::copy_bursts(dst, src, n_burst, len_burst, src_stride, dst_stride);
}

// asc_copy_gm2ub_align*.md (dav-3510): each burst of len_burst bytes lands in UB at a 32-byte aligned start,
// after left_padding_num elements and followed by right_padding_num ones; the padding takes the value set by
// asc_set_copy_pad_val when enable_constant_pad, else the burst's first element. The strides are taken as gaps
// (end of one burst to start of the next): the page says start to start, but the public callers pass 0 for
// packed rows and the row pitch minus the row for strided rows, which only the gap reading makes valid.
namespace ascendc_emu {
namespace c_api {
inline uint64_t& pad_value_bits() {
    static uint64_t bits = 0;
    return bits;
}
template <class T>
inline void gm2ub_align(T* dst, const T* src, uint32_t n_burst, uint32_t len_burst, uint32_t left, uint32_t right,
                        bool constant_pad, uint64_t src_gap, uint64_t dst_gap) {
    uint64_t elems = len_burst / sizeof(T);
    uint64_t row_bytes = align_up((left + elems + right) * sizeof(T), kBlockBytes);
    T pad_const;
    uint64_t bits = pad_value_bits();
    memcpy(&pad_const, &bits, sizeof(T));
    for (uint32_t i = 0; i < n_burst; i++) {
        const T* s = (const T*)((const uint8_t*)src + (uint64_t)i * (len_burst + src_gap));
        T* d = (T*)((uint8_t*)dst + (uint64_t)i * (row_bytes + dst_gap));
        T pad = constant_pad ? pad_const : (elems ? s[0] : pad_const);
        for (uint32_t k = 0; k < left; k++) d[k] = pad;
        memcpy(d + left, s, len_burst);
        for (uint32_t k = 0; k < right; k++) d[left + elems + k] = pad;
    }
}
template <class T>
inline void ub2gm_align(T* dst, const T* src, uint32_t n_burst, uint32_t len_burst, uint64_t dst_gap,
                        uint64_t src_gap) {
    uint64_t row_bytes = align_up(len_burst, kBlockBytes);
    for (uint32_t i = 0; i < n_burst; i++)
        memcpy((uint8_t*)dst + (uint64_t)i * (len_burst + dst_gap), (const uint8_t*)src + (uint64_t)i * (row_bytes + src_gap),
               len_burst);
}
}  // namespace c_api
}  // namespace ascendc_emu

template <class T>
__aicore__ inline void asc_set_copy_pad_val(T value) {
    uint64_t bits = 0;
    memcpy(&bits, &value, sizeof(T) < 8 ? sizeof(T) : 8);
    ascendc_emu::c_api::pad_value_bits() = bits;
}
template <class T>
__aicore__ inline void asc_copy_gm2ub_align(__ubuf__ T* dst, __gm__ T* src, uint32_t size) { memcpy(dst, src, size); }
template <class T>
__aicore__ inline void asc_copy_gm2ub_align_sync(__ubuf__ T* dst, __gm__ T* src, uint32_t size) { memcpy(dst, src, size); }
template <class T, class Mode>
__aicore__ inline void asc_copy_gm2ub_align(__ubuf__ T* dst, __gm__ T* src, uint16_t n_burst, uint32_t len_burst,
                                            uint8_t left_padding_num, uint8_t right_padding_num, bool enable_constant_pad,
                                            Mode l2_cache_mode, uint64_t src_stride, uint32_t dst_stride) {
    (void)l2_cache_mode;
    ascendc_emu::c_api::gm2ub_align(dst, src, n_burst, len_burst, left_padding_num, right_padding_num,
                                    enable_constant_pad, src_stride, dst_stride);
}
template <class T>
__aicore__ inline void asc_copy_ub2gm_align(__gm__ T* dst, __ubuf__ T* src, uint32_t size) { memcpy(dst, src, size); }
template <class T>
__aicore__ inline void asc_copy_ub2gm_align_sync(__gm__ T* dst, __ubuf__ T* src, uint32_t size) { memcpy(dst, src, size); }
template <class T, class Mode>
__aicore__ inline void asc_copy_ub2gm_align(__gm__ T* dst, __ubuf__ T* src, uint16_t n_burst, uint32_t len_burst,
                                            Mode l2_cache_mode, uint64_t dst_stride, uint32_t src_stride) {
    (void)l2_cache_mode;
    ascendc_emu::c_api::ub2gm_align(dst, src, n_burst, len_burst, dst_stride, src_stride);
}
// asc_copy_ub2ub.md: size bytes within the Unified Buffer.
__aicore__ inline void asc_copy_ub2ub(__ubuf__ void* dst, __ubuf__ void* src, uint32_t size) { memmove(dst, src, size); }

// ---- vector_compute: the first `count` elements --------------------------------------------------------------
// Arithmetic is done in float for half/bfloat16 (rounded once on the store), natively otherwise.
namespace ascendc_emu {
namespace c_api {
template <class T>
using calc_t = typename std::conditional<std::is_integral<T>::value || std::is_same<T, double>::value, T, float>::type;
template <class T, class F>
inline void binary(T* dst, const T* a, const T* b, uint32_t count, F f) {
    for (uint32_t i = 0; i < count; i++) dst[i] = (T)f((calc_t<T>)a[i], (calc_t<T>)b[i]);
}
template <class T, class F>
inline void unary(T* dst, const T* a, uint32_t count, F f) {
    for (uint32_t i = 0; i < count; i++) dst[i] = (T)f((calc_t<T>)a[i]);
}
// The "高维切分计算" (repeat) form: each of `repeat` iterations covers 8 DataBlocks of 32 bytes; block k of
// iteration r of an operand starts (r * repeat_stride + k * block_stride) DataBlocks after its base address. The
// vector mask is the full one (asc_set_vector_mask is not emulated).
constexpr uint32_t kBlocksPerRepeat = 8;
template <class T, class F>
inline void binary_repeat(T* dst, const T* a, const T* b, uint32_t repeat, uint32_t dbs, uint32_t abs_, uint32_t bbs,
                          uint32_t drs, uint32_t ars, uint32_t brs, F f) {
    constexpr uint32_t per = kBlockBytes / sizeof(T);
    for (uint32_t r = 0; r < repeat; r++)
        for (uint32_t k = 0; k < kBlocksPerRepeat; k++)
            for (uint32_t e = 0; e < per; e++) {
                T* d = dst + (uint64_t)(r * drs + k * dbs) * per + e;
                const T* x = a + (uint64_t)(r * ars + k * abs_) * per + e;
                const T* y = b + (uint64_t)(r * brs + k * bbs) * per + e;
                *d = (T)f((calc_t<T>)*x, (calc_t<T>)*y);
            }
}
template <class T, class F>
inline void unary_repeat(T* dst, const T* a, uint32_t repeat, uint32_t dbs, uint32_t abs_, uint32_t drs, uint32_t ars,
                         F f) {
    constexpr uint32_t per = kBlockBytes / sizeof(T);
    for (uint32_t r = 0; r < repeat; r++)
        for (uint32_t k = 0; k < kBlocksPerRepeat; k++)
            for (uint32_t e = 0; e < per; e++)
                dst[(uint64_t)(r * drs + k * dbs) * per + e] = (T)f((calc_t<T>)a[(uint64_t)(r * ars + k * abs_) * per + e]);
}
}  // namespace c_api
}  // namespace ascendc_emu

#define ASCENDC_EMU_C_BINARY(name, expr)                                                                      \
    template <class T>                                                                                        \
    __aicore__ inline void name(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint32_t count) {        \
        ascendc_emu::c_api::binary(dst, src0, src1, count, [](auto a, auto b) { return expr; });              \
    }                                                                                                         \
    template <class T>                                                                                        \
    __aicore__ inline void name##_sync(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint32_t count) { \
        name(dst, src0, src1, count);                                                                         \
    }                                                                                                         \
    template <class T>                                                                                        \
    __aicore__ inline void name(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat,          \
                                uint8_t dst_block_stride, uint8_t src0_block_stride, uint8_t src1_block_stride, \
                                uint8_t dst_repeat_stride, uint8_t src0_repeat_stride,                        \
                                uint8_t src1_repeat_stride) {                                                 \
        ascendc_emu::c_api::binary_repeat(dst, src0, src1, repeat, dst_block_stride, src0_block_stride,       \
                                          src1_block_stride, dst_repeat_stride, src0_repeat_stride,           \
                                          src1_repeat_stride, [](auto a, auto b) { return expr; });           \
    }
ASCENDC_EMU_C_BINARY(asc_add, a + b)
ASCENDC_EMU_C_BINARY(asc_sub, a - b)
ASCENDC_EMU_C_BINARY(asc_mul, a * b)
ASCENDC_EMU_C_BINARY(asc_div, a / b)
ASCENDC_EMU_C_BINARY(asc_max, (a > b ? a : b))
ASCENDC_EMU_C_BINARY(asc_min, (a < b ? a : b))
ASCENDC_EMU_C_BINARY(asc_and, a & b)
ASCENDC_EMU_C_BINARY(asc_or, a | b)
ASCENDC_EMU_C_BINARY(asc_add_relu, (a + b > 0 ? a + b : decltype(a + b)(0)))
ASCENDC_EMU_C_BINARY(asc_sub_relu, (a - b > 0 ? a - b : decltype(a - b)(0)))
#undef ASCENDC_EMU_C_BINARY

#define ASCENDC_EMU_C_SCALAR(name, expr)                                                                  \
    template <class T, class S>                                                                           \
    __aicore__ inline void name(__ubuf__ T* dst, __ubuf__ T* src, S value, uint32_t count) {              \
        using C = ascendc_emu::c_api::calc_t<T>;                                                          \
        C b = (C)(T)value;                                                                                \
        ascendc_emu::c_api::unary(dst, src, count, [b](auto a) { return expr; });                         \
    }                                                                                                     \
    template <class T, class S>                                                                           \
    __aicore__ inline void name##_sync(__ubuf__ T* dst, __ubuf__ T* src, S value, uint32_t count) {       \
        name(dst, src, value, count);                                                                     \
    }                                                                                                     \
    template <class T, class S>                                                                           \
    __aicore__ inline void name(__ubuf__ T* dst, __ubuf__ T* src, S value, uint8_t repeat,                \
                                uint16_t dst_block_stride, uint16_t src_block_stride,                     \
                                uint16_t dst_repeat_stride, uint16_t src_repeat_stride) {                 \
        using C = ascendc_emu::c_api::calc_t<T>;                                                          \
        C b = (C)(T)value;                                                                                \
        ascendc_emu::c_api::unary_repeat(dst, src, repeat, dst_block_stride, src_block_stride,            \
                                         dst_repeat_stride, src_repeat_stride, [b](auto a) { return expr; }); \
    }
ASCENDC_EMU_C_SCALAR(asc_add_scalar, a + b)
ASCENDC_EMU_C_SCALAR(asc_sub_scalar, a - b)
ASCENDC_EMU_C_SCALAR(asc_mul_scalar, a * b)
ASCENDC_EMU_C_SCALAR(asc_max_scalar, (a > b ? a : b))
ASCENDC_EMU_C_SCALAR(asc_min_scalar, (a < b ? a : b))
#undef ASCENDC_EMU_C_SCALAR

#define ASCENDC_EMU_C_UNARY(name, expr)                                                            \
    template <class T>                                                                             \
    __aicore__ inline void name(__ubuf__ T* dst, __ubuf__ T* src, uint32_t count) {                \
        ascendc_emu::c_api::unary(dst, src, count, [](auto a) { return expr; });                   \
    }                                                                                              \
    template <class T>                                                                             \
    __aicore__ inline void name##_sync(__ubuf__ T* dst, __ubuf__ T* src, uint32_t count) {         \
        name(dst, src, count);                                                                     \
    }                                                                                              \
    template <class T>                                                                             \
    __aicore__ inline void name(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat,                  \
                                uint16_t dst_block_stride, uint16_t src_block_stride,              \
                                uint16_t dst_repeat_stride, uint16_t src_repeat_stride) {          \
        ascendc_emu::c_api::unary_repeat(dst, src, repeat, dst_block_stride, src_block_stride,     \
                                         dst_repeat_stride, src_repeat_stride, [](auto a) { return expr; }); \
    }
ASCENDC_EMU_C_UNARY(asc_abs, (a < 0 ? -a : a))
ASCENDC_EMU_C_UNARY(asc_relu, (a > 0 ? a : decltype(a)(0)))
ASCENDC_EMU_C_UNARY(asc_exp, std::exp(a))
ASCENDC_EMU_C_UNARY(asc_log, std::log(a))
ASCENDC_EMU_C_UNARY(asc_sqrt, std::sqrt(a))
ASCENDC_EMU_C_UNARY(asc_rsqrt, decltype(a)(1) / std::sqrt(a))
ASCENDC_EMU_C_UNARY(asc_rcp, decltype(a)(1) / a)
ASCENDC_EMU_C_UNARY(asc_not, ~a)
#undef ASCENDC_EMU_C_UNARY

// asc_duplicate.md: count copies of value.
template <class T, class S>
__aicore__ inline void asc_duplicate(__ubuf__ T* dst, S value, uint32_t count) {
    for (uint32_t i = 0; i < count; i++) dst[i] = (T)value;
}
template <class T, class S>
__aicore__ inline void asc_duplicate_sync(__ubuf__ T* dst, S value, uint32_t count) { asc_duplicate(dst, value, count); }
#endif  // ASCENDC_EMU_ASCENDC_EMU_C_API_H_
