// DataCopy / DataCopyPad between GM and on-chip buffers (clean-room, from the documented semantics):
// count form moves count*sizeof(T) bytes rounded DOWN to 32 B; the params form moves blockCount blocks of
// blockLen 32-byte units with end-to-start gaps; DataCopyPad takes byte lengths and pads each block to 32 B.
#ifndef ASCENDC_EMU_ASCENDC_EMU_DATA_COPY_H_
#define ASCENDC_EMU_ASCENDC_EMU_DATA_COPY_H_
#include "tpipe.h"
#include "vector_regs.h"

namespace AscendC {
struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    union { uint16_t srcStride = 0; uint16_t srcGap; };
    union { uint16_t dstStride = 0; uint16_t dstGap; };
    DataCopyParams() {}
    DataCopyParams(uint16_t count, uint16_t len, uint16_t srcStrideIn, uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
};
struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    DataCopyExtParams() {}
    // Five values, rsv included, as every documented use writes them (docs/zh/api/SIMD-API/基础API/Memory矢量计算/数据搬运/
    // GM与UB数据搬运/UBToGM非对齐数据搬运(DataCopyPad).md); so a four-value brace list `{1, len, 0, 0}` passed to DataCopyPad
    // is a DataCopyParams, as the devkit's own samples (fmod, cumsum) rely on, not an ambiguous call.
    DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcStrideIn, uint32_t dstStrideIn, uint32_t rsvIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
};
template <typename T>
struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = T(0);
    DataCopyPadExtParams() {}
    DataCopyPadExtParams(bool isPadIn, uint8_t left, uint8_t right, T value)
        : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value) {}
};
struct DataCopyPadParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
    DataCopyPadParams() {}
    DataCopyPadParams(bool isPadIn, uint8_t left, uint8_t right, uint64_t value)
        : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value) {}
};
enum class BlockMode : uint8_t {
    BLOCK_MODE_NORMAL = 0, BLOCK_MODE_MATRIX, BLOCK_MODE_VECTOR, BLOCK_MODE_SMALL_MATRIX, BLOCK_MODE_DEPTHWISE
};
struct DataCopyEnhancedParams {
    BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
    uint8_t deqScale = 0;
    uint64_t deqValue = 0;
    uint8_t sidStoreMode = 0;
    bool isRelu = false;
    uint8_t padMode = 0;
};
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
}  // namespace AscendC

