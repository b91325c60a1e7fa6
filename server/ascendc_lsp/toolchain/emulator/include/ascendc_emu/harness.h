// Harness per PROTOCOL.md: GM buffers with red zones, block launch on fibres (sequential / reverse /
// interleaved order, SyncAll rendezvous, deadlock detection), kernel-end checks, output files, exit code.
#ifndef ASCENDC_EMU_ASCENDC_EMU_HARNESS_H_
#define ASCENDC_EMU_ASCENDC_EMU_HARNESS_H_
#include "../kernel_operator.h"

namespace ascendc_emu {

constexpr uint64_t kRedZone = 4096;  // bytes of poisoned guard before and after every GM buffer
constexpr uint8_t kRedByte = 0xA5;
constexpr uint8_t kPadByte = 0xFF;  // the runtime's allocation padding holds undefined bytes: NaN / -1 shows their use

// The one GM allocator (harness buffers; the ACL shim's aclrtMalloc uses it too). As the runtime does
// (aclrtMalloc, CANN runtime API reference: the size is rounded up to a multiple of 32 B and 32 B are added;
// the start is 64-byte aligned; aclrtMallocAlign32 adds nothing: extra_pad = 0), the buffer is followed by its
// padding, then by a red zone of at least kRedZone bytes that catches real overruns.
EMU_RT_FN GmAlloc& gm_alloc(const char* name, uint64_t bytes, uint64_t extra_pad = 32)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    GmAlloc a{};
    uint64_t padded = (bytes + 31) / 32 * 32 + extra_pad;
    uint64_t body = (padded + 4095) / 4096 * 4096;
    a.map_bytes = body + 2 * kRedZone;
    a.map = (uint8_t*)mmap(nullptr, a.map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (a.map == MAP_FAILED) { fprintf(stderr, "emulator: cannot map %llu B of GM\n", (unsigned long long)bytes); exit(2); }
    a.base = a.map + kRedZone;  // page aligned, so 64-byte aligned as the runtime promises
    a.size = bytes;
    a.padded = padded;
    memset(a.map, kRedByte, kRedZone);
    memset(a.base + bytes, kPadByte, padded - bytes);
    memset(a.base + padded, kRedByte, a.map_bytes - kRedZone - padded);
    snprintf(a.name, sizeof a.name, "%s", name);
    r.gm.reserve(64);
    r.gm.push_back(a);
    return r.gm.back();
}
#else
;
#endif

// Raw-pointer writes into the red zones of one GM buffer (reported once per buffer, at `loc`); true when clean.
EMU_RT_FN bool gm_redzone_check(const GmAlloc& a, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    uint64_t bad = 0;
    for (uint64_t i = 0; i < kRedZone; i++) bad += a.map[i] != kRedByte;
    for (uint64_t i = a.padded; i < a.map_bytes - kRedZone; i++) bad += a.base[i] != kRedByte;
    if (rt().modes.strict_gm)  // --strict-gm: the runtime's padding counts as outside the buffer too
        for (uint64_t i = a.size; i < a.padded; i++) bad += a.base[i] != kPadByte;
    if (!bad) return true;
    report_error("gm-redzone", "gm-out-of-bounds", -1, "kernel", loc,
                 "%s B in the guard zones around %s (%s B, padded to %s B by the runtime) were overwritten: the "
                 "kernel wrote past the buffer through a raw pointer", EMU_N(bad), a.name, EMU_N(a.size),
                 EMU_N(a.padded));
    return false;
}
#else
;
#endif

// Drops a GM buffer's race-detector shadow (its arrays live in one mapping, gm_shadow_access in runtime.h).
inline void gm_shadow_free(GmAlloc& a) {
    if (!a.shadow) return;
    munmap(a.shadow->map, a.shadow->map_bytes);
    delete a.shadow;
    a.shadow = nullptr;
}

// Releases a GM buffer (aclrtFree / GmFree): its mapping and shadow go away, so a later access through a stale
// pointer is reported as outside every GM buffer. Returns false when p is not the start of a live buffer.
EMU_RT_FN bool gm_release(const void* p)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    for (size_t i = 0; i < r.gm.size(); i++) {
        GmAlloc& a = r.gm[i];
        if (a.base != p) continue;
        gm_shadow_free(a);
        munmap(a.map, a.map_bytes);
        r.gm.erase(r.gm.begin() + (long)i);
        return true;
    }
    return false;
}
#else
;
#endif

// A kernel launch is a full barrier between the host and every core: forget the GM access history of the
// previous launch (its epochs belong to blocks that no longer exist).
EMU_RT_FN void gm_shadow_reset()
#if ASCENDC_EMU_RT_BODIES
{
    for (GmAlloc& a : rt().gm)
        gm_shadow_free(a);
}
#else
;
#endif

