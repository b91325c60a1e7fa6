// Shared pieces of the basic vector APIs added on top of vector.h / vector_ext.h (clean-room):
// - the per-core special registers those APIs read and write (DEQSCALE, CMPMASK, the reduce SPRs, the MrgSort
//   counters), kept in Block::api_regs;
// - per-SoC data-type checks against tables that carry the same lists as knowledge/api/*.yaml
//   (tests/test_api_agreement.py compares the two), reported as the NPU build would refuse the call;
// - checks for raw UB addresses (GetPhyAddr() values passed as uint64_t, e.g. TransDataTo5HD address lists).
#ifndef ASCENDC_EMU_ASCENDC_EMU_VECTOR_SUPPORT_H_
#define ASCENDC_EMU_ASCENDC_EMU_VECTOR_SUPPORT_H_
#include "vector_ext.h"
#include "vector_regs.h"
#include "vector_dtypes.h"

namespace ascendc_emu {

// A raw UB address (a GetPhyAddr() value): must lie in this core's UB and be `align`-byte aligned. Records the
// access for the race detector. Returns the host pointer, or nullptr when it must not be touched.
EMU_RT_FN uint8_t* ub_addr(uint64_t host, uint64_t bytes, bool write, const char* api, const Loc& loc,
                           uint32_t align = 32)
#if ASCENDC_EMU_RT_BODIES
{
    Block& b = blk();
    uint8_t* p = (uint8_t*)(uintptr_t)host;
    uint64_t cap = rt().soc.bytes[SP_UB];
    if (p < b.mem[SP_UB] || p + bytes > b.mem[SP_UB] + cap) {
        report_error("local-bounds", "ub-out-of-bounds", P_V, api, loc,
                     "%s %s %s B at address 0x%llx, which is not inside this core's Unified Buffer (%s B); pass "
                     "LocalTensor::GetPhyAddr() values", api, write ? "writes" : "reads", EMU_N(bytes),
                     (unsigned long long)host, EMU_N(cap));
        return nullptr;
    }
    uint64_t a = (uint64_t)(p - b.mem[SP_UB]);
    if (align > 1 && a % align)
        report_error("address-alignment", "misaligned-access", P_V, api, loc,
                     "%s %s address UB 0x%llx is not %u-byte aligned", api, write ? "destination" : "source",
                     (unsigned long long)a, align);
    shadow_access(SP_UB, a, bytes, write, P_V, intern_site(loc.file, loc.line, api), api, loc);
    return p;
}
#else
;
#endif

// Location for calls that cannot carry the caller's line (an API passed as a function pointer): the last
// API call site of this core.
inline Loc last_loc_or(const Loc& fallback) {
    return rt().cur && blk().last_loc.file ? blk().last_loc : fallback;
}

// Reads/writes one element of type T at a byte pointer as the vector unit computes it (fp32 for 16-bit floats).
template <class T> inline calc_t<T> ldx(const uint8_t* p) { T v; memcpy(&v, p, sizeof(T)); return (calc_t<T>)v; }
template <class T> inline void stx(uint8_t* p, calc_t<T> v) { T t = (T)v; memcpy(p, &t, sizeof(T)); }

// Bounds of a count-form call whose count may be negative (reported once, treated as 0).
EMU_RT_FN int64_t check_count(int64_t count, const char* api, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    if (count < 0) {
        report_error("count-range", "vector-param-invalid", P_V, api, loc, "%s count is %lld (negative)", api,
                     (long long)count);
        return 0;
    }
    return count;
}
#else
;
#endif

}  // namespace ascendc_emu
#endif  // ASCENDC_EMU_ASCENDC_EMU_VECTOR_SUPPORT_H_
