// Gather / Gatherb / Scatter / GatherMask, CreateVecIndex, Arange (ArithProgression), Copy (UB -> UB),
// Interleave / DeInterleave. Clean-room from the devkit docs cited per API (docs/zh/api/SIMD-API/...).
#ifndef ASCENDC_EMU_ASCENDC_EMU_VECTOR_GATHER_H_
#define ASCENDC_EMU_ASCENDC_EMU_VECTOR_GATHER_H_
#include "vector_support.h"

// Per-SoC element types, as in knowledge/api/rearrange.yaml and data-movement.yaml (compared by a test).
#define ASCENDC_EMU_DTYPES_Gather                                                                            \
    "Ascend910B:int16_t uint16_t half bfloat16_t int32_t uint32_t float;"                                    \
    "Ascend910_93:int16_t uint16_t half bfloat16_t int32_t uint32_t float;"                                  \
    "Ascend310P:int16_t uint16_t half int32_t uint32_t float;"                                               \
    "Ascend310B:int8_t uint8_t int16_t uint16_t half int32_t uint32_t float;"                                \
    "Ascend950:int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t"
#define ASCENDC_EMU_DTYPES_Gatherb                                                                           \
    "Ascend910B:uint16_t uint32_t;Ascend910_93:uint16_t uint32_t;"                                           \
    "Ascend310B:int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t;"             \
    "Ascend950:int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t"
#define ASCENDC_EMU_DTYPES_Scatter                                                                           \
    "Ascend310P:uint16_t half uint32_t float;"                                                               \
    "Ascend310B:int8_t uint8_t int16_t uint16_t half int32_t uint32_t float;"                                \
    "Ascend950:int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t"
#define ASCENDC_EMU_DTYPES_GatherMask                                                                        \
    "Ascend910B:int16_t uint16_t half bfloat16_t int32_t uint32_t float;"                                    \
    "Ascend910_93:int16_t uint16_t half bfloat16_t int32_t uint32_t float;"                                  \
    "Ascend310P:int16_t uint16_t half int32_t uint32_t float;"                                               \
    "Ascend310B:int16_t uint16_t half int32_t uint32_t float;"                                               \
    "Ascend950:int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float"
#define ASCENDC_EMU_DTYPES_CreateVecIndex                                                                    \
    "Ascend910B:int16_t half int32_t float;Ascend910_93:int16_t half int32_t float;"                         \
    "Ascend310B:int16_t half int32_t float;Ascend950:int8_t int16_t half int32_t float int64_t"
#define ASCENDC_EMU_DTYPES_ArithProgression ASCENDC_EMU_DTYPES_Arange
#define ASCENDC_EMU_DTYPES_Arange                                                                            \
    "Ascend910B:int16_t half int32_t float;Ascend910_93:int16_t half int32_t float;"                         \
    "Ascend310P:int16_t half int32_t float;Ascend950:int16_t half int32_t float int64_t"
#define ASCENDC_EMU_DTYPES_Copy                                                                              \
    "Ascend910B:int16_t uint16_t half bfloat16_t int32_t uint32_t float;"                                    \
    "Ascend910_93:int16_t uint16_t half bfloat16_t int32_t uint32_t float;"                                  \
    "Ascend310B:int16_t uint16_t half bfloat16_t int32_t uint32_t float;"                                    \
    "Ascend950:int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t"
#define ASCENDC_EMU_DTYPES_Copy_count                                                                        \
    "Ascend950:int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t"
#define ASCENDC_EMU_DTYPES_Interleave                                                                        \
    "Ascend950:int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t"
#define ASCENDC_EMU_DTYPES_DeInterleave ASCENDC_EMU_DTYPES_Interleave

namespace AscendC {
struct GatherMaskParams {
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = 8;
    uint8_t src1RepeatStride = 8;
    GatherMaskParams() {}
    GatherMaskParams(uint8_t s0B, uint16_t rep, uint16_t s0R, uint8_t s1R)
        : src0BlockStride(s0B), repeatTimes(rep), src0RepeatStride(s0R), src1RepeatStride(s1R) {}
};
enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;
struct GatherRepeatParams {
    uint32_t blockNumber = 8;
    uint16_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
    uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false;
    GatherRepeatParams() {}
    GatherRepeatParams(uint16_t dB, uint8_t dR) : dstBlkStride(dB), dstRepStride(dR) {}
};
struct CopyRepeatParams {
    uint16_t dstStride = 1, srcStride = 1;
    uint16_t dstRepeatSize = 8, srcRepeatSize = 8;
    CopyRepeatParams() {}
    CopyRepeatParams(uint16_t dS, uint16_t sS, uint16_t dR, uint16_t sR)
        : dstStride(dS), srcStride(sS), dstRepeatSize(dR), srcRepeatSize(sR) {}
};
}  // namespace AscendC