namespace ascendc_emu {
using AscendC::GlobalTensor;
using AscendC::LocalTensor;

// A strided transfer: `count` blocks of `len` bytes; block i starts at i*(len_src+gap_src) / i*(len_dst+gap_dst).
struct Xfer {
    uint32_t count, len;
    uint64_t src_pitch, dst_pitch;  // bytes from the start of one block to the start of the next
    uint64_t extent_src() const { return count ? (count - 1) * src_pitch + len : 0; }
    uint64_t extent_dst() const { return count ? (count - 1) * dst_pitch + len : 0; }
};

EMU_RT_FN int mte_pipe_from_gm(Space dst)
#if ASCENDC_EMU_RT_BODIES
{ return dst == SP_UB || dst == SP_L1 ? P_MTE2 : P_MTE2; }
#else
;
#endif
EMU_RT_FN int mte_pipe_to_gm(Space src)
#if ASCENDC_EMU_RT_BODIES
{ return src == SP_L0C ? P_FIX : P_MTE3; }
#else
;
#endif

template <class T>
inline void atomic_store(T* dst, const T* src, uint64_t n, int mode) {
    for (uint64_t i = 0; i < n; i++) {
        calc_t<T> a = (calc_t<T>)dst[i], b = (calc_t<T>)src[i];
        calc_t<T> r = mode == 1 ? a + b : mode == 2 ? (a > b ? a : b) : (a < b ? a : b);
        dst[i] = (T)r;
    }
}

EMU_RT_FN void trace_copy(Ev& ev, uint64_t bytes, const char* src, const char* dst, const void* gm, const Xfer& x)
#if ASCENDC_EMU_RT_BODIES
{
    if (!ev.on) return;
    ev.j.i("bytes", (long long)bytes).s("src", src).s("dst", dst);
    if (gm) ev.j.b("gm_aligned512", ((uintptr_t)gm & 511u) == 0);
    if (x.count > 1) ev.j.i("blocks", x.count).i("block_bytes", x.len);
}
#else
;
#endif

// GM -> local. pad: left/right padding in bytes per block and a fill value pattern (pad_val, elem bytes).
template <class T>
inline void copy_gm_to_local(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Xfer& x, const char* api,
                             const Loc& loc, bool pad = false, uint32_t lpad = 0, uint32_t rpad = 0, T pad_val = T(0)) {
    Space sp = pos_space(dst.pos_);
    int pipe = sp == SP_UB ? P_MTE2 : P_MTE2;
    begin_epoch(pipe);
    uint32_t site = intern_site(loc.file, loc.line, api);
    uint64_t total = (uint64_t)x.count * x.len;
    Ev ev;
    trace_begin(ev, pipe, api, loc);
    trace_copy(ev, total, "gm", space_lc(sp), src.ptr_, x);
    trace_end(ev);
    if (!total) return;
    // GM side, block by block, against the real allocation
    uint64_t ext = x.extent_src();
    uint64_t lo, hi;
    bool gm_ok = gm_check(src.ptr_, ext, false, pipe, api, loc, &lo, &hi);
    if (gm_ok) gm_shadow_access((const uint8_t*)src.ptr_ + lo, hi - lo, false, pipe, site, api, loc);
    if (gm_ok) dcache_dma((const uint8_t*)src.ptr_ + lo, hi - lo, false, pipe, api, loc);
    uint64_t dext = x.count ? (x.count - 1) * x.dst_pitch + lpad + x.len + rpad : 0;
    if (!dst.emu_check_bytes(0, dext, true, pipe, api, loc)) return;
    const uint8_t* s = (const uint8_t*)src.ptr_;
    for (uint32_t i = 0; i < x.count; i++) {
        uint8_t* d = dst.ptr_ + i * x.dst_pitch;
        uint64_t so = i * x.src_pitch;
        if (pad) {
            for (uint32_t k = 0; k < lpad / sizeof(T); k++) memcpy(d + k * sizeof(T), &pad_val, sizeof(T));
            for (uint32_t k = 0; k < rpad / sizeof(T); k++) memcpy(d + lpad + x.len + k * sizeof(T), &pad_val, sizeof(T));
        }
        // in-bounds bytes are copied; out-of-bounds bytes read garbage on the NPU: the emulator gives 0xFF (NaN)
        const uint64_t end_row = so + x.len;
        uint64_t a = so, e = so;  // [a, e): the in-bounds source bytes of this block
        if (gm_ok) {
            a = lo > so ? lo : so;
            e = hi < end_row ? hi : end_row;
            if (a > end_row) a = end_row;
            if (e < a) e = a;
        }
        uint8_t* row = d + lpad;
        memset(row, 0xFF, a - so);
        if (e > a) memcpy(row + (a - so), s + a, e - a);
        memset(row + (e - so), 0xFF, end_row - e);
    }
}

template <class T>
inline void copy_local_to_gm(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const Xfer& x, const char* api,
                             const Loc& loc) {
    Block& b = blk();
    Space sp = pos_space(src.pos_);
    int pipe = mte_pipe_to_gm(sp);
    begin_epoch(pipe);
    uint32_t site = intern_site(loc.file, loc.line, api);
    uint64_t total = (uint64_t)x.count * x.len;
    Ev ev;
    trace_begin(ev, pipe, api, loc);
    trace_copy(ev, total, space_lc(sp), "gm", dst.ptr_, x);
    if (ev.on && b.atomic) ev.j.s("atomic", b.atomic == 1 ? "add" : b.atomic == 2 ? "max" : "min");
    trace_end(ev);
    if (!total) return;
    if (!src.emu_check_bytes(0, x.extent_src(), false, pipe, api, loc)) return;
    uint64_t lo, hi;
    if (!gm_check(dst.ptr_, x.extent_dst(), true, pipe, api, loc, &lo, &hi)) return;
    gm_shadow_access((uint8_t*)dst.ptr_ + lo, hi - lo, true, pipe, site, api, loc);
    dcache_dma((uint8_t*)dst.ptr_ + lo, hi - lo, true, pipe, api, loc);
    uint8_t* d = (uint8_t*)dst.ptr_;
    for (uint32_t i = 0; i < x.count; i++) {
        const uint8_t* s = src.ptr_ + i * x.src_pitch;
        uint64_t dof = i * x.dst_pitch;
        uint64_t a = dof < lo ? lo : dof, e = dof + x.len > hi ? hi : dof + x.len;
        if (e <= a) continue;
        if (b.atomic && (a - dof) % sizeof(T) == 0)
            atomic_store((T*)(d + a), (const T*)(s + (a - dof)), (e - a) / sizeof(T), b.atomic);
        else
            memcpy(d + a, s + (a - dof), e - a);
    }
}

template <class T>
inline void copy_local_to_local(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Xfer& x, const char* api,
                                const Loc& loc) {
    Space ds = pos_space(dst.pos_), ss = pos_space(src.pos_);
    int pipe = (ss == SP_UB && ds == SP_UB) ? P_V : (ss == SP_UB ? P_MTE3 : ss == SP_L1 ? P_MTE1 : P_FIX);
    begin_epoch(pipe);
    Ev ev;
    trace_begin(ev, pipe, api, loc);
    trace_copy(ev, (uint64_t)x.count * x.len, space_lc(ss), space_lc(ds), nullptr, x);
    trace_end(ev);
    if (!src.emu_check_bytes(0, x.extent_src(), false, pipe, api, loc)) return;
    if (!dst.emu_check_bytes(0, x.extent_dst(), true, pipe, api, loc)) return;
    for (uint32_t i = 0; i < x.count; i++) memmove(dst.ptr_ + i * x.dst_pitch, src.ptr_ + i * x.src_pitch, x.len);
}

template <class T>
inline uint32_t count_bytes_checked(uint32_t count, const char* api, int pipe, const Loc& loc) {
    uint64_t bytes = (uint64_t)count * sizeof(T);
    if (bytes % 32) {
        uint64_t kept = bytes / 32 * 32;
        report_soft("datacopy-truncation", "misaligned-access", pipe, api, loc,
                    "DataCopy moves %u x %zu = %s B; that is not a multiple of 32 B, so the hardware copies "
                    "floor(%s/32)*32 = %s B and silently drops the last %s B: use DataCopyPad (byte length) or pad "
                    "the tile to 32 B", count, sizeof(T), EMU_N(bytes), EMU_N(bytes), EMU_N(kept), EMU_N(bytes - kept));
        bytes = kept;
    }
    return (uint32_t)bytes;
}
EMU_RT_FN void check_params(uint32_t blockCount, uint64_t blockLen, const char* api, int pipe, const Loc& loc,
                         uint64_t lenMax, const char* unit)
#if ASCENDC_EMU_RT_BODIES
{
    if (blockCount > 4095)
        report_error("datacopy-params", "vector-param-invalid", pipe, api, loc,
                     "%s blockCount is %u; its valid range is 0 ~ 4095", api, blockCount);
    if (blockLen > lenMax)
        report_error("datacopy-params", "vector-param-invalid", pipe, api, loc,
                     "%s blockLen is %llu %s; its valid range is 0 ~ %llu", api, (unsigned long long)blockLen, unit,
                     (unsigned long long)lenMax);
}
#else
;
#endif
}  // namespace ascendc_emu

