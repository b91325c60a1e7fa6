// Core state of the AscendC CPU emulator: SoC limits, per-block state (arenas, vector clocks, flags, mask),
// report.jsonl / trace.jsonl writers, GM allocation registry, happens-before race detector and the fibre
// scheduler that runs blocks. Clean-room: written from the public AscendC docs and PROTOCOL.md only.
#ifndef ASCENDC_EMU_ASCENDC_EMU_RUNTIME_H_
#define ASCENDC_EMU_ASCENDC_EMU_RUNTIME_H_
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
#define EMU_LOC ::ascendc_emu::Loc loc = ::ascendc_emu::Loc()

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
    uint64_t ub_reserved = 0;
    int max_buffers = 64, max_live = 8, event_ids = 8, has_pad = 1, aiv = 48, aic = 24;
    uint64_t capacity(int sp) const { return sp == SP_UB ? bytes[SP_UB] - ub_reserved : bytes[sp]; }
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
struct GmShadow {  // per 32-byte granule of GM; only the GM pipes S, MTE2, MTE3, FIX keep read slots
    uint32_t w_epoch, w_site;
    int16_t w_block;
    uint8_t w_pipe;
    uint32_t r_epoch[4], r_site[4];
    int16_t r_block[4];
};
inline int gm_slot(int p) { return p == P_S ? 0 : p == P_MTE2 ? 1 : p == P_MTE3 ? 2 : p == P_FIX ? 3 : -1; }

struct GmAlloc {
    uint8_t* base;
    uint64_t size;
    uint64_t map_bytes;
    uint8_t* map;
    char name[48];
    GmShadow* shadow;  // lazily mapped
};

enum { HE_MAX = 40 };
enum BlockState { BS_RUNNABLE, BS_SYNCALL, BS_DONE, BS_DEAD };

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
    uint64_t seq = 0;
    uint64_t last_seq[NPIPE] = {};
    bool has_last[NPIPE] = {};
    // vector mask registers (per core, persistent)
    bool counter_mode = false;
    uint64_t mask_hi = ~0ull, mask_lo = ~0ull;
    alignas(8) uint8_t api_regs[192] = {};  // special registers of the vector APIs (DEQSCALE, CMPMASK, reduce SPRs; vector_support.h)
    Flag flags[HE_MAX][8];
    uint8_t event_alloc[HE_MAX] = {};
    TPipeBase* pipe = nullptr;
    int atomic = 0;  // 0 none, 1 add, 2 max, 3 min
    int live[32] = {};
    // DCache model: 32 KB, 64-byte lines, 4-way LRU, 128 sets
    uint64_t dc_tag[128][4] = {};
    uint8_t dc_age[128][4] = {};
    // pending merged scalar trace event
    const char* sc_api = nullptr;
    int sc_space = 0, sc_line = 0;
    uint64_t sc_count = 0, sc_miss = 0;
    // fibre
    ucontext_t ctx;
    void* stack = nullptr;
    size_t stack_bytes = 0;
    BlockState state = BS_RUNNABLE;
    uint64_t sync_epoch = 0;
    int syncall_calls = 0;
    Loc sync_loc{nullptr, 0};
    Loc last_loc{nullptr, 0};
    const char* last_api = "";
};

enum Order { ORD_SEQ, ORD_REV, ORD_INTERLEAVED };

