// The host side of direct-launch programs on the emulator: the program's own main() runs, its aclrt* calls
// (acl/acl_rt.h) and kernel launches (launch.h) land here. Clean-room, from the public CANN AscendCL runtime API
// reference and the devkit guide (docs/zh/guide/编程指南/编程模型/AI-Core-SIMD编程/核函数.md: launches are
// asynchronous, aclrtSynchronizeStream waits for them; 调试调优/功能调试/CPU域孪生调试.md: the acl calls a CPU run
// supports; api/SIMD-API/基础API/调试接口/CPU孪生调试/*.md: GmAlloc, ICPU_RUN_KF, SetKernelMode).
//
// - Settings come from the environment (the runner sets them; a program started by hand runs with defaults):
//   ASCENDC_EMU_SOC_FILE (soc.txt), ASCENDC_EMU_REPORT (report.jsonl), ASCENDC_EMU_TRACE_DIR (trace.<n>.jsonl per
//   launch), ASCENDC_EMU_LAUNCHES (launches.jsonl: one line per launch), ASCENDC_EMU_BLOCK_ORDER
//   (sequential|reverse|interleaved), ASCENDC_EMU_STRICT=1, ASCENDC_EMU_AUTO_SYNC=scalar.
// - Device memory (aclrtMalloc) is emulator GM with red zones; between launches and copies it is mapped
//   PROT_NONE, so host code that dereferences a device pointer faults here as it would on the NPU and is reported
//   as such. Host memory (aclrtMallocHost) is ordinary memory the kernels cannot reach.
// - A launch runs its blocks on fibres when the host issues it (GM persists between launches; reports carry
//   "launch": N). Its first faulting report's NPU code (507015, 507035, 507014 for a hang) is what the next
//   aclrtSynchronizeStream / aclrtSynchronizeDevice on its stream returns, as on the NPU.
// - Host reads of device memory (aclrtMemcpy device-to-host) while a launch is not yet synchronised are reported:
//   on the NPU the kernel may still be running.
#ifndef ASCENDC_EMU_ASCENDC_EMU_PROGRAM_H_
#define ASCENDC_EMU_ASCENDC_EMU_PROGRAM_H_
#include <dlfcn.h>
#include <execinfo.h>
#include <functional>
#include <string>
#include <vector>
#include "harness.h"
#include "launch.h"
#include "../acl/acl.h"

namespace ascendc_emu {

struct HostBuf {
    uint8_t* p;
    uint64_t size;
    Loc loc;
};
struct DeviceBuf {  // aclrtMalloc'd GM (GmAlloc owns the mapping); GmAlloc'd (CPU twin) buffers stay unprotected
    uint8_t* base;
    uint64_t size;
    Loc loc;
    bool protect;
};
struct ModelRec;
struct StreamRec {
    int id;
    Loc loc;
    bool destroyed;
    std::vector<int> pending;  // launches not yet synchronised
    ModelRec* capture = nullptr;  // the model its tasks go to (aclmdlRICaptureBegin .. End), else nullptr
};
struct CapturedTask {
    std::string what;  // kernel name or the aclrt* call
    Loc loc;
    std::function<void(void*)> run;  // runs the task on the stream the model is executed on
};
struct ModelRec {  // aclmdlRI
    int id;
    Loc loc;                   // aclmdlRICaptureBegin
    StreamRec* origin;         // the stream the capture began (and must end) on
    bool ended = false;
    bool destroyed = false;
    std::vector<CapturedTask> tasks;
};
struct LaunchRec {
    int no;
    std::string kernel;
    Loc loc;
    int stream;
    const char* fault;  // NPU code of its first faulting report, or nullptr
};
struct EventRec {
    int id;
    bool recorded;
    ModelRec* capture = nullptr;  // recorded on a capturing stream: a stream that waits on it joins the capture
};
struct KernelEntry {
    std::string name;
    KernelThunk thunk;
};
struct ArgsRec {  // aclrtKernelArgsInit .. Finalize
    KernelEntry* fn;
    std::vector<uint8_t> bytes;
    bool final;
};

struct ProgramState {
    int device = -1;
    bool acl_init = false;
    FILE* launches = nullptr;
    char trace_dir[1024] = "";
    std::vector<HostBuf> host;
    std::vector<DeviceBuf> dev;
    std::vector<StreamRec*> streams;  // [0] = the default stream (nullptr handle)
    std::vector<EventRec*> events;
    std::vector<LaunchRec> runs;
    char last_msg[1024] = "";
    aclError last_error = ACL_SUCCESS;
    bool in_device_access = false;
    int kernel_mode = 0;  // SetKernelMode (CPU twin): 0 MIX (the default), 1 AIC, 2 AIV
    std::vector<KernelEntry*> kernels;  // launchable by name
    std::vector<ArgsRec*> args;
    std::vector<ModelRec*> models;
};

EMU_RT_FN ProgramState& program();

}  // namespace ascendc_emu

