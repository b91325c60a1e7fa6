// Per-SoC element types of the basic vector APIs, as knowledge/api/*.yaml lists them (tests/test_api_agreement.py
// compares every ASCENDC_EMU_DTYPES_<Api> table with the catalogue), and the checks that read them: check_dtype
// for the APIs that call it, dtype_gate (called by trace_vec, so once per vector call) for the APIs of vector.h /
// vector_ext.h, cast_gate for Cast's src->dst pairs.
#ifndef ASCENDC_EMU_ASCENDC_EMU_VECTOR_DTYPES_H_
#define ASCENDC_EMU_ASCENDC_EMU_VECTOR_DTYPES_H_
#include "vector_regs.h"

#define ASCENDC_EMU_DTYPES_Add \
    "Ascend910B:float half int16_t int32_t;Ascend910_93:float half int16_t int32_t;" \
    "Ascend310P:float half int16_t int32_t;Ascend310B:float half int16_t int32_t;" \
    "Ascend910A:float half int32_t;" \
    "Ascend950:bfloat16_t float half int16_t int32_t int64_t int8_t uint16_t uint32_t uint64_t uint8_t"
#define ASCENDC_EMU_DTYPES_Sub \
    "Ascend910B:float half int16_t int32_t;Ascend910_93:float half int16_t int32_t;" \
    "Ascend310P:float half int16_t int32_t;Ascend310B:float half int16_t int32_t;" \
    "Ascend910A:float half int32_t;" \
    "Ascend950:bfloat16_t float half int16_t int32_t int64_t int8_t uint16_t uint32_t uint64_t uint8_t"
#define ASCENDC_EMU_DTYPES_Mul \
    "Ascend910B:float half int16_t int32_t;Ascend910_93:float half int16_t int32_t;" \
    "Ascend310P:float half int16_t int32_t;Ascend310B:float half int16_t int32_t;" \
    "Ascend910A:float half int32_t;" \
    "Ascend950:bfloat16_t float half int16_t int32_t int64_t uint16_t uint32_t uint64_t"
#define ASCENDC_EMU_DTYPES_Div \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:float half;Ascend310B:float half;" \
    "Ascend910A:float half;Ascend950:float half int16_t int32_t int64_t uint16_t uint32_t uint64_t"
#define ASCENDC_EMU_DTYPES_Max \
    "Ascend910B:float half int16_t int32_t;Ascend910_93:float half int16_t int32_t;" \
    "Ascend310P:float half int16_t int32_t;Ascend310B:float half int16_t int32_t;" \
    "Ascend910A:float half int32_t;" \
    "Ascend950:bfloat16_t float half int16_t int32_t int64_t int8_t uint16_t uint32_t uint64_t uint8_t"
#define ASCENDC_EMU_DTYPES_Min \
    "Ascend910B:float half int16_t int32_t;Ascend910_93:float half int16_t int32_t;" \
    "Ascend310P:float half int16_t int32_t;Ascend310B:float half int16_t int32_t;" \
    "Ascend910A:float half int32_t;" \
    "Ascend950:bfloat16_t float half int16_t int32_t int64_t int8_t uint16_t uint32_t uint64_t uint8_t"
#define ASCENDC_EMU_DTYPES_And \
    "Ascend910B:int16_t uint16_t;Ascend910_93:int16_t uint16_t;Ascend310P:int16_t uint16_t;" \
    "Ascend310B:int16_t uint16_t;Ascend910A:int16_t uint16_t;" \
    "Ascend950:int16_t int32_t int64_t int8_t uint16_t uint32_t uint64_t uint8_t"
#define ASCENDC_EMU_DTYPES_Or \
    "Ascend910B:int16_t uint16_t;Ascend910_93:int16_t uint16_t;Ascend310P:int16_t uint16_t;" \
    "Ascend310B:int16_t uint16_t;Ascend910A:int16_t uint16_t;" \
    "Ascend950:int16_t int32_t int64_t int8_t uint16_t uint32_t uint64_t uint8_t"
#define ASCENDC_EMU_DTYPES_AddRelu \
    "Ascend910B:float half int16_t;Ascend910_93:float half int16_t;Ascend310P:float half int16_t;" \
    "Ascend310B:float half;Ascend950:float half int16_t int64_t uint64_t"
