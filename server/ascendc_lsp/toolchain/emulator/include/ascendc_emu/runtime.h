// Core state of the AscendC CPU emulator: SoC limits, per-block state (arenas, vector clocks, flags, mask),
// report.jsonl / trace.jsonl writers, GM allocation registry, happens-before race detector and the fibre
// scheduler that runs blocks. Clean-room: written from the public AscendC docs and PROTOCOL.md only.
#ifndef ASCENDC_EMU_ASCENDC_EMU_RUNTIME_H_
#define ASCENDC_EMU_ASCENDC_EMU_RUNTIME_H_
#include <charconv>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include "fp16.h"
#include "fp8.h"

// Non-template runtime functions (reports, shadow memory, scheduler, harness plumbing) are marked EMU_RT_FN.
// - header-only (default): plain `inline`; everything is compiled into the kernel's translation unit;
// - ASCENDC_EMU_SPLIT_RUNTIME (build.py): the kernel TU sees declarations only (`#if ASCENDC_EMU_RT_BODIES`
//   hides the bodies), so no code is generated for them per kernel; it links against a runtime object built once
//   per header version and compiler flags. Tiny hot helpers (blk, begin_epoch, lane_on...) stay plain `inline`;
// - ASCENDC_EMU_RUNTIME_IMPL: that runtime object (runtime.cpp = this define + harness.h): real definitions.
// Mutable state lives in the Runtime object (rt(), defined once), not in function-local statics.
#if defined(ASCENDC_EMU_RUNTIME_IMPL)
#define EMU_RT_FN
#define ASCENDC_EMU_RT_BODIES 1
#elif defined(ASCENDC_EMU_SPLIT_RUNTIME)
#define EMU_RT_FN
#define ASCENDC_EMU_RT_BODIES 0
#else
#define EMU_RT_FN inline
#define ASCENDC_EMU_RT_BODIES 1
#endif