namespace ascendc_emu {
using AscendC::LocalTensor;

// Gather / Scatter element move with a byte offset relative to a tensor (docs pseudo code: index =
// (base + offset) // sizeof(T)); the offset must keep the access inside the tensor's buffer.
template <class T>
inline bool offset_ok(const LocalTensor<T>& t, uint64_t byte_off, const char* api, const Loc& loc, bool write) {
    uint64_t a = (uint64_t)t.addr_ + byte_off / sizeof(T) * sizeof(T);
    if (a + sizeof(T) > t.hi_ || a < t.lo_) {
        report_error("local-bounds", "ub-out-of-bounds", P_V, api, loc,
                     "%s %s element at byte offset %llu of the %s tensor, past its buffer (%s B): the offset tensor "
                     "holds an index outside the data", api, write ? "writes an" : "reads an",
                     (unsigned long long)byte_off, write ? "destination" : "source", EMU_N(t.hi_ - t.addr_));
        return false;
    }
    if (byte_off % sizeof(T))
        report_warning("offset-alignment", "misaligned-access", P_V, api, loc,
                       "%s byte offset %llu is not a multiple of sizeof(T) = %zu: the element is taken at offset "
                       "%llu (the NPU mixes neighbouring bytes silently)", api, (unsigned long long)byte_off,
                       sizeof(T), (unsigned long long)(byte_off / sizeof(T) * sizeof(T)));
    return true;
}
// Race bookkeeping for the elements an offset list touches: one range over [min, max] offsets.
template <class T>
inline bool offsets_range(const LocalTensor<T>& t, const uint32_t* off, uint64_t n, uint32_t base, bool write,
                          const char* api, const Loc& loc) {
    if (!n) return true;
    uint64_t lo = ~0ull, hi = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t o = ((uint64_t)base + off[i]) / sizeof(T) * sizeof(T);
        lo = o < lo ? o : lo;
        hi = o > hi ? o : hi;
    }
    uint64_t start = (uint64_t)t.addr_ + lo;
    if (start + (hi - lo) + sizeof(T) > t.hi_) return true;  // reported per element
    return t.emu_check_bytes(lo, hi - lo + sizeof(T), write, P_V, api, loc, 1);
}
}  // namespace ascendc_emu

