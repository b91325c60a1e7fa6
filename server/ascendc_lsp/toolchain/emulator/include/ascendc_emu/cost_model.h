// The pipe-level cost model, run inside the emulated kernel: every traced event is list-scheduled as it is
// recorded, so the estimate costs a few tens of nanoseconds per event and no trace has to be written or parsed.
// It is the model of toolchain/emulator/cost.py (event_cycles, _BlockState.step, the SyncAll rounds), kept in
// step with it by tests/test_cost_native.py, which schedules the same traces both ways. Every constant comes
// from the `cost.*` lines of soc.txt, written by the runner from the SoC profile (cost.py DEFAULTS + the
// profile's cost_model:): this file holds the rules, not the numbers.
// Output (PROTOCOL.md "estimate.jsonl"): one JSON line per launch with each block's makespan, issue cycles,
// GM bytes and per-pipe busy cycles; with a text trace, each trace line also carries its "start"/"end" cycles.
// Included by runtime.h after Json, Block and Runtime.
#ifndef ASCENDC_EMU_ASCENDC_EMU_COST_MODEL_H_
#define ASCENDC_EMU_ASCENDC_EMU_COST_MODEL_H_

namespace ascendc_emu {

// The fields of one event that the model reads (the rest of a trace line is for people).
struct CostFields {
    const char* src = nullptr;
    const char* dst = nullptr;
    const char* dtype = nullptr;
    const char* space = nullptr;
    const char* barrier = nullptr;
    double bytes = 0, elements = 0, repeats = 0, m = 0, n = 0, k = 0, count = 0, misses = 0, cycles = 0;
    bool has_bytes = false, has_repeats = false, has_count = false, has_misses = false, has_cycles = false;
    int8_t aligned = -1;  // gm_aligned512: -1 absent, 0 false, 1 true
    int8_t miss = -1;     // dcache_miss
    int n_after = 0;
    uint64_t after[16];
};

inline void cost_capture_num(CostFields& f, const char* k, double v) {
    switch (k[0]) {
        case 'b': if (!strcmp(k, "bytes")) { f.bytes = v; f.has_bytes = true; } break;
        case 'e': if (!strcmp(k, "elements")) f.elements = v; break;
        case 'r': if (!strcmp(k, "repeats")) { f.repeats = v; f.has_repeats = true; } break;
        case 'm': if (!k[1]) f.m = v; break;
        case 'n': if (!k[1]) f.n = v; break;
        case 'k': if (!k[1]) f.k = v; break;
        case 'c':
            if (!strcmp(k, "count")) { f.count = v; f.has_count = true; }
            else if (!strcmp(k, "cycles")) { f.cycles = v; f.has_cycles = true; }
            break;
        case 'd': if (!strcmp(k, "dcache_misses")) { f.misses = v; f.has_misses = true; } break;
        default: break;
    }
}
inline void cost_capture_str(CostFields& f, const char* k, const char* v) {
    switch (k[0]) {
        case 's':
            if (!strcmp(k, "src")) f.src = v;
            else if (!strcmp(k, "space")) f.space = v;
            break;
        case 'd':
            if (!strcmp(k, "dst")) f.dst = v;
            else if (!strcmp(k, "dtype")) f.dtype = v;
            break;
        case 'b': if (!strcmp(k, "barrier")) f.barrier = v; break;
        default: break;
    }
}

// What call sites write into `ev.j` (`ev.j.i("bytes", n).s("src", "gm")`): the model's fields are captured,
// the JSON text is built only when a trace file is written.
struct EvJson {
    Json text;
    bool want = false;
    CostFields f;
    EvJson& s(const char* k, const char* v) {
        cost_capture_str(f, k, v);
        if (want) text.s(k, v);
        return *this;
    }
    EvJson& i(const char* k, long long v) {
        cost_capture_num(f, k, (double)v);
        if (want) text.i(k, v);
        return *this;
    }
    EvJson& b(const char* k, bool v) {
        if (!strcmp(k, "gm_aligned512")) f.aligned = v ? 1 : 0;
        else if (!strcmp(k, "dcache_miss")) f.miss = v ? 1 : 0;
        if (want) text.b(k, v);
        return *this;
    }
    void sep() { if (want) text.sep(); }
    void raw(const char* s) { if (want) text.raw(s); }
};

// ---- parameters (soc.txt `cost.<name> <value>`; tables as `cost.dma.<src_dst>`, `cost.vcpr.<Api>[.<dtype>]`,
// `cost.mac.<dtype>`, and the zero-duration APIs as `cost.zero.<Api>`)
enum CostScalar {
    CS_CLOCK_MHZ, CS_HBM_GBPS, CS_M_GM_UB, CS_M_UB_GM, CS_M_GM_L1, CS_M_L0C_GM, CS_MTE_T0, CS_ONCHIP_T0,
    CS_UNALIGNED, CS_VEC_MIN, CS_REDUCE_MIN, CS_MMAD_MIN, CS_ISSUE, CS_LOCAL, CS_GM_HIT, CS_MISS, CS_DMA_FALLBACK,
    CS_REQUIRED,                  // the ones above must all be given
    CS_MEASURED_MAC = CS_REQUIRED,  // optional
    CS_N
};
inline const char* cost_scalar_name(int i) {
    static const char* const n[CS_N] = {
        "clock_mhz", "hbm_gbps", "measured_gm_ub_gbps", "measured_ub_gm_gbps", "measured_gm_l1_gbps",
        "measured_l0c_gm_gbps", "mte_t0_cycles", "onchip_t0_cycles", "gm_unaligned_factor", "vector_min_cycles",
        "reduce_min_cycles", "mmad_min_cycles", "scalar_issue_cycles", "scalar_local_access_cycles",
        "scalar_gm_hit_cycles", "scalar_dcache_miss_cycles", "dma_fallback_bytes_per_cycle",
        "measured_cube_mac_per_cycle"};
    return n[i];
}
struct CostKV {
    char key[64];
    double v;
};
// Space codes of the data paths (cost.py _norm_space): the 8 memories, then anything else.
enum { CSP_GM, CSP_UB, CSP_L1, CSP_L0A, CSP_L0B, CSP_L0C, CSP_BT, CSP_FB, CSP_OTHER, CSP_N };

struct CostLane {  // one block's schedule for one assumed number of active cores
    double issue = 0, free[NPIPE] = {}, busy[NPIPE] = {}, issue_cycles = 0, gm_bytes = 0, makespan = 0;
    std::vector<double> end;  // end cycle by seq, for `after` edges
    uint32_t syncs = 0, syncs_applied = 0;
};
struct CostBlock {
    CostLane lane[2];
    bool done = false;
};
// Facts per (api, dtype), cached by the strings' addresses: like intern_site, the headers pass string literals
// (or strings that live as long as the process) for API and dtype names.
struct CostApiInfo {
    const char* ptr;
    const char* dtype;
    uint16_t flags;
    double cpr;      // vector cycles per repeat for (api, dtype)
    int dtype_bytes;
};
struct CostState {
    FILE* out = nullptr;
    double sc[CS_N] = {};
    bool have[CS_N] = {};
    std::vector<CostKV> dma, vcpr, mac, zero;
    bool loaded = false, warned = false, on = false;
    // derived at load
    double bw[CSP_N][CSP_N] = {};
    bool bw_gm[CSP_N][CSP_N] = {};
    double hbm_bpc = 0;
    // this launch
    int launch = 0, lanes = 1, block_dim = 0;
    int active[2] = {1, 1};
    std::vector<CostBlock> blocks;
    std::vector<double> sync_t[2];
    bool has_cube = false, has_vec = false, has_syncall = false;
    uint64_t events = 0, scalar_accesses = 0;
    uint64_t trace_dropped_before = 0;  // Runtime::trace_dropped when the launch began
    CostApiInfo cache[1024];
    CostState() { memset(cache, 0, sizeof cache); }
};

EMU_RT_FN CostState& cost_state()
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    if (!r.cost) r.cost = new CostState();
    return *r.cost;
}
#else
;
#endif
inline bool cost_on() {
    Runtime& r = rt();
    return r.cost && r.cost->on;
}

