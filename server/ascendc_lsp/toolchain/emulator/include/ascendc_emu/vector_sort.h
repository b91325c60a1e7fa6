// Basic sort (docs/zh/api/SIMD-API/基础API/Memory矢量计算/排序组合（ISASI）/): Sort32 and MrgSort on (score,
// index) pairs (A2/A3/310B/950), RpSort16 / MrgSort4 / ProposalConcat / ProposalExtract on 8-element Region
// Proposals (310P / 910A), GetMrgSortResult. Clean-room.
#ifndef ASCENDC_EMU_ASCENDC_EMU_VECTOR_SORT_H_
#define ASCENDC_EMU_ASCENDC_EMU_VECTOR_SORT_H_
#include <algorithm>
#include "vector_support.h"

#define ASCENDC_EMU_DTYPES_Sort32 "Ascend910B:half float;Ascend910_93:half float;Ascend310B:half float;Ascend950:half float"
#define ASCENDC_EMU_DTYPES_MrgSort ASCENDC_EMU_DTYPES_Sort32
#define ASCENDC_EMU_DTYPES_RpSort16 "Ascend310P:half float;Ascend910A:half"
#define ASCENDC_EMU_DTYPES_MrgSort4 ASCENDC_EMU_DTYPES_RpSort16
#define ASCENDC_EMU_DTYPES_ProposalConcat ASCENDC_EMU_DTYPES_RpSort16
#define ASCENDC_EMU_DTYPES_ProposalExtract ASCENDC_EMU_DTYPES_RpSort16

