// Reductions added on top of vector_ext.h (clean-room, docs/zh/api/SIMD-API/基础API/Memory矢量计算/归约计算/):
// the CANN 9.1 names ReduceRepeat / ReduceDataBlock / ReducePairElem (WholeReduce* / BlockReduce* /
// PairReduceSum / RepeatReduceSum before), the mask forms of ReduceMax / ReduceMin / ReduceSum, and the reduce
// special registers: GetReduceRepeatMaxMinSpr (formerly GetReduceMaxMinCount), GetReduceRepeatSumSpr (formerly
// GetAccVal).
#ifndef ASCENDC_EMU_ASCENDC_EMU_VECTOR_REDUCE_H_
#define ASCENDC_EMU_ASCENDC_EMU_VECTOR_REDUCE_H_
#include "vector_support.h"

namespace AscendC {
#ifndef ASCENDC_EMU_REDUCE_TYPE_DEFINED
#define ASCENDC_EMU_REDUCE_TYPE_DEFINED
enum class ReduceType : uint8_t { SUM = 0, MAX, MIN };
#endif

// ---- ReduceRepeat (ReduceRepeat.md): one result per repeat, as WholeReduceSum / WholeReduceMax / Min.
template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                         const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                         const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, EMU_LOC) {
    static_assert(std::is_same<T, U>::value, "ReduceRepeat: source and destination types differ only on Ascend950 "
                                             "int16->int32 sums, which the emulator does not model");
    if (reduceType == ReduceType::SUM)
        WholeReduceSum<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, loc);
    else if (reduceType == ReduceType::MAX)
        WholeReduceMax<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, loc);
    else
        WholeReduceMin<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, loc);
}
template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                         const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                         const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, EMU_LOC) {
    static_assert(std::is_same<T, U>::value, "ReduceRepeat: source and destination types differ only on Ascend950 "
                                             "int16->int32 sums, which the emulator does not model");
    if (reduceType == ReduceType::SUM)
        WholeReduceSum<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, loc);
    else if (reduceType == ReduceType::MAX)
        WholeReduceMax<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, loc);
    else
        WholeReduceMin<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, loc);
}
// RepeatReduceSum (the pre-9.1 name): (dst, src, repeatTime, mask, dstBlkStride (ignored), srcBlkStride,
// dstRepStride, srcRepStride).
template <typename T, bool isSetMask = true>
inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                            const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                            const int32_t dstRepStride, const int32_t srcRepStride, EMU_LOC) {
    (void)dstBlkStride;
    WholeReduceSum<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, loc);
}
template <typename T, bool isSetMask = true>
inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                            const uint64_t mask[], const int32_t dstBlkStride, const int32_t srcBlkStride,
                            const int32_t dstRepStride, const int32_t srcRepStride, EMU_LOC) {
    (void)dstBlkStride;
    WholeReduceSum<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, loc);
}

// ---- ReduceDataBlock (ReduceDataBlock.md): one result per 32-byte block, as BlockReduceSum / Max / Min with the
// mask before repeatTime.
template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                            const int32_t srcRepStride, EMU_LOC) {
    static_assert(std::is_same<T, U>::value, "ReduceDataBlock: source and destination types must match");
    if (reduceType == ReduceType::SUM)
        BlockReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
    else if (reduceType == ReduceType::MAX)
        BlockReduceMax<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
    else
        BlockReduceMin<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
}
template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                            const int32_t srcRepStride, EMU_LOC) {
    static_assert(std::is_same<T, U>::value, "ReduceDataBlock: source and destination types must match");
    if (reduceType == ReduceType::SUM)
        BlockReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
    else if (reduceType == ReduceType::MAX)
        BlockReduceMax<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
    else
        BlockReduceMin<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
}