namespace ascendc_emu {

// The user's call site, captured by a defaulted argument on every API (GCC evaluates __builtin_FILE/LINE
// of a default-constructor argument at the outermost call site).
struct Loc {
    const char* file;
    int line;
    explicit Loc(const char* f = __builtin_FILE(), int l = __builtin_LINE()) : file(f), line(l) {}
};
#ifdef ASCENDC_EMU_IDE
// IDE mode (-DASCENDC_EMU_IDE, what "AscendC: Configure clangd" passes to clangd): the call-site capture is not
// part of the API, so signatures and completion show `...` in its place and bodies read a placeholder `loc`.
#define EMU_LOC ...
inline const Loc loc("", 0);
#else
#define EMU_LOC ::ascendc_emu::Loc loc = ::ascendc_emu::Loc()
#endif

enum Pipe : uint8_t { P_S, P_V, P_MTE1, P_MTE2, P_MTE3, P_M, P_FIX, NPIPE, P_ALL = 0xff };
inline const char* pipe_lc(int p) {
    static const char* n[] = {"s", "v", "mte1", "mte2", "mte3", "m", "fix"};
    return p < NPIPE ? n[p] : "all";
}
inline const char* pipe_uc(int p) {
    static const char* n[] = {"S", "V", "MTE1", "MTE2", "MTE3", "M", "FIX"};
    return p < NPIPE ? n[p] : "ALL";
}

// Physical memories.
enum Space : uint8_t { SP_GM, SP_UB, SP_L1, SP_L0A, SP_L0B, SP_L0C, SP_BT, SP_FB, NSPACE };
inline const char* space_name(int s) {
    static const char* n[] = {"GM", "UB", "L1", "L0A", "L0B", "L0C", "BiasTable", "FixpipeBuffer"};
    return n[s];
}
inline const char* space_lc(int s) {
    static const char* n[] = {"gm", "ub", "l1", "l0a", "l0b", "l0c", "bt", "fb"};
    return n[s];
}
inline uint32_t space_align(int s) {
    static const uint32_t a[] = {1, 32, 32, 512, 512, 64, 64, 64};
    return a[s];
}

// Numbers with thousands separators, as the report messages show them.
struct Num {
    char s[32];
    explicit Num(long long v) {
        char t[32];
        int n = snprintf(t, sizeof t, "%lld", v < 0 ? -v : v), o = 0, k = 0;
        if (v < 0) s[o++] = '-';
        for (int i = 0; i < n; i++) {
            if (i && (n - i) % 3 == 0) s[o++] = ',';
            s[o++] = t[i];
        }
        s[o] = 0;
        (void)k;
    }
};
#define EMU_N(x) (::ascendc_emu::Num((long long)(x)).s)

struct Soc {
    char name[64] = "Ascend910B";
    uint64_t bytes[NSPACE] = {0, 196608, 524288, 65536, 65536, 131072, 1024, 2048};
    uint64_t ub_reserved = 8192;  // UB the AscendC APIs of the reserved-UB table use internally (8 KB on arch 2201)
    int max_buffers = 64, max_live = 8, event_ids = 8, has_pad = 1, aiv = 48, aic = 24;
    int arch = 2201;           // NPU architecture version; selects the reserved-UB API table
};

// How faithful to the NPU build each check is (PROTOCOL.md "Modes"). The defaults model what bisheng and the
// runtime do on the NPU; each strict flag selects the stricter CPU-debug behaviour.
enum UbReserve : uint8_t {
    UBR_AUTO,    // default: the reserve is taken only when an API of the reserved-UB table runs (checked there)
    UBR_ALWAYS,  // the reserve is taken off UB for every kernel (InitBuffer sees UB minus the reserve)
    UBR_OFF      // --cce-disable-asc-reserved-ubuf: the whole UB is the kernel's; reserved-UB APIs are errors
};
struct Modes {
    bool strict_sync = false;        // report the hazards bisheng's auto-sync resolves (S <-> V/MTE2/MTE3, V -> V)
    bool strict_ub = false;          // InitBuffer totals beyond UB are rejected at InitBuffer (CPU-debug)
    bool strict_gm = false;          // GM accesses must stay inside the requested bytes (no runtime padding)
    bool strict_truncation = false;  // DataCopy truncation is an error, not a warning
    UbReserve ub_reserve = UBR_AUTO;
};

// A call site interned to a small integer so shadow memory can name the last accessor cheaply.
struct Site { const char* file; int line; const char* api; };

struct Shadow {  // per 32-byte granule of an on-chip buffer (block-private)
    uint32_t w_epoch;
    uint32_t w_site;
    uint8_t w_pipe;
    uint32_t r_epoch[NPIPE];
    uint32_t r_site[NPIPE];
};
// Per 32-byte granule of GM: the last writer and the last reader of each GM pipe (S, MTE2, MTE3, FIX). Stored as
// one array per field (lazily mapped, zero pages until written), so a buffer only one pipe reads touches that
// pipe's arrays: an input read by MTE2 costs 10 B of shadow per 32 B, not the whole record.
struct GmShadow {
    uint32_t* w_epoch;
    uint32_t* w_site;
    int16_t* w_block;
    uint8_t* w_pipe;
    uint32_t* r_epoch[4];
    uint32_t* r_site[4];
    int16_t* r_block[4];
    bool written;    // some granule has a writer
    bool read[4];    // some granule has a reader on that slot
    void* map;
    size_t map_bytes;
};
inline int gm_slot(int p) { return p == P_S ? 0 : p == P_MTE2 ? 1 : p == P_MTE3 ? 2 : p == P_FIX ? 3 : -1; }

struct GmAlloc {
    uint8_t* base;
    uint64_t size;    // bytes the program asked for
    uint64_t padded;  // bytes the runtime allocates: size rounded up to 32 B plus 32 B (aclrtMalloc)
    uint64_t map_bytes;
    uint8_t* map;
    char name[48];
    GmShadow* shadow;  // lazily mapped
};

enum { HE_MAX = 40 };
enum BlockState { BS_RUNNABLE, BS_SYNCALL, BS_DONE, BS_DEAD, BS_XWAIT };

class TPipeBase;

struct Flag {
    bool set;
    uint32_t snap[NPIPE];
    uint64_t seq;
    Loc loc;
    Flag() : set(false), snap{}, seq(0), loc(nullptr, 0) {}
};

struct Block {
    int idx = 0;
    uint8_t* mem[NSPACE] = {};
    uint64_t mem_bytes[NSPACE] = {};
    Shadow* shadow[NSPACE] = {};
    uint32_t vc[NPIPE][NPIPE] = {};
    uint32_t done[NPIPE] = {};  // done[p]: the last epoch of pipe p known finished before p's next instruction
    uint64_t ub_high = 0;       // highest UB byte the kernel's own buffers reach (TPipe, static tensors)
    uint64_t seq = 0;
    uint64_t last_seq[NPIPE] = {};
    bool has_last[NPIPE] = {};
    // vector mask registers (per core, persistent)
    bool counter_mode = false;
    uint64_t mask_hi = ~0ull, mask_lo = ~0ull;
    alignas(8) uint8_t api_regs[192] = {};  // special registers of the vector APIs (DEQSCALE, CMPMASK, reduce SPRs; vector_support.h)
    alignas(8) uint8_t cube_regs[64] = {};
    uint64_t va_regs[8][8] = {};  // address registers VA0..VA7, 8 UB addresses each (set_va_reg_sb; op_kernel_compat.h)  // special registers of the cube load path (FMATRIX, padding, repeat; cube_load3d.h)
    Flag flags[HE_MAX][8];
    uint8_t event_alloc[HE_MAX] = {};
    TPipeBase* pipe = nullptr;
    int atomic = 0;  // 0 none, 1 add, 2 max, 3 min
    int live[32] = {};
    // DCache model: 32 KB, 64-byte lines, 4-way LRU, 128 sets
    uint64_t dc_tag[128][4] = {};
    uint8_t dc_age[128][4] = {};
    // DCache coherence (dcache_* below): a line's state is valid while dc_state_tag matches dc_tag (not evicted)
    uint8_t dc_state[128][4] = {};
    uint64_t dc_state_tag[128][4] = {};
    uint32_t dc_state_site[128][4] = {};
    bool dc_marks = false;  // some line is dirty or stale since the last DataCacheCleanAndInvalid
    // pending merged scalar trace event
    const char* sc_api = nullptr;
    int sc_space = 0, sc_line = 0;
    uint64_t sc_count = 0, sc_miss = 0;
    uint64_t trace_lines = 0;  // lines this block wrote to the trace file (--trace-limit)
    // fibre
    ucontext_t ctx;
    void* stack = nullptr;
    size_t stack_bytes = 0;
    BlockState state = BS_RUNNABLE;
    uint64_t sync_epoch = 0;
    int syncall_calls = 0;
    Loc sync_loc{nullptr, 0};
    uint64_t ctrl = 0;      // the CTRL register (get_ctrl / set_ctrl)
    uint8_t xcnt[16] = {};  // CrossCoreWaitFlag counters per flagId (mode 0/1 sets seen by this core)
    int xwait_id = -1;      // the flagId this block waits on in CrossCoreWaitFlag
    Loc last_loc{nullptr, 0};
    const char* last_api = "";
};

enum Order { ORD_SEQ, ORD_REV, ORD_INTERLEAVED };
struct CostState;  // cost_model.h

struct Runtime {
    Soc soc;
    FILE* report = nullptr;
    FILE* trace = nullptr;
    char dir[1024] = ".";
    int errors = 0, warnings = 0;
    bool deadlock = false;
    bool strict = false;  // strict_truncation (kept: report_soft reads it)
    bool autosync_scalar = true;  // !modes.strict_sync, for code that reads the older name; set with it
    Modes modes;
    Order order = ORD_SEQ;
    uint64_t tiling_key = 0;
    std::vector<GmAlloc> gm;
    std::vector<Site> sites;
    std::vector<uint32_t> site_hash;
    std::vector<uint64_t> dedup;  // hashes of reported (check, file, line) keys
    std::vector<Block*> blocks;
    Block* cur = nullptr;
    int block_dim = 0;
    ucontext_t main_ctx;
    bool in_launch = false;
    uint64_t sync_epoch = 0;
    int sync_arrived = 0;
    int xarrived[16] = {};  // CrossCoreSetFlag mode 0: blocks that set each flagId in the current round
    std::vector<std::pair<const void*, uint64_t>> group_arrivals;  // GroupBarrier workspace -> Arrive calls
    int stderr_lines = 0;
    void (*fn)(void*) = nullptr;
    void* fn_arg = nullptr;
    const struct NpuCode* code_override = nullptr;  // replaces the category's code for the next report
    uint8_t* sys_workspace = nullptr;                // GetSysWorkSpacePtr()
    // direct-launch programs (program.h): the launch being run (1-based; 0 outside launches and in spec runs),
    // the NPU code of its first faulting report (what aclrtSynchronizeStream returns), the host-side state
    int launch_no = 0;
    const char* launch_fault = nullptr;
    int task_ratio = 1;  // AIV cores per logical block of the running launch (2 for a mix 1:2 kernel)
    struct ProgramState* program = nullptr;
    char altstack[1 << 16];                          // signal stack of the crash handler
    CostState* cost = nullptr;                       // the in-kernel cost model (cost_model.h), with --estimate
    uint64_t trace_limit = 0;                        // --trace-limit: trace lines per block (0: all)
    uint64_t trace_dropped = 0;                      // lines not written because of it
    int onchip_fd = -1;                              // memory file of fresh on-chip memories (harness.h)
    uint64_t onchip_off[NSPACE] = {};
};
EMU_RT_FN Runtime& rt()
#if ASCENDC_EMU_RT_BODIES
{
    static Runtime r;
    return r;
}
#else
;
#endif
inline Block& blk() { return *rt().cur; }

// ------------------------------------------------------------------------------------------------ JSON
struct Json {
    char buf[2048];
    int n = 0;
    Json() { buf[0] = '{'; n = 1; }
    void sep() { if (n > 1 && n < (int)sizeof buf - 1) buf[n++] = ','; }
    void raw(const char* s) { while (*s && n < (int)sizeof buf - 8) buf[n++] = *s++; }
    void str(const char* s) {
        buf[n++] = '"';
        for (; s && *s && n < (int)sizeof buf - 16; s++) {
            unsigned char c = (unsigned char)*s;
            if (c == '"' || c == '\\') { buf[n++] = '\\'; buf[n++] = (char)c; }
            else if (c == '\n') { buf[n++] = '\\'; buf[n++] = 'n'; }
            else if (c < 0x20) n += snprintf(buf + n, 8, "\\u%04x", c);
            else buf[n++] = (char)c;
        }
        buf[n++] = '"';
    }
    Json& s(const char* k, const char* v) { sep(); str(k); buf[n++] = ':'; str(v); return *this; }
    Json& i(const char* k, long long v) { sep(); str(k); buf[n++] = ':'; num(v); return *this; }
    void num(long long v) {  // decimal digits without snprintf (trace lines are written per event)
        if (n > (int)sizeof buf - 24) return;
        unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
        if (v < 0) buf[n++] = '-';
        char t[24];
        int k = 0;
        do { t[k++] = (char)('0' + u % 10); u /= 10; } while (u);
        while (k) buf[n++] = t[--k];
    }
    Json& b(const char* k, bool v) { sep(); str(k); raw(v ? ":true" : ":false"); return *this; }
    const char* end() { buf[n++] = '}'; buf[n++] = '\n'; buf[n] = 0; return buf; }
};

}  // namespace ascendc_emu
#include "cost_model.h"
namespace ascendc_emu {

// ------------------------------------------------------------------------------------------------ report
// NPU-style fault codes (memo section 5): what the runtime would typically print for the category.
struct NpuCode { const char* code; const char* errorStr; };
EMU_RT_FN NpuCode npu_code(const char* category)
#if ASCENDC_EMU_RT_BODIES
{
    if (!strcmp(category, "ub-overflow") || !strcmp(category, "ub-out-of-bounds"))
        return {"507035", "VEC instruction error: the ub address out of bounds"};
    if (!strcmp(category, "gm-out-of-bounds"))
        return {"507015", "The DDR address of the MTE instruction is out of range."};
    if (!strcmp(category, "misaligned-access"))
        return {"507035", "Illegal instruction, which is usually caused by unaligned UUB addresses."};
    if (!strcmp(category, "sync-deadlock") || !strcmp(category, "queue-misuse-hang"))
        return {"507014", "timeout or trap error [aicore timeout]"};
    if (!strcmp(category, "vector-param-invalid"))
        return {"507035", "The VEC instruction parameter is invalid."};
    if (!strcmp(category, "sync-missing"))
        return {"", ""};  // races corrupt data silently; no runtime code
    return {"", ""};
}
#else
;
#endif
// An overrun of a cube-side local buffer (L1, L0A/L0B, L0C, BiasTable, FixpipeBuffer) faults on the AI Core as an
// aicore exception (507015), not as the vector core's "ub address out of bounds" (507035); L0C's errorStr is the
// runtime's own wording in device logs. nullptr for UB: the category's default applies.
inline const NpuCode* local_bounds_code(int space) {
    static const NpuCode l0c{"507015", "The operation address of L0C exceeds the maximum range of L0C."};
    static const NpuCode cube{"507015", ""};
    return space == SP_UB || space == SP_GM ? nullptr : space == SP_L0C ? &l0c : &cube;
}

inline uint64_t hash_key(const char* check, const char* file, int line, long extra) {
    uint64_t h = 1469598103934665603ull;
    for (const char* s = check; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
    for (const char* s = file ? file : ""; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
    h = (h ^ (uint64_t)line) * 1099511628211ull;
    h = (h ^ (uint64_t)extra) * 1099511628211ull;
    return h;
}

// Writes one report line. Repeats of the same (check, source line) are dropped: a bug inside a loop is one bug.
// `code_override` may replace the category default (e.g. sync-deadlock 507014).
EMU_RT_FN const NpuCode*& code_override()
#if ASCENDC_EMU_RT_BODIES
{ return rt().code_override; }
#else
;
#endif
EMU_RT_FN void vreport(bool error, const char* check, const char* category, int pipe, const char* api, const Loc& loc,
                    long dedup_extra, const char* fmt, va_list ap)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    uint64_t h = hash_key(check, loc.file, loc.line, dedup_extra);
    for (uint64_t k : r.dedup)
        if (k == h) {
            if (error) r.errors++; else r.warnings++;
            code_override() = nullptr;
            return;
        }
    r.dedup.push_back(h);
    char msg[1200];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (error) r.errors++; else r.warnings++;
    NpuCode c = code_override() ? *code_override() : npu_code(category);
    code_override() = nullptr;
    if (error && r.launch_no && !r.launch_fault && c.code && *c.code) r.launch_fault = c.code;
    int b = r.cur ? r.cur->idx : -1;
    if (r.report) {
        Json j;
        j.s("severity", error ? "error" : "warning").s("check", check).s("category", category).s("code", c.code);
        j.i("block", b).s("pipe", pipe >= 0 ? pipe_uc(pipe) : "").s("api", api).s("file", loc.file ? loc.file : "");
        j.i("line", loc.line).s("message", msg).s("errorStr", c.errorStr);
        if (r.launch_no) j.i("launch", r.launch_no);
        fputs(j.end(), r.report);
        fflush(r.report);
    }
    if (r.stderr_lines++ < 200)
        fprintf(stderr, "[%s][Block_%d][%s:%d][%s] %s\n", error ? "ERROR" : "WARNING", b, loc.file ? loc.file : "?",
                loc.line, api, msg);
}
#else
;
#endif
// A fault that hangs the NPU (reported with 507014 "aicore timeout" whatever the category).
EMU_RT_FN void report_hang(const char* check, const char* category, int pipe, const char* api, const Loc& loc,
                        const char* fmt, ...)
#if ASCENDC_EMU_RT_BODIES
{
    static const NpuCode hang{"507014", "timeout or trap error [aicore timeout]"};
    code_override() = &hang;
    va_list ap;
    va_start(ap, fmt);
    vreport(true, check, category, pipe, api, loc, 0, fmt, ap);
    va_end(ap);
}
#else
;
#endif
EMU_RT_FN void report_error(const char* check, const char* category, int pipe, const char* api, const Loc& loc,
                         const char* fmt, ...)
#if ASCENDC_EMU_RT_BODIES
{
    va_list ap;
    va_start(ap, fmt);
    vreport(true, check, category, pipe, api, loc, 0, fmt, ap);
    va_end(ap);
}
#else
;
#endif
EMU_RT_FN void report_warning(const char* check, const char* category, int pipe, const char* api, const Loc& loc,
                           const char* fmt, ...)
#if ASCENDC_EMU_RT_BODIES
{
    va_list ap;
    va_start(ap, fmt);
    vreport(false, check, category, pipe, api, loc, 0, fmt, ap);
    va_end(ap);
}
#else
;
#endif
// strict mode turns documented-but-silent hardware behaviour (truncation) into errors
EMU_RT_FN void report_soft(const char* check, const char* category, int pipe, const char* api, const Loc& loc,
                        const char* fmt, ...)
#if ASCENDC_EMU_RT_BODIES
{
    static const NpuCode silent{"", ""};  // the hardware does not fault; the data is silently wrong
    code_override() = &silent;
    va_list ap;
    va_start(ap, fmt);
    vreport(rt().strict, check, category, pipe, api, loc, 0, fmt, ap);
    va_end(ap);
}
#else
;
#endif

// ------------------------------------------------------------------------------------------------ modes
// One mode flag of the kernel binary (PROTOCOL.md "Modes"): returns how many argv entries it used (1 or 2), or 0
// when `flag` is not a mode flag. Also used for ASCENDC_EMU_MODES (a comma list of the same words, for programs
// whose argv belongs to the user: the direct-launch runner).
EMU_RT_FN int apply_mode_flag(const char* flag, const char* value)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    Modes& m = r.modes;
    while (*flag == '-') flag++;
    if (!strcmp(flag, "strict")) {  // every stricter mode at once: the CPU-debug behaviour
        m.strict_sync = m.strict_ub = m.strict_gm = m.strict_truncation = true;
        if (m.ub_reserve == UBR_AUTO) m.ub_reserve = UBR_ALWAYS;
    } else if (!strcmp(flag, "strict-sync")) m.strict_sync = true;
    else if (!strcmp(flag, "strict-ub")) {
        m.strict_ub = true;
        if (m.ub_reserve == UBR_AUTO) m.ub_reserve = UBR_ALWAYS;
    } else if (!strcmp(flag, "strict-gm")) m.strict_gm = true;
    else if (!strcmp(flag, "strict-truncation")) m.strict_truncation = true;
    else if (!strcmp(flag, "ub-reserve")) {
        m.ub_reserve = !strcmp(value, "always") ? UBR_ALWAYS : !strcmp(value, "off") ? UBR_OFF : UBR_AUTO;
        r.strict = m.strict_truncation;
        return 2;
    } else if (!strcmp(flag, "auto-sync")) {  // compatibility: --auto-sync none|scalar
        m.strict_sync = !strcmp(value, "none");
        r.autosync_scalar = !m.strict_sync;
        return 2;
    } else return 0;
    r.strict = m.strict_truncation;
    r.autosync_scalar = !m.strict_sync;
    return 1;
}
#else
;
#endif
EMU_RT_FN void apply_modes_env()
#if ASCENDC_EMU_RT_BODIES
{
    const char* e = getenv("ASCENDC_EMU_MODES");
    if (!e) return;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", e);
    for (char* tok = strtok(buf, ", "); tok; tok = strtok(nullptr, ", ")) {
        char* eq = strchr(tok, '=');
        if (eq) *eq = 0;
        if (!apply_mode_flag(tok, eq ? eq + 1 : "")) fprintf(stderr, "emulator: unknown mode %s in ASCENDC_EMU_MODES\n", tok);
    }
}
#else
;
#endif
// UB the kernel's buffers may use. UBR_ALWAYS keeps the reserve off UB from the start (the CPU-debug view).
inline uint64_t ub_capacity() {
    const Runtime& r = rt();
    return r.soc.bytes[SP_UB] - (r.modes.ub_reserve == UBR_ALWAYS ? r.soc.ub_reserved : 0);
}
inline uint64_t space_capacity(int sp) { return sp == SP_UB ? ub_capacity() : rt().soc.bytes[sp]; }
inline void note_ub_use(uint64_t end) {
    if (rt().cur && end > blk().ub_high) blk().ub_high = end;
}
// An API of the reserved-UB table (docs/zh/guide/编程指南/编程模型/AI-Core-SIMD编程/基于Tensor的CPP编程/静态Tensor编程.md,
// "使用预留UB空间的API范围": on arch 2201 AddDeqRelu and Select (modes 1 and 2, Select.md), Digamma, Lgamma, Power,
// Sign, LayerNorm, DropOut, SelectWithBytesMask use 8 KB of UB that AscendC reserves) runs: the kernel's own
// buffers must leave that reserve free. Under --ub-reserve off (--cce-disable-asc-reserved-ubuf) such a call does
// not compile on the NPU.
EMU_RT_FN void uses_reserved_ub(const char* api, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    if (!r.cur || !r.soc.ub_reserved) return;
    Block& b = blk();
    if (r.modes.ub_reserve == UBR_OFF) {
        report_error("ub-reserved", "api-dtype-unsupported", P_V, api, loc,
                     "%s uses the %s B of UB that AscendC reserves on %s, but the reserve is disabled "
                     "(--cce-disable-asc-reserved-ubuf): the NPU build rejects this call", api,
                     EMU_N(r.soc.ub_reserved), r.soc.name);
        return;
    }
    uint64_t free_top = r.soc.bytes[SP_UB] - r.soc.ub_reserved;
    if (b.ub_high > free_top)
        report_error("ub-reserved", "ub-overflow", P_V, api, loc,
                     "%s uses the %s B of UB that AscendC reserves on %s (UB %s B), but the kernel's buffers reach "
                     "%s B, %s B into the reserve: %s's scratch data would overwrite them. Keep the buffers within %s B "
                     "(ReserveLocalMemory / GetCoreMemSize on the host give the usable size)", api,
                     EMU_N(r.soc.ub_reserved), r.soc.name, EMU_N(r.soc.bytes[SP_UB]), EMU_N(b.ub_high),
                     EMU_N(b.ub_high - free_top), api, EMU_N(free_top));
}
#else
;
#endif

// ------------------------------------------------------------------------------------------------ trace
EMU_RT_FN uint32_t intern_site(const char* file, int line, const char* api)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    if (r.site_hash.empty()) { r.site_hash.assign(8192, 0); r.sites.push_back(Site{"", 0, ""}); }
    uint64_t h = ((uint64_t)(uintptr_t)file * 31 + (uint64_t)line) * 131 + (uint64_t)(uintptr_t)api;
    size_t mask = r.site_hash.size() - 1;
    for (size_t i = (h ^ (h >> 17)) & mask;; i = (i + 1) & mask) {
        uint32_t id = r.site_hash[i];
        if (!id) {
            r.sites.push_back(Site{file, line, api});
            r.site_hash[i] = (uint32_t)(r.sites.size() - 1);
            if (r.sites.size() * 2 > r.site_hash.size()) {  // grow and rehash
                std::vector<uint32_t> nh(r.site_hash.size() * 2, 0);
                size_t m2 = nh.size() - 1;
                for (uint32_t k = 1; k < r.sites.size(); k++) {
                    const Site& s = r.sites[k];
                    uint64_t h2 = ((uint64_t)(uintptr_t)s.file * 31 + (uint64_t)s.line) * 131 + (uint64_t)(uintptr_t)s.api;
                    size_t j = (h2 ^ (h2 >> 17)) & m2;
                    while (nh[j]) j = (j + 1) & m2;
                    nh[j] = k;
                }
                r.site_hash.swap(nh);
            }
            return (uint32_t)(r.sites.size() - 1);
        }
        const Site& s = r.sites[id];
        if (s.file == file && s.line == line && s.api == api) return id;
    }
}
#else
;
#endif