struct Runtime {
    Soc soc;
    FILE* report = nullptr;
    FILE* trace = nullptr;
    char dir[1024] = ".";
    int errors = 0, warnings = 0;
    bool deadlock = false;
    bool strict = false;
    bool autosync_scalar = false;
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
    int stderr_lines = 0;
    void (*fn)(void*) = nullptr;
    void* fn_arg = nullptr;
    const struct NpuCode* code_override = nullptr;  // replaces the category's code for the next report
    uint8_t* sys_workspace = nullptr;                // GetSysWorkSpacePtr()
    char altstack[1 << 16];                          // signal stack of the crash handler
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
    Json& i(const char* k, long long v) { sep(); str(k); n += snprintf(buf + n, sizeof buf - n, ":%lld", v); return *this; }
    Json& b(const char* k, bool v) { sep(); str(k); raw(v ? ":true" : ":false"); return *this; }
    const char* end() { buf[n++] = '}'; buf[n++] = '\n'; buf[n] = 0; return buf; }
};

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
    int b = r.cur ? r.cur->idx : -1;
    if (r.report) {
        Json j;
        j.s("severity", error ? "error" : "warning").s("check", check).s("category", category).s("code", c.code);
        j.i("block", b).s("pipe", pipe >= 0 ? pipe_uc(pipe) : "").s("api", api).s("file", loc.file ? loc.file : "");
        j.i("line", loc.line).s("message", msg).s("errorStr", c.errorStr);
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

EMU_RT_FN void flush_scalar_trace()
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    Block& b = blk();
    if (!b.sc_count) return;
    if (r.trace) {
        Json j;
        j.i("block", b.idx).i("seq", (long long)++b.seq).s("pipe", "s").s("api", b.sc_api).i("line", b.sc_line);
        j.s("space", space_lc(b.sc_space));
        if (b.sc_space == SP_GM) j.b("dcache_miss", b.sc_miss > 0);
        if (b.sc_count > 1) j.i("count", (long long)b.sc_count).i("dcache_misses", (long long)b.sc_miss);
        fputs(j.end(), r.trace);
    } else {
        ++b.seq;
    }
    b.last_seq[P_S] = b.seq;
    b.has_last[P_S] = true;
    b.sc_count = b.sc_miss = 0;
}
#else
;
#endif