// ---- ReducePairElem (ReducePairElem.md): adjacent (even, odd) pairs summed; SUM is the only reduceType.
template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                           const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                           const int32_t srcRepStride, EMU_LOC) {
    static_assert(reduceType == ReduceType::SUM, "ReducePairElem supports ReduceType::SUM only");
    static_assert(std::is_same<T, U>::value, "ReducePairElem: source and destination types must match");
    PairReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
}
template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                           const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                           const int32_t srcRepStride, EMU_LOC) {
    static_assert(reduceType == ReduceType::SUM, "ReducePairElem supports ReduceType::SUM only");
    static_assert(std::is_same<T, U>::value, "ReducePairElem: source and destination types must match");
    PairReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
}

// ---- ReduceMax / ReduceMin mask forms (ReduceMax.md, ReduceMin.md): the extreme over the active lanes of all
// repeats (source block stride 1), dst = value [, index] with index = repeat * elements per repeat + lane
// (smallest index on ties), the index stored in the bits of T. The work tensor must hold the documented
// intermediate results (sharedTmpBuffer size rules in ReduceMax.md).
namespace detail_red {
inline uint64_t work_elems(uint64_t repeats, uint64_t per_rep, uint64_t per_blk, bool idx) {
    auto up = [](uint64_t a, uint64_t b) { return (a + b - 1) / b; };
    uint64_t it1 = repeats * 2;
    if (!idx) return up(it1, per_blk) * per_blk;
    uint64_t it2_start = up(it1, per_blk) * per_blk;
    uint64_t it2 = up(it1, per_rep) * 2;
    uint64_t it2_end = up(it2, per_blk) * per_blk;
    uint64_t need = it2_start + it2_end;
    if (it2 > 2) {
        uint64_t it3 = up(it2, per_rep) * 2;
        need = it2_start + it2_end + up(it3, per_blk) * per_blk;
    }
    return need;
}
template <class T>
inline void minmax0(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                    int32_t repeatTime, int32_t srcRepStride, bool calIndex, bool isMax, const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    int rep = check_repeat(repeatTime, api, loc);
    const uint64_t per_rep = 256 / sizeof(T), per_blk = 32 / sizeof(T);
    if (strcmp(soc_profile(), "Ascend950") && rep > 0)  // the 950 needs no work space
        work.emu_check(0, work_elems((uint64_t)rep, per_rep, per_blk, calIndex), true, P_V, api, loc);
    uint64_t elems = 0;
    int reps = 0;
    bool found = false;
    calc_t<T> best = 0;
    uint32_t best_i = 0;
    if (dst.emu_check(0, calIndex ? 2 : 1, true, P_V, api, loc, sizeof(T) == 2 ? 4 : 8))
        repeats(api, src, rep, 1, (uint32_t)srcRepStride, loc,
                [&](int r, std::vector<calc_t<T>>& v, std::vector<int>& lanes) {
                    for (size_t i = 0; i < v.size(); i++)
                        if (!found || (isMax ? v[i] > best : v[i] < best)) {
                            found = true;
                            best = v[i];
                            best_i = (uint32_t)((uint64_t)r * per_rep + (uint64_t)lanes[i]);
                        }
                },
                elems, reps);
    if (found) {
        T o = (T)best;
        memcpy(dst.ptr_, &o, sizeof(T));
        if (calIndex) {
            if (sizeof(T) == 2 && best_i > 65535)
                report_warning("reduce-index", "precision-mismatch", P_V, api, loc,
                               "%s index %u does not fit the 16-bit index slot of a half result", api, best_i);
            store_index<T>(dst.ptr_ + sizeof(T), (int)sizeof(T), best_i);
        }
        spr_extreme<T>((double)best, best_i, true, isMax);
    }
    trace_vec(api, dtype_name<T>(), elems, (uint64_t)reps, loc);
}
}  // namespace detail_red
template <typename T>
inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0,
                      EMU_LOC) {
    ascendc_emu::mask_arg_bits(256 / sizeof(T), mask, "ReduceMax", loc);
    detail_red::minmax0("ReduceMax", dst, src, sharedTmpBuffer, repeatTime, srcRepStride, calIndex, true, loc);
}
template <typename T>
inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0,
                      EMU_LOC) {
    ascendc_emu::mask_arg_cont(256 / sizeof(T), mask, "ReduceMax", loc);
    detail_red::minmax0("ReduceMax", dst, src, sharedTmpBuffer, repeatTime, srcRepStride, calIndex, true, loc);
}
template <typename T>
inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0,
                      EMU_LOC) {
    ascendc_emu::mask_arg_bits(256 / sizeof(T), mask, "ReduceMin", loc);
    detail_red::minmax0("ReduceMin", dst, src, sharedTmpBuffer, repeatTime, srcRepStride, calIndex, false, loc);
}
template <typename T>
inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0,
                      EMU_LOC) {
    ascendc_emu::mask_arg_cont(256 / sizeof(T), mask, "ReduceMin", loc);
    detail_red::minmax0("ReduceMin", dst, src, sharedTmpBuffer, repeatTime, srcRepStride, calIndex, false, loc);
}
// ReduceSum with a bit mask: installs the mask, then the continuous-mask form reads the register.
template <typename T>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride, EMU_LOC) {
    ascendc_emu::mask_arg_bits(256 / sizeof(T), mask, "ReduceSum", loc);
    ReduceSum<T, false>(dst, src, sharedTmpBuffer, 0, repeatTime, srcRepStride, loc);
}