// Appends the scheduled start/end of every lane to a trace line (cost_model.h; "start2"/"end2" for the second
// lane, used when the launch turns out to be cube-only and the AIC core count applies).
inline void trace_double(Json& j, const char* key, double v) {  // shortest text that reads back exactly
    char t[40];
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
    *std::to_chars(t, t + sizeof t - 1, v).ptr = 0;
#else
    snprintf(t, sizeof t, "%.17g", v);
#endif
    j.sep(); j.str(key); j.raw(":"); j.raw(t);
}
inline void trace_times(Json& j, int lanes, const double* st, const double* en) {
    static const char* const keys[2][2] = {{"start", "end"}, {"start2", "end2"}};
    for (int l = 0; l < lanes; l++) {
        trace_double(j, keys[l][0], st[l]);
        trace_double(j, keys[l][1], en[l]);
    }
}
// Whether this block's next event gets a trace line (--trace-limit caps the lines per block; the cost model sees
// every event either way).
inline bool trace_text_on(Runtime& r, Block& b) {
    if (!r.trace) return false;
    if (!r.trace_limit || b.trace_lines < r.trace_limit) return true;
    r.trace_dropped++;
    return false;
}

// The common fields of a trace line; "launch" only for the second and later launches of a program.
inline void trace_head(Json& j, int block, uint64_t seq, int pipe, const char* api, int line) {
    Runtime& r = rt();
    if (r.cost && r.cost->launch > 0) j.i("launch", r.cost->launch);
    j.i("block", block).i("seq", (long long)seq).s("pipe", pipe_lc(pipe)).s("api", api).i("line", line);
}