// `cost.<key> <value>` from soc.txt (key without the prefix).
EMU_RT_FN void cost_param(const char* key, const char* value)
#if ASCENDC_EMU_RT_BODIES
{
    CostState& c = cost_state();
    double v = strtod(value, nullptr);
    auto put = [&](std::vector<CostKV>& t, const char* k) {
        CostKV kv{};
        snprintf(kv.key, sizeof kv.key, "%s", k);
        for (CostKV& e : t)
            if (!strcmp(e.key, kv.key)) { e.v = v; return; }
        t.push_back(kv);
        t.back().v = v;
    };
    if (!strncmp(key, "dma.", 4)) put(c.dma, key + 4);
    else if (!strncmp(key, "vcpr.", 5)) put(c.vcpr, key + 5);
    else if (!strncmp(key, "mac.", 4)) put(c.mac, key + 4);
    else if (!strncmp(key, "zero.", 5)) put(c.zero, key + 5);
    else
        for (int i = 0; i < CS_N; i++)
            if (!strcmp(key, cost_scalar_name(i))) { c.sc[i] = v; c.have[i] = true; }
}
#else
;
#endif

EMU_RT_FN void cost_open(const char* path)
#if ASCENDC_EMU_RT_BODIES
{
    CostState& c = cost_state();
    c.out = fopen(path, "w");
    if (!c.out) fprintf(stderr, "emulator: cannot write %s\n", path);
}
#else
;
#endif

