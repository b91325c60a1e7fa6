// Op-library kernel compatibility (clean-room): symbols the public op libraries' kernels (cann-ops and its copies)
// call besides the documented AscendC API, as the devkit docs describe them or, where undocumented, as the
// kernels use them:
// - PopStackBuffer (docs/zh/api/SIMD-API/基础API/资源管理/临时空间管理/PopStackBuffer.md): the whole remaining
//   space of a position as one LocalTensor;
// - the address registers VA0..VA7 (docs/zh/api/SIMD-API/C-API/vector_compute/asc_set_va_reg.md: 8 UB addresses
//   each) with set_va_reg_sb / asc_set_va_reg and the NCHW -> NC1HWC0 transposes that read them,
//   scatter_vnchwconv_b8/b16/b32 / asc_transto5hd_b8/b16/b32 (asc_transto5hd.md: the dst/src register and the
//   next one hold the 16 addresses): TransDataTo5HD with those lists (vector_transpose.h);
// - get_max_min_cnt(): the raw reduce max/min register GetReduceRepeatMaxMinSpr reads (value bits low, index high);
// - AscendC::Conditional<B, T, F>::type, the SDK's std::conditional, as kernels spell it;
// - TQueConfig (docs/zh/api/SIMD-API/基础API/资源管理/Pipe和Que框架/TQue/TQue简介.md), the `const TQueConfig*` form
//   of TQue's mask parameter: its fields are compile-time hints (bufferLen / bufferNumber as InitBuffer gets them,
//   the rest reserved), so the queue behaves as without them;
// - BRCB_BROADCAST_NUMBER, the elements one Brcb repeat broadcasts (Brcb.md: 8, one per DataBlock), and
//   SoftMaxFlashV2TilingFuncImpl, the kernel-side SoftMaxFlashV2TilingFunc (SoftmaxFlashV2.md) with srcM / srcK
//   as two numbers;
// - the raw-pointer forms op libraries call by the SDK's internal names (DuplicateImpl, DataCopyGM2UBImpl,
//   DataCopyUB2GMImpl, DataCopyPadGm2UBImpl, DataCopyPadUB2GMImpl, TransDataTo5HDImpl of uint64_t lists): each is the documented API
//   of the same name without `Impl` (Duplicate.md, DataCopy.md, DataCopyPad.md, TransDataTo5HD.md) on the tensors
//   the pointers address (cce.h raw_local / raw_global), so the same checks and traces apply.
// - IBSet / IBWait (docs/zh/api/SIMD-API/基础API/同步控制/核间同步/IBSet.md, IBWait.md): GM-flag inter-block
//   sync. The flag of (blockIdx, eventID) is the 32-byte slot eventID * coreNum + blockIdx of gmWorkspace (the
//   documented minimum size, coreNum * 32 B * eventID_max + blockIdx_max * 32 B + 32 B, is exactly that layout;
//   coreNum = GetBlockNum(), x2 in MIX mode). IBSet writes 1 there after the core's earlier work; IBWait reads
//   it until it is 1, the waiting block yielding its fibre so the others run; a wait nobody releases is the hang.
// - ffts_cross_core_sync(pipe, config) / wait_flag_dev(flagId): the raw forms of CrossCoreSetFlag /
//   CrossCoreWaitFlag (CrossCoreSetFlag(ISASI).md) as kernels spell them, config = 1 | mode << 4 | flagId << 8.
//   wait_flag_dev names no mode: it waits as a mode 0/1 wait when the flag is pending on the vector side (this
//   block's counter is raised, or a mode-0 round of it is open); otherwise it is the wait for the cube side, which
//   the emulator does not run (as CrossCoreWaitFlag mode 2), and returns at once.
// - inc / dec, the CCE names of LoadData's addrMode values (LoadData_2D.md: 0 increments the fractal index per
//   repeat, 1 decrements it), as stft writes `LoadData2dParams param = {..., false, inc}`;
// - ParamOffset<T>(addr, blockLength): the first releases' per-block GM offset, undocumented; the Add samples that
//   call it (samples' kernel_invocation/Add, acl_invocation) are later written `x + blockLength * GetBlockIdx()`,
//   which is what it returns (in elements of T);
#ifndef ASCENDC_EMU_ASCENDC_EMU_OP_KERNEL_COMPAT_H_
#define ASCENDC_EMU_ASCENDC_EMU_OP_KERNEL_COMPAT_H_
#include "cce.h"
#include "tpipe.h"
#include "vector_reduce.h"
#include "vector_transpose.h"
#include "adv_softmax.h"