// Records one event: the cost model schedules it (with --estimate) and the trace file gets its line (with --trace).
EMU_RT_FN void trace_record(int pipe, const char* api, uint64_t seq, const CostFields& f, Json* text)
#if ASCENDC_EMU_RT_BODIES
{
    double st[2] = {0, 0}, en[2] = {0, 0};
    int lanes = 0;
    if (cost_on()) {
        cost_record(pipe, api, seq, f, st, en);
        lanes = cost_state().lanes;
    }
    if (text) {
        trace_times(*text, lanes, st, en);
        fputs(text->end(), rt().trace);
        rt().cur->trace_lines++;
    }
}
#else
;
#endif

EMU_RT_FN void flush_scalar_trace()
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    Block& b = blk();
    if (!b.sc_count) return;
    uint64_t seq = ++b.seq;
    const bool text = trace_text_on(r, b);
    if (text || cost_on()) {
        CostFields f;
        f.space = space_lc(b.sc_space);
        if (b.sc_space == SP_GM) f.miss = b.sc_miss > 0;
        if (b.sc_count > 1) {
            f.count = (double)b.sc_count;
            f.has_count = true;
            f.misses = (double)b.sc_miss;
            f.has_misses = true;
        }
        Json j;
        if (text) {
            trace_head(j, b.idx, seq, P_S, b.sc_api, b.sc_line);
            j.s("space", space_lc(b.sc_space));
            if (b.sc_space == SP_GM) j.b("dcache_miss", b.sc_miss > 0);
            if (b.sc_count > 1) j.i("count", (long long)b.sc_count).i("dcache_misses", (long long)b.sc_miss);
        }
        trace_record(P_S, b.sc_api, seq, f, text ? &j : nullptr);
    }
    b.last_seq[P_S] = b.seq;
    b.has_last[P_S] = true;
    b.sc_count = b.sc_miss = 0;
}
#else
;
#endif