#if ASCENDC_EMU_RT_BODIES
namespace ascendc_emu {

inline const char* base_name(const char* f) {
    if (!f) return "?";
    const char* s = strrchr(f, '/');
    return s ? s + 1 : f;
}

// Host-side report (no block): category host-runtime-api unless given; also remembered for aclGetRecentErrMsg.
EMU_RT_FN void host_report(bool error, const char* check, const char* category, const char* api, const Loc& loc,
                           const char* fmt, ...) {
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    Runtime& r = rt();
    Block* saved = r.cur;
    r.cur = nullptr;  // host code: block -1
    static const NpuCode none{"", ""};
    code_override() = &none;
    if (error) report_error(check, category, -1, api, loc, "%s", msg);
    else report_warning(check, category, -1, api, loc, "%s", msg);
    r.cur = saved;
    if (r.program) snprintf(r.program->last_msg, sizeof r.program->last_msg, "%s: %s", api, msg);
}

EMU_RT_FN void device_protect(bool on) {
    ProgramState& p = *rt().program;
    for (DeviceBuf& d : p.dev)
        if (d.protect) mprotect(d.base, (d.size + 4095) / 4096 * 4096, on ? PROT_NONE : PROT_READ | PROT_WRITE);
}

EMU_RT_FN DeviceBuf* device_find(const void* ptr, bool any_offset) {
    if (!rt().program) return nullptr;
    const uint8_t* q = (const uint8_t*)ptr;
    for (DeviceBuf& d : rt().program->dev)
        if (any_offset ? (q >= d.base && q < d.base + (d.size ? d.size : 1)) : q == d.base) return &d;
    return nullptr;
}
EMU_RT_FN HostBuf* host_find(const void* ptr, bool any_offset) {
    if (!rt().program) return nullptr;
    const uint8_t* q = (const uint8_t*)ptr;
    for (HostBuf& h : rt().program->host)
        if (any_offset ? (q >= h.p && q < h.p + (h.size ? h.size : 1)) : q == h.p) return &h;
    return nullptr;
}

// The faulting instruction and its callers as "module+offset" entries (the runner maps them to file:line with
// addr2line on the program's line tables): the frames of the signal handler itself are dropped.
EMU_RT_FN void crash_frames(void* ctx, char* out, size_t cap) {
    uintptr_t pc = 0;
#if defined(__x86_64__)
    pc = (uintptr_t)((ucontext_t*)ctx)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    pc = (uintptr_t)((ucontext_t*)ctx)->uc_mcontext.pc;
#endif
    void* frames[24];
    int n = backtrace(frames, 24);
    int start = 0;
    for (int i = 0; i < n; i++)
        if ((uintptr_t)frames[i] == pc) { start = i; break; }
    size_t len = 0;
    out[0] = 0;
    for (int i = start; i < n && len + 64 < cap; i++) {
        uintptr_t a = (uintptr_t)frames[i] - (i > start ? 1 : 0);  // return addresses: the call is one byte before
        Dl_info info;
        if (!dladdr((void*)a, &info) || !info.dli_fname) continue;
        len += (size_t)snprintf(out + len, cap - len, "%s%s+0x%lx", len ? ";" : "", base_name(info.dli_fname),
                                (unsigned long)(a - (uintptr_t)info.dli_fbase));
    }
}

EMU_RT_FN void program_crash(int sig, siginfo_t* si, void* ctx) {
    Runtime& r = rt();
    const uint8_t* addr = si ? (const uint8_t*)si->si_addr : nullptr;
    DeviceBuf* d = nullptr;
    if (r.program && (sig == SIGSEGV || sig == SIGBUS) && addr) {
        for (DeviceBuf& b : r.program->dev)
            if (b.protect && addr >= b.base && addr < b.base + (b.size + 4095) / 4096 * 4096) d = &b;
    }
    if (r.cur && !d) {  // inside a kernel: the kernel crash report
        (void)ctx;
        crash_handler(sig);
        return;
    }
    if (r.report) {
        char msg[700];
        if (d)
            snprintf(msg, sizeof msg,
                     "host code accessed device memory directly at offset %lld of the buffer from aclrtMalloc at "
                     "%s:%d (%llu B): device memory is not addressable from the host; copy it with aclrtMemcpy "
                     "(ACL_MEMCPY_DEVICE_TO_HOST / HOST_TO_DEVICE) instead",
                     (long long)(addr - d->base), base_name(d->loc.file), d->loc.line, (unsigned long long)d->size);
        else
            snprintf(msg, sizeof msg,
                     "the host program crashed with signal %d (%s) outside any kernel launch (in main() or a helper, "
                     "not in device code)",
                     sig, sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGFPE ? "SIGFPE"
                                                   : sig == SIGABRT ? "SIGABRT" : "SIGILL");
        Json j;
        j.s("severity", "error").s("check", d ? "host-device-access" : "host-crash");
        j.s("category", d ? "host-runtime-api" : "aicore-exception-triage").s("code", "");
        j.i("block", -1).s("pipe", "").s("api", d ? "host access" : "main");
        j.s("file", d && d->loc.file ? d->loc.file : "").i("line", d ? d->loc.line : 0);
        j.s("message", msg).s("errorStr", "");
        char frames[600];
        crash_frames(ctx, frames, sizeof frames);
        if (frames[0]) j.s("frames", frames);
        fputs(j.end(), r.report);
        fflush(r.report);
    }
    if (r.trace) fflush(r.trace);
    signal(sig, SIG_DFL);
    raise(sig);
}

EMU_RT_FN void program_exit() {
    Runtime& r = rt();
    if (!r.program) return;
    ProgramState& p = *r.program;
    device_protect(false);
    for (StreamRec* s : p.streams) {
        if (!s || s->pending.empty()) continue;
        const LaunchRec& l = p.runs[(size_t)s->pending.front() - 1];
        host_report(false, "launch-unsynced", "sync-missing", "<<<>>>", l.loc,
                    "the launch of %s (launch %d) was never synchronised: call aclrtSynchronizeStream on its stream "
                    "(or aclrtSynchronizeDevice) before using its results or ending the program; on the NPU the "
                    "kernel may not have run to completion and its errors are never seen",
                    l.kernel.c_str(), l.no);
        s->pending.clear();
    }
    for (GmAlloc& a : r.gm) gm_redzone_check(a, Loc(nullptr, 0));
    if (p.launches) fclose(p.launches);
    p.launches = nullptr;
    cost_close();
    if (r.trace) fclose(r.trace);
    if (r.report) fclose(r.report);
    r.trace = r.report = nullptr;
}

EMU_RT_FN void program_start(ProgramState& p) {
    Runtime& r = rt();
    const char* v;
    if ((v = getenv("ASCENDC_EMU_SOC_FILE")) && *v) read_soc(v);
    if ((v = getenv("ASCENDC_EMU_REPORT")) && *v && !r.report) r.report = fopen(v, "w");
    if ((v = getenv("ASCENDC_EMU_TRACE_DIR")) && *v) snprintf(p.trace_dir, sizeof p.trace_dir, "%s", v);
    if ((v = getenv("ASCENDC_EMU_LAUNCHES")) && *v) p.launches = fopen(v, "w");
    // the in-process scheduler (cost_model.h): one estimate.jsonl line per launch, so the host needs no trace
    // to estimate; a trace (a timeline was asked for) keeps the first ASCENDC_EMU_TRACE_LIMIT lines per block
    if ((v = getenv("ASCENDC_EMU_ESTIMATE")) && *v) cost_open(v);
    if ((v = getenv("ASCENDC_EMU_TRACE_LIMIT")) && *v) r.trace_limit = strtoull(v, nullptr, 10);
    if ((v = getenv("ASCENDC_EMU_BLOCK_ORDER")) && *v)
        r.order = !strcmp(v, "reverse") ? ORD_REV : !strcmp(v, "interleaved") ? ORD_INTERLEAVED : ORD_SEQ;
    apply_modes_env();  // ASCENDC_EMU_MODES (PROTOCOL.md "Modes")
    StreamRec* def = new StreamRec();
    def->id = 0;
    def->loc = Loc(nullptr, 0);
    def->destroyed = false;
    p.streams.push_back(def);
    stack_t ss{};
    ss.ss_sp = r.altstack;
    ss.ss_size = sizeof r.altstack;
    sigaltstack(&ss, nullptr);
    struct sigaction sa{};
    sa.sa_sigaction = program_crash;
    sa.sa_flags = SA_ONSTACK | SA_SIGINFO;
    for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL}) sigaction(s, &sa, nullptr);
    void* warm[1];
    backtrace(warm, 1);  // loads the unwinder now: the crash handler must not load libraries
    atexit(program_exit);
}

EMU_RT_FN ProgramState& program() {
    Runtime& r = rt();
    if (!r.program) {
        r.program = new ProgramState();
        program_start(*r.program);
    }
    return *r.program;
}

EMU_RT_FN StreamRec* stream_of(void* handle, const char* api, const Loc& loc) {
    ProgramState& p = program();
    if (!handle) return p.streams[0];
    for (StreamRec* s : p.streams)
        if ((void*)s == handle) {
            if (s->destroyed) {
                host_report(true, "acl-stream", "host-runtime-api", api, loc,
                            "the stream (created at %s:%d) was already destroyed with aclrtDestroyStream",
                            base_name(s->loc.file), s->loc.line);
                return nullptr;
            }
            return s;
        }
    host_report(true, "acl-stream", "host-runtime-api", api, loc,
                "%p is not a stream created by aclrtCreateStream (an uninitialised aclrtStream variable?)", handle);
    return nullptr;
}

EMU_RT_FN uint8_t* program_user_workspace(uint8_t* sys) { return sys + Harness::kSysWorkspace; }

