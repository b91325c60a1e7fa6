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

namespace ascendc_emu {

// Element type names as knowledge/api/*.yaml spells them.
template <class T> constexpr const char* cat_type() {
    return std::is_same<T, half>::value ? "half" : std::is_same<T, bfloat16_t>::value ? "bfloat16_t"
         : std::is_same<T, float>::value ? "float" : std::is_same<T, double>::value ? "double"
         : std::is_same<T, int8_t>::value ? "int8_t" : std::is_same<T, uint8_t>::value ? "uint8_t"
         : std::is_same<T, int16_t>::value ? "int16_t" : std::is_same<T, uint16_t>::value ? "uint16_t"
         : std::is_same<T, int32_t>::value ? "int32_t" : std::is_same<T, uint32_t>::value ? "uint32_t"
         : std::is_same<T, int64_t>::value ? "int64_t" : std::is_same<T, uint64_t>::value ? "uint64_t"
         : std::is_same<T, bool>::value ? "bool" : "other";
}

// The SoC profile (knowledge/hardware/<name>.yaml) the running SoC belongs to: Ascend910B3 -> Ascend910B.
EMU_RT_FN const char* soc_profile()
#if ASCENDC_EMU_RT_BODIES
{
    const char* n = rt().soc.name;
    auto starts = [&](const char* p) { return strncmp(n, p, strlen(p)) == 0; };
    if (starts("Ascend910B")) return "Ascend910B";
    if (starts("Ascend910_93") || starts("Ascend910C") || starts("Ascend910_9")) return "Ascend910_93";
    if (starts("Ascend310P")) return "Ascend310P";
    if (starts("Ascend310B")) return "Ascend310B";
    if (starts("Ascend950")) return "Ascend950";
    if (starts("Ascend910")) return "Ascend910A";
    return "Ascend910B";  // the runner's fallback for an unknown SoC
}
#else
;
#endif

// Checks `type` against a table "Ascend910B:half float;Ascend310P:half;..." for the running SoC. A SoC absent
// from the table does not have the API. Reports api-dtype-unsupported (the real build rejects such a call with
// "Failed to check dtype"); the call still runs so the rest of the kernel can be checked.
EMU_RT_FN bool check_dtype(const char* api, const char* table, const char* type, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    const char* soc = soc_profile();
    size_t sl = strlen(soc), tl = strlen(type);
    for (const char* p = table; *p;) {
        const char* colon = strchr(p, ':');
        const char* end = strchr(p, ';');
        if (!colon) break;
        if (!end) end = p + strlen(p);
        if ((size_t)(colon - p) == sl && !strncmp(p, soc, sl)) {
            for (const char* q = colon + 1; q < end;) {
                while (q < end && *q == ' ') q++;
                const char* w = q;
                while (q < end && *q != ' ') q++;
                if ((size_t)(q - w) == tl && !strncmp(w, type, tl)) return true;
            }
            report_error("dtype-unsupported", "api-dtype-unsupported", P_V, api, loc,
                         "%s does not support %s on %s (supported: %.*s); the NPU build rejects this call", api, type,
                         rt().soc.name, (int)(end - colon - 1), colon + 1);
            return false;
        }
        p = *end ? end + 1 : end;
    }
    report_error("api-unavailable", "api-dtype-unsupported", P_V, api, loc,
                 "%s is not available on %s (the devkit documents it for other SoCs only)", api, rt().soc.name);
    return false;
}
#else
;
#endif
template <class T> inline bool check_dtype(const char* api, const char* table, const Loc& loc) {
    return check_dtype(api, table, cat_type<T>(), loc);
}

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