// Starts a traced event: the caller adds its own fields and then calls trace_end.
struct Ev {
    Json j;
    uint64_t seq = 0;
    bool on = false;
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
    e.on = r.trace != nullptr;
    if (e.on) e.j.i("block", b.idx).i("seq", (long long)e.seq).s("pipe", pipe_lc(pipe)).s("api", api).i("line", loc.line);
}
#else
;
#endif
EMU_RT_FN void trace_after(Ev& e, const uint64_t* after, int n)
#if ASCENDC_EMU_RT_BODIES
{
    if (!e.on || n == 0) return;
    e.j.sep();
    e.j.raw("\"after\":[");
    for (int i = 0; i < n; i++) {
        char t[32];
        snprintf(t, sizeof t, i ? ",%llu" : "%llu", (unsigned long long)after[i]);
        e.j.raw(t);
    }
    e.j.raw("]");
}
#else
;
#endif
EMU_RT_FN void trace_end(Ev& e)
#if ASCENDC_EMU_RT_BODIES
{
    if (e.on) fputs(e.j.end(), rt().trace);
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
inline bool ordered(int writer_pipe, uint32_t epoch, int reader_pipe) {
    if (writer_pipe == reader_pipe || epoch == 0) return true;
    if (rt().autosync_scalar && (writer_pipe == P_S || reader_pipe == P_S)) return true;
    return blk().vc[reader_pipe][writer_pipe] >= epoch;
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
    char hint[200];
    if (from == P_S || to == P_S)
        snprintf(hint, sizeof hint, "add %s between them (scalar accesses are not ordered with the %s pipe)",
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

// Race check + shadow update for an on-chip range [addr, addr+bytes) of the current block.
EMU_RT_FN void shadow_access(int space, uint64_t addr, uint64_t bytes, bool write, int pipe, uint32_t site,
                          const char* api, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    Block& b = blk();
    if (!bytes || !b.mem[space] || pipe >= NPIPE) return;
    if (!b.shadow[space]) {
        size_t n = (b.mem_bytes[space] + 31) / 32;
        b.shadow[space] = (Shadow*)calloc(n, sizeof(Shadow));
    }
    uint64_t g0 = addr / 32, g1 = (addr + bytes + 31) / 32, gmax = (b.mem_bytes[space] + 31) / 32;
    if (g1 > gmax) g1 = gmax;
    uint32_t ep = b.vc[pipe][pipe];
    Conflict c;
    for (uint64_t g = g0; g < g1; g++) {
        Shadow& s = b.shadow[space][g];
        const char* kind = nullptr;
        int op = 0;
        uint32_t osite = 0;
        if (s.w_epoch && !ordered(s.w_pipe, s.w_epoch, pipe)) { kind = write ? "WAW" : "RAW"; op = s.w_pipe; osite = s.w_site; }
        if (write && !kind)
            for (int q = 0; q < NPIPE; q++)
                if (q != pipe && s.r_epoch[q] && !ordered(q, s.r_epoch[q], pipe)) { kind = "WAR"; op = q; osite = s.r_site[q]; break; }
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
        if (with_redzone ? (q >= a.map && q < a.map + a.map_bytes) : (q >= a.base && q < a.base + a.size)) return &a;
    }
    return nullptr;
}
#else
;
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
    if (off < 0 || end > (int64_t)a->size) {
        report_error("gm-bounds", "gm-out-of-bounds", pipe, api, loc,
                     "%s %s %s B at %s%+lld .. %s%+lld, outside %s (%s B): %s B out of bounds%s", api,
                     write ? "writes" : "reads", EMU_N(bytes), a->name, (long long)off, a->name, (long long)end, a->name,
                     EMU_N(a->size), EMU_N((off < 0 ? -off : 0) + (end > (int64_t)a->size ? end - (int64_t)a->size : 0)),
                     off >= 0 && end > (int64_t)a->size ? " past the end (tail tile or block offset?)" : " before the start");
        int64_t l = off < 0 ? -off : 0, h = end > (int64_t)a->size ? (int64_t)a->size - off : (int64_t)bytes;
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
        size_t n = (a->size + 31) / 32 * sizeof(GmShadow);
        void* m = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        a->shadow = m == MAP_FAILED ? nullptr : (GmShadow*)m;
        if (!a->shadow) return;
    }
    Block& b = blk();
    uint64_t off = (const uint8_t*)p - a->base;
    uint64_t g0 = off / 32, g1 = (off + bytes + 31) / 32, gmax = (a->size + 31) / 32;
    if (g1 > gmax) g1 = gmax;
    uint32_t ep = b.vc[pipe][pipe];
    Conflict c;
    static const int slot_pipe[4] = {P_S, P_MTE2, P_MTE3, P_FIX};
    for (uint64_t g = g0; g < g1; g++) {
        GmShadow& s = a->shadow[g];
        const char* kind = nullptr;
        int op = 0;
        uint32_t os = 0;
        if (s.w_epoch && s.w_block == b.idx && !ordered(s.w_pipe, s.w_epoch, pipe)) { kind = write ? "WAW" : "RAW"; op = s.w_pipe; os = s.w_site; }
        if (write && !kind)
            for (int q = 0; q < 4; q++)
                if (q != slot && s.r_epoch[q] && s.r_block[q] == b.idx && !ordered(slot_pipe[q], s.r_epoch[q], pipe)) {
                    kind = "WAR"; op = slot_pipe[q]; os = s.r_site[q]; break;
                }
        if (kind) {
            if (!c.any) { c.any = true; c.kind = kind; c.other_pipe = op; c.other_site = os; c.first = g * 32; }
            c.last = (g + 1) * 32;
        }
        if (write) {
            s.w_epoch = ep; s.w_pipe = (uint8_t)pipe; s.w_site = site; s.w_block = (int16_t)b.idx;
            memset(s.r_epoch, 0, sizeof s.r_epoch);
        } else {
            s.r_epoch[slot] = ep; s.r_site[slot] = site; s.r_block[slot] = (int16_t)b.idx;
        }
    }
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
#endif  // ASCENDC_EMU_ASCENDC_EMU_RUNTIME_H_