EMU_RT_FN void block_end_checks(Block& b)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    flush_scalar_trace();
    cost_block_done(b);
    for (int e = 0; e < HE_MAX; e++)
        for (int id = 0; id < 8; id++) {
            Flag& f = b.flags[e][id];
            if (!f.set) continue;
            EvInfo in = ev_info((HardEvent)e);
            report_error("flag-residue", "sync-deadlock", in.src, "SetFlag", f.loc,
                         "SetFlag<HardEvent::%s>(%d) was never matched by a WaitFlag before the kernel ended: the "
                         "flag stays set and the next kernel on this core can hang (507014)", in.name, id);
        }
    if (b.atomic)
        report_warning("atomic-residue", "multicore-partition", P_MTE3, "SetAtomicAdd", b.last_loc,
                       "atomic accumulation was still enabled when the kernel ended; call SetAtomicNone() / "
                       "DisableDmaAtomic() after the accumulating DataCopy");
    if (b.counter_mode)
        report_warning("mask-counter-residue", "vector-param-invalid", P_V, "SetMaskCount", b.last_loc,
                       "the vector mask was left in counter mode (SetMaskCount without SetMaskNorm)");
    (void)r;
}
#else
;
#endif

// Bytes mapped per on-chip memory: the capacity plus slack, so an access just past the end is reported, not a crash.
inline uint64_t onchip_bytes(int sp) {
    return rt().soc.bytes[sp] + (sp == SP_UB || sp == SP_L1 ? (1u << 20) : (1u << 18));
}

EMU_RT_FN void fibre_entry()
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    Block& b = *r.cur;
    r.fn(r.fn_arg);
    block_end_checks(b);
    b.state = BS_DONE;
    swapcontext(&b.ctx, &r.main_ctx);
}
#else
;
#endif

// The on-chip memories as a fresh block sees them (0xFF over each capacity: fresh buffers hold garbage on the NPU,
// poisoned so it shows as NaN; zeros in the slack behind), written once into a memory file that every block maps
// copy-on-write: a block pays only for the pages it touches, not a memset of ~1 MB of UB/L1/L0 per block.
EMU_RT_FN bool onchip_image()
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    if (r.onchip_fd >= 0) return true;
    if (r.onchip_fd == -2) return false;
    uint64_t off = 0;
    for (int sp = SP_UB; sp < NSPACE; sp++) {
        r.onchip_off[sp] = off;
        off += (onchip_bytes(sp) + 4095) / 4096 * 4096;
    }
    int fd = memfd_create("ascendc-emu-onchip", 0);
    void* m = MAP_FAILED;
    if (fd >= 0 && ftruncate(fd, (off_t)off) == 0)
        m = mmap(nullptr, off, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) {
        if (fd >= 0) close(fd);
        r.onchip_fd = -2;
        return false;
    }
    for (int sp = SP_UB; sp < NSPACE; sp++) memset((uint8_t*)m + r.onchip_off[sp], 0xFF, r.soc.bytes[sp]);
    munmap(m, off);
    r.onchip_fd = fd;
    return true;
}
#else
;
#endif