EMU_RT_FN bool stream_capturing(void* stream) {
    ProgramState& p = program();
    if (!stream) return p.streams[0]->capture != nullptr;
    for (StreamRec* s : p.streams)
        if ((void*)s == stream) return !s->destroyed && s->capture != nullptr;
    return false;  // not a stream: the launch reports it
}

EMU_RT_FN void capture_task(void* stream, const char* what, const Loc& loc, std::function<void(void*)> task) {
    StreamRec* s = stream_of(stream, what, loc);
    if (s && s->capture) s->capture->tasks.push_back(CapturedTask{what ? what : "?", loc, std::move(task)});
}

EMU_RT_FN ModelRec* model_of(void* handle, const char* api, const Loc& loc) {
    ProgramState& p = program();
    for (ModelRec* m : p.models)
        if ((void*)m == handle) {
            if (m->destroyed) {
                host_report(true, "acl-model", "host-runtime-api", api, loc,
                            "the model runtime instance (captured from %s:%d) was already destroyed with "
                            "aclmdlRIDestroy",
                            base_name(m->loc.file), m->loc.line);
                return nullptr;
            }
            return m;
        }
    host_report(true, "acl-model", "host-runtime-api", api, loc,
                "%p is not a model runtime instance from aclmdlRICaptureEnd", handle);
    return nullptr;
}

EMU_RT_FN void program_launch(const char* kernel, const Loc& loc, uint32_t blocks, int task_ratio, void* stream,
                              bool sync, void* sys_workspace, void (*fn)(void*), void* arg) {
    ProgramState& p = program();
    Runtime& r = rt();
    // CPU twin (api/.../CPU孪生调试/SetKernelMode.md): MIX, the default, runs 1 AIC + 2 AIV per block
    if (task_ratio <= 0) task_ratio = p.kernel_mode == 0 ? 2 : 1;
    StreamRec* s = stream_of(stream, "<<<>>>", loc);
    if (!s) return;
    if (sys_workspace) {
        r.sys_workspace = (uint8_t*)sys_workspace;
    } else if (sync && !r.sys_workspace) {  // the CPU twin allocates the system workspace (16 MB on 2201)
        GmAlloc& ws = gm_alloc("system workspace", Harness::kSysWorkspace);
        memset(ws.base, 0, Harness::kSysWorkspace);
        r.sys_workspace = ws.base;
    }
    LaunchRec rec{(int)p.runs.size() + 1, kernel ? kernel : "?", loc, s->id, nullptr};
    p.runs.push_back(rec);
    int no = rec.no;
    r.launch_no = no;
    r.launch_fault = nullptr;
    r.dedup.clear();  // each launch reports its own faults
    bool deadlock_before = r.deadlock;
    r.deadlock = false;
    int errors_before = r.errors;
    char trace_path[1200] = "";
    if (p.trace_dir[0]) {
        snprintf(trace_path, sizeof trace_path, "%s/trace.%d.jsonl", p.trace_dir, no);
        r.trace = fopen(trace_path, "w");
        if (r.trace) setvbuf(r.trace, nullptr, _IOFBF, 1 << 20);
    }
    gm_shadow_reset();
    device_protect(false);
    p.in_device_access = true;
    r.task_ratio = task_ratio;
    launch_blocks(blocks * (uint32_t)task_ratio, fn, arg);
    r.task_ratio = 1;
    p.in_device_access = false;
    device_protect(true);
    if (r.trace) fclose(r.trace);
    r.trace = nullptr;
    const char* fault = r.deadlock ? "507014" : r.launch_fault;
    p.runs[(size_t)no - 1].fault = fault;
    if (!sync) s->pending.push_back(no);
    if (p.launches) {
        Json j;
        j.i("launch", no).s("kernel", kernel ? kernel : "?").s("file", loc.file ? loc.file : "").i("line", loc.line);
        j.i("blocks", (long long)blocks).i("task_ratio", task_ratio).i("stream", s->id).s("trace", trace_path);
        j.s("fault", fault ? fault : "");
        j.i("errors", r.errors - errors_before).b("deadlock", r.deadlock).b("sync", sync);
        fputs(j.end(), p.launches);
        fflush(p.launches);
    }
    r.deadlock = r.deadlock || deadlock_before;
    r.launch_no = 0;
    r.launch_fault = nullptr;
}

// Completes a stream's pending launches: the first fault among them becomes the return code.
EMU_RT_FN aclError stream_sync(StreamRec* s) {
    ProgramState& p = program();
    aclError rc = ACL_SUCCESS;
    for (int no : s->pending) {
        const LaunchRec& l = p.runs[(size_t)no - 1];
        if (l.fault && rc == ACL_SUCCESS) {
            rc = (aclError)atoi(l.fault);
            snprintf(p.last_msg, sizeof p.last_msg,
                     "EZ9999: Inner Error! the kernel %s (launch %d, %s:%d) failed with %s; see the emulator report",
                     l.kernel.c_str(), l.no, base_name(l.loc.file), l.loc.line, l.fault);
        }
    }
    s->pending.clear();
    if (rc != ACL_SUCCESS) p.last_error = rc;
    return rc;
}

// Checks [ptr, ptr+count) against what ptr belongs to. Returns the device buffer when it is device memory.
EMU_RT_FN bool check_range(const void* ptr, size_t count, bool device_expected, const char* role, const char* api,
                           const Loc& loc) {
    DeviceBuf* d = device_find(ptr, true);
    if (device_expected && !d) {
        HostBuf* h = host_find(ptr, true);
        host_report(true, "acl-memcpy-kind", "host-runtime-api", api, loc,
                    "the %s %p is not device memory (%s): the copy kind says device; allocate it with aclrtMalloc "
                    "or use the matching ACL_MEMCPY_* kind",
                    role, ptr, h ? "it is host memory from aclrtMallocHost" : "not from aclrtMalloc");
        return false;
    }
    if (!device_expected && d) {
        host_report(true, "acl-memcpy-kind", "host-runtime-api", api, loc,
                    "the %s %p is device memory (aclrtMalloc at %s:%d), but the copy kind says host: use the "
                    "matching ACL_MEMCPY_* kind",
                    role, ptr, base_name(d->loc.file), d->loc.line);
        return false;
    }
    if (d) {
        uint64_t off = (uint64_t)((const uint8_t*)ptr - d->base);
        if (off + count > d->size) {
            host_report(true, "acl-memcpy-bounds", "gm-out-of-bounds", api, loc,
                        "%s %s B at offset %s of the device buffer from aclrtMalloc at %s:%d, which holds %s B: %s B "
                        "past its end",
                        !strcmp(role, "destination") ? "writes" : "reads", EMU_N(count), EMU_N(off),
                        base_name(d->loc.file), d->loc.line, EMU_N(d->size), EMU_N(off + count - d->size));
            return false;
        }
    } else if (HostBuf* h = host_find(ptr, true)) {
        uint64_t off = (uint64_t)((const uint8_t*)ptr - h->p);
        if (off + count > h->size) {
            host_report(true, "acl-memcpy-bounds", "host-runtime-api", api, loc,
                        "%s %s B at offset %s of the host buffer from aclrtMallocHost at %s:%d, which holds %s B",
                        !strcmp(role, "destination") ? "writes" : "reads", EMU_N(count), EMU_N(off),
                        base_name(h->loc.file), h->loc.line, EMU_N(h->size));
            return false;
        }
    }
    return true;
}