#define ASCENDC_EMU_DTYPES_SubRelu \
    "Ascend910B:float half int16_t;Ascend910_93:float half int16_t;Ascend310P:float half int16_t;" \
    "Ascend310B:float;Ascend950:float half int16_t int64_t uint64_t"
#define ASCENDC_EMU_DTYPES_FusedMulAdd \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:float half;Ascend310B:float half;" \
    "Ascend950:bfloat16_t float half int64_t uint64_t"
#define ASCENDC_EMU_DTYPES_Exp \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:float half;Ascend310B:float half;" \
    "Ascend910A:float half;Ascend950:float half"
#define ASCENDC_EMU_DTYPES_Ln \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:float half;Ascend310B:float half;" \
    "Ascend910A:float half;Ascend950:float half"
#define ASCENDC_EMU_DTYPES_Abs \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:float half;Ascend310B:float half int16_t;" \
    "Ascend910A:float half;Ascend950:*"
#define ASCENDC_EMU_DTYPES_Reciprocal \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:float half;Ascend310B:float half;" \
    "Ascend910A:float half;Ascend950:float half int64_t uint64_t"
#define ASCENDC_EMU_DTYPES_Sqrt \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:float half;Ascend310B:float half;" \
    "Ascend910A:float half;Ascend950:float half"
#define ASCENDC_EMU_DTYPES_Rsqrt \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:float half;Ascend310B:float half;" \
    "Ascend910A:float half;Ascend950:float half"
#define ASCENDC_EMU_DTYPES_Relu \
    "Ascend910B:float half int32_t;Ascend910_93:float half int32_t;Ascend310P:float half int32_t;" \
    "Ascend310B:float half int32_t;Ascend910A:half;Ascend950:float half int32_t int64_t"
#define ASCENDC_EMU_DTYPES_Not \
    "Ascend910B:int16_t uint16_t;Ascend910_93:int16_t uint16_t;Ascend310P:int16_t uint16_t;" \
    "Ascend310B:int16_t uint16_t;Ascend910A:int16_t uint16_t;" \
    "Ascend950:float half int16_t int32_t int64_t int8_t uint16_t uint32_t uint64_t uint8_t"
#define ASCENDC_EMU_DTYPES_Adds \
    "Ascend910B:float half int16_t int32_t;Ascend910_93:float half int16_t int32_t;" \
    "Ascend310P:float half int16_t int32_t;Ascend310B:float half int16_t int32_t;Ascend910A:float half;" \
    "Ascend950:bfloat16_t float half int16_t int32_t int64_t int8_t uint64_t uint8_t"
#define ASCENDC_EMU_DTYPES_Muls \
    "Ascend910B:float half int16_t int32_t;Ascend910_93:float half int16_t int32_t;" \
    "Ascend310P:float half int16_t int32_t;Ascend310B:float half int16_t int32_t;Ascend910A:float half;" \
    "Ascend950:bfloat16_t float half int16_t int32_t int64_t uint64_t"
#define ASCENDC_EMU_DTYPES_Maxs \
    "Ascend910B:float half int16_t int32_t;Ascend910_93:float half int16_t int32_t;" \
    "Ascend310P:float half int16_t int32_t;Ascend310B:float half int16_t int32_t;" \
    "Ascend950:bfloat16_t float half int16_t int32_t int64_t int8_t uint64_t uint8_t"
#define ASCENDC_EMU_DTYPES_Mins \
    "Ascend910B:float half int16_t int32_t;Ascend910_93:float half int16_t int32_t;" \
    "Ascend310P:float half int16_t int32_t;Ascend310B:float half int16_t int32_t;" \
    "Ascend950:bfloat16_t float half int16_t int32_t int64_t int8_t uint64_t uint8_t"
#define ASCENDC_EMU_DTYPES_LeakyRelu \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:float half;Ascend310B:float half;" \
    "Ascend950:float half"