EMU_RT_FN void block_setup(Block& b)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    bool image = onchip_image();
    for (int sp = SP_UB; sp < NSPACE; sp++) {
        uint64_t cap = r.soc.bytes[sp];
        b.mem_bytes[sp] = onchip_bytes(sp);
        void* m = image ? mmap(nullptr, b.mem_bytes[sp], PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_NORESERVE,
                               r.onchip_fd, (off_t)r.onchip_off[sp])
                        : MAP_FAILED;
        if (m == MAP_FAILED) {
            m = mmap(nullptr, b.mem_bytes[sp], PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            memset(m, 0xFF, cap);
        }
        b.mem[sp] = (uint8_t*)m;
    }
    b.stack_bytes = 16u << 20;
    b.stack = mmap(nullptr, b.stack_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    mprotect(b.stack, 4096, PROT_NONE);  // guard page: a stack overflow faults instead of corrupting
    getcontext(&b.ctx);
    b.ctx.uc_stack.ss_sp = b.stack;
    b.ctx.uc_stack.ss_size = b.stack_bytes;
    b.ctx.uc_link = nullptr;
    makecontext(&b.ctx, (void (*)())fibre_entry, 0);
}
#else
;
#endif
EMU_RT_FN void block_teardown(Block& b)
#if ASCENDC_EMU_RT_BODIES
{
    for (int sp = 0; sp < NSPACE; sp++) {
        if (b.mem[sp]) munmap(b.mem[sp], b.mem_bytes[sp]);
        if (b.shadow[sp]) munmap(b.shadow[sp], shadow_bytes(b, sp));
        b.mem[sp] = nullptr;
        b.shadow[sp] = nullptr;
    }
    if (b.stack) munmap(b.stack, b.stack_bytes);
    b.stack = nullptr;
}
#else
;
#endif

EMU_RT_FN void crash_handler(int sig)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    Block* b = r.cur;
    if (r.report) {
        Json j;
        char msg[512];
        snprintf(msg, sizeof msg,
                 "the kernel crashed with signal %d (%s) in block %d; the last AscendC call was %s at %s:%d (a raw "
                 "pointer access outside its buffer, or a stack overflow?)",
                 sig, sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGFPE ? "SIGFPE" : "SIGABRT",
                 b ? b->idx : -1, b ? b->last_api : "", b && b->last_loc.file ? b->last_loc.file : "",
                 b ? b->last_loc.line : 0);
        j.s("severity", "error").s("check", "crash").s("category", "aicore-exception-triage").s("code", "507015");
        j.i("block", b ? b->idx : -1).s("pipe", "").s("api", b ? b->last_api : "");
        j.s("file", b && b->last_loc.file ? b->last_loc.file : "").i("line", b ? b->last_loc.line : 0);
        j.s("message", msg).s("errorStr", "The aicore execution is abnormal");
        fputs(j.end(), r.report);
        fflush(r.report);
    }
    if (r.trace) fflush(r.trace);
    signal(sig, SIG_DFL);
    raise(sig);
}
#else
;
#endif

EMU_RT_FN void read_soc(const char* path)
#if ASCENDC_EMU_RT_BODIES
{
    Soc& s = rt().soc;
    FILE* f = fopen(path, "r");
    if (!f) { fprintf(stderr, "emulator: cannot read soc file %s\n", path); return; }
    char k[64], v[128];
    while (fscanf(f, "%63s %127s", k, v) == 2) {
        unsigned long long n = strtoull(v, nullptr, 10);
        if (!strcmp(k, "name")) snprintf(s.name, sizeof s.name, "%s", v);
        else if (!strcmp(k, "ub_bytes")) s.bytes[SP_UB] = n;
        else if (!strcmp(k, "ub_reserved_bytes")) s.ub_reserved = n;
        else if (!strcmp(k, "l1_bytes")) s.bytes[SP_L1] = n;
        else if (!strcmp(k, "l0a_bytes")) s.bytes[SP_L0A] = n;
        else if (!strcmp(k, "l0b_bytes")) s.bytes[SP_L0B] = n;
        else if (!strcmp(k, "l0c_bytes")) s.bytes[SP_L0C] = n;
        else if (!strcmp(k, "bt_bytes")) s.bytes[SP_BT] = n;
        else if (!strcmp(k, "max_buffers")) s.max_buffers = (int)n;
        else if (!strcmp(k, "max_live_per_position")) s.max_live = (int)n;
        else if (!strcmp(k, "event_ids")) s.event_ids = (int)(n > 8 ? 8 : n);
        else if (!strcmp(k, "has_datacopypad")) s.has_pad = (int)n;
        else if (!strcmp(k, "aiv_cores")) s.aiv = (int)n;
        else if (!strcmp(k, "aic_cores")) s.aic = (int)n;
        else if (!strcmp(k, "arch")) s.arch = (int)n;
        else if (!strncmp(k, "cost.", 5)) cost_param(k + 5, v);
    }
    fclose(f);
}
#else
;
#endif