namespace AscendC {
template <bool B, class T, class F>
struct Conditional {
    using type = T;
};
template <class T, class F>
struct Conditional<false, T, F> {
    using type = F;
};

struct TQueConfig {
    bool nd2nz = false;
    bool nz2nd = false;
    bool scmBlockGroup = false;
    uint32_t bufferLen = 0;
    uint32_t bufferNumber = 0;
    uint32_t consumerSize = 0;
    TPosition consumer[8] = {};
    bool enableStaticEvtId = false;
    bool enableLoopQueue = false;
};

constexpr uint32_t BRCB_BROADCAST_NUMBER = 8;

constexpr SoftMaxTiling SoftMaxFlashV2TilingFuncImpl(const uint32_t srcM, const uint32_t srcK,
                                                     const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                                     const uint32_t localWorkSpaceSize, const bool isUpdate = false,
                                                     const bool isBasicBlock = false,
                                                     const bool isDataFormatNZ = false,
                                                     const bool isFlashOutputBrc = false) {
    return SoftMaxFlashV2TilingFunc(SoftMaxShapeInfo{srcM, srcK, srcM, srcK}, dataTypeSize1, dataTypeSize2,
                                    localWorkSpaceSize, isUpdate, isBasicBlock, isDataFormatNZ, isFlashOutputBrc);
}

// PopStackBuffer.md: the tensor covers the position's remaining space, past every TPipe buffer (and, on UB, past
// the kernel's own static tensors), 32-byte aligned; false when nothing is left.
template <typename T, TPosition pos>
inline bool PopStackBuffer(LocalTensor<T>& popLocal, EMU_LOC) {
    using namespace ascendc_emu;
    (void)loc;
    Space sp = pos_space(pos);
    if (!rt().cur || sp == SP_GM) return false;
    Block& b = blk();
    uint64_t start = b.pipe ? b.pipe->used[sp] : 0;
    if (sp == SP_UB && b.ub_high > start) start = b.ub_high;
    start = (start + 31) / 32 * 32;
    uint64_t cap = space_capacity(sp);
    if (start >= cap) return false;
    popLocal.bind(pos, (uint32_t)start, (uint32_t)((cap - start) / sizeof(T)), false);
    return true;
}

template <typename T>
inline GM_ADDR ParamOffset(GM_ADDR addr, uint64_t blockLength) {
    return addr + (uint64_t)GetBlockIdx() * blockLength * sizeof(T);
}

// ---- the SDK's internal raw-pointer forms, as op libraries call them
template <typename T>
inline void DuplicateImpl(T* dst, const T& scalarValue, const int32_t& count, EMU_LOC) {
    Duplicate(ascendc_emu::raw_local(dst, "DuplicateImpl", loc), scalarValue, count, loc);
}
template <typename T>
inline void DataCopyGM2UBImpl(T* dst, T* src, const DataCopyParams& intriParams, EMU_LOC) {
    DataCopy(ascendc_emu::raw_local(dst, "DataCopyGM2UBImpl", loc), ascendc_emu::raw_global(src), intriParams, loc);
}
template <typename T>
inline void DataCopyUB2GMImpl(T* dst, T* src, const DataCopyParams& intriParams, EMU_LOC) {
    DataCopy(ascendc_emu::raw_global(dst), ascendc_emu::raw_local(src, "DataCopyUB2GMImpl", loc), intriParams, loc);
}
template <typename T>
inline void DataCopyPadGm2UBImpl(T* dst, T* src, const DataCopyExtParams& intriParams,
                                 const DataCopyPadExtParams<T>& padParams, EMU_LOC) {
    DataCopyPad(ascendc_emu::raw_local(dst, "DataCopyPadGm2UBImpl", loc), ascendc_emu::raw_global(src), intriParams,
                padParams, loc);
}
template <typename T>
inline void DataCopyPadGm2UBImpl(T* dst, T* src, const DataCopyParams& intriParams, const DataCopyPadParams& padParams,
                                 EMU_LOC) {
    DataCopyPad(ascendc_emu::raw_local(dst, "DataCopyPadGm2UBImpl", loc), ascendc_emu::raw_global(src), intriParams,
                padParams, loc);
}
template <typename T>
inline void DataCopyPadUB2GMImpl(T* dst, T* src, const DataCopyExtParams& intriParams, EMU_LOC) {
    DataCopyPad(ascendc_emu::raw_global(dst), ascendc_emu::raw_local(src, "DataCopyPadUB2GMImpl", loc), intriParams,
                loc);
}
template <typename T>
inline void DataCopyPadUB2GMImpl(T* dst, T* src, const DataCopyParams& intriParams, EMU_LOC) {
    DataCopyPad(ascendc_emu::raw_global(dst), ascendc_emu::raw_local(src, "DataCopyPadUB2GMImpl", loc), intriParams,
                loc);
}
// TransDataTo5HDImpl with uint64_t address lists (the UB-pointer lists form is in vector_transpose.h)
template <typename T>
inline void TransDataTo5HDImpl(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                               const TransDataTo5HDParams& nchwconvParams, EMU_LOC) {
    TransDataTo5HD<T>(dstList, srcList, nchwconvParams, loc);
}
}  // namespace AscendC