// Starts a traced event: the caller adds its own fields to `ev.j` (guarded by `ev.on`: the event is recorded
// for the cost model or the trace file; `ev.text`: a trace line is being written, worth formatting extra text
// for) and then calls trace_end.
struct Ev {
    EvJson j;
    uint64_t seq = 0;
    bool on = false;
    bool text = false;
    int pipe = 0;
    int line = 0;
    const char* api = "";
};
EMU_RT_FN void maybe_yield();
EMU_RT_FN void trace_begin(Ev& e, int pipe, const char* api, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    Block& b = blk();
    flush_scalar_trace();
    b.last_loc = loc;
    b.last_api = api;
    e.seq = ++b.seq;
    if (pipe < NPIPE) { b.last_seq[pipe] = e.seq; b.has_last[pipe] = true; }
    e.pipe = pipe;
    e.api = api;
    e.line = loc.line;
    e.text = trace_text_on(r, b);
    e.on = e.text || cost_on();
    e.j.want = e.text;
    if (e.text) trace_head(e.j.text, b.idx, e.seq, pipe, api, loc.line);
}
#else
;
#endif
EMU_RT_FN void trace_after(Ev& e, const uint64_t* after, int n)
#if ASCENDC_EMU_RT_BODIES
{
    if (!e.on || n == 0) return;
    CostFields& f = e.j.f;
    for (int i = 0; i < n && f.n_after < (int)(sizeof f.after / sizeof f.after[0]); i++) f.after[f.n_after++] = after[i];
    if (!e.text) return;
    Json& j = e.j.text;
    j.sep();
    j.raw("\"after\":[");
    for (int i = 0; i < n; i++) {
        if (i) j.raw(",");
        j.num((long long)after[i]);
    }
    j.raw("]");
}
#else
;
#endif
EMU_RT_FN void trace_end(Ev& e)
#if ASCENDC_EMU_RT_BODIES
{
    if (e.on) trace_record(e.pipe, e.api, e.seq, e.j.f, e.text ? &e.j.text : nullptr);
    maybe_yield();
}
#else
;
#endif

// One scalar access (GetValue/SetValue); merged with identical neighbours to keep scalar loops' traces small.
EMU_RT_FN void trace_scalar(const char* api, int space, const Loc& loc, bool miss)
#if ASCENDC_EMU_RT_BODIES
{
    Block& b = blk();
    b.last_loc = loc;
    b.last_api = api;
    if (b.sc_count && (b.sc_api != api || b.sc_space != space || b.sc_line != loc.line)) flush_scalar_trace();
    b.sc_api = api;
    b.sc_space = space;
    b.sc_line = loc.line;
    b.sc_count++;
    if (miss) b.sc_miss++;
}
#else
;
#endif

// ------------------------------------------------------------------------------------------------ clocks
// Each pipe runs in order; the vector clock vc[p] says which events of every other pipe are known to have
// finished before pipe p's current event. An event's epoch is vc[p][p] after begin_epoch.
inline uint32_t begin_epoch(int p) { return ++blk().vc[p][p]; }
inline void join(uint32_t* dst, const uint32_t* src) {
    for (int i = 0; i < NPIPE; i++)
        if (src[i] > dst[i]) dst[i] = src[i];
}
// Joins a snapshot of another pipe's clock into pipe p (a WaitFlag, DeQue, AllocTensor): the snapshot's own
// entry for p says which of p's earlier instructions are known finished.
inline void join_into(int p, const uint32_t* snap) {
    Block& b = blk();
    join(b.vc[p], snap);
    if (snap[p] > b.done[p]) b.done[p] = snap[p];
}
// Every pipe waits for every other (PipeBarrier<PIPE_ALL>, SyncAll, the synchronous Matmul calls).
inline void join_all_pipes() {
    Block& b = blk();
    uint32_t all[NPIPE] = {};
    for (int q = 0; q < NPIPE; q++) join(all, b.vc[q]);
    for (int q = 0; q < NPIPE; q++) { join(b.vc[q], all); b.done[q] = b.vc[q][q]; }
}
// Same-pipe order. docs/zh/api/SIMD-API/基础API/同步控制/核内同步/关键特性说明.md (AIV table): PIPE_V -> PIPE_V
// barriers are inserted by the compiler (auto-sync), so they are checked only under strict_sync; PIPE_MTE2 ->
// PIPE_MTE2 writes to overlapping addresses need a PipeBarrier<PIPE_MTE2> from the developer (PipeBarrier(ISASI).md);
// the scalar pipe is ordered by the hardware; the other pipes are not checked (their writes go to GM or are the
// Cube's in-order accumulation).
// Below: the last epoch of the pipe known finished (an earlier instruction; the current one is always ordered).
inline uint32_t same_pipe_limit(int p) {
    if (p == P_V ? !rt().modes.strict_sync : p != P_MTE2) return 0xffffffffu;
    return blk().done[p];
}
// docs .../核内同步/关键特性说明.md: with --cce-auto-sync (the default of kernel-direct and custom-op projects) bisheng
// inserts the S <-> V / MTE2 / MTE3 syncs in both directions itself; strict_sync models --cce-auto-sync=off.
// ordered_limit: the last epoch of writer_pipe that reader_pipe is known to run after; the race detector hoists it
// per access (an epoch equal to the reader's current one is the same instruction, in-place operands: ordered too).
inline uint32_t ordered_limit(int writer_pipe, int reader_pipe) {
    if (writer_pipe == reader_pipe) return same_pipe_limit(writer_pipe);
    if ((writer_pipe == P_S || reader_pipe == P_S) && !rt().modes.strict_sync) return 0xffffffffu;
    return blk().vc[reader_pipe][writer_pipe];
}
inline bool ordered(int writer_pipe, uint32_t epoch, int reader_pipe) {
    if (epoch == 0) return true;
    if (writer_pipe == reader_pipe && epoch >= blk().vc[writer_pipe][writer_pipe]) return true;
    return epoch <= ordered_limit(writer_pipe, reader_pipe);
}