inline bool cost_ieq(const char* a, const char* b) {  // ASCII case-insensitive equality (Python str.lower())
    auto low = [](char ch) { return ch >= 'A' && ch <= 'Z' ? (char)(ch + 32) : ch; };
    for (; *a && *b; a++, b++)
        if (low(*a) != low(*b)) return false;
    return *a == *b;
}
// cost.py _norm_space: lower-case, TPosition aliases onto memories.
inline int cost_space(const char* s) {
    static const char* const names[] = {"gm", "ub", "l1", "l0a", "l0b", "l0c", "bt", "fb"};
    static const struct { const char* alias; int code; } aliases[] = {
        {"vecin", CSP_UB}, {"vecout", CSP_UB}, {"veccalc", CSP_UB}, {"a1", CSP_L1}, {"b1", CSP_L1}, {"c1", CSP_L1},
        {"a2", CSP_L0A}, {"b2", CSP_L0B}, {"co1", CSP_L0C}, {"c2", CSP_BT}, {"co2", CSP_GM}, {"out", CSP_GM}};
    for (int i = 0; i < 8; i++)
        if (cost_ieq(s, names[i])) return i;
    for (const auto& a : aliases)
        if (cost_ieq(s, a.alias)) return a.code;
    return CSP_OTHER;
}
inline const CostKV* cost_find(const std::vector<CostKV>& t, const char* k) {
    for (const CostKV& e : t)
        if (!strcmp(e.key, k)) return &e;
    return nullptr;
}

EMU_RT_FN bool cost_load()
#if ASCENDC_EMU_RT_BODIES
{
    CostState& c = cost_state();
    c.loaded = false;
    for (int i = 0; i < CS_REQUIRED; i++)
        if (!c.have[i]) return false;
    if (!cost_find(c.vcpr, "default") || !cost_find(c.mac, "half")) return false;
    static const char* const names[] = {"gm", "ub", "l1", "l0a", "l0b", "l0c", "bt", "fb"};
    const double clock_hz = c.sc[CS_CLOCK_MHZ] * 1e6;
    const double fallback = c.sc[CS_DMA_FALLBACK];
    // cost.py _bw_bytes_per_cycle, for every pair of memories
    for (int s = 0; s < CSP_N; s++)
        for (int d = 0; d < CSP_N; d++) {
            bool gm = s == CSP_GM || d == CSP_GM;
            double bw = fallback;
            int measured = s == CSP_GM && d == CSP_UB ? CS_M_GM_UB : s == CSP_UB && d == CSP_GM ? CS_M_UB_GM
                         : s == CSP_GM && d == CSP_L1 ? CS_M_GM_L1 : s == CSP_L0C && d == CSP_GM ? CS_M_L0C_GM : -1;
            char path[16];
            const CostKV* t = nullptr;
            if (s < CSP_OTHER && d < CSP_OTHER) {
                snprintf(path, sizeof path, "%s_%s", names[s], names[d]);
                t = cost_find(c.dma, path);
            }
            if (measured >= 0) {
                bw = c.sc[measured] * 1e9 / clock_hz;
                gm = true;
            } else if (t) {
                bw = t->v;
            } else if (s == CSP_GM && (d == CSP_L0A || d == CSP_L0B)) {
                const CostKV* g = cost_find(c.dma, "gm_l0");
                bw = g ? g->v : fallback;
                gm = true;
            }
            c.bw[s][d] = bw;
            c.bw_gm[s][d] = gm;
        }
    c.hbm_bpc = c.sc[CS_HBM_GBPS] * 1e9 / (c.sc[CS_CLOCK_MHZ] * 1e6);
    c.loaded = true;
    return true;
}
#else
;
#endif