// ---- ffts_cross_core_sync / wait_flag_dev (see the header comment)
inline void ffts_cross_core_sync(pipe_t pipe, uint64_t config, EMU_LOC) {
    if (!ascendc_emu::rt().cur) return;
    ascendc_emu::cross_core_set((int)(config >> 4 & 3), ascendc_emu::pipe_of(pipe), (int)(config >> 8 & 15), loc);
}
inline void wait_flag_dev(int64_t flagId, EMU_LOC) {
    using namespace ascendc_emu;
    if (!rt().cur) return;
    const int id = (int)(flagId & 15);
    const bool vector_side = blk().xcnt[id] > 0 || rt().xarrived[id] > 0;
    cross_core_wait(vector_side ? 0 : 2, P_S, id, loc);
}

// ---- IBSet / IBWait: GM flags between blocks (see the header comment)
namespace ascendc_emu {
constexpr int kIbWaitId = -3;  // Block::xwait_id of a block parked in IBWait (tpipe.h reports it if never released)
inline int32_t* ib_flag(const AscendC::GlobalTensor<int32_t>& gm, const AscendC::LocalTensor<int32_t>& ub,
                        int32_t blockIdx, int32_t eventID, bool aivOnly, bool write, const char* api,
                        const Loc& loc) {
    Runtime& r = rt();
    const int64_t core_num = AscendC::GetBlockNum() * (aivOnly ? 1 : 2);
    if (blockIdx < 0 || blockIdx >= r.block_dim || eventID < 0) {
        report_error("ib-sync", "invalid-argument", P_S, api, loc,
                     "%s(blockIdx=%d, eventID=%d): blockIdx must be a running block, in [0, %d], and eventID >= 0",
                     api, blockIdx, eventID, r.block_dim - 1);
        return nullptr;
    }
    if (ub.GetSize() * sizeof(int32_t) < 32)
        report_error("ib-sync", "invalid-argument", P_S, api, loc,
                     "%s: ubWorkspace holds %u B; it needs at least 32 B", api,
                     (unsigned)(ub.GetSize() * sizeof(int32_t)));
    int32_t* flag = gm.GetPhyAddr((uint64_t)eventID * (uint64_t)core_num * 8 + (uint64_t)blockIdx * 8);
    uint64_t lo = 0, hi = 0;
    if (!gm_check(flag, sizeof(int32_t), write, P_S, api, loc, &lo, &hi) || lo != 0 || hi != sizeof(int32_t))
        return nullptr;
    return flag;
}
template <bool isAIVOnly>
inline void ib_set(const AscendC::GlobalTensor<int32_t>& gm, const AscendC::LocalTensor<int32_t>& ub,
                   int32_t blockIdx, int32_t eventID, const Loc& loc) {
    if (!rt().cur) return;
    pipe_barrier(P_ALL, loc);  // the flag leaves after the core's earlier GM writes
    int32_t* flag = ib_flag(gm, ub, blockIdx, eventID, isAIVOnly, true, "IBSet", loc);
    Ev ev;
    trace_begin(ev, P_MTE3, "IBSet", loc);
    if (ev.on) ev.j.i("blockIdx", blockIdx).i("eventID", eventID);
    trace_end(ev);
    if (!flag) return;
    *flag = 1;
    for (Block* o : rt().blocks)
        if (o->state == BS_XWAIT && o->xwait_id == kIbWaitId) o->state = BS_RUNNABLE;
}
template <bool isAIVOnly>
inline void ib_wait(const AscendC::GlobalTensor<int32_t>& gm, const AscendC::LocalTensor<int32_t>& ub,
                    int32_t blockIdx, int32_t eventID, const Loc& loc) {
    if (!rt().cur) return;
    Runtime& r = rt();
    Block& b = blk();
    volatile int32_t* flag = ib_flag(gm, ub, blockIdx, eventID, isAIVOnly, false, "IBWait", loc);
    if (!flag) return;
    b.sync_loc = loc;
    while (*flag != 1) {
        b.state = BS_XWAIT;
        b.xwait_id = kIbWaitId;
        swapcontext(&b.ctx, &r.main_ctx);
    }
    b.xwait_id = -1;
    Ev ev;
    trace_begin(ev, P_MTE2, "IBWait", loc);
    if (ev.on) ev.j.i("blockIdx", blockIdx).i("eventID", eventID);
    trace_end(ev);
    pipe_barrier(P_ALL, loc);  // the core's later work starts after the flag was seen
}
}  // namespace ascendc_emu
namespace AscendC {
template <bool isAIVOnly = true>
inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
                  int32_t eventID, EMU_LOC) {
    ascendc_emu::ib_set<isAIVOnly>(gmWorkspace, ubWorkspace, blockIdx, eventID, loc);
}
template <bool isAIVOnly = true>
inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                   int32_t blockIdx, int32_t eventID, EMU_LOC) {
    ascendc_emu::ib_wait<isAIVOnly>(gmWorkspace, ubWorkspace, blockIdx, eventID, loc);
}
}  // namespace AscendC