#define ASCENDC_EMU_DTYPES_ShiftLeft \
    "Ascend910B:int16_t int32_t uint16_t uint32_t;Ascend910_93:int16_t int32_t uint16_t uint32_t;" \
    "Ascend310B:int16_t int32_t uint16_t uint32_t;" \
    "Ascend950:int16_t int32_t int64_t int8_t uint16_t uint32_t uint64_t uint8_t"
#define ASCENDC_EMU_DTYPES_ShiftRight \
    "Ascend910B:int16_t int32_t uint16_t uint32_t;Ascend910_93:int16_t int32_t uint16_t uint32_t;" \
    "Ascend310B:int16_t int32_t uint16_t uint32_t;" \
    "Ascend950:bool int16_t int32_t int64_t int8_t uint16_t uint32_t uint64_t uint8_t"
#define ASCENDC_EMU_DTYPES_Duplicate \
    "Ascend910B:bfloat16_t float half int16_t int32_t uint16_t uint32_t;" \
    "Ascend910_93:bfloat16_t float half int16_t int32_t uint16_t uint32_t;" \
    "Ascend310P:bfloat16_t float half int16_t int32_t uint16_t uint32_t;" \
    "Ascend310B:bfloat16_t float half int16_t int32_t uint16_t uint32_t;" \
    "Ascend910A:bfloat16_t float half int16_t int32_t uint16_t uint32_t;" \
    "Ascend950:bfloat16_t bool float half int16_t int32_t int64_t int8_t uint16_t uint32_t uint64_t " \
    "uint8_t"
#define ASCENDC_EMU_DTYPES_Brcb \
    "Ascend910B:bfloat16_t float half int16_t int32_t uint16_t uint32_t;" \
    "Ascend910_93:bfloat16_t float half int16_t int32_t uint16_t uint32_t;" \
    "Ascend310P:float half int16_t int32_t uint16_t uint32_t;" \
    "Ascend950:bfloat16_t float half int16_t int32_t int64_t int8_t uint16_t uint32_t uint64_t uint8_t"
#define ASCENDC_EMU_DTYPES_WholeReduceSum \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:*;Ascend310B:*;Ascend910A:*;" \
    "Ascend950:float half int16_t int32_t uint16_t uint32_t"
#define ASCENDC_EMU_DTYPES_WholeReduceMax \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:*;Ascend310B:*;Ascend910A:*;" \
    "Ascend950:float half int16_t int32_t uint16_t uint32_t"
#define ASCENDC_EMU_DTYPES_WholeReduceMin \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:*;Ascend310B:*;Ascend910A:*;" \
    "Ascend950:float half int16_t int32_t uint16_t uint32_t"
#define ASCENDC_EMU_DTYPES_BlockReduceSum \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:*;Ascend310B:*;Ascend910A:*;" \
    "Ascend950:float half"
#define ASCENDC_EMU_DTYPES_BlockReduceMax \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:*;Ascend310B:*;Ascend910A:*;" \
    "Ascend950:float half"
#define ASCENDC_EMU_DTYPES_BlockReduceMin \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:*;Ascend310B:*;Ascend910A:*;" \
    "Ascend950:float half"
#define ASCENDC_EMU_DTYPES_PairReduceSum \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:*;Ascend310B:*;Ascend910A:*;" \
    "Ascend950:float half"
#define ASCENDC_EMU_DTYPES_ReduceSum \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:float half;Ascend310B:float half;" \
    "Ascend910A:*;Ascend950:float half int64_t uint64_t"
#define ASCENDC_EMU_DTYPES_ReduceMax \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:float half;Ascend310B:float half;" \
    "Ascend910A:*;Ascend950:float half int16_t int32_t int64_t uint16_t uint32_t uint64_t"
#define ASCENDC_EMU_DTYPES_ReduceMin \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:float half;Ascend310B:float half;" \
    "Ascend910A:*;Ascend950:float half int16_t int32_t int64_t uint16_t uint32_t uint64_t"
#define ASCENDC_EMU_DTYPES_Select \
    "Ascend910B:float half;Ascend910_93:float half;Ascend310P:float half;Ascend310B:float half;" \
    "Ascend910A:float half;" \
    "Ascend950:bfloat16_t float half int16_t int32_t int64_t int8_t uint16_t uint32_t uint64_t uint8_t"