EMU_RT_FN const char* hard_event_hint(int from, int to)
#if ASCENDC_EMU_RT_BODIES
{
    static char buf[64];
    snprintf(buf, sizeof buf, "SetFlag/WaitFlag<HardEvent::%s_%s>", pipe_uc(from), pipe_uc(to));
    return buf;
}
#else
;
#endif

struct Conflict {
    bool any = false;
    const char* kind = "";
    int other_pipe = 0;
    uint32_t other_site = 0;
    uint64_t first = 0, last = 0;
};

EMU_RT_FN void report_race(const Conflict& c, int space, int pipe, const char* api, const Loc& loc, bool write)
#if ASCENDC_EMU_RT_BODIES
{
    const Site& o = rt().sites[c.other_site];
    int from = c.other_pipe, to = pipe;
    long extra = (long)c.other_site;  // one report per (reader/writer line, other line)
    char hint[320];
    if (from == to && from == P_V)
        snprintf(hint, sizeof hint, "add PipeBarrier<PIPE_V>() between them (bisheng's auto-sync inserts it; this run "
                 "models --cce-auto-sync=off: --strict-sync)");
    else if (from == to)
        snprintf(hint, sizeof hint, "add PipeBarrier<PIPE_%s>() between them: two transfers on one pipe to "
                 "overlapping addresses are not ordered, and the compiler does not insert this barrier", pipe_uc(from));
    else if (from == P_S || to == P_S)
        snprintf(hint, sizeof hint, "add %s between them (scalar accesses are not ordered with the %s pipe; bisheng's "
                 "auto-sync inserts this, this run models --cce-auto-sync=off: --strict-sync)",
                 hard_event_hint(from, to), pipe_uc(from == P_S ? to : from));
    else
        snprintf(hint, sizeof hint, "add %s (or pass the tensor through a TQue EnQue/DeQue) between them",
                 hard_event_hint(from, to));
    va_list dummy;
    (void)dummy;
    auto go = [&](const char* fmt, ...) {
        va_list ap;
        va_start(ap, fmt);
        vreport(true, "pipe-race", "sync-missing", pipe, api, loc, extra, fmt, ap);
        va_end(ap);
    };
    go("%s hazard on %s [0x%llx, 0x%llx): PIPE_%s %s it (%s at %s:%d) and PIPE_%s %s it (%s at line %d) with no "
       "happens-before edge; on the NPU the pipes run concurrently, so the data may be stale: %s",
       c.kind, space_name(space), (unsigned long long)c.first, (unsigned long long)c.last, pipe_uc(from),
       !strcmp(c.kind, "WAR") ? "reads" : "writes", o.api, o.file, o.line, pipe_uc(to), write ? "writes" : "reads",
       api, loc.line, hint);
}
#else
;
#endif

// Bytes of the shadow of one on-chip memory: a record per 32-byte granule of the mapped memory.
inline size_t shadow_bytes(const Block& b, int space) { return (size_t)((b.mem_bytes[space] + 31) / 32) * sizeof(Shadow); }

// Race check + shadow update for an on-chip range [addr, addr+bytes) of the current block.
EMU_RT_FN void shadow_access(int space, uint64_t addr, uint64_t bytes, bool write, int pipe, uint32_t site,
                          const char* api, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    Block& b = blk();
    if (!bytes || !b.mem[space] || pipe >= NPIPE) return;
    if (!b.shadow[space]) {  // zero pages, touched only where the kernel accesses (shadow_bytes)
        void* m = mmap(nullptr, shadow_bytes(b, space), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) return;
        b.shadow[space] = (Shadow*)m;
    }
    uint64_t g0 = addr / 32, g1 = (addr + bytes + 31) / 32, gmax = (b.mem_bytes[space] + 31) / 32;
    if (g1 > gmax) g1 = gmax;
    uint32_t ep = b.vc[pipe][pipe];
    Conflict c;
    // ordered(q, epoch, pipe) == (epoch <= known[q]) for this access: hoisted out of the granule loop
    uint32_t known[NPIPE];
    for (int q = 0; q < NPIPE; q++) known[q] = ordered_limit(q, pipe);
    for (uint64_t g = g0; g < g1; g++) {
        Shadow& s = b.shadow[space][g];
        const char* kind = nullptr;
        int op = 0;
        uint32_t osite = 0;
        if (s.w_epoch > known[s.w_pipe] && !(s.w_pipe == pipe && s.w_epoch >= ep)) { kind = write ? "WAW" : "RAW"; op = s.w_pipe; osite = s.w_site; }
        if (write && !kind)
            for (int q = 0; q < NPIPE; q++)
                if (s.r_epoch[q] > known[q] && !(q == pipe && s.r_epoch[q] >= ep)) { kind = "WAR"; op = q; osite = s.r_site[q]; break; }
        if (kind) {
            if (!c.any) { c.any = true; c.kind = kind; c.other_pipe = op; c.other_site = osite; c.first = g * 32; }
            c.last = (g + 1) * 32;
        }
        if (write) {
            s.w_epoch = ep; s.w_pipe = (uint8_t)pipe; s.w_site = site;
            memset(s.r_epoch, 0, sizeof s.r_epoch);
        } else {
            s.r_epoch[pipe] = ep; s.r_site[pipe] = site;
        }
    }
    if (c.any) report_race(c, space, pipe, api, loc, write);
}
#else
;
#endif

// ------------------------------------------------------------------------------------------------ GM
// Finds the allocation whose mapping (buffer plus red zones) contains p; with_redzone=false: the buffer only.
EMU_RT_FN GmAlloc* gm_find(const void* p, bool with_redzone = true)
#if ASCENDC_EMU_RT_BODIES
{
    const uint8_t* q = (const uint8_t*)p;
    for (GmAlloc& a : rt().gm) {
        if (with_redzone ? (q >= a.map && q < a.map + a.map_bytes) : (q >= a.base && q < a.base + a.padded)) return &a;
    }
    return nullptr;
}
#else
;
#endif

#if ASCENDC_EMU_RT_BODIES
// The program's own image (GNU ld's symbols): where a kernel's `static const __gm__ T table[] = {...}` lives here.
extern "C" char __executable_start[];
extern "C" char _end[];
#endif