// Runs fn(fn_arg) once per block on fibres (PROTOCOL.md block orders, SyncAll rendezvous, deadlock report).
EMU_RT_FN void launch_blocks(uint32_t blockDim, void (*fn)(void*), void* fn_arg)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    if (blockDim < 1 || blockDim > 65535) {
        Loc l(nullptr, 0);
        r.cur = nullptr;
        report_error("launch-config", "multicore-partition", -1, "Launch", l,
                     "blockDim is %u; it must be in [1, 65535]", blockDim);
        return;
    }
    if ((int)blockDim > r.soc.aiv && r.soc.aiv > 0) {
        Loc l(nullptr, 0);
        report_warning("launch-config", "multicore-partition", -1, "Launch", l,
                       "blockDim %u exceeds the %d vector cores of %s: blocks run in several waves", blockDim,
                       r.soc.aiv, r.soc.name);
    }
    r.fn = fn;
    r.fn_arg = fn_arg;
    r.block_dim = (int)blockDim;
    r.sync_epoch = 0;
    r.sync_arrived = 0;
    std::vector<Block*> blocks;
    for (uint32_t i = 0; i < blockDim; i++) { blocks.push_back(new Block()); blocks.back()->idx = (int)i; }
    r.blocks = blocks;
    r.in_launch = true;
    cost_launch_begin((int)blockDim);
    std::vector<int> order;
    for (uint32_t i = 0; i < blockDim; i++) order.push_back(r.order == ORD_REV ? (int)(blockDim - 1 - i) : (int)i);
    size_t rr = 0, first = 0;  // first: in sequential/reverse order every block before it has ended
    for (;;) {
        Block* pick = nullptr;
        if (r.order != ORD_INTERLEAVED)
            while (first < order.size() && (blocks[(size_t)order[first]]->state == BS_DONE ||
                                             blocks[(size_t)order[first]]->state == BS_DEAD))
                first++;
        for (size_t k = r.order == ORD_INTERLEAVED ? 0 : first; k < order.size() && !pick; k++) {
            size_t i = r.order == ORD_INTERLEAVED ? (rr + k) % order.size() : k;
            if (blocks[(size_t)order[i]]->state == BS_RUNNABLE) { pick = blocks[(size_t)order[i]]; rr = i + 1; }
        }
        if (!pick) break;
        if (!pick->stack) block_setup(*pick);
        r.cur = pick;
        swapcontext(&r.main_ctx, &pick->ctx);
        if (pick->state == BS_DONE || pick->state == BS_DEAD) block_teardown(*pick);
    }
    report_crosscore_deadlock(blocks);  // blocks left in CrossCoreWaitFlag (tpipe.h)
    // Blocks still waiting in SyncAll: some block finished (or died) without reaching it.
    std::vector<int> waiting, gone;
    for (Block* b : blocks) (b->state == BS_SYNCALL ? waiting : gone).push_back(b->idx);
    if (!waiting.empty()) {
        Block* w = blocks[(size_t)waiting[0]];
        r.cur = w;
        char ws[256] = "", gs[256] = "";
        for (size_t i = 0; i < waiting.size() && i < 16; i++) snprintf(ws + strlen(ws), 256 - strlen(ws), "%s%d", i ? "," : "", waiting[i]);
        for (size_t i = 0; i < gone.size() && i < 16; i++) snprintf(gs + strlen(gs), 256 - strlen(gs), "%s%d", i ? "," : "", gone[i]);
        report_hang("syncall-unreached", "sync-deadlock", P_S, "SyncAll", w->sync_loc,
                    "SyncAll #%d was reached by %d of %d blocks (waiting: %s); block(s) %s ended after only %d "
                    "SyncAll call(s): every block must call SyncAll the same number of times, or the NPU hangs",
                    w->syncall_calls, (int)waiting.size(), (int)blockDim, ws, gs,
                    blocks[(size_t)gone[0]]->syncall_calls);
        r.deadlock = true;
        for (Block* b : blocks) block_teardown(*b);
    }
    cost_launch_end();
    r.in_launch = false;
    r.cur = nullptr;
    for (Block* b : blocks) delete b;
    r.blocks.clear();
}
#else
;
#endif

class Harness {
public:
    Harness(int argc, char** argv);
    GM_ADDR Input(const char* name);
    GM_ADDR Output(const char* name, uint64_t bytes);
    // System workspace first (internal, 16 MB), then the user's bytes; GetUserWorkspace skips the system part.
    GM_ADDR Workspace(uint64_t bytes);
    GM_ADDR Bytes(const char* name, const void* p, uint64_t n);
    template <class F>
    void Launch(uint32_t blockDim, F&& fn) {
        using Fn = typename std::remove_reference<F>::type;
#if defined(ASCENDC_EMU_AUTO_SYNC_SCALAR)  // spec `defines` of older specs: auto-sync is now the default
        rt().modes.strict_sync = false;
        rt().autosync_scalar = true;
#endif
        launch_blocks(blockDim, [](void* p) { (*(Fn*)p)(); }, (void*)&fn);
    }
    int Finish();
    static GM_ADDR& sys_ws() { return rt().sys_workspace; }
    static constexpr uint64_t kSysWorkspace = 16u << 20;

private:
    std::vector<int> outputs_;
};