#define ASCENDC_EMU_DTYPES_Cast \
    "Ascend910B:bfloat16_t->float bfloat16_t->int32_t float->bfloat16_t float->float float->half " \
    "float->int16_t float->int32_t float->int64_t half->float half->int16_t half->int32_t half->int4b_t " \
    "half->int8_t half->uint8_t int16_t->float int16_t->half int32_t->float int32_t->half " \
    "int32_t->int16_t int32_t->int64_t int4b_t->half int64_t->float int64_t->int32_t int8_t->half " \
    "uint8_t->half;" \
    "Ascend910_93:bfloat16_t->float bfloat16_t->int32_t float->bfloat16_t float->float float->half " \
    "float->int16_t float->int32_t float->int64_t half->float half->int16_t half->int32_t half->int4b_t " \
    "half->int8_t half->uint8_t int16_t->float int16_t->half int32_t->float int32_t->half " \
    "int32_t->int16_t int32_t->int64_t int4b_t->half int64_t->float int64_t->int32_t int8_t->half " \
    "uint8_t->half;" \
    "Ascend310P:float->half float->int64_t half->float half->int16_t half->int32_t half->int4b_t " \
    "half->int8_t half->uint8_t int16_t->half int32_t->float int32_t->half int32_t->int16_t int8_t->half " \
    "uint8_t->half;" \
    "Ascend310B:bfloat16_t->float bfloat16_t->int32_t float->bfloat16_t float->float float->half " \
    "float->int16_t float->int32_t float->int64_t half->float half->int16_t half->int32_t half->int8_t " \
    "half->uint8_t int16_t->float int16_t->half int32_t->float int32_t->half int32_t->int16_t " \
    "int32_t->int64_t int64_t->float int64_t->int32_t int8_t->half uint8_t->half;" \
    "Ascend910A:float->half float->int64_t half->float half->int32_t half->int8_t half->uint8_t " \
    "int16_t->half int32_t->float int8_t->half uint8_t->half;" \
    "Ascend950:bfloat16_t->float bfloat16_t->fp4x2_e1m2_t bfloat16_t->fp4x2_e2m1_t bfloat16_t->half " \
    "bfloat16_t->int32_t complex32->complex64 complex64->complex32 complex64->complex64 " \
    "double->bfloat16_t double->float double->int32_t double->int64_t float->bfloat16_t float->float " \
    "float->fp8_e4m3fn_t float->fp8_e5m2_t float->half float->hifloat8_t float->int16_t float->int32_t " \
    "float->int64_t fp4x2_e1m2_t->bfloat16_t fp4x2_e2m1_t->bfloat16_t fp8_e4m3fn_t->float " \
    "fp8_e5m2_t->float half->bfloat16_t half->float half->hifloat8_t half->int16_t half->int32_t " \
    "half->int4b_t half->int8_t half->uint8_t hifloat8_t->float hifloat8_t->half int16_t->float " \
    "int16_t->half int16_t->int32_t int16_t->int4b_t int16_t->uint32_t int16_t->uint8_t int32_t->float " \
    "int32_t->half int32_t->int16_t int32_t->int64_t int32_t->uint16_t int32_t->uint8_t " \
    "int4b_t->bfloat16_t int4b_t->half int4b_t->int16_t int64_t->double int64_t->float int64_t->int32_t " \
    "int8_t->half int8_t->int16_t int8_t->int32_t uint16_t->uint32_t uint16_t->uint8_t uint32_t->int16_t " \
    "uint32_t->uint16_t uint32_t->uint8_t uint8_t->half uint8_t->uint16_t uint8_t->uint32_t"

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
// from the table does not have the API; `*` as a SoC's list means its types are not recorded (no check). Reports
// api-dtype-unsupported (the real build rejects such a call with "Failed to check dtype"); the call still runs so
// the rest of the kernel can be checked.
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
            if (colon[1] == '*') return true;
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