namespace AscendC {
// ---- DataCopy, count form
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count, EMU_LOC) {
    uint32_t bytes = ascendc_emu::count_bytes_checked<T>(count, "DataCopy", ascendc_emu::P_MTE2, loc);
    ascendc_emu::copy_gm_to_local(dst, src, ascendc_emu::Xfer{1, bytes, bytes, bytes}, "DataCopy", loc);
}
template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, EMU_LOC) {
    uint32_t bytes = ascendc_emu::count_bytes_checked<T>(count, "DataCopy", ascendc_emu::P_MTE3, loc);
    ascendc_emu::copy_local_to_gm(dst, src, ascendc_emu::Xfer{1, bytes, bytes, bytes}, "DataCopy", loc);
}
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, EMU_LOC) {
    uint32_t bytes = ascendc_emu::count_bytes_checked<T>(count, "DataCopy", ascendc_emu::P_V, loc);
    ascendc_emu::copy_local_to_local(dst, src, ascendc_emu::Xfer{1, bytes, bytes, bytes}, "DataCopy", loc);
}
// ---- DataCopy, DataCopyParams form: lengths and gaps in 32-byte units
EMU_RT_FN ascendc_emu::Xfer xfer32(const DataCopyParams& p)
#if ASCENDC_EMU_RT_BODIES
{
    uint32_t len = (uint32_t)p.blockLen * 32u;
    return ascendc_emu::Xfer{p.blockCount, len, len + (uint64_t)p.srcStride * 32u, len + (uint64_t)p.dstStride * 32u};
}
#else
;
#endif
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p, EMU_LOC) {
    ascendc_emu::check_params(p.blockCount, p.blockLen, "DataCopy", ascendc_emu::P_MTE2, loc, 65535, "x 32 B");
    ascendc_emu::copy_gm_to_local(dst, src, xfer32(p), "DataCopy", loc);
}
template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, EMU_LOC) {
    ascendc_emu::check_params(p.blockCount, p.blockLen, "DataCopy", ascendc_emu::P_MTE3, loc, 65535, "x 32 B");
    ascendc_emu::copy_local_to_gm(dst, src, xfer32(p), "DataCopy", loc);
}
// L1 (C1) -> BiasTable (C2), 矩阵计算（ISASI）/矩阵计算的搬入/矩阵数据搬入至L0-Buffer/L1ToBiasTable-Buffer数据搬运
// （DataCopy）.md: blockLen counts source bytes and dstGap destination bytes in 64-byte units (32-byte units with an
// even blockLen on Ascend 950), srcGap 32-byte units; a half / bfloat16_t source widens to a float destination.
namespace detail_bias {
template <typename T, typename U>
inline void copy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p,
                 const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    const char* api = "DataCopy";
    begin_epoch(P_MTE1);
    const bool a950 = strncmp(rt().soc.name, "Ascend950", 9) == 0;
    const uint32_t unit = a950 ? 32u : 64u;
    constexpr bool widen = sizeof(T) > sizeof(U);
    static_assert(sizeof(T) == sizeof(U) || (sizeof(T) == 4 && sizeof(U) == 2),
                  "DataCopy to the bias table: the same type, or half / bfloat16_t to float");
    if (pos_space(src.pos_) != SP_L1)
        report_error("tensor-position", "api-signature", P_MTE1, api, loc,
                     "DataCopy into the bias table (C2) reads from L1 (C1); the source is in %s",
                     space_name(pos_space(src.pos_)));
    if (a950 && (p.blockLen % 2))
        report_error("cube-params", "vector-param-invalid", P_MTE1, api, loc,
                     "DataCopy into the bias table: blockLen must be even on %s (it is %u)", rt().soc.name,
                     p.blockLen);
    check_params(p.blockCount, p.blockLen, api, P_MTE1, loc, 65535, a950 ? "x 32 B" : "x 64 B");
    Ev ev;
    trace_begin(ev, P_MTE1, api, loc);
    if (ev.on) ev.j.i("bytes", (long long)p.blockCount * p.blockLen * unit).s("src", "l1").s("dst", "bt");
    trace_end(ev);
    if (!p.blockCount || !p.blockLen) return;
    const uint64_t sblk = (uint64_t)p.blockLen * unit, n = sblk / sizeof(U);
    const uint64_t dblk = n * sizeof(T);
    const uint64_t s_step = sblk + (uint64_t)p.srcGap * 32u, d_step = dblk + (uint64_t)p.dstGap * unit;
    if (!src.emu_check_bytes(0, (uint64_t)(p.blockCount - 1) * s_step + sblk, false, P_MTE1, api, loc, 32)) return;
    if (!dst.emu_check_bytes(0, (uint64_t)(p.blockCount - 1) * d_step + dblk, true, P_MTE1, api, loc, 64)) return;
    for (uint32_t b = 0; b < p.blockCount; b++)
        for (uint64_t i = 0; i < n; i++) {
            const uint8_t* sp = src.ptr_ + b * s_step + i * sizeof(U);
            uint8_t* dp = dst.ptr_ + b * d_step + i * sizeof(T);
            if (widen) {
                U u;
                memcpy(&u, sp, sizeof(U));
                T t = (T)(float)u;
                memcpy(dp, &t, sizeof(T));
            } else {
                memmove(dp, sp, sizeof(T));
            }
        }
}
}  // namespace detail_bias
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, EMU_LOC) {
    if (ascendc_emu::pos_space(dst.pos_) == ascendc_emu::SP_BT) { detail_bias::copy(dst, src, p, loc); return; }
    ascendc_emu::check_params(p.blockCount, p.blockLen, "DataCopy", ascendc_emu::P_V, loc, 65535, "x 32 B");
    ascendc_emu::copy_local_to_local(dst, src, xfer32(p), "DataCopy", loc);
}
template <typename T, typename U, typename std::enable_if<!std::is_same<T, U>::value, bool>::type = true>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p, EMU_LOC) {
    if (ascendc_emu::pos_space(dst.pos_) != ascendc_emu::SP_BT)
        ascendc_emu::report_error("tensor-position", "api-signature", ascendc_emu::P_MTE1, "DataCopy", loc,
                                  "DataCopy between different element types (%s from %s) is the L1 -> bias table "
                                  "(C2) form; the destination is in %s", ascendc_emu::dtype_name<T>(),
                                  ascendc_emu::dtype_name<U>(), ascendc_emu::space_name(ascendc_emu::pos_space(dst.pos_)));
    else
        detail_bias::copy(dst, src, p, loc);
}
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                     const DataCopyEnhancedParams&, EMU_LOC) {
    DataCopy(dst, src, p, loc);
}
// BLOCK_MODE_MATRIX (L0C source): blockLen and gaps count 16 x 16 fractals of T instead of 32-byte blocks.
EMU_RT_FN ascendc_emu::Xfer xfer_enhanced(const DataCopyParams& p, const DataCopyEnhancedParams& e, uint32_t elem)
#if ASCENDC_EMU_RT_BODIES
{
    if (e.blockMode != BlockMode::BLOCK_MODE_MATRIX) return xfer32(p);
    uint32_t unit = 256u * elem;
    uint32_t len = (uint32_t)p.blockLen * unit;
    return ascendc_emu::Xfer{p.blockCount, len, len + (uint64_t)p.srcStride * unit, len + (uint64_t)p.dstStride * unit};
}
#else
;
#endif
template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                     const DataCopyEnhancedParams& e, EMU_LOC) {
    if (e.blockMode != BlockMode::BLOCK_MODE_MATRIX) { DataCopy(dst, src, p, loc); return; }
    ascendc_emu::check_params(p.blockCount, p.blockLen, "DataCopy", ascendc_emu::P_FIX, loc, 65535, "fractals");
    ascendc_emu::copy_local_to_gm(dst, src, xfer_enhanced(p, e, sizeof(T)), "DataCopy", loc);
}
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                     const DataCopyEnhancedParams& e, EMU_LOC) {
    if (e.blockMode != BlockMode::BLOCK_MODE_MATRIX) { DataCopy(dst, src, p, loc); return; }
    ascendc_emu::check_params(p.blockCount, p.blockLen, "DataCopy", ascendc_emu::P_FIX, loc, 65535, "fractals");
    ascendc_emu::copy_local_to_local(dst, src, xfer_enhanced(p, e, sizeof(T)), "DataCopy", loc);
}