namespace AscendC {
// ---- Gather (docs/zh/api/SIMD-API/基础API/Memory矢量计算/离散与聚合/Gather.md): dst[i] = src[(srcBaseAddr +
// srcOffset[i]) / sizeof(T)], offsets in bytes; count form and mask/repeat form (lanes contiguous in dst,
// dstRepStride in 32-byte blocks between repeats, offsets consumed one per lane position).
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint32_t count, EMU_LOC) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    check_dtype<T>("Gather", ASCENDC_EMU_DTYPES_Gather, loc);
    if (src.ptr_ == dst.ptr_ && count)
        report_warning("gather-overlap", "vector-param-invalid", P_V, "Gather", loc,
                       "Gather source and destination are the same address, which the API does not support");
    bool ok = srcOffset.emu_check(0, count, false, P_V, "Gather", loc);
    ok = dst.emu_check(0, count, true, P_V, "Gather", loc) && ok;
    if (ok && src.emu_check_bytes(0, 0, false, P_V, "Gather", loc)) {
        const uint32_t* off = (const uint32_t*)srcOffset.ptr_;
        offsets_range(src, off, count, srcBaseAddr, false, "Gather", loc);
        for (uint32_t i = 0; i < count; i++) {
            uint64_t bo = (uint64_t)srcBaseAddr + off[i];
            if (offset_ok(src, bo, "Gather", loc, false))
                memcpy(dst.ptr_ + (size_t)i * sizeof(T), src.ptr_ + bo / sizeof(T) * sizeof(T), sizeof(T));
        }
    }
    restore_norm();
    trace_vec("Gather", dtype_name<T>(), count, ((uint64_t)count * sizeof(T) + 255) / 256, loc);
}
namespace detail_gather {
template <class T>
inline void gather0(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                    uint32_t srcBaseAddr, int repeat, uint16_t dstRepStride, const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    check_dtype<T>("Gather", ASCENDC_EMU_DTYPES_Gather, loc);
    const int lanes = 256 / (int)sizeof(T);
    Plan p = plan(lanes, repeat);
    // offsets are consumed one per lane position; the last one used is (reps - 1) * lanes + last active lane
    uint64_t offs = p.reps && p.last_max >= 0 ? (uint64_t)(p.reps - 1) * lanes + (uint64_t)(p.last_max + 1) : 0;
    bool ok = srcOffset.emu_check(0, offs, false, P_V, "Gather", loc);
    ok = dst.emu_check_bytes(0, extent(p, (int)sizeof(T), 1, dstRepStride), true, P_V, "Gather", loc) && ok;
    uint64_t elems = 0;
    if (ok) {
        const uint32_t* off = (const uint32_t*)srcOffset.ptr_;
        offsets_range(src, off, offs, srcBaseAddr, false, "Gather", loc);
        for (int r = 0; r < p.reps; r++)
            for (int l = 0; l < lanes; l++) {
                if (!active(p, r, l)) continue;
                uint64_t bo = (uint64_t)srcBaseAddr + off[(size_t)r * lanes + l];
                elems++;
                if (offset_ok(src, bo, "Gather", loc, false))
                    memcpy(dst.ptr_ + lane_off(r, l, (int)sizeof(T), 1, dstRepStride),
                           src.ptr_ + bo / sizeof(T) * sizeof(T), sizeof(T));
            }
    }
    trace_vec("Gather", dtype_name<T>(), elems, (uint64_t)p.reps, loc);
}
}  // namespace detail_gather
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint64_t mask[], const uint8_t repeatTime,
                   const uint16_t dstRepStride, EMU_LOC) {
    ascendc_emu::mask_arg_bits(256 / sizeof(T), mask, "Gather", loc);
    detail_gather::gather0(dst, src, srcOffset, srcBaseAddr, repeatTime, dstRepStride, loc);
}
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint64_t mask, const uint8_t repeatTime,
                   const uint16_t dstRepStride, EMU_LOC) {
    ascendc_emu::mask_arg_cont(256 / sizeof(T), (int64_t)mask, "Gather", loc);
    detail_gather::gather0(dst, src, srcOffset, srcBaseAddr, repeatTime, dstRepStride, loc);
}

// ---- Gatherb (离散与聚合/Gatherb(ISASI).md): 8 whole 32-byte blocks per repeat, src block at byte offset[i*8+j].
template <typename T>
inline void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& offset,
                    const uint8_t repeatTime, const GatherRepeatParams& repeatParams, EMU_LOC) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    check_dtype<T>("Gatherb", ASCENDC_EMU_DTYPES_Gatherb, loc);
    uint32_t dblk = repeatParams.dstBlkStride ? repeatParams.dstBlkStride : 1;  // 0 is treated as 1
    int rep = repeatTime;
    uint64_t dext = rep ? (uint64_t)(rep - 1) * repeatParams.dstRepStride * 32 + 7ull * dblk * 32 + 32 : 0;
    bool ok = offset.emu_check(0, (uint64_t)rep * 8, false, P_V, "Gatherb", loc);
    ok = dst.emu_check_bytes(0, dext, true, P_V, "Gatherb", loc) && ok;
    if (ok)
        for (int r = 0; r < rep; r++)
            for (int j = 0; j < 8; j++) {
                uint32_t o = ((const uint32_t*)offset.ptr_)[r * 8 + j];
                if (o % 32)
                    report_error("address-alignment", "misaligned-access", P_V, "Gatherb", loc,
                                 "Gatherb block offset %u is not a multiple of 32 B", o);
                if (!src.emu_check_bytes(o, 32, false, P_V, "Gatherb", loc)) continue;
                memcpy(dst.ptr_ + ((size_t)r * repeatParams.dstRepStride + (size_t)j * dblk) * 32, src.ptr_ + o, 32);
            }
    trace_vec("Gatherb", dtype_name<T>(), (uint64_t)rep * 256 / sizeof(T), (uint64_t)rep, loc);
}