// The vector.h / vector_ext.h APIs checked through trace_vec (the newer headers call check_dtype themselves).
struct DtypeTable { const char* api; const char* table; };
EMU_RT_FN const char* gate_table(const char* api)
#if ASCENDC_EMU_RT_BODIES
{
    static const DtypeTable tables[] = {
#define ASCENDC_EMU_GATE(N) {#N, ASCENDC_EMU_DTYPES_##N},
        ASCENDC_EMU_GATE(Add) ASCENDC_EMU_GATE(Sub) ASCENDC_EMU_GATE(Mul) ASCENDC_EMU_GATE(Div) ASCENDC_EMU_GATE(Max)
        ASCENDC_EMU_GATE(Min) ASCENDC_EMU_GATE(And) ASCENDC_EMU_GATE(Or) ASCENDC_EMU_GATE(AddRelu)
        ASCENDC_EMU_GATE(SubRelu) ASCENDC_EMU_GATE(FusedMulAdd) ASCENDC_EMU_GATE(Exp) ASCENDC_EMU_GATE(Ln)
        ASCENDC_EMU_GATE(Abs) ASCENDC_EMU_GATE(Reciprocal) ASCENDC_EMU_GATE(Sqrt) ASCENDC_EMU_GATE(Rsqrt)
        ASCENDC_EMU_GATE(Relu) ASCENDC_EMU_GATE(Not) ASCENDC_EMU_GATE(Adds) ASCENDC_EMU_GATE(Muls)
        ASCENDC_EMU_GATE(Maxs) ASCENDC_EMU_GATE(Mins) ASCENDC_EMU_GATE(LeakyRelu) ASCENDC_EMU_GATE(ShiftLeft)
        ASCENDC_EMU_GATE(ShiftRight) ASCENDC_EMU_GATE(Duplicate) ASCENDC_EMU_GATE(Brcb)
        ASCENDC_EMU_GATE(WholeReduceSum) ASCENDC_EMU_GATE(WholeReduceMax) ASCENDC_EMU_GATE(WholeReduceMin)
        ASCENDC_EMU_GATE(BlockReduceSum) ASCENDC_EMU_GATE(BlockReduceMax) ASCENDC_EMU_GATE(BlockReduceMin)
        ASCENDC_EMU_GATE(PairReduceSum) ASCENDC_EMU_GATE(ReduceSum) ASCENDC_EMU_GATE(ReduceMax)
        ASCENDC_EMU_GATE(ReduceMin) ASCENDC_EMU_GATE(Select)
#undef ASCENDC_EMU_GATE
    };
    for (const DtypeTable& t : tables)
        if (!strcmp(t.api, api)) return t.table;
    return nullptr;
}
#else
;
#endif
// dtype_name() spelling -> catalogue spelling ("int16" -> "int16_t", "bfloat16" -> "bfloat16_t").
inline const char* cat_spelling(const char* dtype, char* buf, size_t n) {
    if (!strcmp(dtype, "half") || !strcmp(dtype, "float") || !strcmp(dtype, "double") || !strcmp(dtype, "bool"))
        return dtype;
    snprintf(buf, n, "%s_t", dtype);
    return buf;
}
// Once per vector call (from trace_vec): remembers the last few (api, dtype) answers in the core's registers, so
// a loop pays for the table lookup once.
EMU_RT_FN void dtype_gate(const char* api, const char* dtype, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    if (!rt().cur || !strcmp(dtype, "other")) return;
    VecRegs& r = vregs();
    for (int i = 0; i < 4; i++)
        if (r.gate_api[i] == api && r.gate_type[i] == dtype) return;  // checked before (reports are deduplicated)
    const char* table = gate_table(api);
    if (table) {
        char buf[24];
        check_dtype(api, table, cat_spelling(dtype, buf, sizeof buf), loc);
    }
    r.gate_api[r.gate_next] = api;
    r.gate_type[r.gate_next] = dtype;
    r.gate_next = (uint8_t)((r.gate_next + 1) % 4);
}
#else
;
#endif
// Cast: the src->dst pair must be one the running SoC converts.
template <class T, class U> inline void cast_gate(const Loc& loc) {
    char pair[48];
    snprintf(pair, sizeof pair, "%s->%s", cat_type<U>(), cat_type<T>());
    check_dtype("Cast", ASCENDC_EMU_DTYPES_Cast, pair, loc);
}
}  // namespace ascendc_emu
#endif  // ASCENDC_EMU_ASCENDC_EMU_VECTOR_DTYPES_H_