// The core types under the SDK's namespace too (catlass kernels write AscendC::AIC / AscendC::AIV): the same
// entities as cce.h's, so unqualified uses stay unambiguous.
namespace AscendC {
using ::AIC;
using ::AIV;
}  // namespace AscendC

// ---- LoadData addrMode values
enum addr_cal_mode_t : uint8_t { inc = 0, dec = 1 };

// ---- address registers (ub_addr8_t)
enum ub_addr8_t : uint8_t { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };

namespace ascendc_emu {
inline void set_va_reg(ub_addr8_t reg, const uint64_t* addrs, const char* api, const Loc& loc) {
    if (!rt().cur) return;
    if ((int)reg > 7) {
        report_error("va-register", "invalid-argument", P_V, api, loc, "%s: address register %d does not exist (VA0..VA7)",
                     api, (int)reg);
        return;
    }
    for (int i = 0; i < 8; i++) blk().va_regs[reg][i] = addrs[i];
}
// The 16 addresses a transpose reads from `reg` and the register after it.
inline bool va_addresses(ub_addr8_t reg, uint64_t out[16], const char* api, const Loc& loc) {
    if ((int)reg > 6) {
        report_error("va-register", "invalid-argument", P_V, api, loc,
                     "%s: register VA%d holds the first 8 of 16 addresses, the next register the rest; VA%d has no "
                     "next register", api, (int)reg, (int)reg);
        return false;
    }
    for (int i = 0; i < 16; i++) out[i] = blk().va_regs[reg + i / 8][i % 8];
    return true;
}
template <class T>
inline void va_transto5hd(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride, uint16_t srcStride,
                          bool dstHigh, bool srcHigh, const char* api, const Loc& loc) {
    if (!rt().cur) return;
    uint64_t d[16], s[16];
    if (!va_addresses(dst, d, api, loc) || !va_addresses(src, s, api, loc)) return;
    AscendC::TransDataTo5HD<T>(d, s, AscendC::TransDataTo5HDParams(dstHigh, srcHigh, repeat, dstStride, srcStride),
                               loc);
}
}  // namespace ascendc_emu