#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
EMU_RT_FN Harness::Harness(int argc, char** argv)
{
    Runtime& r = rt();
    const char* soc = nullptr;
    const char* report = nullptr;
    const char* trace = nullptr;
    apply_modes_env();  // ASCENDC_EMU_MODES first; flags on the command line add to it
    for (int i = 1; i < argc; i++) {
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(a, "--dir")) { snprintf(r.dir, sizeof r.dir, "%s", v); i++; }
        else if (!strcmp(a, "--soc-file")) { soc = v; i++; }
        else if (!strcmp(a, "--report")) { report = v; i++; }
        else if (!strcmp(a, "--trace")) { trace = v; i++; }
        else if (!strcmp(a, "--estimate")) { cost_open(v); i++; }
        else if (!strcmp(a, "--trace-limit")) { r.trace_limit = strtoull(v, nullptr, 10); i++; }
        else if (!strcmp(a, "--block-order")) {
            r.order = !strcmp(v, "reverse") ? ORD_REV : !strcmp(v, "interleaved") ? ORD_INTERLEAVED : ORD_SEQ;
            i++;
        } else if (!strcmp(a, "--tiling-key")) { r.tiling_key = strtoull(v, nullptr, 0); i++; }
        else if (int used = apply_mode_flag(a, v)) i += used - 1;
        else { fprintf(stderr, "emulator: unknown argument %s\n", a); exit(2); }
    }
    if (soc) read_soc(soc);
    char path[1200];
    if (!report) { snprintf(path, sizeof path, "%s/report.jsonl", r.dir); report = path; }
    r.report = fopen(report, "w");
    if (!r.report) { fprintf(stderr, "emulator: cannot write %s\n", report); exit(2); }
    if (trace) {
        r.trace = fopen(trace, "w");
        if (r.trace) setvbuf(r.trace, nullptr, _IOFBF, 1 << 20);
    }
    stack_t ss{};
    ss.ss_sp = r.altstack;
    ss.ss_size = sizeof r.altstack;
    sigaltstack(&ss, nullptr);
    struct sigaction sa{};
    sa.sa_handler = crash_handler;
    sa.sa_flags = SA_ONSTACK;
    for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL}) sigaction(s, &sa, nullptr);
}
#endif
#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
EMU_RT_FN GM_ADDR Harness::Input(const char* name)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s.bin", rt().dir, name);
    FILE* f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "emulator: cannot read input %s\n", path); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    GmAlloc& a = gm_alloc(name, (uint64_t)n);
    if (n > 0 && fread(a.base, 1, (size_t)n, f) != (size_t)n) { fprintf(stderr, "emulator: short read %s\n", path); exit(2); }
    fclose(f);
    return a.base;
}
#endif
#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
EMU_RT_FN GM_ADDR Harness::Output(const char* name, uint64_t bytes)
{
    GmAlloc& a = gm_alloc(name, bytes);
    memset(a.base, 0xFF, bytes);  // poison: elements the kernel never writes read as NaN / -1
    outputs_.push_back((int)(rt().gm.size() - 1));
    return a.base;
}
#endif
#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
EMU_RT_FN GM_ADDR Harness::Workspace(uint64_t bytes)
{
    GmAlloc& a = gm_alloc("workspace", kSysWorkspace + bytes);  // zero: fresh anonymous pages, untouched until used
    sys_ws() = a.base;
    return a.base;
}
#endif
#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
EMU_RT_FN GM_ADDR Harness::Bytes(const char* name, const void* p, uint64_t n)
{
    GmAlloc& a = gm_alloc(name, n);
    memcpy(a.base, p, n);
    return a.base;
}
#endif
#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
EMU_RT_FN int Harness::Finish()
{
    Runtime& r = rt();
    for (GmAlloc& a : r.gm) gm_redzone_check(a, Loc(nullptr, 0));  // raw-pointer writes into the red zones
    for (int i : outputs_) {
        GmAlloc& a = r.gm[(size_t)i];
        char path[1200];
        snprintf(path, sizeof path, "%s/%s.out.bin", r.dir, a.name);
        FILE* f = fopen(path, "wb");
        if (f) { fwrite(a.base, 1, a.size, f); fclose(f); }
    }
    if (r.trace) fclose(r.trace);
    cost_close();
    if (r.report) fclose(r.report);
    r.trace = r.report = nullptr;
    return r.deadlock ? 3 : r.errors ? 1 : 0;
}
#endif
}  // namespace ascendc_emu

namespace AscendC {
EMU_RT_FN GM_ADDR GetSysWorkSpacePtr()
#if ASCENDC_EMU_RT_BODIES
{ return ascendc_emu::rt().sys_workspace; }
#else
;
#endif
EMU_RT_FN GM_ADDR GetUserWorkspace(GM_ADDR workspace)
#if ASCENDC_EMU_RT_BODIES
{
    return workspace ? workspace + ascendc_emu::Harness::kSysWorkspace : workspace;
}
#else
;
#endif
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_HARNESS_H_