// ---- DataCopyPad: blockLen in bytes; GM-side stride in bytes, UB-side stride in 32-byte blocks.
namespace detail_pad {
template <typename T>
inline bool pad_ok(uint32_t count, uint64_t blockLen, uint32_t l, uint32_t r, bool isPad, double padv, bool gm_to_ub,
                   const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    int pipe = gm_to_ub ? P_MTE2 : P_MTE3;
    if (!rt().soc.has_pad) {
        report_error("datacopypad-unsupported", "api-dtype-unsupported", pipe, "DataCopyPad", loc,
                     "DataCopyPad is not available on %s; use DataCopy with 32-byte-aligned lengths", rt().soc.name);
    }
    check_params(count, blockLen, "DataCopyPad", pipe, loc, 2097151, "B");
    if (blockLen % sizeof(T)) {
        report_error("datacopypad-blocklen", "misaligned-access", pipe, "DataCopyPad", loc,
                     "DataCopyPad blockLen is %llu B, not a multiple of sizeof(%s) = %zu (blockLen is in bytes, not "
                     "elements)", (unsigned long long)blockLen, dtype_name<T>(), sizeof(T));
    }
    if (l * sizeof(T) > 32 || r * sizeof(T) > 32) {
        report_error("datacopypad-padding", "vector-param-invalid", pipe, "DataCopyPad", loc,
                     "DataCopyPad padding of %u left / %u right elements is %zu / %zu B; each side may pad at most 32 B",
                     l, r, l * sizeof(T), r * sizeof(T));
        return false;
    }
    if (isPad && sizeof(T) == 8 && padv != 0)
        report_error("datacopypad-padding", "vector-param-invalid", pipe, "DataCopyPad", loc,
                     "DataCopyPad paddingValue must be 0 for 64-bit types");
    return true;
}
template <typename T>
inline void gm_to_ub(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count, uint32_t len,
                     uint64_t srcStrideBytes, uint64_t dstStrideBlocks, bool isPad, uint32_t l, uint32_t r, T padv,
                     const ascendc_emu::Loc& loc) {
    if (!pad_ok<T>(count, len, l, r, isPad, (double)(float)padv, true, loc)) return;
    // The left/right padding takes its room whatever isPad says; with isPad false it holds the SetPadValue value
    // when one was set, else whatever UB held (GMToUB非对齐数据搬运(DataCopyPad).md, isPad).
    uint32_t lb = l * (uint32_t)sizeof(T), rb = r * (uint32_t)sizeof(T);
    const ascendc_emu::VecRegs& regs = ascendc_emu::vregs();
    bool fill = isPad || regs.pad_set;
    if (!isPad && regs.pad_set) std::memcpy(&padv, &regs.pad_bits, sizeof(T));
    uint64_t ub_block = (lb + (uint64_t)len + rb + 31) / 32 * 32;
    ascendc_emu::Xfer x{count, len, len + srcStrideBytes, ub_block + dstStrideBlocks * 32};
    ascendc_emu::copy_gm_to_local(dst, src, x, "DataCopyPad", loc, fill, lb, rb, padv);
}
template <typename T>
inline void ub_to_gm(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count, uint32_t len,
                     uint64_t srcStrideBlocks, uint64_t dstStrideBytes, const ascendc_emu::Loc& loc) {
    if (!pad_ok<T>(count, len, 0, 0, false, 0, false, loc)) return;
    uint64_t ub_block = ((uint64_t)len + 31) / 32 * 32;
    ascendc_emu::Xfer x{count, len, ub_block + srcStrideBlocks * 32, len + dstStrideBytes};
    ascendc_emu::copy_local_to_gm(dst, src, x, "DataCopyPad", loc);
}
}  // namespace detail_pad