enum : uint16_t {
    AF_ZERO = 1, AF_BARRIER = 2, AF_SYNCALL = 4, AF_SCALAR_ACCESS = 8, AF_DCCI = 16, AF_REDUCE = 32, AF_GETSET = 64
};
inline int cost_dtype_bytes(const char* d) {  // cost.py _dtype_bytes
    static const char* const two[] = {"half", "float16", "bfloat16_t", "bfloat16", "int16_t", "uint16_t", "int16", "uint16"};
    static const char* const four[] = {"float", "float32", "int32_t", "uint32_t", "int32", "uint32"};
    static const char* const one[] = {"int8_t", "uint8_t", "int8", "uint8", "bool"};
    static const char* const eight[] = {"int64_t", "uint64_t", "int64", "uint64", "double"};
    for (const char* x : two) if (cost_ieq(d, x)) return 2;
    for (const char* x : four) if (cost_ieq(d, x)) return 4;
    for (const char* x : one) if (cost_ieq(d, x)) return 1;
    for (const char* x : eight) if (cost_ieq(d, x)) return 8;
    return 2;
}
// Per (api, dtype) facts, computed once per pair of string pointers.
EMU_RT_FN const CostApiInfo& cost_api(const char* api, const char* dtype)
#if ASCENDC_EMU_RT_BODIES
{
    CostState& c = *rt().cost;
    static const char* const none = "";
    if (!dtype) dtype = none;
    uint64_t h = ((uint64_t)(uintptr_t)api * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)(uintptr_t)dtype * 0xC2B2AE3D27D4EB4Full);
    CostApiInfo& e = c.cache[(h >> 40) & 1023];
    if (e.ptr == api && e.dtype == dtype) return e;
    CostApiInfo n{};
    n.ptr = api;
    n.dtype = dtype;
    if (cost_find(c.zero, api)) n.flags |= AF_ZERO;
    if (!strcmp(api, "PipeBarrier")) n.flags |= AF_BARRIER;
    if (!strcmp(api, "SyncAll")) n.flags |= AF_SYNCALL;
    if (!strcmp(api, "GetValue") || !strcmp(api, "SetValue")) n.flags |= AF_GETSET | AF_SCALAR_ACCESS;
    if (!strcmp(api, "operator[]") || !strcmp(api, "GET_TILING_DATA")) n.flags |= AF_SCALAR_ACCESS;
    if (!strcmp(api, "DataCacheCleanAndInvalid")) n.flags |= AF_DCCI;
    if (strstr(api, "Reduce") || !strncmp(api, "Compare", 7)) n.flags |= AF_REDUCE;
    // vector cycles per repeat: "<api>.<dtype>", then "<api>", then "default"
    char key[80];
    snprintf(key, sizeof key, "%s.%s", api, dtype);
    const CostKV* t = cost_find(c.vcpr, key);
    if (!t) t = cost_find(c.vcpr, api);
    if (!t) t = cost_find(c.vcpr, "default");
    n.cpr = t ? t->v : 0;
    n.dtype_bytes = cost_dtype_bytes(dtype);
    e = n;
    return e;
}
#else
;
#endif