// ---- Scatter (离散与聚合/Scatter(ISASI).md): dst[(dstBaseAddr + dstOffset[i]) / sizeof(T)] = src[i].
template <typename T>
inline void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& dstOffset,
                    const uint32_t dstBaseAddr, const uint32_t count, EMU_LOC) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    check_dtype<T>("Scatter", ASCENDC_EMU_DTYPES_Scatter, loc);
    bool ok = dstOffset.emu_check(0, count, false, P_V, "Scatter", loc);
    ok = src.emu_check(0, count, false, P_V, "Scatter", loc) && ok;
    if (ok && dst.emu_check_bytes(0, 0, true, P_V, "Scatter", loc)) {
        const uint32_t* off = (const uint32_t*)dstOffset.ptr_;
        offsets_range(dst, off, count, dstBaseAddr, true, "Scatter", loc);
        for (uint32_t i = 0; i < count; i++) {
            uint64_t bo = (uint64_t)dstBaseAddr + off[i];
            if (offset_ok(dst, bo, "Scatter", loc, true))
                memcpy(dst.ptr_ + bo / sizeof(T) * sizeof(T), src.ptr_ + (size_t)i * sizeof(T), sizeof(T));
        }
    }
    restore_norm();
    trace_vec("Scatter", dtype_name<T>(), count, ((uint64_t)count * sizeof(T) + 255) / 256, loc);
}
namespace detail_gather {
template <class T>
inline void scatter0(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& dstOffset,
                     uint32_t dstBaseAddr, int repeat, uint8_t srcRepStride, const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    check_dtype<T>("Scatter", ASCENDC_EMU_DTYPES_Scatter, loc);
    const int lanes = 256 / (int)sizeof(T);
    Plan p = plan(lanes, repeat);
    uint64_t offs = (uint64_t)p.reps * lanes;
    bool ok = dstOffset.emu_check(0, offs, false, P_V, "Scatter", loc);
    ok = src.emu_check_bytes(0, extent(p, (int)sizeof(T), 1, srcRepStride), false, P_V, "Scatter", loc) && ok;
    uint64_t elems = 0;
    if (ok) {
        const uint32_t* off = (const uint32_t*)dstOffset.ptr_;
        for (int r = 0; r < p.reps; r++)
            for (int l = 0; l < lanes; l++) {
                if (!active(p, r, l)) continue;
                uint64_t bo = (uint64_t)dstBaseAddr + off[(size_t)r * lanes + l];
                elems++;
                if (offset_ok(dst, bo, "Scatter", loc, true) &&
                    dst.emu_check_bytes(bo / sizeof(T) * sizeof(T), sizeof(T), true, P_V, "Scatter", loc, 1))
                    memcpy(dst.ptr_ + bo / sizeof(T) * sizeof(T),
                           src.ptr_ + lane_off(r, l, (int)sizeof(T), 1, srcRepStride), sizeof(T));
            }
    }
    trace_vec("Scatter", dtype_name<T>(), elems, (uint64_t)p.reps, loc);
}
}  // namespace detail_gather
template <typename T>
inline void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& dstOffset,
                    const uint32_t dstBaseAddr, const uint64_t mask[], const uint8_t repeatTime,
                    const uint8_t srcRepStride, EMU_LOC) {
    ascendc_emu::mask_arg_bits(256 / sizeof(T), mask, "Scatter", loc);
    detail_gather::scatter0(dst, src, dstOffset, dstBaseAddr, repeatTime, srcRepStride, loc);
}
template <typename T>
inline void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& dstOffset,
                    const uint32_t dstBaseAddr, const uint64_t mask, const uint8_t repeatTime,
                    const uint8_t srcRepStride, EMU_LOC) {
    ascendc_emu::mask_arg_cont(256 / sizeof(T), (int64_t)mask, "Scatter", loc);
    detail_gather::scatter0(dst, src, dstOffset, dstBaseAddr, repeatTime, srcRepStride, loc);
}