// Checks a GM range against the real host allocation. Returns the in-bounds sub-range via lo/hi offsets
// (relative to p); false if nothing may be touched.
EMU_RT_FN bool gm_check(const void* p, uint64_t bytes, bool write, int pipe, const char* api, const Loc& loc,
                     uint64_t* lo, uint64_t* hi)
#if ASCENDC_EMU_RT_BODIES
{
    *lo = 0;
    *hi = bytes;
    if (!bytes) return false;
    GmAlloc* a = gm_find(p);
    const uint8_t* q = (const uint8_t*)p;
    if (!a && !write && q >= (const uint8_t*)__executable_start && q + bytes <= (const uint8_t*)_end) {
        // constant data of the kernel binary (cann-ops' `static const __gm__ int32_t assistGmB32[4096]`), which the
        // NPU loads into GM with the kernel: readable; a write to it is still reported below
        return true;
    }
    if (!a) {
        report_error("gm-bounds", "gm-out-of-bounds", pipe, api, loc,
                     "%s %s %s B at GM address %p, which is not inside any GM buffer of this launch (inputs, outputs, "
                     "workspace, tiling); check the pointer arithmetic on GM_ADDR / SetGlobalBuffer",
                     api, write ? "writes" : "reads", EMU_N(bytes), p);
        *hi = 0;
        return false;
    }
    int64_t off = (const uint8_t*)p - a->base;
    int64_t end = off + (int64_t)bytes;
    // The runtime allocates ALIGN_UP(size, 32) + 32 B (aclrtMalloc): an access inside that padding does not fault
    // on the NPU (it reads undefined bytes); --strict-gm holds the kernel to the bytes it asked for.
    int64_t limit = (int64_t)(rt().modes.strict_gm ? a->size : a->padded);
    if (off < 0 || end > limit) {
        char pad[160] = "";
        if (limit != (int64_t)a->size)
            snprintf(pad, sizeof pad, "; the runtime's allocation ends at %s B (ALIGN_UP(%s, 32) + 32)",
                     EMU_N(a->padded), EMU_N(a->size));
        report_error("gm-bounds", "gm-out-of-bounds", pipe, api, loc,
                     "%s %s %s B at %s%+lld .. %s%+lld, outside %s (%s B%s): %s B out of bounds%s", api,
                     write ? "writes" : "reads", EMU_N(bytes), a->name, (long long)off, a->name, (long long)end, a->name,
                     EMU_N(a->size), pad, EMU_N((off < 0 ? -off : 0) + (end > limit ? end - limit : 0)),
                     off >= 0 && end > limit ? " past the end (tail tile or block offset?)" : " before the start");
        int64_t l = off < 0 ? -off : 0, h = end > limit ? limit - off : (int64_t)bytes;
        if (h <= l) { *hi = 0; return false; }
        *lo = (uint64_t)l;
        *hi = (uint64_t)h;
    }
    return true;
}
#else
;
#endif

// Intra-block GM hazards between the S / MTE2 / MTE3 / FIX pipes (e.g. MTE3 writes z, then MTE2 reads it back).
EMU_RT_FN void gm_shadow_access(const void* p, uint64_t bytes, bool write, int pipe, uint32_t site, const char* api,
                             const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    GmAlloc* a = gm_find(p, false);
    if (!a || !bytes) return;
    int slot = gm_slot(pipe);
    if (slot < 0) return;
    if (!a->shadow) {
        size_t n = (a->padded + 31) / 32, off = 0;
        const size_t sizes[16] = {4, 4, 2, 1, 4, 4, 4, 4, 4, 4, 4, 4, 2, 2, 2, 2};  // the arrays, in carve order
        size_t total = 0;
        for (size_t k : sizes) total += (n * k + 4095) / 4096 * 4096;
        void* m = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) return;
        GmShadow* sh = new GmShadow();
        sh->map = m;
        sh->map_bytes = total;
        auto carve = [&](size_t k) {
            void* q = (uint8_t*)m + off;
            off += (n * k + 4095) / 4096 * 4096;
            return q;
        };
        sh->w_epoch = (uint32_t*)carve(4);
        sh->w_site = (uint32_t*)carve(4);
        sh->w_block = (int16_t*)carve(2);
        sh->w_pipe = (uint8_t*)carve(1);
        for (int q = 0; q < 4; q++) sh->r_epoch[q] = (uint32_t*)carve(4);
        for (int q = 0; q < 4; q++) sh->r_site[q] = (uint32_t*)carve(4);
        for (int q = 0; q < 4; q++) sh->r_block[q] = (int16_t*)carve(2);
        a->shadow = sh;
    }
    GmShadow& sh = *a->shadow;
    Block& b = blk();
    uint64_t off = (const uint8_t*)p - a->base;
    uint64_t g0 = off / 32, g1 = (off + bytes + 31) / 32, gmax = (a->padded + 31) / 32;
    if (g1 > gmax) g1 = gmax;
    uint32_t ep = b.vc[pipe][pipe];
    Conflict c;
    static const int slot_pipe[4] = {P_S, P_MTE2, P_MTE3, P_FIX};
    uint32_t known[NPIPE];  // as in shadow_access: ordered() hoisted out of the granule loop
    for (int q = 0; q < NPIPE; q++) known[q] = ordered_limit(q, pipe);
    uint32_t known_slot[4];
    for (int q = 0; q < 4; q++) known_slot[q] = q == slot ? 0xffffffffu : known[slot_pipe[q]];
    const int16_t me = (int16_t)b.idx;
    const bool check_w = sh.written;
    bool check_r[4];
    for (int q = 0; q < 4; q++) check_r[q] = write && q != slot && sh.read[q];
    for (uint64_t g = g0; g < g1; g++) {
        const char* kind = nullptr;
        int op = 0;
        uint32_t os = 0;
        if (check_w) {
            uint32_t we = sh.w_epoch[g];
            if (we && we > known[sh.w_pipe[g]] && sh.w_block[g] == me) {
                kind = write ? "WAW" : "RAW"; op = sh.w_pipe[g]; os = sh.w_site[g];
            }
        }
        if (write && !kind)
            for (int q = 0; q < 4; q++)
                if (check_r[q] && sh.r_epoch[q][g] > known_slot[q] && sh.r_block[q][g] == me) {
                    kind = "WAR"; op = slot_pipe[q]; os = sh.r_site[q][g]; break;
                }
        if (kind) {
            if (!c.any) { c.any = true; c.kind = kind; c.other_pipe = op; c.other_site = os; c.first = g * 32; }
            c.last = (g + 1) * 32;
        }
        if (write) {
            sh.w_epoch[g] = ep; sh.w_pipe[g] = (uint8_t)pipe; sh.w_site[g] = site; sh.w_block[g] = me;
            for (int q = 0; q < 4; q++)
                if (sh.read[q] && sh.r_epoch[q][g]) sh.r_epoch[q][g] = 0;
        } else {
            sh.r_epoch[slot][g] = ep; sh.r_site[slot][g] = site; sh.r_block[slot][g] = me;
        }
    }
    if (write) sh.written = true;
    else sh.read[slot] = true;
    if (c.any) report_race(c, SP_GM, pipe, api, loc, write);
}
#else
;
#endif

