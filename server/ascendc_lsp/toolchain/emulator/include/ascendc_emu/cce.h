// The CCE / bisheng layer (clean-room): the compiler builtins and raw intrinsics real kernels mix with the AscendC
// API, as the public kernels call them. Each intrinsic runs through the same emulator paths as the matching
// AscendC API, so it gets the same hardware checks (bounds, alignment, race detection, traces): a raw set_flag is
// a SetFlag, copy_gm_to_ubuf a DataCopy, vector_dup a Duplicate, vor an Or, vcadd a repeat-wise sum.
// Raw on-chip pointers (`(__ubuf__ T*)t.GetPhyAddr()`) are mapped back to the block's memory; the hardware knows
// no buffer bounds for them, so only leaving the memory is an error.
// Not valid g++ and not handled here: `[aicore]` written in a declaration (`__forceinline__ [aicore] void f()`)
// needs a source-lowering pass; a macro cannot remove the brackets.
#ifndef ASCENDC_EMU_ASCENDC_EMU_CCE_H_
#define ASCENDC_EMU_ASCENDC_EMU_CCE_H_
#include "vector_ext.h"
#include "vector_reduce.h"

// ---- compiler builtins
#ifndef __forceinline__
#define __forceinline__
#endif
#ifndef __simd_vf__
#define __simd_vf__
#endif
#ifndef __kfc_workspace__
#define __kfc_workspace__
#endif
#ifndef likely
#define likely(...) __builtin_expect(!!(__VA_ARGS__), 1)
#endif
#ifndef unlikely
#define unlikely(...) __builtin_expect(!!(__VA_ARGS__), 0)
#endif
using float16_t = half;
using float32_t = float;

// Core types: the emulator runs the vector-core (AIV) view, so the core type is AIV everywhere (values as the
// CPU-debug builds of public kernels set them: AIC 1, AIV 2).
namespace AscendC {
constexpr int32_t MIX_TYPE = 0;
constexpr int32_t AIC_TYPE = 1;
constexpr int32_t AIV_TYPE = 2;
}  // namespace AscendC
constexpr int32_t MIX = AscendC::MIX_TYPE;
constexpr int32_t AIC = AscendC::AIC_TYPE;
constexpr int32_t AIV = AscendC::AIV_TYPE;
constexpr int32_t g_coreType = AIV;

namespace ascendc_emu {
// `block_idx` / `block_num`: the builtin variables of the running core.
struct BlockIdxVar {
    operator int64_t() const { return AscendC::GetBlockIdx(); }
};
struct BlockNumVar {
    operator int64_t() const { return AscendC::GetBlockNum(); }
};
inline int64_t print_arg(const BlockIdxVar& v) { return (int64_t)v; }
inline int64_t print_arg(const BlockNumVar& v) { return (int64_t)v; }

// A raw on-chip pointer as a LocalTensor reaching to the end of its memory; an empty tensor (reported) when the
// pointer is in none of this core's memories.
template <class T>
inline AscendC::LocalTensor<T> raw_local(const T* p, const char* api, const Loc& loc) {
    AscendC::LocalTensor<T> t;
    if (!rt().cur) return t;
    Block& b = blk();
    for (int sp = SP_UB; sp < NSPACE; sp++) {
        const uint8_t* base = b.mem[sp];
        if (!base || (const uint8_t*)p < base || (const uint8_t*)p >= base + b.mem_bytes[sp]) continue;
        uint32_t addr = (uint32_t)((const uint8_t*)p - base);
        uint64_t end = rt().soc.bytes[sp] > addr ? rt().soc.bytes[sp] : addr;
        t.bind(space_pos(sp), addr, (uint32_t)((end - addr) / sizeof(T)), false);
        return t;
    }
    report_error("raw-pointer", "ub-out-of-bounds", P_V, api, loc,
                 "%s gets the address %p, which is in none of this core's on-chip memories (UB, L1, L0): a raw "
                 "__ubuf__ pointer must come from a LocalTensor's GetPhyAddr()", api, (const void*)p);
    return t;
}
template <class T>
inline AscendC::GlobalTensor<T> raw_global(T* p) {
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer(p);
    return g;
}
}  // namespace ascendc_emu