// ---- GatherMask (比较与选择/GatherMask.md): keeps the elements whose gather-mask bit is 1 and packs them into
// dst; rsvdCnt = how many. Built-in patterns 1..7 (even, odd, 1st..4th of every 4, all) or a tensor whose bits
// are consumed continuously within a repeat, src1RepeatStride (32-byte blocks) between repeats.
// reduceMode false: repeatTimes repeats of 256 B. reduceMode true (counter): `mask` elements per repeat for
// repeatTimes repeats (A2/A3/310B/950), or `mask` elements in total (310P). Leaves the mask in normal mode.
namespace detail_gather {
template <class T, class GetBit>
inline void gather_mask(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src0, bool reduceMode,
                        uint32_t mask, const GatherMaskParams& p, uint64_t& rsvdCnt, const ascendc_emu::Loc& loc,
                        GetBit bit, const LocalTensor<uint8_t>* pattern, uint64_t pattern_stride) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    check_dtype<T>(api, ASCENDC_EMU_DTYPES_GatherMask, loc);
    const uint64_t lanes = 256 / sizeof(T);
    int reps = check_repeat(p.repeatTimes, api, loc);
    uint64_t per_rep = lanes;
    uint64_t total = ~0ull;
    if (reduceMode) {
        if (mask == 0)
            report_warning("mask-zero", "vector-param-invalid", P_V, api, loc,
                           "%s in counter mode (reduceMode = true) with mask 0: nothing is gathered (valid 1 ~ "
                           "2^32-1)", api);
        if (!strcmp(soc_profile(), "Ascend310P")) {  // counter config 2: mask = total elements
            total = mask;
            reps = (int)((mask + lanes - 1) / lanes);
        } else {
            per_rep = mask;  // counter config 1: mask elements per repeat, repeatTimes effective
        }
    }
    // extents
    uint64_t src_ext = 0, pat_ext = 0, n_in = 0;
    for (int r = 0; r < reps; r++) {
        uint64_t n = per_rep;
        if (total != ~0ull) n = total - (uint64_t)r * lanes < lanes ? total - (uint64_t)r * lanes : lanes;
        if (!n) continue;
        uint64_t e = lane_off(r, (int)(n - 1), (int)sizeof(T), p.src0BlockStride, p.src0RepeatStride) + sizeof(T);
        src_ext = e > src_ext ? e : src_ext;
        uint64_t pe = (uint64_t)r * pattern_stride * 32 + (n + 7) / 8;
        pat_ext = pe > pat_ext ? pe : pat_ext;
        n_in += n;
    }
    bool ok = src0.emu_check_bytes(0, src_ext, false, P_V, api, loc);
    if (pattern) ok = pattern->emu_check_bytes(0, pat_ext, false, P_V, api, loc) && ok;
    uint64_t kept = 0;
    if (ok) {
        std::vector<uint8_t> out;  // gathered first: dst may alias src0 (the docs' own example does)
        out.reserve((size_t)n_in * sizeof(T));
        for (int r = 0; r < reps; r++) {
            uint64_t n = per_rep;
            if (total != ~0ull) n = total - (uint64_t)r * lanes < lanes ? total - (uint64_t)r * lanes : lanes;
            for (uint64_t l = 0; l < n; l++)
                if (bit(r, l)) {
                    const uint8_t* s = src0.ptr_ + lane_off(r, (int)l, (int)sizeof(T), p.src0BlockStride, p.src0RepeatStride);
                    out.insert(out.end(), s, s + sizeof(T));
                }
        }
        kept = out.size() / sizeof(T);
        if (dst.emu_check(0, kept, true, P_V, api, loc) && !out.empty()) memcpy(dst.ptr_, out.data(), out.size());
    }
    rsvdCnt = kept;
    blk().counter_mode = false;  // the docs: the call ends in normal mask mode
    trace_vec(api, dtype_name<T>(), n_in, (uint64_t)reps, loc);
}
}  // namespace detail_gather
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                       uint64_t& rsvdCnt, EMU_LOC) {
    LocalTensor<uint8_t> pat = src1Pattern.template ReinterpretCast<uint8_t>();
    const uint8_t* bits = pat.ptr_;
    uint64_t stride = gatherMaskParams.src1RepeatStride;
    detail_gather::gather_mask("GatherMask", dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt, loc,
                               [&](int r, uint64_t l) {
                                   const uint8_t* b = bits + (size_t)r * stride * 32;
                                   return (b[l / 8] >> (l % 8)) & 1;
                               },
                               &pat, stride);
}
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                       uint64_t& rsvdCnt, EMU_LOC) {
    using namespace ascendc_emu;
    int maxp = !strcmp(soc_profile(), "Ascend310P") ? 6 : 7;
    if (src1Pattern < 1 || src1Pattern > maxp) {
        report_error("gathermask-pattern", "vector-param-invalid", P_V, "GatherMask", loc,
                     "GatherMask built-in pattern %u is outside 1 ~ %d on %s", src1Pattern, maxp, rt().soc.name);
        rsvdCnt = 0;
        return;
    }
    detail_gather::gather_mask("GatherMask", dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt, loc,
                               [&](int, uint64_t l) -> bool {
                                   switch (src1Pattern) {
                                       case 1: return l % 2 == 0;
                                       case 2: return l % 2 == 1;
                                       case 7: return true;
                                       default: return l % 4 == (uint64_t)(src1Pattern - 3);
                                   }
                               },
                               (const LocalTensor<uint8_t>*)nullptr, 0);
}