// `ordered_after`: the stream of an asynchronous copy, whose own launches come before it in stream order.
EMU_RT_FN bool unsynced_read_check(const void* src, const char* api, const Loc& loc,
                                   const StreamRec* ordered_after = nullptr) {
    ProgramState& p = program();
    for (StreamRec* s : p.streams) {
        if (!s || s->pending.empty() || s == ordered_after) continue;
        const LaunchRec& l = p.runs[(size_t)s->pending.back() - 1];
        host_report(true, "launch-unsynced", "sync-missing", api, loc,
                    "reads device memory at %p while the launch of %s at %s:%d (launch %d) was not synchronised: "
                    "kernel launches are asynchronous, call aclrtSynchronizeStream(stream) before copying results "
                    "back, or the copy may see the buffer before the kernel wrote it",
                    src, l.kernel.c_str(), base_name(l.loc.file), l.loc.line, l.no);
        return false;
    }
    return true;
}

EMU_RT_FN aclError memcpy_impl(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                               const char* api, const Loc& loc, const StreamRec* stream = nullptr) {
    ProgramState& p = program();
    if (count == 0) return ACL_SUCCESS;
    if (!dst || !src) {
        host_report(true, "acl-param", "host-runtime-api", api, loc, "%s pointer is null",
                    !dst ? "the destination" : "the source");
        return p.last_error = ACL_ERROR_INVALID_PARAM;
    }
    if (count > destMax) {
        host_report(true, "acl-param", "host-runtime-api", api, loc,
                    "copies %s B into a destination of destMax %s B: the count must not exceed destMax", EMU_N(count),
                    EMU_N(destMax));
        return p.last_error = ACL_ERROR_INVALID_PARAM;
    }
    if (kind == ACL_MEMCPY_DEFAULT) {
        bool dd = device_find(dst, true) != nullptr, sd = device_find(src, true) != nullptr;
        kind = dd ? (sd ? ACL_MEMCPY_DEVICE_TO_DEVICE : ACL_MEMCPY_HOST_TO_DEVICE)
                  : (sd ? ACL_MEMCPY_DEVICE_TO_HOST : ACL_MEMCPY_HOST_TO_HOST);
    }
    bool dst_dev, src_dev;
    switch (kind) {
        case ACL_MEMCPY_HOST_TO_HOST: dst_dev = false; src_dev = false; break;
        case ACL_MEMCPY_HOST_TO_DEVICE: dst_dev = true; src_dev = false; break;
        case ACL_MEMCPY_DEVICE_TO_HOST: dst_dev = false; src_dev = true; break;
        case ACL_MEMCPY_DEVICE_TO_DEVICE: dst_dev = true; src_dev = true; break;
        default:
            host_report(true, "acl-param", "host-runtime-api", api, loc, "unknown aclrtMemcpyKind %d", (int)kind);
            return p.last_error = ACL_ERROR_INVALID_PARAM;
    }
    if (!check_range(dst, count, dst_dev, "destination", api, loc) ||
        !check_range(src, count, src_dev, "source", api, loc))
        return p.last_error = ACL_ERROR_INVALID_PARAM;
    if (src_dev) unsynced_read_check(src, api, loc, stream);
    device_protect(false);
    memmove(dst, src, count);
    device_protect(true);
    return ACL_SUCCESS;
}

EMU_RT_FN aclError memset_impl(void* devPtr, size_t maxCount, int32_t value, size_t count, const char* api,
                               const Loc& loc) {
    ProgramState& p = program();
    if (count == 0) return ACL_SUCCESS;
    if (!devPtr || count > maxCount) {
        host_report(true, "acl-param", "host-runtime-api", api, loc,
                    devPtr ? "sets %s B in a buffer of maxCount %s B" : "the pointer is null (%s B, maxCount %s B)",
                    EMU_N(count), EMU_N(maxCount));
        return p.last_error = ACL_ERROR_INVALID_PARAM;
    }
    bool dev = device_find(devPtr, true) != nullptr;
    if (!check_range(devPtr, count, dev, "destination", api, loc)) return p.last_error = ACL_ERROR_INVALID_PARAM;
    device_protect(false);
    memset(devPtr, value, count);
    device_protect(true);
    return ACL_SUCCESS;
}

EMU_RT_FN void* device_alloc(size_t size, const Loc& loc, const char* api, bool protect) {
    ProgramState& p = program();
    char name[48];
    snprintf(name, sizeof name, "%s@%s:%d", api, base_name(loc.file), loc.line);
    GmAlloc& a = gm_alloc(name, size);
    // device memory holds garbage until written (as the harness's outputs): poison it so reads of never-written
    // device memory show up as NaN / -1 instead of passing by luck
    memset(a.base, 0xFF, size);
    p.dev.push_back(DeviceBuf{a.base, (uint64_t)size, loc, protect});
    if (protect && !p.in_device_access) mprotect(a.base, (size + 4095) / 4096 * 4096, PROT_NONE);
    return a.base;
}

EMU_RT_FN bool device_free(void* ptr, const Loc& loc, const char* api) {
    ProgramState& p = program();
    for (size_t i = 0; i < p.dev.size(); i++) {
        DeviceBuf& d = p.dev[i];
        if (d.base != ptr) continue;
        mprotect(d.base, (d.size + 4095) / 4096 * 4096, PROT_READ | PROT_WRITE);
        if (GmAlloc* a = gm_find(ptr, false)) gm_redzone_check(*a, d.loc);
        gm_release(ptr);
        p.dev.erase(p.dev.begin() + (long)i);
        return true;
    }
    if (DeviceBuf* inside = device_find(ptr, true))
        host_report(true, "acl-free", "host-runtime-api", api, loc,
                    "%p is inside a device buffer but not its start (allocated at %s:%d): pass the pointer the "
                    "allocation returned", ptr, base_name(inside->loc.file), inside->loc.line);
    else
        host_report(true, "acl-free", "host-runtime-api", api, loc,
                    "%p was not allocated by %s (or was already freed)", ptr,
                    !strcmp(api, "GmFree") ? "GmAlloc" : "aclrtMalloc");
    return false;
}

EMU_RT_FN bool register_kernel(const char* name, KernelThunk thunk) {
    program().kernels.push_back(new KernelEntry{name, thunk});
    return true;
}

EMU_RT_FN aclError launch_by_name(KernelEntry* k, uint32_t blocks, void* stream, const uint8_t* args, size_t size,
                                  const char* api, const Loc& loc) {
    ProgramState& p = program();
    bool known = false;
    for (KernelEntry* e : p.kernels) known = known || e == k;
    if (!known) {
        host_report(true, "acl-kernel", "host-runtime-api", api, loc,
                    "the function handle is null or not one aclrtBinaryGetFunction returned");
        return p.last_error = ACL_ERROR_INVALID_PARAM;
    }
    if (!k->thunk(blocks, stream, args, size, loc)) {
        host_report(true, "acl-kernel-args", "host-runtime-api", api, loc,
                    "the %s B of arguments appended do not match the parameters of %s (appended in order, each "
                    "of its parameter's size)", EMU_N(size), k->name.c_str());
        return p.last_error = ACL_ERROR_INVALID_PARAM;
    }
    return ACL_SUCCESS;
}