inline const ascendc_emu::BlockIdxVar block_idx{};
inline const ascendc_emu::BlockNumVar block_num{};

// ---- synchronisation: the same events as SetFlag / WaitFlag / PipeBarrier
inline void pipe_barrier(pipe_t pipe, EMU_LOC) { ascendc_emu::pipe_barrier(ascendc_emu::pipe_of(pipe), loc); }
inline void set_flag(pipe_t src, pipe_t dst, int eventId, EMU_LOC) {
    using namespace ascendc_emu;
    ascendc_emu::set_flag(hard_event_of(pipe_of(src), pipe_of(dst), "set_flag", loc), eventId, loc);
}
inline void wait_flag(pipe_t src, pipe_t dst, int eventId, EMU_LOC) {
    using namespace ascendc_emu;
    ascendc_emu::wait_flag(hard_event_of(pipe_of(src), pipe_of(dst), "wait_flag", loc), eventId, loc);
}

// ---- mask and control registers (per core; SetMaskNorm / SetMaskCount / SetVectorMask)
inline void set_mask_norm() { ascendc_emu::blk().counter_mode = false; }
inline void set_mask_count() { ascendc_emu::blk().counter_mode = true; }
inline void set_vector_mask(uint64_t maskHigh, uint64_t maskLow) {
    ascendc_emu::Block& b = ascendc_emu::blk();
    b.mask_hi = b.counter_mode ? 0 : maskHigh;
    b.mask_lo = maskLow;
}
inline uint64_t get_ctrl() { return ascendc_emu::blk().ctrl; }
inline void set_ctrl(uint64_t v) { ascendc_emu::blk().ctrl = v; }
inline uint64_t sbitset0(uint64_t v, uint64_t bit) { return v & ~(1ull << (bit & 63)); }
inline uint64_t sbitset1(uint64_t v, uint64_t bit) { return v | (1ull << (bit & 63)); }

// ---- data movement: copy_{gm_to_ubuf, ubuf_to_gm, ubuf_to_ubuf}(dst, src, sid, nBurst, lenBurst, srcGap, dstGap),
// lengths and gaps in 32-byte units: the DataCopyParams form of DataCopy.
template <class T>
inline void copy_gm_to_ubuf(T* dst, T* src, uint8_t, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                            uint16_t dstGap, EMU_LOC) {
    AscendC::DataCopy(ascendc_emu::raw_local(dst, "copy_gm_to_ubuf", loc), ascendc_emu::raw_global(src),
                      AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap), loc);
}
template <class T>
inline void copy_ubuf_to_gm(T* dst, T* src, uint8_t, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                            uint16_t dstGap, EMU_LOC) {
    AscendC::DataCopy(ascendc_emu::raw_global(dst), ascendc_emu::raw_local(src, "copy_ubuf_to_gm", loc),
                      AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap), loc);
}
template <class T, class U>
inline void copy_ubuf_to_ubuf(T* dst, U* src, uint8_t, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                              uint16_t dstGap, EMU_LOC) {
    AscendC::DataCopy(ascendc_emu::raw_local((uint8_t*)dst, "copy_ubuf_to_ubuf", loc),
                      ascendc_emu::raw_local((const uint8_t*)src, "copy_ubuf_to_ubuf", loc),
                      AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap), loc);
}