// ---- CreateVecIndex (数据填充/CreateVecIndex.md): dst[i] = firstValue + i (mask form: lane position
// r * lanes + l across repeats).
template <typename T>
inline void CreateVecIndex(LocalTensor<T> dst, const ascendc_emu::nd_t<T>& firstValue, uint32_t count, EMU_LOC) {
    using namespace ascendc_emu;
    check_dtype<T>("CreateVecIndex", ASCENDC_EMU_DTYPES_CreateVecIndex, loc);
    T* d = (T*)dst.ptr_;
    calc_t<T> f = (calc_t<T>)firstValue;
    run2("CreateVecIndex", count, loc, [&](int64_t i) { d[i] = (T)(f + (calc_t<T>)i); }, dst);
}
namespace detail_gather {
template <class T>
inline void vec_index0(const LocalTensor<T>& dst, T first, int repeat, uint16_t dstBlkStride, uint8_t dstRepStride,
                       const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    check_dtype<T>("CreateVecIndex", ASCENDC_EMU_DTYPES_CreateVecIndex, loc);
    const int lanes = 256 / (int)sizeof(T);
    calc_t<T> f = (calc_t<T>)first;
    int r = 0, l = 0;  // run0 visits lanes in order; track the position to compute the index
    begin_epoch(P_V);
    Plan p = plan(lanes, repeat);
    uint64_t elems = 0;
    if (dst.emu_check_bytes(0, extent(p, (int)sizeof(T), dstBlkStride, dstRepStride), true, P_V, "CreateVecIndex", loc))
        for (r = 0; r < p.reps; r++)
            for (l = 0; l < lanes; l++)
                if (active(p, r, l)) {
                    stx<T>(dst.ptr_ + lane_off(r, l, (int)sizeof(T), dstBlkStride, dstRepStride),
                           f + (calc_t<T>)((int64_t)r * lanes + l));
                    elems++;
                }
    trace_vec("CreateVecIndex", dtype_name<T>(), elems, (uint64_t)p.reps, loc);
}
}  // namespace detail_gather
template <typename T>
inline void CreateVecIndex(LocalTensor<T>& dst, const ascendc_emu::nd_t<T>& firstValue, uint64_t mask[],
                           uint8_t repeatTime, uint16_t dstBlkStride, uint8_t dstRepStride, EMU_LOC) {
    ascendc_emu::mask_arg_bits(256 / sizeof(T), mask, "CreateVecIndex", loc);
    detail_gather::vec_index0(dst, (T)firstValue, repeatTime, dstBlkStride, dstRepStride, loc);
}
template <typename T>
inline void CreateVecIndex(LocalTensor<T>& dst, const ascendc_emu::nd_t<T>& firstValue, uint64_t mask,
                           uint8_t repeatTime, uint16_t dstBlkStride, uint8_t dstRepStride, EMU_LOC) {
    ascendc_emu::mask_arg_cont(256 / sizeof(T), (int64_t)mask, "CreateVecIndex", loc);
    detail_gather::vec_index0(dst, (T)firstValue, repeatTime, dstBlkStride, dstRepStride, loc);
}

// ---- Arange / ArithProgression (高阶API/索引计算/Arange-94.md; ArithProgression is the former name): the
// documented steps: the first 8 terms by scalar SetValue, then Adds of 8*k*diff onto them up to 64 terms, then
// Adds of 64*k*diff onto the first 64; each term is thus first + i*diff rounded as those steps round it.
template <typename T>
inline void Arange(const LocalTensor<T>& dst, const ascendc_emu::nd_t<T> firstValue, const ascendc_emu::nd_t<T> diffValue,
                   const int32_t count, EMU_LOC) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    check_dtype<T>("Arange", ASCENDC_EMU_DTYPES_Arange, loc);
    if ((calc_t<T>)(T)diffValue < calc_t<T>(0))
        report_warning("arange-diff", "vector-param-invalid", P_V, "Arange", loc,
                       "Arange/ArithProgression diffValue must be >= 0 (the docs' constraint)");
    if (count <= 0) {
        report_error("count-range", "vector-param-invalid", P_V, "Arange", loc,
                     "Arange/ArithProgression count is %d; it must be > 0", (int)count);
        return;
    }
    if (dst.emu_check(0, (uint64_t)count, true, P_V, "Arange", loc)) {
        T* d = (T*)dst.ptr_;
        calc_t<T> f = (calc_t<T>)(T)firstValue, df = (calc_t<T>)(T)diffValue;
        for (int32_t i = 0; i < count && i < 8; i++) d[i] = (T)(f + df * (calc_t<T>)i);
        for (int32_t i = 8; i < count && i < 64; i++) {
            calc_t<T> step = (calc_t<T>)(T)(df * (calc_t<T>)(i / 8 * 8));
            d[i] = (T)((calc_t<T>)d[i % 8] + step);
        }
        for (int32_t i = 64; i < count; i++) {
            calc_t<T> step = (calc_t<T>)(T)(df * (calc_t<T>)(i / 64 * 64));
            d[i] = (T)((calc_t<T>)d[i % 64] + step);
        }
    }
    restore_norm();  // built from count-form Adds: the mask ends in normal mode
    trace_vec("Arange", dtype_name<T>(), (uint64_t)count, ((uint64_t)count * sizeof(T) + 255) / 256, loc);
}
template <typename T>
inline void ArithProgression(const LocalTensor<T>& dst, const ascendc_emu::nd_t<T> firstValue,
                             const ascendc_emu::nd_t<T> diffValue, const int32_t count, EMU_LOC) {
    Arange(dst, firstValue, diffValue, count, loc);
}
inline void GetArangeMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) { maxValue = minValue = 0; }
inline void GetArithProgressionMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) { maxValue = minValue = 0; }