// DCache: scalar GM accesses go through a 32 KB, 64-byte-line cache; misses cost MTE-like latency.
EMU_RT_FN bool dcache_access(const void* p)
#if ASCENDC_EMU_RT_BODIES
{
    Block& b = blk();
    uint64_t line = (uint64_t)(uintptr_t)p >> 6;
    unsigned set = (unsigned)(line & 127);
    int victim = 0;
    for (int w = 0; w < 4; w++) {
        if (b.dc_tag[set][w] == line + 1) {
            for (int v = 0; v < 4; v++) if (b.dc_age[set][v] < b.dc_age[set][w]) b.dc_age[set][v]++;
            b.dc_age[set][w] = 0;
            return false;
        }
        if (b.dc_age[set][w] > b.dc_age[set][victim] || b.dc_tag[set][w] == 0) victim = w;
    }
    for (int v = 0; v < 4; v++) if (b.dc_age[set][v] < 255) b.dc_age[set][v]++;
    b.dc_tag[set][victim] = line + 1;
    b.dc_age[set][victim] = 0;
    return true;
}
#else
;
#endif

// DCache coherence (缓存控制/DataCacheCleanAndInvalid.md, GlobalTensor/GetValue.md): scalar GM accesses go through
// the core's Data Cache, DMA (DataCopy) does not. A SetValue leaves its 64-byte line dirty until
// DataCacheCleanAndInvalid (or an eviction) writes it back, so a DataCopy of those bytes reads the old GM contents
// (and a DataCopy writing them is later overwritten by the write-back); a DataCopy to GM leaves a cached copy of the
// line stale, so a later GetValue reads old data. bisheng's auto-sync orders the pipes but does not clean the
// cache: these stay errors in every mode. Cross-core caches are not modelled.
enum { DC_CLEAN = 0, DC_DIRTY = 1, DC_STALE = 2 };
inline int dcache_way(Block& b, uint64_t line) {
    unsigned set = (unsigned)(line & 127);
    for (int w = 0; w < 4; w++)
        if (b.dc_tag[set][w] == line + 1) return w;
    return -1;
}
inline int dcache_line_state(Block& b, unsigned set, int w) {
    return b.dc_state_tag[set][w] == b.dc_tag[set][w] ? b.dc_state[set][w] : DC_CLEAN;
}
inline void dcache_mark(Block& b, uint64_t line, int state, uint32_t site) {
    int w = dcache_way(b, line);
    if (w < 0) return;
    unsigned set = (unsigned)(line & 127);
    b.dc_state[set][w] = (uint8_t)state;
    b.dc_state_tag[set][w] = b.dc_tag[set][w];
    b.dc_state_site[set][w] = site;
    b.dc_marks = true;
}
// A scalar GM access (after dcache_access): a write dirties the line; a read of a stale line is reported.
EMU_RT_FN void dcache_scalar(const void* p, bool write, const char* api, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    Block& b = blk();
    uint64_t line = (uint64_t)(uintptr_t)p >> 6;
    if (write) { dcache_mark(b, line, DC_DIRTY, intern_site(loc.file, loc.line, api)); return; }
    if (!b.dc_marks) return;
    int w = dcache_way(b, line);
    unsigned set = (unsigned)(line & 127);
    if (w < 0 || dcache_line_state(b, set, w) != DC_STALE) return;
    const Site& o = rt().sites[b.dc_state_site[set][w]];
    report_error("dcache-coherence", "sync-missing", P_S, api, loc,
                 "%s reads GM at %p through the core's Data Cache, but its 64-byte line was cached before %s at %s:%d "
                 "wrote those bytes by DMA: the scalar read sees the old value. Call DataCacheCleanAndInvalid on the "
                 "GlobalTensor before reading it", api, p, o.api, o.file, o.line);
}
#else
;
#endif
// A DMA access of GM [p, p + bytes): dirty lines in the range are reported; a write makes cached lines stale.
EMU_RT_FN void dcache_dma(const void* p, uint64_t bytes, bool write, int pipe, const char* api, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    Block& b = blk();
    if (!bytes) return;
    uint64_t l0 = (uint64_t)(uintptr_t)p >> 6, l1 = ((uint64_t)(uintptr_t)p + bytes - 1) >> 6;
    uint32_t site = 0;
    bool reported = false;
    auto visit = [&](unsigned set, int w) {
        uint64_t tag = b.dc_tag[set][w];
        if (!tag || tag - 1 < l0 || tag - 1 > l1) return;
        if (b.dc_marks && !reported && dcache_line_state(b, set, w) == DC_DIRTY) {
            reported = true;
            const Site& o = rt().sites[b.dc_state_site[set][w]];
            report_error("dcache-coherence", "sync-missing", pipe, api, loc,
                         "%s %s GM bytes of a 64-byte line that %s at %s:%d wrote through the core's Data Cache and that "
                         "is still dirty there (not written back): %s. Call DataCacheCleanAndInvalid on the GlobalTensor "
                         "after the scalar writes", api, write ? "writes" : "reads", o.api, o.file, o.line,
                         write ? "the later write-back overwrites what the DMA wrote" : "the DMA reads the old GM contents");
        }
        if (write) {
            if (!site) site = intern_site(loc.file, loc.line, api);
            b.dc_state[set][w] = DC_STALE;
            b.dc_state_tag[set][w] = tag;
            b.dc_state_site[set][w] = site;
            b.dc_marks = true;
        }
    };
    if (l1 - l0 < 128) {
        for (uint64_t l = l0; l <= l1; l++)
            for (int w = 0; w < 4; w++)
                if (b.dc_tag[l & 127][w] == l + 1) visit((unsigned)(l & 127), w);
    } else {
        for (unsigned set = 0; set < 128; set++)
            for (int w = 0; w < 4; w++) visit(set, w);
    }
}
#else
;
#endif
// DataCacheCleanAndInvalid: the line of `p` (SINGLE_CACHE_LINE) or the whole cache (ENTIRE_DATA_CACHE) is written
// back and dropped.
EMU_RT_FN void dcache_clean_invalidate(const void* p, bool entire)
#if ASCENDC_EMU_RT_BODIES
{
    Block& b = blk();
    if (entire) {
        memset(b.dc_tag, 0, sizeof b.dc_tag);
        memset(b.dc_state, 0, sizeof b.dc_state);
        b.dc_marks = false;
        return;
    }
    uint64_t line = (uint64_t)(uintptr_t)p >> 6;
    int w = dcache_way(b, line);
    if (w >= 0) {
        unsigned set = (unsigned)(line & 127);
        b.dc_tag[set][w] = 0;
        b.dc_state[set][w] = DC_CLEAN;
    }
}
#else
;
#endif

// ------------------------------------------------------------------------------------------------ scheduler
[[noreturn]] inline void kill_block(bool deadlock) {
    Runtime& r = rt();
    Block& b = blk();
    if (deadlock) r.deadlock = true;
    b.state = BS_DEAD;
    swapcontext(&b.ctx, &r.main_ctx);
    abort();  // never resumed
}
EMU_RT_FN void maybe_yield()
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    if (r.order == ORD_INTERLEAVED && r.in_launch && r.block_dim > 1) swapcontext(&r.cur->ctx, &r.main_ctx);
}
#else
;
#endif

}  // namespace ascendc_emu
#ifdef ASCENDC_EMU_IDE
namespace AscendC {
using ::ascendc_emu::loc;  // the placeholder the IDE-mode bodies read (see EMU_LOC)
}  // namespace AscendC
using ::ascendc_emu::loc;  // cce.h's global builtins
#endif
#endif  // ASCENDC_EMU_ASCENDC_EMU_RUNTIME_H_
