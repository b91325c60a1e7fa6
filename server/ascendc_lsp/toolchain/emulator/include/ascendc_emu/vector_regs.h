// The per-core special registers the basic vector APIs read and write, kept in Block::api_regs (runtime.h).
#ifndef ASCENDC_EMU_ASCENDC_EMU_VECTOR_REGS_H_
#define ASCENDC_EMU_ASCENDC_EMU_VECTOR_REGS_H_
#include "runtime.h"

namespace ascendc_emu {
// Special registers (docs: SetDeqScale, Compare (结果存入寄存器) / GetCmpMask / SetCmpMask,
// GetReduceRepeatMaxMinSpr / GetReduceRepeatSumSpr, GetMrgSortResult).
struct VecRegs {
    uint64_t cmp_mask[2];     // CMPMASK: 128 bits (Compare-to-register result, Select mode 0 without a selMask)
    uint64_t cmp_scalar;      // Select mode 1 scalar loaded by SetCmpMask (raw bits of src1[0])
    uint64_t cmp_sel_addr;    // Select mode 2 selMask address loaded by SetCmpMask (a host UB pointer here)
    double red_value;         // ReduceRepeat<MAX/MIN>, ReduceMax/ReduceMin: the extreme value
    uint32_t red_index;       // ... and its index (r * elements per repeat + lane for the repeat forms)
    uint32_t red_value_bits;  // raw bits of red_value in the reduce's element type
    double red_sum;           // ReduceSum (count form) / vcadd accumulation
    uint64_t red_sum_bits;    // raw bits of red_sum in the reduce's element type (GetAccVal() returns them)
    float deq_scale;          // DEQSCALE: half scale (int32 -> half Cast) or float scale (CastDequant)
    int16_t deq_offset;       // CastDequant offset (9 significant bits)
    uint8_t deq_sign;         // CastDequant signMode
    uint8_t deq_set;          // SetDeqScale was called
    uint16_t mrg_counts[4];   // MrgSort / MrgSort4: proposals consumed from each list
    uint64_t vdeq_addr;       // CastDequant vector quantisation table (host UB pointer)
    uint64_t pad_bits;        // SetPadValue: the MTE2 padding value's bytes (DataCopyPad GM->UB with isPad false)
    uint8_t pad_set;          // SetPadValue was called
    const char* gate_api[4];  // dtype_gate cache: (api, dtype) pairs already checked
    const char* gate_type[4];
    uint8_t gate_next;
};
static_assert(sizeof(VecRegs) <= sizeof(((Block*)nullptr)->api_regs), "VecRegs must fit Block::api_regs");
inline VecRegs& vregs() { return *reinterpret_cast<VecRegs*>(blk().api_regs); }

// ReduceMax/ReduceMin/ReduceRepeat<MAX/MIN> leave the extreme and its index in the reduce SPR
// (GetReduceRepeatMaxMinSpr); ReduceSum leaves the sum (GetReduceRepeatSumSpr).
template <class T> inline void spr_extreme(double v, uint32_t index, bool first, bool is_max) {
    VecRegs& r = vregs();
    if (first || (is_max ? v > r.red_value : v < r.red_value)) {
        T t = (T)v;
        r.red_value = v;
        r.red_index = index;
        r.red_value_bits = 0;
        memcpy(&r.red_value_bits, &t, sizeof(T) < 4 ? sizeof(T) : 4);
    }
}
template <class T> inline void spr_sum(T v) {
    VecRegs& r = vregs();
    r.red_sum = (double)(calc_t<T>)v;
    r.red_sum_bits = 0;
    memcpy(&r.red_sum_bits, &v, sizeof(T) < 8 ? sizeof(T) : 8);
}
// The int32 -> half conversions scale by DEQSCALE (SetDeqScale(half)); docs: 类型转换/Cast.md, SetDeqScale.md.
inline double deq_scale() { return vregs().deq_set ? (double)vregs().deq_scale : 1.0; }
inline void deq_note(const char* api, const Loc& loc) {
    if (!vregs().deq_set)
        report_warning("deqscale-unset", "precision-mismatch", P_V, api, loc,
                       "%s converts int32 to half through the DEQSCALE register, but SetDeqScale was never called: "
                       "the scale is undefined on the NPU (the emulator uses 1.0)", api);
}
}  // namespace ascendc_emu
#endif  // ASCENDC_EMU_ASCENDC_EMU_VECTOR_REGS_H_