// cost.py event_cycles: the duration of one event in cycles, for `active` cores sharing HBM.
EMU_RT_FN double cost_event_cycles(int pipe, const CostApiInfo& ai, const CostFields& f, int active)
#if ASCENDC_EMU_RT_BODIES
{
    const CostState& c = *rt().cost;
    if (f.has_cycles) return f.cycles > 0 ? f.cycles : 0.0;
    if ((ai.flags & AF_ZERO) || pipe == P_ALL) return 0.0;
    const bool has_src = f.src && *f.src, has_dst = f.dst && *f.dst;
    if (pipe == P_MTE1 || pipe == P_MTE2 || pipe == P_MTE3 || pipe == P_FIX || (f.has_bytes && pipe != P_S)) {
        double nbytes = f.bytes;
        if (!(nbytes > 0)) return 0.0;
        int src = has_src ? cost_space(f.src) : pipe == P_MTE2 ? CSP_GM : pipe == P_MTE3 ? CSP_UB : CSP_L1;
        int dst = has_dst ? cost_space(f.dst) : pipe == P_MTE2 ? CSP_UB : pipe == P_MTE3 ? CSP_GM : CSP_L0A;
        if (pipe == P_FIX && !has_src) src = CSP_L0C;
        double bw = c.bw[src][dst];
        bool gm = c.bw_gm[src][dst];
        double t0 = gm ? c.sc[CS_MTE_T0] : c.sc[CS_ONCHIP_T0];
        if (gm) {
            double cap = c.hbm_bpc / (double)(active > 1 ? active : 1);
            bw = bw < cap ? bw : cap;
            if (f.aligned == 0) bw *= c.sc[CS_UNALIGNED];
        }
        return t0 + nbytes / (bw > 1e-9 ? bw : 1e-9);
    }
    if (pipe == P_V) {
        double repeats = f.repeats;
        if (!f.has_repeats || !(repeats > 0)) {
            double elements = f.elements;
            repeats = elements > 0 ? std::ceil(elements * (double)ai.dtype_bytes / 256.0) : 1.0;
        }
        double floor = (ai.flags & AF_REDUCE) ? c.sc[CS_REDUCE_MIN] : c.sc[CS_VEC_MIN];
        double d = repeats * ai.cpr;
        return floor > d ? floor : d;
    }
    if (pipe == P_M) {
        double m = f.m ? f.m : 16, n = f.n ? f.n : 16, k = f.k ? f.k : 16;
        const char* dtype = f.dtype && *f.dtype ? f.dtype : "half";
        const CostKV* r = cost_find(c.mac, dtype);
        if (!r) r = cost_find(c.mac, "half");
        double rate = r->v;
        if (!strcmp(dtype, "half") && c.have[CS_MEASURED_MAC] && c.sc[CS_MEASURED_MAC] > 0) rate = c.sc[CS_MEASURED_MAC];
        double d = m * n * k / (rate > 1.0 ? rate : 1.0);
        return c.sc[CS_MMAD_MIN] > d ? c.sc[CS_MMAD_MIN] : d;
    }
    if (pipe == P_S) {
        double count = f.has_count && f.count > 0 ? f.count : 1.0;
        bool gm_space = f.space && cost_ieq(f.space, "gm");
        if ((ai.flags & AF_SCALAR_ACCESS) || gm_space) {
            if (gm_space) {
                double k = f.has_misses ? f.misses : (f.miss == 1 ? count : 0.0);
                k = k > 0 ? k : 0.0;
                k = k < count ? k : count;
                return k * c.sc[CS_MISS] + (count - k) * c.sc[CS_GM_HIT];
            }
            return count * c.sc[CS_LOCAL];
        }
        if (ai.flags & AF_DCCI) return c.sc[CS_MISS];
        return 0.0;
    }
    return 0.0;
}
#else
;
#endif

inline double cost_drained(const CostLane& L) {
    double t = L.issue;
    for (int q = 0; q < NPIPE; q++) t = L.free[q] > t ? L.free[q] : t;
    return t;
}
// SyncAll rounds (cost.py schedule): after every block reached its k-th SyncAll, all blocks restart from the
// latest of them. The emulator's rendezvous guarantees the round is complete when a block records its next event.
inline void cost_sync_align(CostState& c, CostBlock& cb) {
    for (int l = 0; l < c.lanes; l++) {
        CostLane& L = cb.lane[l];
        if (L.syncs_applied >= L.syncs) continue;
        double t = c.sync_t[l][L.syncs - 1];
        L.issue = t;
        for (int q = 0; q < NPIPE; q++) L.free[q] = t;
        L.syncs_applied = L.syncs;
    }
}