namespace AscendC {
#ifndef ASCENDC_EMU_MRGSORT_TYPES_DEFINED
#define ASCENDC_EMU_MRGSORT_TYPES_DEFINED
// Shared with the advanced sort APIs (lib/sort): define once.
template <typename T>
struct MrgSortSrcList {
    MrgSortSrcList() {}
    MrgSortSrcList(const LocalTensor<T> src1In, const LocalTensor<T> src2In, const LocalTensor<T> src3In,
                   const LocalTensor<T> src4In)
        : src1(src1In), src2(src2In), src3(src3In), src4(src4In) {}
    LocalTensor<T> src1, src2, src3, src4;
};
struct MrgSort4Info {
    MrgSort4Info() {}
    MrgSort4Info(const uint16_t lengths[4], const bool suspension, const uint16_t valid, const uint16_t repeat)
        : ifExhaustedSuspension(suspension), validBit(valid), repeatTimes(repeat) {
        for (int i = 0; i < 4; i++) elementLengths[i] = lengths[i];
    }
    uint16_t elementLengths[4] = {0, 0, 0, 0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint16_t repeatTimes = 1;
};
#endif
}  // namespace AscendC

namespace ascendc_emu {
using AscendC::LocalTensor;
// Descending score order; NaN counts as the largest score (an assumption: the docs do not say).
inline bool score_before(double a, double b) {
    if (std::isnan(a)) return !std::isnan(b);
    if (std::isnan(b)) return false;
    return a > b;
}
// A k-way merge of sorted lists of `unit`-byte records whose score is the T at byte `score_off`; ties keep the
// earlier list first. Stops when a list runs out if `suspend`. consumed[i] = records taken from list i.
template <class T>
inline uint64_t merge_lists(uint8_t* dst, const uint8_t* const* src, const uint32_t* len, int lists, size_t unit,
                            size_t score_off, bool suspend, uint16_t* consumed) {
    uint32_t pos[4] = {0, 0, 0, 0};
    uint64_t out = 0;
    std::vector<uint8_t> buf;
    for (;;) {
        int best = -1;
        double bs = 0;
        bool exhausted = false;
        for (int i = 0; i < lists; i++) {
            if (pos[i] >= len[i]) { exhausted = true; continue; }
            double s = (double)(calc_t<T>)ldx<T>(src[i] + (size_t)pos[i] * unit + score_off);
            if (best < 0 || score_before(s, bs)) { best = i; bs = s; }
        }
        if (best < 0) break;
        if (suspend && exhausted) break;
        buf.insert(buf.end(), src[best] + (size_t)pos[best] * unit, src[best] + (size_t)(pos[best] + 1) * unit);
        pos[best]++;
        out++;
    }
    if (!buf.empty()) memcpy(dst, buf.data(), buf.size());
    for (int i = 0; i < 4; i++) consumed[i] = (uint16_t)(i < lists ? pos[i] : 0);
    return out;
}
inline int valid_lists(uint16_t validBit, const char* api, const Loc& loc) {
    if (validBit == 3) return 2;
    if (validBit == 7) return 3;
    if (validBit == 15) return 4;
    report_error("mrgsort-validbit", "vector-param-invalid", P_V, api, loc,
                 "%s validBit is %u; the valid values are 3, 7 and 15 (2, 3 or 4 lists)", api, (unsigned)validBit);
    return 0;
}
// MrgSort / MrgSort4 body: unit = record bytes, score at score_off, lengths in records.
template <class T>
inline void mrgsort(const char* api, const LocalTensor<T>& dst, const AscendC::MrgSortSrcList<T>& s,
                    const AscendC::MrgSort4Info& p, size_t unit, size_t score_off, const Loc& loc) {
    begin_epoch(P_V);
    int lists = valid_lists(p.validBit, api, loc);
    const LocalTensor<T>* src[4] = {&s.src1, &s.src2, &s.src3, &s.src4};
    uint32_t len[4] = {p.elementLengths[0], p.elementLengths[1], p.elementLengths[2], p.elementLengths[3]};
    int reps = p.repeatTimes;
    bool multi = lists == 4 && !p.ifExhaustedSuspension && len[0] == len[1] && len[1] == len[2] && len[2] == len[3] &&
                 s.src2.ptr_ == s.src1.ptr_ + len[0] * unit && s.src3.ptr_ == s.src2.ptr_ + len[0] * unit &&
                 s.src4.ptr_ == s.src3.ptr_ + len[0] * unit;
    if (reps > 1 && !multi) {
        report_warning("mrgsort-repeat", "vector-param-invalid", P_V, api, loc,
                       "%s repeatTimes %d needs 4 equal-length lists stored back to back, validBit 15 and "
                       "ifExhaustedSuspension false; the merge runs once", api, reps);
        reps = 1;
    }
    uint64_t total = 0;
    uint16_t consumed[4] = {0, 0, 0, 0};
    for (int r = 0; r < reps && lists; r++) {
        uint64_t shift = (uint64_t)r * 4 * len[0] * unit;
        const uint8_t* ptr[4];
        bool ok = true;
        uint64_t n = 0;
        for (int i = 0; i < lists; i++) {
            if (src[i]->ptr_ == dst.ptr_)
                report_warning("mrgsort-overlap", "vector-param-invalid", P_V, api, loc,
                               "%s source list %d and the destination are the same address, which the API does not "
                               "support", api, i + 1);
            ok = src[i]->emu_check_bytes(shift, (uint64_t)len[i] * unit, false, P_V, api, loc, 8) && ok;
            ptr[i] = src[i]->ptr_ + shift;
            n += len[i];
        }
        ok = dst.emu_check_bytes(shift, n * unit, true, P_V, api, loc) && ok;
        if (!ok) continue;
        total += merge_lists<T>(dst.ptr_ + shift, ptr, len, lists, unit, score_off, p.ifExhaustedSuspension, consumed);
    }
    VecRegs& rg = vregs();
    for (int i = 0; i < 4; i++) rg.mrg_counts[i] = consumed[i];
    trace_vec(api, dtype_name<T>(), total * unit / sizeof(T), (total * unit + 255) / 256, loc);
}
}  // namespace ascendc_emu

namespace AscendC {
// ---- Sort32 (Sort32.md): per repeat, 32 scores and their uint32 indices sorted by descending score into 32
// records of 8 bytes: score in the low bytes (half: 2 B score, 2 B reserved = 0), index in the high 4 bytes;
// equal scores keep the lower position first. Repeats are independent (src0 +32 elements, src1 +128 B, dst +256 B).
template <typename T>
inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
                   const int32_t repeatTime, EMU_LOC) {
    using namespace ascendc_emu;
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Sort32 sorts half or float scores");
    begin_epoch(P_V);
    check_dtype<T>("Sort32", ASCENDC_EMU_DTYPES_Sort32, loc);
    int rep = check_repeat(repeatTime, "Sort32", loc);
    bool ok = src0.emu_check(0, (uint64_t)rep * 32, false, P_V, "Sort32", loc);
    ok = src1.emu_check(0, (uint64_t)rep * 32, false, P_V, "Sort32", loc) && ok;
    ok = dst.emu_check_bytes(0, (uint64_t)rep * 256, true, P_V, "Sort32", loc) && ok;
    if (ok)
        for (int r = 0; r < rep; r++) {
            int order[32];
            double score[32];
            for (int i = 0; i < 32; i++) {
                order[i] = i;
                score[i] = (double)ldx<T>(src0.ptr_ + ((size_t)r * 32 + i) * sizeof(T));
            }
            std::stable_sort(order, order + 32, [&](int a, int b) { return score_before(score[a], score[b]); });
            uint8_t out[256] = {};
            for (int k = 0; k < 32; k++) {
                int i = order[k];
                memcpy(out + k * 8, src0.ptr_ + ((size_t)r * 32 + i) * sizeof(T), sizeof(T));
                memcpy(out + k * 8 + 4, src1.ptr_ + ((size_t)r * 32 + i) * 4, 4);
            }
            memcpy(dst.ptr_ + (size_t)r * 256, out, 256);
        }
    trace_vec("Sort32", dtype_name<T>(), (uint64_t)rep * 32, (uint64_t)rep, loc);
}
// ---- MrgSort (MrgSort.md): merge up to 4 sorted lists of 8-byte (score, index) records; elementLengths in
// records; repeatTimes applies to 4 equal, contiguous lists only.
template <typename T>
inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params, EMU_LOC) {
    ascendc_emu::check_dtype<T>("MrgSort", ASCENDC_EMU_DTYPES_MrgSort, loc);
    ascendc_emu::mrgsort("MrgSort", dst, src, params, 8, 0, loc);
}
// ---- MrgSort4 (MrgSort4.md): the same on Region Proposals (8 elements of T, score at element 4).
template <typename T>
inline void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params, EMU_LOC) {
    ascendc_emu::check_dtype<T>("MrgSort4", ASCENDC_EMU_DTYPES_MrgSort4, loc);
    ascendc_emu::mrgsort("MrgSort4", dst, src, params, 8 * sizeof(T), 4 * sizeof(T), loc);
}
// GetMrgSortResult (GetMrgSortResult.md): records taken from each list by the last MrgSort / MrgSort4.
inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                             uint16_t& mrgSortList4, EMU_LOC) {
    using namespace ascendc_emu;
    begin_epoch(P_S);
    trace_scalar("GetMrgSortResult", SP_UB, loc, false);
    VecRegs& r = vregs();
    mrgSortList1 = r.mrg_counts[0];
    mrgSortList2 = r.mrg_counts[1];
    mrgSortList3 = r.mrg_counts[2];
    mrgSortList4 = r.mrg_counts[3];
}
// ---- RpSort16 (RpSort16.md): per repeat, 16 Region Proposals (8 elements each) sorted by descending score.
template <typename T>
inline void RpSort16(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, EMU_LOC) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    check_dtype<T>("RpSort16", ASCENDC_EMU_DTYPES_RpSort16, loc);
    int rep = check_repeat(repeatTime, "RpSort16", loc);
    const size_t unit = 8 * sizeof(T);
    bool ok = src.emu_check(0, (uint64_t)rep * 128, false, P_V, "RpSort16", loc);
    ok = dst.emu_check(0, (uint64_t)rep * 128, true, P_V, "RpSort16", loc) && ok;
    if (ok)
        for (int r = 0; r < rep; r++) {
            const uint8_t* s = src.ptr_ + (size_t)r * 16 * unit;
            int order[16];
            double score[16];
            for (int i = 0; i < 16; i++) {
                order[i] = i;
                score[i] = (double)ldx<T>(s + i * unit + 4 * sizeof(T));
            }
            std::stable_sort(order, order + 16, [&](int a, int b) { return score_before(score[a], score[b]); });
            std::vector<uint8_t> out(16 * unit);
            for (int k = 0; k < 16; k++) memcpy(out.data() + k * unit, s + order[k] * unit, unit);
            memcpy(dst.ptr_ + (size_t)r * 16 * unit, out.data(), out.size());
        }
    trace_vec("RpSort16", dtype_name<T>(), (uint64_t)rep * 128, (uint64_t)rep * unit * 16 / 256, loc);
}
// ---- ProposalConcat / ProposalExtract (ProposalConcat.md / ProposalExtract.md): 16 consecutive elements to
// (from) position modeNumber (0 x1, 1 y1, 2 x2, 3 y2, 4 score, 5 label) of 16 proposals per repeat.
namespace detail_sort {
template <class T>
inline void proposal_move(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime,
                          int32_t modeNumber, bool concat, const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    check_dtype<T>(api, ASCENDC_EMU_DTYPES_RpSort16, loc);
    int rep = check_repeat(repeatTime, api, loc);
    if (modeNumber < 0 || modeNumber > 5) {
        report_error("proposal-mode", "vector-param-invalid", P_V, api, loc,
                     "%s modeNumber is %d; valid 0 ~ 5 (x1, y1, x2, y2, score, label)", api, (int)modeNumber);
        return;
    }
    uint64_t flat = (uint64_t)rep * 16, prop = (uint64_t)rep * 128;
    bool ok = src.emu_check(0, concat ? flat : prop, false, P_V, api, loc);
    ok = dst.emu_check(0, concat ? prop : flat, true, P_V, api, loc) && ok;
    if (ok)
        for (uint64_t i = 0; i < flat; i++) {
            uint8_t* d = dst.ptr_ + (concat ? i * 8 + (uint64_t)modeNumber : i) * sizeof(T);
            const uint8_t* s = src.ptr_ + (concat ? i : i * 8 + (uint64_t)modeNumber) * sizeof(T);
            memcpy(d, s, sizeof(T));
        }
    trace_vec(api, dtype_name<T>(), flat, (uint64_t)rep, loc);
}
}  // namespace detail_sort
template <typename T>
inline void ProposalConcat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                           const int32_t modeNumber, EMU_LOC) {
    detail_sort::proposal_move("ProposalConcat", dst, src, repeatTime, modeNumber, true, loc);
}
template <typename T>
inline void ProposalExtract(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                            const int32_t modeNumber, EMU_LOC) {
    detail_sort::proposal_move("ProposalExtract", dst, src, repeatTime, modeNumber, false, loc);
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_VECTOR_SORT_H_