// ---- Copy UB -> UB (数据搬运/UB与UB数据搬运/UBToUB掩码式高维数据搬运(Copy).md, UBToUB连续数据搬运(Copy).md).
// Mask form: like a unary vector op with CopyRepeatParams strides; in counter mode the mask is the element
// count of each repeat (repeatTime stays effective), unlike other vector APIs.
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, EMU_LOC) {
    using namespace ascendc_emu;
    check_dtype<T>("Copy", ASCENDC_EMU_DTYPES_Copy_count, loc);  // the count form exists on Ascend950 only
    uint8_t* d = dst.ptr_;
    const uint8_t* s = src.ptr_;
    run2("Copy", count, loc, [&](int64_t i) { memcpy(d + i * sizeof(T), s + i * sizeof(T), sizeof(T)); }, dst, src);
}
namespace detail_gather {
template <class T>
inline void copy0(const LocalTensor<T>& dst, const LocalTensor<T>& src, int repeat, const CopyRepeatParams& p,
                  const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    check_dtype<T>("Copy", ASCENDC_EMU_DTYPES_Copy, loc);
    const int lanes = 256 / (int)sizeof(T);
    Block& b = blk();
    Plan pl;
    pl.lanes = lanes;
    pl.reps = repeat;
    uint64_t per = 0;
    if (b.counter_mode) {
        per = b.mask_lo;  // elements per repeat
        pl.full_max = pl.last_max = per ? (int)(per - 1) : -1;
    } else {
        for (int l = lanes - 1; l >= 0; l--) if (lane_on(l)) { pl.full_max = l; break; }
        pl.last_max = pl.full_max;
    }
    auto on = [&](int l) { return b.counter_mode ? (uint64_t)l < per : lane_on(l); };
    int span = b.counter_mode ? (int)per : lanes;
    bool ok = src.emu_check_bytes(0, extent(pl, (int)sizeof(T), p.srcStride, p.srcRepeatSize), false, P_V, "Copy", loc);
    ok = dst.emu_check_bytes(0, extent(pl, (int)sizeof(T), p.dstStride, p.dstRepeatSize), true, P_V, "Copy", loc) && ok;
    uint64_t elems = 0;
    if (ok)
        for (int r = 0; r < repeat; r++)
            for (int l = 0; l < span; l++)
                if (on(l)) {
                    memcpy(dst.ptr_ + lane_off(r, l, (int)sizeof(T), p.dstStride, p.dstRepeatSize),
                           src.ptr_ + lane_off(r, l, (int)sizeof(T), p.srcStride, p.srcRepeatSize), sizeof(T));
                    elems++;
                }
    trace_vec("Copy", dtype_name<T>(), elems, (uint64_t)repeat, loc);
}
}  // namespace detail_gather
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], const uint8_t repeatTime,
                 const CopyRepeatParams& repeatParams, EMU_LOC) {
    if (isSetMask) ascendc_emu::mask_arg_bits(256 / sizeof(T), mask, "Copy", loc);
    detail_gather::copy0(dst, src, repeatTime, repeatParams, loc);
}
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask, const uint8_t repeatTime,
                 const CopyRepeatParams& repeatParams, EMU_LOC) {
    if (isSetMask) ascendc_emu::mask_arg_cont(256 / sizeof(T), (int64_t)mask, "Copy", loc);
    detail_gather::copy0(dst, src, repeatTime, repeatParams, loc);
}