// Schedules one event of the current block on every lane; start/end of each lane in st/en. (cost.py step)
EMU_RT_FN void cost_record(int pipe, const char* api, uint64_t seq, const CostFields& f, double* st, double* en)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    CostState& c = *r.cost;
    Block& b = *r.cur;
    if ((size_t)b.idx >= c.blocks.size()) return;
    CostBlock& cb = c.blocks[(size_t)b.idx];
    cost_sync_align(c, cb);
    const CostApiInfo& ai = cost_api(api, pipe == P_V || pipe == P_M ? f.dtype : nullptr);
    const uint16_t flags = ai.flags;
    c.events++;
    if (pipe == P_M || pipe == P_MTE1 || pipe == P_FIX) c.has_cube = true;
    if (pipe == P_V) c.has_vec = true;
    if (flags & AF_SYNCALL) c.has_syncall = true;
    if (flags & AF_GETSET) c.scalar_accesses += f.has_count ? (uint64_t)f.count : 1;
    const double n_calls = pipe == P_S && f.has_count && f.count > 1 ? f.count : 1.0;
    const double issue_cost = c.sc[CS_ISSUE] * n_calls;
    const bool has_src = f.src && *f.src, has_dst = f.dst && *f.dst;
    const bool gm_move = (has_src && cost_space(f.src) == CSP_GM) || (has_dst && cost_space(f.dst) == CSP_GM) ||
                         ((pipe == P_MTE2 || pipe == P_MTE3) && !has_src && !has_dst);
    for (int l = 0; l < c.lanes; l++) {
        CostLane& L = cb.lane[l];
        L.issue += issue_cost;
        L.issue_cycles += issue_cost;
        double deps = 0;
        for (int i = 0; i < f.n_after; i++)
            if (f.after[i] < L.end.size() && L.end[f.after[i]] > deps) deps = L.end[f.after[i]];
        if (gm_move) L.gm_bytes += f.bytes;
        double s, e;
        if (pipe == P_ALL || (flags & AF_BARRIER)) {
            if (!f.barrier || cost_ieq(f.barrier, "all")) {
                double t = cost_drained(L);
                t = deps > t ? deps : t;
                L.issue = t;
                for (int q = 0; q < NPIPE; q++) L.free[q] = t;
                s = e = t;
            } else {
                s = e = L.issue > deps ? L.issue : deps;
            }
        } else if (flags & AF_SYNCALL) {
            double t = cost_drained(L);
            t = deps > t ? deps : t;
            s = e = t;
            L.issue = t;
            std::vector<double>& rounds = c.sync_t[l];
            if (rounds.size() <= L.syncs) rounds.push_back(t);
            else if (t > rounds[L.syncs]) rounds[L.syncs] = t;
            L.syncs++;
        } else {
            const int q = pipe < NPIPE ? pipe : P_S;
            double dur = cost_event_cycles(pipe, ai, f, c.active[l]);
            s = L.issue > L.free[q] ? L.issue : L.free[q];
            s = deps > s ? deps : s;
            e = s + dur;
            L.free[q] = e;
            if (q == P_S) L.issue = e;
            L.busy[q] += dur;
        }
        if (seq >= L.end.size()) L.end.resize(seq + 1 > 2 * L.end.size() ? seq + 1 : 2 * L.end.size(), 0.0);
        L.end[seq] = e;
        st[l] = s;
        en[l] = e;
    }
}
#else
;
#endif