// tikicpulib.h: GmAlloc'd memory is shared between host and kernel (never protected).
EMU_RT_FN void* gm_alloc_shared(size_t size, const Loc& loc) {
    if (size == 0) {
        host_report(true, "acl-param", "host-runtime-api", "GmAlloc", loc, "size is 0");
        return nullptr;
    }
    return device_alloc(size, loc, "GmAlloc", false);
}
EMU_RT_FN void gm_free_shared(void* ptr, const Loc& loc) {
    if (ptr) device_free(ptr, loc, "GmFree");
}
// MIX_MODE (0, the default) / AIC_MODE (1) / AIV_MODE (2): how many AIV cores ICPU_RUN_KF runs per block; the
// emulator runs the vector (AIV) view of every kernel (kernel_api.h).
EMU_RT_FN void set_kernel_mode(int mode) { program().kernel_mode = mode; }

}  // namespace ascendc_emu

// ------------------------------------------------------------------------------------------------ ACL bodies

EMU_RT_FN aclError aclInit(const char* configPath, ascendc_emu::Loc loc) {
    (void)configPath;
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    if (p.acl_init) {
        ascendc_emu::host_report(false, "acl-init", "host-runtime-api", "aclInit", loc,
                                 "aclInit was already called: a second call returns ACL_ERROR_REPEAT_INITIALIZE");
        return p.last_error = ACL_ERROR_REPEAT_INITIALIZE;
    }
    p.acl_init = true;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclFinalize(ascendc_emu::Loc loc) {
    (void)loc;
    ascendc_emu::program().acl_init = false;
    return ACL_SUCCESS;
}
EMU_RT_FN const char* aclGetRecentErrMsg() { return ascendc_emu::program().last_msg[0] ? ascendc_emu::program().last_msg : nullptr; }
// IEEE binary16 with round-to-nearest-even (ascendc_emu/fp16.h), as the ACL reference describes the conversion.
EMU_RT_FN aclFloat16 aclFloatToFloat16(float value) { return ascendc_emu::float_to_half_bits(value); }
EMU_RT_FN float aclFloat16ToFloat(aclFloat16 value) { return ascendc_emu::half_bits_to_float(value); }
EMU_RT_FN size_t aclDataTypeSize(aclDataType t) {
    switch (t) {
        case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
        case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
        case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: case ACL_COMPLEX32: return 4;
        case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64: return 8;
        case ACL_COMPLEX128: return 16;
        default: return 0;
    }
}

EMU_RT_FN aclError aclrtSetDevice(int32_t deviceId, ascendc_emu::Loc loc) {
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    if (deviceId != 0) {
        ascendc_emu::host_report(true, "acl-device", "host-runtime-api", "aclrtSetDevice", loc,
                                 "device %d does not exist: the emulator models one device, id 0", deviceId);
        return p.last_error = ACL_ERROR_RT_INVALID_DEVICEID;
    }
    p.device = deviceId;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtResetDevice(int32_t deviceId, ascendc_emu::Loc loc) {
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    if (deviceId != 0) {
        ascendc_emu::host_report(true, "acl-device", "host-runtime-api", "aclrtResetDevice", loc,
                                 "device %d does not exist: the emulator models one device, id 0", deviceId);
        return p.last_error = ACL_ERROR_RT_INVALID_DEVICEID;
    }
    p.device = -1;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtResetDeviceForce(int32_t deviceId, ascendc_emu::Loc loc) { return aclrtResetDevice(deviceId, loc); }
EMU_RT_FN aclError aclrtGetDevice(int32_t* deviceId, ascendc_emu::Loc loc) {
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    if (!deviceId) return p.last_error = ACL_ERROR_INVALID_PARAM;
    if (p.device < 0) {
        ascendc_emu::host_report(false, "acl-device", "host-runtime-api", "aclrtGetDevice", loc,
                                 "no device was set (aclrtSetDevice) in this thread");
        return p.last_error = ACL_ERROR_RT_CONTEXT_NULL;
    }
    *deviceId = p.device;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtGetDeviceCount(uint32_t* count, ascendc_emu::Loc loc) {
    (void)loc;
    if (!count) return ACL_ERROR_INVALID_PARAM;
    *count = 1;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value, ascendc_emu::Loc loc) {
    (void)loc;
    if (!value || deviceId != 0) return ACL_ERROR_INVALID_PARAM;
    const ascendc_emu::Runtime& r = ascendc_emu::rt();
    switch (attr) {
        case ACL_DEV_ATTR_AICORE_CORE_NUM:
        case ACL_DEV_ATTR_CUBE_CORE_NUM: *value = r.soc.aic; return ACL_SUCCESS;
        case ACL_DEV_ATTR_VECTOR_CORE_NUM: *value = r.soc.aiv; return ACL_SUCCESS;
        case ACL_DEV_ATTR_AICPU_CORE_NUM: *value = 1; return ACL_SUCCESS;
    }
    return ACL_ERROR_INVALID_PARAM;
}
EMU_RT_FN aclError aclrtGetRunMode(aclrtRunMode* runMode, ascendc_emu::Loc loc) {
    (void)loc;
    if (!runMode) return ACL_ERROR_INVALID_PARAM;
    *runMode = ACL_HOST;
    return ACL_SUCCESS;
}
EMU_RT_FN const char* aclrtGetSocName() { return ascendc_emu::rt().soc.name; }
EMU_RT_FN aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId, ascendc_emu::Loc loc) {
    if (!context) return ACL_ERROR_INVALID_PARAM;
    aclError rc = aclrtSetDevice(deviceId, loc);
    if (rc != ACL_SUCCESS) return rc;
    *context = (void*)&ascendc_emu::program();  // one context per device
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtDestroyContext(aclrtContext context, ascendc_emu::Loc loc) {
    (void)context;
    (void)loc;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtSetCurrentContext(aclrtContext context, ascendc_emu::Loc loc) {
    (void)loc;
    return context ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}
EMU_RT_FN aclError aclrtGetCurrentContext(aclrtContext* context, ascendc_emu::Loc loc) {
    (void)loc;
    if (!context) return ACL_ERROR_INVALID_PARAM;
    *context = (void*)&ascendc_emu::program();
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtSynchronizeDevice(ascendc_emu::Loc loc) {
    (void)loc;
    aclError rc = ACL_SUCCESS;
    for (ascendc_emu::StreamRec* s : ascendc_emu::program().streams) {
        if (s->destroyed) continue;
        aclError r = ascendc_emu::stream_sync(s);
        if (rc == ACL_SUCCESS) rc = r;
    }
    return rc;
}
EMU_RT_FN aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout, ascendc_emu::Loc loc) {
    (void)timeout;
    return aclrtSynchronizeDevice(loc);
}

EMU_RT_FN aclError aclrtCreateStream(aclrtStream* stream, ascendc_emu::Loc loc) {
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    if (!stream) {
        ascendc_emu::host_report(true, "acl-param", "host-runtime-api", "aclrtCreateStream", loc,
                                 "the stream pointer is null");
        return p.last_error = ACL_ERROR_INVALID_PARAM;
    }
    ascendc_emu::StreamRec* s = new ascendc_emu::StreamRec();
    s->id = (int)p.streams.size();
    s->loc = loc;
    s->destroyed = false;
    p.streams.push_back(s);
    *stream = (void*)s;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag, ascendc_emu::Loc loc) {
    (void)priority;
    (void)flag;
    return aclrtCreateStream(stream, loc);
}
EMU_RT_FN aclError aclrtDestroyStream(aclrtStream stream, ascendc_emu::Loc loc) {
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    if (!stream) {
        ascendc_emu::host_report(true, "acl-stream", "host-runtime-api", "aclrtDestroyStream", loc,
                                 "the default stream (nullptr) cannot be destroyed");
        return p.last_error = ACL_ERROR_INVALID_PARAM;
    }
    ascendc_emu::StreamRec* s = ascendc_emu::stream_of(stream, "aclrtDestroyStream", loc);
    if (!s) return p.last_error = ACL_ERROR_RT_PARAM_INVALID;
    if (!s->pending.empty()) {
        const ascendc_emu::LaunchRec& l = p.runs[(size_t)s->pending.front() - 1];
        ascendc_emu::host_report(false, "launch-unsynced", "sync-missing", "aclrtDestroyStream", loc,
                                 "the stream is destroyed with the launch of %s at %s:%d (launch %d) not synchronised: "
                                 "call aclrtSynchronizeStream first",
                                 l.kernel.c_str(), ascendc_emu::base_name(l.loc.file), l.loc.line, l.no);
        s->pending.clear();
    }
    s->destroyed = true;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtDestroyStreamForce(aclrtStream stream, ascendc_emu::Loc loc) { return aclrtDestroyStream(stream, loc); }
EMU_RT_FN aclError aclrtSynchronizeStream(aclrtStream stream, ascendc_emu::Loc loc) {
    ascendc_emu::StreamRec* s = ascendc_emu::stream_of(stream, "aclrtSynchronizeStream", loc);
    if (!s) return ascendc_emu::program().last_error = ACL_ERROR_RT_PARAM_INVALID;
    return ascendc_emu::stream_sync(s);
}
EMU_RT_FN aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout, ascendc_emu::Loc loc) {
    (void)timeout;
    return aclrtSynchronizeStream(stream, loc);
}

EMU_RT_FN aclError aclrtCreateEvent(aclrtEvent* event, ascendc_emu::Loc loc) {
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    if (!event) {
        ascendc_emu::host_report(true, "acl-param", "host-runtime-api", "aclrtCreateEvent", loc,
                                 "the event pointer is null");
        return p.last_error = ACL_ERROR_INVALID_PARAM;
    }
    ascendc_emu::EventRec* e = new ascendc_emu::EventRec{(int)p.events.size() + 1, false};
    p.events.push_back(e);
    *event = (void*)e;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag, ascendc_emu::Loc loc) {
    (void)flag;
    return aclrtCreateEvent(event, loc);
}
EMU_RT_FN aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag, ascendc_emu::Loc loc) {
    (void)flag;
    return aclrtCreateEvent(event, loc);
}
// Events order work between streams; every emulated launch has finished when its call returns, so recording an
// event completes it and waiting on one is immediate. Elapsed time is not measured (0 ms): the cost model's
// per-launch estimate is in the run result.
// During a capture, an event recorded on a capturing stream carries the capture to the streams that wait on it
// (aclmdlRICaptureBegin: event dependencies bring more streams into the capture); the model then runs its tasks
// in the order they were issued, which respects those dependencies.
EMU_RT_FN aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream, ascendc_emu::Loc loc) {
    if (!event) return ACL_ERROR_INVALID_PARAM;
    ascendc_emu::StreamRec* s = ascendc_emu::stream_of(stream, "aclrtRecordEvent", loc);
    if (!s) return ACL_ERROR_RT_PARAM_INVALID;
    ascendc_emu::EventRec* e = (ascendc_emu::EventRec*)event;
    e->recorded = true;
    e->capture = s->capture;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event, ascendc_emu::Loc loc) {
    if (!event) return ACL_ERROR_INVALID_PARAM;
    ascendc_emu::StreamRec* s = ascendc_emu::stream_of(stream, "aclrtStreamWaitEvent", loc);
    if (!s) return ACL_ERROR_RT_PARAM_INVALID;
    ascendc_emu::ModelRec* m = ((ascendc_emu::EventRec*)event)->capture;
    if (m && !m->ended && !s->capture) s->capture = m;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtSynchronizeEvent(aclrtEvent event, ascendc_emu::Loc loc) {
    (void)loc;
    return event ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}
EMU_RT_FN aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventStatus* status, ascendc_emu::Loc loc) {
    (void)loc;
    if (!event || !status) return ACL_ERROR_INVALID_PARAM;
    *status = ((ascendc_emu::EventRec*)event)->recorded ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent, ascendc_emu::Loc loc) {
    (void)loc;
    if (!ms || !startEvent || !endEvent) return ACL_ERROR_INVALID_PARAM;
    *ms = 0.0f;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtDestroyEvent(aclrtEvent event, ascendc_emu::Loc loc) {
    (void)loc;
    return event ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}

EMU_RT_FN aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy, ascendc_emu::Loc loc) {
    (void)policy;
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    if (!devPtr || size == 0) {
        ascendc_emu::host_report(true, "acl-param", "host-runtime-api", "aclrtMalloc", loc,
                                 !devPtr ? "the output pointer is null" : "size is 0");
        return p.last_error = ACL_ERROR_INVALID_PARAM;
    }
    *devPtr = ascendc_emu::device_alloc(size, loc, "aclrtMalloc", true);
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtMallocHost(void** hostPtr, size_t size, ascendc_emu::Loc loc) {
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    if (!hostPtr || size == 0) {
        ascendc_emu::host_report(true, "acl-param", "host-runtime-api", "aclrtMallocHost", loc,
                                 !hostPtr ? "the output pointer is null" : "size is 0");
        return p.last_error = ACL_ERROR_INVALID_PARAM;
    }
    void* m = nullptr;
    if (posix_memalign(&m, 64, size) != 0 || !m) return p.last_error = ACL_ERROR_BAD_ALLOC;
    p.host.push_back(ascendc_emu::HostBuf{(uint8_t*)m, (uint64_t)size, loc});
    *hostPtr = m;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtFree(void* devPtr, ascendc_emu::Loc loc) {
    if (!devPtr) return ACL_ERROR_INVALID_PARAM;
    return ascendc_emu::device_free(devPtr, loc, "aclrtFree") ? ACL_SUCCESS
                                                              : (ascendc_emu::program().last_error = ACL_ERROR_INVALID_PARAM);
}
EMU_RT_FN aclError aclrtFreeHost(void* hostPtr, ascendc_emu::Loc loc) {
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    if (!hostPtr) return ACL_ERROR_INVALID_PARAM;
    for (size_t i = 0; i < p.host.size(); i++)
        if (p.host[i].p == hostPtr) {
            free(hostPtr);
            p.host.erase(p.host.begin() + (long)i);
            return ACL_SUCCESS;
        }
    ascendc_emu::host_report(true, "acl-free", "host-runtime-api", "aclrtFreeHost", loc,
                             ascendc_emu::device_find(hostPtr, true)
                                 ? "%p is device memory: free it with aclrtFree"
                                 : "%p was not allocated by aclrtMallocHost (or was already freed)",
                             hostPtr);
    return p.last_error = ACL_ERROR_INVALID_PARAM;
}
EMU_RT_FN aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count, ascendc_emu::Loc loc) {
    return ascendc_emu::memset_impl(devPtr, maxCount, value, count, "aclrtMemset", loc);
}
EMU_RT_FN aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream,
                                    ascendc_emu::Loc loc) {
    ascendc_emu::StreamRec* s = ascendc_emu::stream_of(stream, "aclrtMemsetAsync", loc);
    if (!s) return ACL_ERROR_RT_PARAM_INVALID;
    if (s->capture) {  // kept in the model: it runs when the model is executed
        ascendc_emu::capture_task(stream, "aclrtMemsetAsync", loc, [=](void*) {
            ascendc_emu::memset_impl(devPtr, maxCount, value, count, "aclrtMemsetAsync", loc);
        });
        return ACL_SUCCESS;
    }
    return ascendc_emu::memset_impl(devPtr, maxCount, value, count, "aclrtMemsetAsync", loc);
}
EMU_RT_FN aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                               ascendc_emu::Loc loc) {
    return ascendc_emu::memcpy_impl(dst, destMax, src, count, kind, "aclrtMemcpy", loc);
}
// Asynchronous copies run in stream order; the emulator's streams have no work in flight, so the copy is done
// when the call returns (a later host read without aclrtSynchronizeStream would be a bug on the NPU).
EMU_RT_FN aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                                    aclrtStream stream, ascendc_emu::Loc loc) {
    ascendc_emu::StreamRec* s = ascendc_emu::stream_of(stream, "aclrtMemcpyAsync", loc);
    if (!s) return ACL_ERROR_RT_PARAM_INVALID;
    if (kind == ACL_MEMCPY_HOST_TO_HOST) {
        ascendc_emu::host_report(true, "acl-memcpy-kind", "host-runtime-api", "aclrtMemcpyAsync", loc,
                                 "ACL_MEMCPY_HOST_TO_HOST is not supported by the asynchronous copy (the task fails "
                                 "on the device); use memcpy or aclrtMemcpy");
        return ascendc_emu::program().last_error = ACL_ERROR_INVALID_PARAM;
    }
    if (s->capture) {  // kept in the model: it runs, in stream order, when the model is executed
        ascendc_emu::capture_task(stream, "aclrtMemcpyAsync", loc, [=](void* exec) {
            ascendc_emu::memcpy_impl(dst, destMax, src, count, kind, "aclrtMemcpyAsync", loc,
                                     ascendc_emu::stream_of(exec, "aclmdlRIExecuteAsync", loc));
        });
        return ACL_SUCCESS;
    }
    // stream order: the stream's own launches come before the copy (other streams' do not)
    return ascendc_emu::memcpy_impl(dst, destMax, src, count, kind, "aclrtMemcpyAsync", loc, s);
}
EMU_RT_FN aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total, ascendc_emu::Loc loc) {
    (void)attr;
    (void)loc;
    if (!free || !total) return ACL_ERROR_INVALID_PARAM;
    *total = (size_t)32 << 30;  // a 32 GB HBM device; the emulator allocates on demand
    *free = *total;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtBinaryLoadFromFile(const char* binPath, aclrtBinaryLoadOptions* options,
                                           aclrtBinHandle* binHandle, ascendc_emu::Loc loc) {
    (void)binPath;
    (void)options;
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    if (!binHandle) {
        ascendc_emu::host_report(true, "acl-param", "host-runtime-api", "aclrtBinaryLoadFromFile", loc,
                                 "the output handle is null");
        return p.last_error = ACL_ERROR_INVALID_PARAM;
    }
    *binHandle = (void*)&p.kernels;  // the kernels compiled into the program stand for the binary's
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName,
                                          aclrtFuncHandle* funcHandle, ascendc_emu::Loc loc) {
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    if (!binHandle || !kernelName || !funcHandle) {
        ascendc_emu::host_report(true, "acl-param", "host-runtime-api", "aclrtBinaryGetFunction", loc,
                                 "a null handle, kernel name or output pointer");
        return p.last_error = ACL_ERROR_INVALID_PARAM;
    }
    for (ascendc_emu::KernelEntry* k : p.kernels)
        if (k->name == kernelName) {
            *funcHandle = (void*)k;
            return ACL_SUCCESS;
        }
    ascendc_emu::host_report(true, "acl-kernel", "host-runtime-api", "aclrtBinaryGetFunction", loc,
                             "no kernel named '%s' among the program's kernels", kernelName);
    return p.last_error = ACL_ERROR_INVALID_PARAM;
}
EMU_RT_FN aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle, ascendc_emu::Loc loc) {
    (void)loc;
    return binHandle ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}