// ---- reduce special registers (寄存器辅助接口/GetReduceRepeatMaxMinSpr(ISASI).md, GetReduceRepeatSumSpr(ISASI).md)
namespace detail_red {
inline void spr_read(const char* api, const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    begin_epoch(P_S);
    trace_scalar(api, SP_UB, loc, false);
}
template <class T>
inline void spr_maxmin(T& value, T* index, const char* api, const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    spr_read(api, loc);
    VecRegs& r = vregs();
    value = (T)r.red_value;
    if (index) {
        *index = T();
        memcpy(index, &r.red_index, sizeof(T) < 4 ? sizeof(T) : 4);  // the index sits in the bits of T
    }
}
}  // namespace detail_red
template <typename T>
inline void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex, EMU_LOC) {
    detail_red::spr_maxmin(maxMinValue, &maxMinIndex, "GetReduceRepeatMaxMinSpr", loc);
}
template <typename T>
inline void GetReduceRepeatMaxMinSpr(T& maxMinValue, EMU_LOC) {
    detail_red::spr_maxmin(maxMinValue, (T*)nullptr, "GetReduceRepeatMaxMinSpr", loc);
}
template <typename T>
inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex, EMU_LOC) {
    detail_red::spr_maxmin(maxMinValue, &maxMinIndex, "GetReduceMaxMinCount", loc);
}
template <typename T>
inline void GetReduceMaxMinCount(T& maxMinValue, EMU_LOC) {
    detail_red::spr_maxmin(maxMinValue, (T*)nullptr, "GetReduceMaxMinCount", loc);
}
template <typename T>
inline T GetReduceRepeatSumSpr(EMU_LOC) {
    detail_red::spr_read("GetReduceRepeatSumSpr", loc);
    return (T)ascendc_emu::vregs().red_sum;
}
// GetAccVal (the pre-8.5 name): GetAccVal<T>() is the sum; GetAccVal() returns the raw register, whose low bits
// hold the sum in the reduce's element type (kernels reinterpret it: *reinterpret_cast<float*>(&acc)).
template <typename T = uint64_t>
inline T GetAccVal(EMU_LOC) {
    detail_red::spr_read("GetAccVal", loc);
    if (std::is_same<T, uint64_t>::value) return (T)ascendc_emu::vregs().red_sum_bits;
    return (T)ascendc_emu::vregs().red_sum;
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_VECTOR_REDUCE_H_