// ---- Interleave / DeInterleave (数据重排（ISASI）, Ascend 950 only). The interleaved sequence
// src0[0], src1[0], src0[1], src1[1], ... of 2*count elements fills dst0 then dst1; DeInterleave is the inverse
// (even positions to dst0, odd positions to dst1).
template <typename T>
inline void Interleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src0,
                       const LocalTensor<T>& src1, const int32_t count, EMU_LOC) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    check_dtype<T>("Interleave", ASCENDC_EMU_DTYPES_Interleave, loc);
    int64_t n = check_count(count, "Interleave", loc);
    bool ok = src0.emu_check(0, n, false, P_V, "Interleave", loc) && src1.emu_check(0, n, false, P_V, "Interleave", loc);
    ok = dst0.emu_check(0, n, true, P_V, "Interleave", loc) && dst1.emu_check(0, n, true, P_V, "Interleave", loc) && ok;
    if (ok) {
        std::vector<T> seq((size_t)(2 * n));
        for (int64_t i = 0; i < n; i++) {
            memcpy(&seq[(size_t)(2 * i)], src0.ptr_ + i * sizeof(T), sizeof(T));
            memcpy(&seq[(size_t)(2 * i + 1)], src1.ptr_ + i * sizeof(T), sizeof(T));
        }
        if (n) {
            memcpy(dst0.ptr_, seq.data(), (size_t)n * sizeof(T));
            memcpy(dst1.ptr_, seq.data() + n, (size_t)n * sizeof(T));
        }
    }
    restore_norm();
    trace_vec("Interleave", dtype_name<T>(), (uint64_t)(2 * n), ((uint64_t)(2 * n) * sizeof(T) + 255) / 256, loc);
}
template <typename T>
inline void DeInterleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src0,
                         const LocalTensor<T>& src1, const int32_t count, EMU_LOC) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    check_dtype<T>("DeInterleave", ASCENDC_EMU_DTYPES_DeInterleave, loc);
    int64_t n = check_count(count, "DeInterleave", loc);
    bool ok = src0.emu_check(0, n, false, P_V, "DeInterleave", loc) && src1.emu_check(0, n, false, P_V, "DeInterleave", loc);
    ok = dst0.emu_check(0, n, true, P_V, "DeInterleave", loc) && dst1.emu_check(0, n, true, P_V, "DeInterleave", loc) && ok;
    if (ok) {
        std::vector<T> seq((size_t)(2 * n));
        if (n) {
            memcpy(seq.data(), src0.ptr_, (size_t)n * sizeof(T));
            memcpy(seq.data() + n, src1.ptr_, (size_t)n * sizeof(T));
        }
        for (int64_t i = 0; i < n; i++) {
            memcpy(dst0.ptr_ + i * sizeof(T), &seq[(size_t)(2 * i)], sizeof(T));
            memcpy(dst1.ptr_ + i * sizeof(T), &seq[(size_t)(2 * i + 1)], sizeof(T));
        }
    }
    restore_norm();
    trace_vec("DeInterleave", dtype_name<T>(), (uint64_t)(2 * n), ((uint64_t)(2 * n) * sizeof(T) + 255) / 256, loc);
}
template <typename T>
inline void DeInterleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src,
                         const int32_t srcCount, EMU_LOC) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    check_dtype<T>("DeInterleave", ASCENDC_EMU_DTYPES_DeInterleave, loc);
    int64_t n = check_count(srcCount, "DeInterleave", loc);
    bool ok = src.emu_check(0, n, false, P_V, "DeInterleave", loc);
    ok = dst0.emu_check(0, (n + 1) / 2, true, P_V, "DeInterleave", loc) &&
         dst1.emu_check(0, n / 2, true, P_V, "DeInterleave", loc) && ok;
    if (ok) {
        std::vector<uint8_t> seq(src.ptr_, src.ptr_ + n * sizeof(T));
        for (int64_t i = 0; i < n; i++)
            memcpy((i % 2 ? dst1.ptr_ : dst0.ptr_) + (i / 2) * sizeof(T), seq.data() + i * sizeof(T), sizeof(T));
    }
    restore_norm();
    trace_vec("DeInterleave", dtype_name<T>(), (uint64_t)n, ((uint64_t)n * sizeof(T) + 255) / 256, loc);
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_VECTOR_GATHER_H_