EMU_RT_FN aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle,
                                       ascendc_emu::Loc loc) {
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    if (!funcHandle || !argsHandle) {
        ascendc_emu::host_report(true, "acl-param", "host-runtime-api", "aclrtKernelArgsInit", loc,
                                 "a null function handle or output pointer");
        return p.last_error = ACL_ERROR_INVALID_PARAM;
    }
    ascendc_emu::ArgsRec* a = new ascendc_emu::ArgsRec{(ascendc_emu::KernelEntry*)funcHandle, {}, false};
    p.args.push_back(a);
    *argsHandle = (void*)a;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param, size_t paramSize,
                                         aclrtParamHandle* paramHandle, ascendc_emu::Loc loc) {
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    ascendc_emu::ArgsRec* a = (ascendc_emu::ArgsRec*)argsHandle;
    if (!a || !param || a->final) {
        ascendc_emu::host_report(true, "acl-param", "host-runtime-api", "aclrtKernelArgsAppend", loc,
                                 !a || !param ? "a null argument list or parameter"
                                              : "the argument list was already finalized (aclrtKernelArgsFinalize)");
        return p.last_error = ACL_ERROR_INVALID_PARAM;
    }
    if (paramHandle) *paramHandle = (void*)(uintptr_t)(a->bytes.size() + 1);
    a->bytes.insert(a->bytes.end(), (uint8_t*)param, (uint8_t*)param + paramSize);
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle, ascendc_emu::Loc loc) {
    (void)loc;
    if (!argsHandle) return ACL_ERROR_INVALID_PARAM;
    ((ascendc_emu::ArgsRec*)argsHandle)->final = true;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t blockDim, aclrtStream stream,
                                               aclrtLaunchKernelCfg* cfg, aclrtArgsHandle argsHandle, void* reserve,
                                               ascendc_emu::Loc loc) {
    (void)cfg;
    (void)reserve;
    ascendc_emu::ArgsRec* a = (ascendc_emu::ArgsRec*)argsHandle;
    if (!a || a->fn != (ascendc_emu::KernelEntry*)funcHandle) {
        ascendc_emu::host_report(true, "acl-param", "host-runtime-api", "aclrtLaunchKernelWithConfig", loc,
                                 "the argument list was not made for this function handle (aclrtKernelArgsInit)");
        return ascendc_emu::program().last_error = ACL_ERROR_INVALID_PARAM;
    }
    return ascendc_emu::launch_by_name(a->fn, blockDim, stream, a->bytes.data(), a->bytes.size(),
                                       "aclrtLaunchKernelWithConfig", loc);
}
// The arguments are in device memory (aclrtMalloc): read where the launch finds them.
EMU_RT_FN aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t blockDim, const void* argsData,
                                     size_t argsSize, aclrtStream stream, ascendc_emu::Loc loc) {
    if (argsSize && !ascendc_emu::check_range(argsData, argsSize, true, "argument data", "aclrtLaunchKernel", loc))
        return ascendc_emu::program().last_error = ACL_ERROR_INVALID_PARAM;
    std::vector<uint8_t> copy(argsSize);
    ascendc_emu::device_protect(false);
    if (argsSize) memcpy(copy.data(), argsData, argsSize);
    ascendc_emu::device_protect(true);
    return ascendc_emu::launch_by_name((ascendc_emu::KernelEntry*)funcHandle, blockDim, stream, copy.data(),
                                       copy.size(), "aclrtLaunchKernel", loc);
}
EMU_RT_FN aclError aclrtGetLastError(aclrtLastErrLevel level) {
    (void)level;
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    aclError e = p.last_error;
    p.last_error = ACL_SUCCESS;
    return e;
}
EMU_RT_FN aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
    (void)level;
    return ascendc_emu::program().last_error;
}
// Model runtime instances (acl/acl_mdl.h): a capture keeps the tasks of its streams in issue order; executing the
// model runs them on the given stream (launch faults surface at that stream's synchronisation, as for any launch).
EMU_RT_FN aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode, ascendc_emu::Loc loc) {
    (void)mode;
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    ascendc_emu::StreamRec* s = ascendc_emu::stream_of(stream, "aclmdlRICaptureBegin", loc);
    if (!s) return p.last_error = ACL_ERROR_RT_PARAM_INVALID;
    if (s->capture) {
        ascendc_emu::host_report(true, "acl-capture", "host-runtime-api", "aclmdlRICaptureBegin", loc,
                                 "the stream is already capturing (aclmdlRICaptureBegin at %s:%d): end that capture "
                                 "with aclmdlRICaptureEnd first",
                                 ascendc_emu::base_name(s->capture->loc.file), s->capture->loc.line);
        return p.last_error = ACL_ERROR_RT_PARAM_INVALID;
    }
    ascendc_emu::ModelRec* m = new ascendc_emu::ModelRec{(int)p.models.size() + 1, loc, s};
    p.models.push_back(m);
    s->capture = m;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status, aclmdlRI* modelRI,
                                          ascendc_emu::Loc loc) {
    ascendc_emu::StreamRec* s = ascendc_emu::stream_of(stream, "aclmdlRICaptureGetInfo", loc);
    if (!s) return ACL_ERROR_RT_PARAM_INVALID;
    if (!status) return ACL_ERROR_INVALID_PARAM;
    *status = s->capture ? ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE : ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    if (modelRI) *modelRI = (void*)s->capture;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI, ascendc_emu::Loc loc) {
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    ascendc_emu::StreamRec* s = ascendc_emu::stream_of(stream, "aclmdlRICaptureEnd", loc);
    if (!s) return p.last_error = ACL_ERROR_RT_PARAM_INVALID;
    ascendc_emu::ModelRec* m = s->capture;
    if (!m || m->origin != s) {
        ascendc_emu::host_report(true, "acl-capture", "host-runtime-api", "aclmdlRICaptureEnd", loc,
                                 m ? "the capture began on another stream (aclmdlRICaptureBegin at %s:%d): end it on "
                                     "that stream"
                                   : "the stream is not capturing: call aclmdlRICaptureBegin on it first%s%s",
                                 m ? ascendc_emu::base_name(m->loc.file) : "", m ? m->loc.line : 0);
        return p.last_error = ACL_ERROR_RT_PARAM_INVALID;
    }
    for (ascendc_emu::StreamRec* t : p.streams)
        if (t && t->capture == m) t->capture = nullptr;
    for (ascendc_emu::EventRec* e : p.events)
        if (e && e->capture == m) e->capture = nullptr;
    m->ended = true;
    if (modelRI) *modelRI = (void*)m;
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream, ascendc_emu::Loc loc) {
    ascendc_emu::ProgramState& p = ascendc_emu::program();
    ascendc_emu::ModelRec* m = ascendc_emu::model_of(modelRI, "aclmdlRIExecuteAsync", loc);
    ascendc_emu::StreamRec* s = ascendc_emu::stream_of(stream, "aclmdlRIExecuteAsync", loc);
    if (!m || !s) return p.last_error = ACL_ERROR_RT_PARAM_INVALID;
    if (!m->ended) {
        ascendc_emu::host_report(true, "acl-capture", "host-runtime-api", "aclmdlRIExecuteAsync", loc,
                                 "the capture that builds this model (aclmdlRICaptureBegin at %s:%d) has not ended: "
                                 "call aclmdlRICaptureEnd first",
                                 ascendc_emu::base_name(m->loc.file), m->loc.line);
        return p.last_error = ACL_ERROR_RT_PARAM_INVALID;
    }
    for (ascendc_emu::CapturedTask& t : m->tasks) t.run(stream);
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout, ascendc_emu::Loc loc) {
    (void)timeout;  // the emulated tasks have all run when the call returns
    aclError rc = aclmdlRIExecuteAsync(modelRI, nullptr, loc);
    if (rc != ACL_SUCCESS) return rc;
    return ascendc_emu::stream_sync(ascendc_emu::program().streams[0]);
}
EMU_RT_FN aclError aclmdlRIDestroy(aclmdlRI modelRI, ascendc_emu::Loc loc) {
    ascendc_emu::ModelRec* m = ascendc_emu::model_of(modelRI, "aclmdlRIDestroy", loc);
    if (!m) return ascendc_emu::program().last_error = ACL_ERROR_INVALID_PARAM;
    m->destroyed = true;
    std::vector<ascendc_emu::CapturedTask>().swap(m->tasks);
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclmdlRIDebugPrint(aclmdlRI modelRI, ascendc_emu::Loc loc) {
    ascendc_emu::ModelRec* m = ascendc_emu::model_of(modelRI, "aclmdlRIDebugPrint", loc);
    if (!m) return ACL_ERROR_INVALID_PARAM;
    printf("[emulator] model runtime instance %d: %zu task(s)\n", m->id, m->tasks.size());
    for (size_t i = 0; i < m->tasks.size(); i++)
        printf("[emulator]   task %zu: %s at %s:%d\n", i, m->tasks[i].what.c_str(),
               ascendc_emu::base_name(m->tasks[i].loc.file), m->tasks[i].loc.line);
    return ACL_SUCCESS;
}
EMU_RT_FN aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t flags, ascendc_emu::Loc loc) {
    (void)flags;
    ascendc_emu::ModelRec* m = ascendc_emu::model_of(modelRI, "aclmdlRIDebugJsonPrint", loc);
    if (!m) return ACL_ERROR_INVALID_PARAM;
    FILE* f = path ? fopen(path, "w") : nullptr;
    if (!f) {
        ascendc_emu::host_report(true, "acl-param", "host-runtime-api", "aclmdlRIDebugJsonPrint", loc,
                                 "cannot write the model description to %s", path ? path : "(null)");
        return ascendc_emu::program().last_error = ACL_ERROR_INVALID_PARAM;
    }
    fprintf(f, "{\"model\":%d,\"tasks\":[", m->id);
    for (size_t i = 0; i < m->tasks.size(); i++) {
        ascendc_emu::Json j;
        j.i("task", (long long)i).s("type", m->tasks[i].what.c_str());
        j.s("file", m->tasks[i].loc.file ? m->tasks[i].loc.file : "").i("line", m->tasks[i].loc.line);
        const char* line = j.end();  // one JSON object and a newline
        fprintf(f, "%s%.*s", i ? "," : "", (int)(strlen(line) - 1), line);
    }
    fputs("]}\n", f);
    fclose(f);
    return ACL_SUCCESS;
}
#endif  // ASCENDC_EMU_RT_BODIES
#endif  // ASCENDC_EMU_ASCENDC_EMU_PROGRAM_H_