template <class P>
inline void set_va_reg_sb(ub_addr8_t reg, P* addrs, EMU_LOC) {  // P: uint64_t (addresses) or a pointer type
    static_assert(sizeof(P) == 8, "set_va_reg_sb takes 8 addresses of 64 bits");
    uint64_t a[8];
    memcpy(a, addrs, sizeof a);
    ascendc_emu::set_va_reg(reg, a, "set_va_reg_sb", loc);
}
template <class T>
inline void asc_set_va_reg(ub_addr8_t reg, T** src_array, EMU_LOC) {
    uint64_t a[8];
    for (int i = 0; i < 8; i++) a[i] = (uint64_t)(uintptr_t)src_array[i];
    ascendc_emu::set_va_reg(reg, a, "asc_set_va_reg", loc);
}
inline void scatter_vnchwconv_b16(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
                                  uint16_t srcStride, EMU_LOC) {
    ascendc_emu::va_transto5hd<half>(dst, src, repeat, dstStride, srcStride, false, false, "scatter_vnchwconv_b16", loc);
}
inline void scatter_vnchwconv_b32(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
                                  uint16_t srcStride, EMU_LOC) {
    ascendc_emu::va_transto5hd<float>(dst, src, repeat, dstStride, srcStride, false, false, "scatter_vnchwconv_b32", loc);
}
inline void scatter_vnchwconv_b8(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
                                 uint16_t srcStride, bool dstHighHalf, bool srcHighHalf, EMU_LOC) {
    ascendc_emu::va_transto5hd<int8_t>(dst, src, repeat, dstStride, srcStride, dstHighHalf, srcHighHalf,
                                       "scatter_vnchwconv_b8", loc);
}
inline void asc_transto5hd_b16(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dst_stride,
                               uint16_t src_stride, EMU_LOC) {
    ascendc_emu::va_transto5hd<half>(dst, src, repeat, dst_stride, src_stride, false, false, "asc_transto5hd_b16", loc);
}
inline void asc_transto5hd_b32(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dst_stride,
                               uint16_t src_stride, EMU_LOC) {
    ascendc_emu::va_transto5hd<float>(dst, src, repeat, dst_stride, src_stride, false, false, "asc_transto5hd_b32", loc);
}
inline void asc_transto5hd_b8(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dst_stride,
                              uint16_t src_stride, bool dst_high_half, bool src_high_half, EMU_LOC) {
    ascendc_emu::va_transto5hd<int8_t>(dst, src, repeat, dst_stride, src_stride, dst_high_half, src_high_half,
                                       "asc_transto5hd_b8", loc);
}

// get_max_min_cnt(): the reduce max/min special register as one value; kernels reinterpret its low bits as the
// extreme value (`*reinterpret_cast<float*>(&reg)`), the high 32 bits hold its index.
inline uint64_t get_max_min_cnt(EMU_LOC) {
    AscendC::detail_red::spr_read("get_max_min_cnt", loc);
    const ascendc_emu::VecRegs& r = ascendc_emu::vregs();
    return (uint64_t)r.red_index << 32 | r.red_value_bits;
}
#endif  // ASCENDC_EMU_ASCENDC_EMU_OP_KERNEL_COMPAT_H_