// ---- vector intrinsics (level-0 forms; the mask register as set, like isSetMask = false)
// vector_dup(dst, value, repeat, dstBlkStride, srcBlkStride, dstRepStride, srcRepStride): Duplicate.
template <class T, class V>
inline void vector_dup(T* dst, V value, uint8_t repeat, uint16_t dstBlkStride, uint16_t, uint8_t dstRepStride,
                       uint8_t, EMU_LOC) {
    AscendC::Duplicate<T, false>(ascendc_emu::raw_local(dst, "vector_dup", loc), (T)value, (uint64_t)0, repeat,
                                 dstBlkStride, dstRepStride, loc);
}
// vor(dst, src0, src1, repeat, dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep): Or.
template <class T>
inline void vor(T* dst, T* src0, T* src1, uint8_t repeat, uint8_t dstBlk, uint8_t src0Blk, uint8_t src1Blk,
                uint8_t dstRep, uint8_t src0Rep, uint8_t src1Rep, EMU_LOC) {
    using ascendc_emu::raw_local;
    AscendC::Or<T, false>(raw_local(dst, "vor", loc), raw_local(src0, "vor", loc), raw_local(src1, "vor", loc),
                          (uint64_t)0, repeat, AscendC::BinaryRepeatParams(dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep),
                          loc);
}
// vcadd(dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride, mode): per repeat the sum of the active lanes
// (WholeReduceSum); with dst == nullptr the sum of every repeat goes to the accumulator read by GetAccVal().
// The element type comes from src alone, so kernels write a plain `vcadd(nullptr, src, ...)`.
template <class T>
inline void vcadd(typename std::enable_if<true, T>::type* dst, T* src, uint16_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride, uint16_t srcRepStride,
                  int = 0, EMU_LOC) {
    using namespace ascendc_emu;
    AscendC::LocalTensor<T> s = raw_local(src, "vcadd", loc);
    if (dst) {
        AscendC::WholeReduceSum<T, false>(raw_local(dst, "vcadd", loc), s, 0, repeat, dstRepStride, srcBlkStride,
                                          srcRepStride, loc);
        return;
    }
    begin_epoch(P_V);
    uint64_t elems = 0;
    int reps = 0;
    std::vector<calc_t<T>> sums;
    AscendC::detail_red::repeats(
        "vcadd", s, repeat, srcBlkStride, srcRepStride, loc,
        [&](int, std::vector<calc_t<T>>& v, std::vector<int>&) { sums.push_back(tree_sum<T>(v.data(), (int)v.size())); },
        elems, reps);
    calc_t<T> total = calc_t<T>(0);
    for (calc_t<T> x : sums) total = rnd<T>(total + x);
    spr_sum<T>((T)total);  // the reduce-sum register GetAccVal() / GetReduceRepeatSumSpr() read (vector_regs.h)
    trace_vec("vcadd", dtype_name<T>(), elems, (uint64_t)reps, loc);
}
inline uint64_t get_acc_val(EMU_LOC) { return AscendC::GetAccVal<uint64_t>(loc); }

// vtranspose(dst, src): one 16 x 16 matrix of 16-bit elements (512 B) transposed (Transpose.md's basic form).
template <class T>
inline void vtranspose(T* dst, T* src, EMU_LOC) {
    using namespace ascendc_emu;
    static_assert(sizeof(T) == 2, "vtranspose moves 16-bit elements");
    AscendC::LocalTensor<T> d = raw_local(dst, "vtranspose", loc), s = raw_local(src, "vtranspose", loc);
    begin_epoch(P_V);
    bool ok = s.emu_check(0, 256, false, P_V, "vtranspose", loc);
    ok = d.emu_check(0, 256, true, P_V, "vtranspose", loc) && ok;
    if (ok) {
        uint16_t tmp[256];
        memcpy(tmp, s.ptr_, sizeof tmp);
        for (int r = 0; r < 16; r++)
            for (int c = 0; c < 16; c++) memcpy(d.ptr_ + (size_t)(c * 16 + r) * 2, &tmp[r * 16 + c], 2);
    }
    trace_vec("vtranspose", dtype_name<T>(), 256, 2, loc);
}
// dcci: clean and invalidate the data cache lines of `addr` (DataCacheCleanAndInvalid).
template <class T>
inline void dcci(T* addr, uint64_t, uint64_t = 0, EMU_LOC) {
    AscendC::DataCacheCleanAndInvalid<T>(ascendc_emu::raw_global(addr), loc);
}
#endif  // ASCENDC_EMU_ASCENDC_EMU_CCE_H_