// ---- SetPadValue (GM与UB数据搬运/寄存器配置说明/SetPadValue(ISASI).md): the value DataCopyPad GM->UB writes into the
// left/right padding when its isPad is false; a register of the core, kept until set again.
template <typename T, TPosition pos = TPosition::MAX>
inline void SetPadValue(T paddingValue) {
    static_assert(sizeof(T) <= 8, "SetPadValue: the padding value is at most 64 bits");
    static_assert(pos == TPosition::MAX || pos == TPosition::VECIN || pos == TPosition::VECOUT,
                  "SetPadValue: pos is VECIN, VECOUT or MAX (GM -> UB)");
    ascendc_emu::VecRegs& r = ascendc_emu::vregs();
    r.pad_bits = 0;
    std::memcpy(&r.pad_bits, &paddingValue, sizeof(T));
    r.pad_set = 1;
}
template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                        const DataCopyPadExtParams<T>& pad, EMU_LOC) {
    detail_pad::gm_to_ub(dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, pad.isPad, pad.leftPadding,
                         pad.rightPadding, pad.paddingValue, loc);
}
template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p, EMU_LOC) {
    detail_pad::ub_to_gm(dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, loc);
}
template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                        const DataCopyPadParams& pad, EMU_LOC) {
    T v;
    uint64_t pv = pad.paddingValue;
    std::memcpy(&v, &pv, sizeof(T));  // the value's low bytes, as a bit pattern of T
    detail_pad::gm_to_ub(dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, pad.isPad, pad.leftPadding,
                         pad.rightPadding, v, loc);
}
template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, EMU_LOC) {
    detail_pad::ub_to_gm(dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, loc);
}

// Scalar writes to GM sit in the core's DCache until cleaned; the emulator writes through, so this drops the cache
// model's line of the tensor's address (SINGLE_CACHE_LINE) or every line (ENTIRE_DATA_CACHE), which ends the
// coherence hazards dcache_dma / dcache_scalar report (DataCacheCleanAndInvalid.md). Traced: it costs a flush.
template <typename T, CacheLine entireType = CacheLine::SINGLE_CACHE_LINE, DcciDst dcciDst = DcciDst::CACHELINE_OUT>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst, EMU_LOC) {
    using namespace ascendc_emu;
    dcache_clean_invalidate(dst.ptr_, entireType == CacheLine::ENTIRE_DATA_CACHE);
    Ev ev;
    trace_begin(ev, P_S, "DataCacheCleanAndInvalid", loc);
    trace_end(ev);
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_DATA_COPY_H_