EMU_RT_FN void cost_launch_begin(int block_dim)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    if (!r.cost || !r.cost->out) return;
    CostState& c = *r.cost;
    c.on = false;
    if (!c.loaded && !cost_load()) {
        if (!c.warned) fprintf(stderr, "emulator: --estimate needs the cost.* lines of soc.txt; no estimate\n");
        c.warned = true;
        return;
    }
    c.block_dim = block_dim;
    int n = block_dim > 1 ? block_dim : 1;
    int aiv = r.soc.aiv, aic = r.soc.aic;
    c.active[0] = n < aiv ? n : aiv;
    c.active[0] = c.active[0] > 1 ? c.active[0] : 1;
    c.active[1] = aic > 0 ? (n < aic ? n : aic) : c.active[0];
    c.active[1] = c.active[1] > 1 ? c.active[1] : 1;
    c.lanes = c.active[1] != c.active[0] ? 2 : 1;  // cube-only kernels share HBM among the AIC cores
    c.blocks.assign((size_t)n, CostBlock());
    c.sync_t[0].clear();
    c.sync_t[1].clear();
    c.has_cube = c.has_vec = c.has_syncall = false;
    c.events = c.scalar_accesses = 0;
    c.trace_dropped_before = r.trace_dropped;
    c.on = true;
}
#else
;
#endif

// The block ended: settle a pending SyncAll round and free its per-event memory.
EMU_RT_FN void cost_block_done(Block& b)
#if ASCENDC_EMU_RT_BODIES
{
    if (!cost_on()) return;
    CostState& c = cost_state();
    if ((size_t)b.idx >= c.blocks.size()) return;
    CostBlock& cb = c.blocks[(size_t)b.idx];
    if (cb.done) return;
    cost_sync_align(c, cb);
    for (int l = 0; l < c.lanes; l++) {
        CostLane& L = cb.lane[l];
        L.makespan = cost_drained(L);
        std::vector<double>().swap(L.end);
    }
    cb.done = true;
}
#else
;
#endif

// The chosen lane: the AIC core count when the kernel used the cube pipes and no vector pipe (cost.py schedule).
inline int cost_lane(const CostState& c) {
    return c.lanes == 2 && c.has_cube && !c.has_vec ? 1 : 0;
}

EMU_RT_FN void cost_launch_end()
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    if (!cost_on()) return;
    CostState& c = *r.cost;
    int lane = cost_lane(c);
    bool cube_only = c.has_cube && !c.has_vec && r.soc.aic > 0;
    fprintf(c.out,
            "{\"launch\":%d,\"block_dim\":%d,\"cores\":%d,\"active\":%d,\"lane\":%d,\"has_cube\":%s,\"has_vec\":%s,"
            "\"has_syncall\":%s,\"events\":%llu,\"scalar_accesses\":%llu,\"trace_dropped\":%llu,\"pipes\":[",
            c.launch, c.block_dim, cube_only ? r.soc.aic : r.soc.aiv, c.active[lane], lane,
            c.has_cube ? "true" : "false", c.has_vec ? "true" : "false", c.has_syncall ? "true" : "false",
            (unsigned long long)c.events, (unsigned long long)c.scalar_accesses,
            (unsigned long long)(r.trace_dropped - c.trace_dropped_before));
    for (int q = 0; q < NPIPE; q++) fprintf(c.out, q ? ",\"%s\"" : "\"%s\"", pipe_lc(q));
    fputs("],\"blocks\":[", c.out);
    for (size_t i = 0; i < c.blocks.size(); i++) {
        CostBlock& cb = c.blocks[i];
        if (!cb.done) {  // a block that died: its schedule up to there
            for (int l = 0; l < c.lanes; l++) cb.lane[l].makespan = cost_drained(cb.lane[l]);
        }
        const CostLane& L = cb.lane[lane];
        fprintf(c.out, "%s[%.17g,%.17g,%.17g", i ? "," : "", L.makespan, L.issue_cycles, L.gm_bytes);
        for (int q = 0; q < NPIPE; q++) fprintf(c.out, ",%.17g", L.busy[q]);
        fputc(']', c.out);
    }
    fputs("]}\n", c.out);
    fflush(c.out);
    std::vector<CostBlock>().swap(c.blocks);
    c.on = false;
    c.launch++;
}
#else
;
#endif

EMU_RT_FN void cost_close()
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    if (r.cost && r.cost->out) fclose(r.cost->out);
    if (r.cost) r.cost->out = nullptr;
}
#else
;
#endif

}  // namespace ascendc_emu
#endif  // ASCENDC_EMU_ASCENDC_EMU_COST_MODEL_H_
