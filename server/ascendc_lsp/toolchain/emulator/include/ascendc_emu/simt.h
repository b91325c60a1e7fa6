// SIMT on the emulator: the threads of a thread block (a `<<<blocks, threads, dynUBuf, stream>>>` launch of a
// `__global__` kernel, or `asc_vf_call<simt_fn>(dim3(threads), ...)` from a SIMD kernel) run as cooperative
// fibers (ucontext), one per thread, on the block's own core. A fiber runs until it ends or reaches a point where
// the hardware makes threads meet: asc_syncthreads (all live threads of the block) or a warp function (all live
// lanes of its warp of 32: shuffles, votes, reductions). So code before and after a barrier sees every thread's
// writes, as on the device, which a plain loop over threads would not give.
// Semantics from docs/zh/api/SIMT-API/ (SIMT编程简介/扩展语法/内置变量.md, 核函数配置.md; 同步与内存栅栏/;
// Warp函数/; 原子操作/; 访存函数/) and docs/zh/guide/编程指南/编程模型/AI-Core-SIMT编程.
// Fibers are cooperative on one OS thread, so every atomic is trivially atomic; the builtin variables
// (threadIdx, blockIdx, blockDim, gridDim) are globals the scheduler sets before it resumes a fiber.
#ifndef ASCENDC_EMU_ASCENDC_EMU_SIMT_H_
#define ASCENDC_EMU_ASCENDC_EMU_SIMT_H_
#include <sys/mman.h>
#include <ucontext.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>
#include "launch.h"
#include "simt_math.h"
#include "simt_vector.h"

// 内置数据类型: dim3, a 3-D extent whose unspecified dimensions are 1.
struct dim3 {
    uint32_t x = 1, y = 1, z = 1;
    constexpr dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
};

// 内置变量: set by the scheduler for the running fiber; outside a SIMT launch they describe one thread.
inline dim3 threadIdx(0, 0, 0);
inline dim3 blockIdx(0, 0, 0);
inline dim3 blockDim(1, 1, 1);
inline dim3 gridDim(1, 1, 1);
constexpr int32_t warpSize = 32;

namespace ascendc_emu {
namespace simt {

constexpr uint32_t kWarp = 32;
constexpr uint32_t kMaxThreads = 2048;                   // __launch_bounds__ range (核函数配置.md)
constexpr size_t kStackBytes = 256u << 10;               // per-thread stack: local arrays live here

enum FiberState : uint8_t { F_READY, F_BLOCK_BARRIER, F_WARP, F_DONE };

struct Fiber {
    ucontext_t ctx;
    FiberState state = F_READY;
    uint32_t tid = 0;
};

// The meeting point of one warp: lanes deposit a value and wait until every live lane has; the slots alternate
// between consecutive collectives so a released lane cannot overwrite a value a slower lane has yet to read.
struct WarpMeet {
    uint64_t gen = 0;
    uint64_t slot[2][kWarp] = {};
    uint32_t arrived[2] = {};  // bit per lane that deposited in this generation's slots
};

struct Group {
    std::vector<Fiber> fibers;
    std::vector<WarpMeet> warps;
    ucontext_t sched;
    uint32_t cur = 0;
    dim3 block, grid, block_idx;
    void (*fn)(void*) = nullptr;
    void* arg = nullptr;
    bool deadlock = false;
};

inline Group*& current() {
    static Group* g = nullptr;
    return g;
}

// Stacks are kept for the next launch (mmap'd once, reserved lazily by the kernel).
inline std::vector<void*>& stack_pool() {
    static std::vector<void*> pool;
    return pool;
}

inline void* stack_at(size_t i) {
    std::vector<void*>& pool = stack_pool();
    while (pool.size() <= i) {
        void* p = mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) {
            fprintf(stderr, "emulator: cannot map a SIMT thread stack (%zu threads)\n", pool.size());
            abort();
        }
        pool.push_back(p);
    }
    return pool[i];
}


inline void set_builtins(const Group& g, uint32_t tid) {
    threadIdx = dim3(tid % g.block.x, (tid / g.block.x) % g.block.y, tid / (g.block.x * g.block.y));
    blockDim = g.block;
    gridDim = g.grid;
    blockIdx = g.block_idx;
}

inline void fiber_entry() {
    Group* g = current();
    Fiber& f = g->fibers[g->cur];
    g->fn(g->arg);
    f.state = F_DONE;
    // returning resumes uc_link (the scheduler)
}

inline void yield_to_scheduler() {
    Group* g = current();
    swapcontext(&g->fibers[g->cur].ctx, &g->sched);
}

inline uint32_t live_mask(const Group& g, uint32_t w) {
    uint32_t m = 0;
    for (uint32_t l = 0; l < kWarp; l++) {
        size_t t = (size_t)w * kWarp + l;
        if (t < g.fibers.size() && g.fibers[t].state != F_DONE) m |= 1u << l;
    }
    return m;
}

// Releases whatever meeting is complete: the block barrier when every live thread is at it, a warp when every
// live lane is at its collective. Returns whether anything was released.
inline bool release_meetings(Group& g) {
    bool released = false;
    size_t live = 0, at_barrier = 0;
    for (const Fiber& f : g.fibers) {
        if (f.state != F_DONE) live++;
        if (f.state == F_BLOCK_BARRIER) at_barrier++;
    }
    if (live && at_barrier == live) {
        for (Fiber& f : g.fibers)
            if (f.state == F_BLOCK_BARRIER) f.state = F_READY;
        released = true;
    }
    for (uint32_t w = 0; w < g.warps.size(); w++) {
        uint32_t live_lanes = live_mask(g, w);
        if (!live_lanes) continue;
        bool all = true;
        for (uint32_t l = 0; l < kWarp && all; l++)
            if ((live_lanes >> l & 1) && g.fibers[(size_t)w * kWarp + l].state != F_WARP) all = false;
        if (!all) continue;
        WarpMeet& m = g.warps[w];
        m.gen++;
        m.arrived[m.gen & 1] = 0;  // the next collective's slots start empty
        for (uint32_t l = 0; l < kWarp; l++)
            if (live_lanes >> l & 1) g.fibers[(size_t)w * kWarp + l].state = F_READY;
        released = true;
    }
    return released;
}

// Runs fn(arg) once per thread of a block of `block` threads, as block `block_idx` of `grid`.
inline void run_block(dim3 grid, dim3 block, dim3 block_idx, void (*fn)(void*), void* arg) {
    uint64_t n = (uint64_t)block.x * block.y * block.z;
    if (n == 0 || n > kMaxThreads) {
        fprintf(stderr, "emulator: a SIMT thread block has %llu threads (%ux%ux%u); it must have 1 to %u\n",
                (unsigned long long)n, block.x, block.y, block.z, kMaxThreads);
        ascendc_emu::rt().launch_fault = "507015";
        return;
    }
    Group g;
    g.block = block;
    g.grid = grid;
    g.block_idx = block_idx;
    g.fn = fn;
    g.arg = arg;
    g.fibers.resize((size_t)n);
    g.warps.resize((size_t)((n + kWarp - 1) / kWarp));
    Group* outer = current();  // a SIMT function called from inside another SIMT group (not expected) nests
    dim3 saved[4] = {threadIdx, blockIdx, blockDim, gridDim};
    current() = &g;
    for (size_t i = 0; i < g.fibers.size(); i++) {
        Fiber& f = g.fibers[i];
        f.tid = (uint32_t)i;
        getcontext(&f.ctx);
        f.ctx.uc_stack.ss_sp = stack_at(i);
        f.ctx.uc_stack.ss_size = kStackBytes;
        f.ctx.uc_link = &g.sched;
        makecontext(&f.ctx, fiber_entry, 0);
    }
    for (;;) {
        bool ran = false;
        for (uint32_t i = 0; i < g.fibers.size(); i++) {
            if (g.fibers[i].state != F_READY) continue;
            g.cur = i;
            set_builtins(g, i);
            swapcontext(&g.sched, &g.fibers[i].ctx);
            ran = true;
        }
        bool released = release_meetings(g);
        bool all_done = true;
        for (const Fiber& f : g.fibers) all_done = all_done && f.state == F_DONE;
        if (all_done) break;
        if (!ran && !released) {
            // threads wait at different meetings (some at asc_syncthreads, others at a warp function of a warp
            // whose other lanes are at the barrier): the device would hang
            fprintf(stderr,
                    "emulator: SIMT deadlock in block %u: threads wait at asc_syncthreads while other lanes of their "
                    "warp wait at a warp function (or the reverse)\n",
                    block_idx.x);
            ascendc_emu::rt().deadlock = true;
            g.deadlock = true;
            break;
        }
    }
    current() = outer;
    threadIdx = saved[0];
    blockIdx = saved[1];
    blockDim = saved[2];
    gridDim = saved[3];
}

// The launch hook of launch.h: block number `linear` of the grid (x fastest).
inline void launch_block(const SimtDims& grid, const SimtDims& block, void (*fn)(void*), void* arg) {
    uint32_t linear = (uint32_t)ascendc_emu::blk().idx;
    dim3 g(grid.x, grid.y, grid.z), b(block.x, block.y, block.z);
    dim3 idx(linear % g.x, (linear / g.x) % g.y, linear / (g.x * g.y));
    run_block(g, b, idx, fn, arg);
}

inline const bool kRegistered = (simt_block_runner() = &launch_block, true);

// ---- collectives -------------------------------------------------------------------------------------------
inline Group* in_group(const char* api) {
    Group* g = current();
    if (!g) {
        fprintf(stderr, "emulator: %s called outside a SIMT thread (a __global__ kernel launched with threads, or "
                        "a __simt_vf__ function run by asc_vf_call)\n", api);
    }
    return g;
}

inline void block_barrier() {
    Group* g = current();
    if (!g) return;  // one thread: nothing to wait for
    g->fibers[g->cur].state = F_BLOCK_BARRIER;
    yield_to_scheduler();
}

template <class T>
inline uint64_t to_bits(T v) {
    static_assert(sizeof(T) <= 8, "warp exchange of a value wider than 8 bytes");
    uint64_t b = 0;
    memcpy(&b, &v, sizeof(T));
    return b;
}
template <class T>
inline T from_bits(uint64_t b) {
    T v;
    memcpy(&v, &b, sizeof(T));
    return v;
}

// Deposits v, waits for every live lane of the warp, and returns (slots, mask of the lanes that took part).
struct WarpView {
    const uint64_t* slot;
    uint32_t mask;
    uint32_t lane;
};

inline WarpView warp_exchange(uint64_t v) {
    Group* g = current();
    static uint64_t solo[kWarp];
    if (!g) {  // one thread outside a launch: a warp of one lane
        solo[0] = v;
        return WarpView{solo, 1u, 0u};
    }
    uint32_t tid = g->cur;
    uint32_t w = tid / kWarp, lane = tid % kWarp;
    WarpMeet& m = g->warps[w];
    uint64_t my_gen = m.gen;
    m.slot[my_gen & 1][lane] = v;
    m.arrived[my_gen & 1] |= 1u << lane;
    g->fibers[tid].state = F_WARP;
    yield_to_scheduler();
    return WarpView{m.slot[my_gen & 1], m.arrived[my_gen & 1], lane};
}

}  // namespace simt
}  // namespace ascendc_emu

// ---- 同步与内存栅栏 -------------------------------------------------------------------------------------------
// asc_syncthreads.md: waits until every thread of the block reaches it.
inline void asc_syncthreads() { ascendc_emu::simt::block_barrier(); }
// asc_threadfence.md / asc_threadfence_block.md: order this thread's memory writes; the emulator's memory is
// sequentially consistent, so they have nothing to do.
inline void asc_threadfence() {}
inline void asc_threadfence_block() {}

// ---- Lane ID类函数 -------------------------------------------------------------------------------------------
inline uint32_t laneid() {
    ascendc_emu::simt::Group* g = ascendc_emu::simt::current();
    return g ? g->cur % ascendc_emu::simt::kWarp : 0u;
}
inline uint32_t lanemask_eq() { return 1u << laneid(); }
inline uint32_t lanemask_lt() { return (1u << laneid()) - 1u; }
inline uint32_t lanemask_le() { return laneid() == 31 ? 0xFFFFFFFFu : (2u << laneid()) - 1u; }
inline uint32_t lanemask_gt() { return ~lanemask_le(); }
inline uint32_t lanemask_ge() { return ~lanemask_lt(); }

// ---- Warp Vote类函数 -----------------------------------------------------------------------------------------
// asc_ballot.md: bit l set when live lane l's predicate is non-zero.
inline uint32_t asc_ballot(int32_t predicate) {
    ascendc_emu::simt::WarpView v = ascendc_emu::simt::warp_exchange(predicate != 0);
    uint32_t r = 0;
    for (uint32_t l = 0; l < 32; l++)
        if ((v.mask >> l & 1) && v.slot[l]) r |= 1u << l;
    return r;
}
// asc_all.md / asc_any.md: over the live lanes.
inline int32_t asc_all(int32_t predicate) {
    ascendc_emu::simt::WarpView v = ascendc_emu::simt::warp_exchange(predicate != 0);
    for (uint32_t l = 0; l < 32; l++)
        if ((v.mask >> l & 1) && !v.slot[l]) return 0;
    return 1;
}
inline int32_t asc_any(int32_t predicate) {
    ascendc_emu::simt::WarpView v = ascendc_emu::simt::warp_exchange(predicate != 0);
    for (uint32_t l = 0; l < 32; l++)
        if ((v.mask >> l & 1) && v.slot[l]) return 1;
    return 0;
}
// asc_activemask.md: the lanes of this warp that have not ended.
inline uint32_t asc_activemask() { return ascendc_emu::simt::warp_exchange(0).mask; }

// ---- Warp Shfl类函数 -----------------------------------------------------------------------------------------
// The warp splits into groups of `width` lanes (a power of two, <= 32); lanes address their group by logical lane.
// A source lane that has ended yields an unspecified value; the emulator gives the caller's own value.
namespace ascendc_emu {
namespace simt {
template <class T>
inline T shfl_from(T var, int32_t (*pick)(int32_t lane, int32_t base, int32_t width, int64_t k), int64_t k,
                   int32_t width) {
    if (width <= 0 || width > 32 || (width & (width - 1))) width = 32;
    WarpView v = warp_exchange(to_bits(var));
    int32_t lane = (int32_t)v.lane, base = lane - lane % width;
    int32_t src = pick(lane, base, width, k);
    if (src < 0 || src >= 32 || !(v.mask >> src & 1)) return var;
    return from_bits<T>(v.slot[src]);
}
}  // namespace simt
}  // namespace ascendc_emu

// asc_shfl.md: the value of logical lane src_lane % width of this lane's group.
template <class T>
inline T asc_shfl(T var, int32_t src_lane, int32_t width = warpSize) {
    return ascendc_emu::simt::shfl_from<T>(
        var, [](int32_t, int32_t base, int32_t w, int64_t k) { return base + (int32_t)(((k % w) + w) % w); },
        src_lane, width);
}
// asc_shfl_up.md: lane - delta; lanes whose source falls below their group's start keep their own value.
template <class T>
inline T asc_shfl_up(T var, uint32_t delta, int32_t width = warpSize) {
    return ascendc_emu::simt::shfl_from<T>(
        var,
        [](int32_t lane, int32_t base, int32_t, int64_t k) { return lane - k < base ? lane : (int32_t)(lane - k); },
        (int64_t)delta, width);
}
// asc_shfl_down.md: lane + delta; past the group's end, the lane keeps its own value.
template <class T>
inline T asc_shfl_down(T var, uint32_t delta, int32_t width = warpSize) {
    return ascendc_emu::simt::shfl_from<T>(
        var,
        [](int32_t lane, int32_t base, int32_t w, int64_t k) {
            return lane + k >= base + w ? lane : (int32_t)(lane + k);
        },
        (int64_t)delta, width);
}
// asc_shfl_xor.md: logical lane ^ laneMask; a result outside the group keeps the lane's own value.
template <class T>
inline T asc_shfl_xor(T var, int32_t lane_mask, int32_t width = warpSize) {
    return ascendc_emu::simt::shfl_from<T>(
        var,
        [](int32_t lane, int32_t base, int32_t w, int64_t k) {
            int32_t d = (lane - base) ^ (int32_t)k;
            return d >= w ? lane : base + d;
        },
        (int64_t)lane_mask, width);
}

// ---- Warp Reduce类函数 ---------------------------------------------------------------------------------------
// asc_reduce_add.md / _max / _min: over the live lanes, every lane gets the result (sum in lane order).
namespace ascendc_emu {
namespace simt {
template <class T, class Op>
inline T warp_reduce(T val, Op op) {
    WarpView v = warp_exchange(to_bits(val));
    bool first = true;
    T acc = val;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(v.mask >> l & 1)) continue;
        T x = from_bits<T>(v.slot[l]);
        acc = first ? x : op(acc, x);
        first = false;
    }
    return acc;
}
}  // namespace simt
}  // namespace ascendc_emu
template <class T>
inline T asc_reduce_add(T val) {
    return ascendc_emu::simt::warp_reduce(val, [](T a, T b) { return (T)(a + b); });
}
template <class T>
inline T asc_reduce_max(T val) {
    return ascendc_emu::simt::warp_reduce(val, [](T a, T b) { return b > a ? b : a; });
}
template <class T>
inline T asc_reduce_min(T val) {
    return ascendc_emu::simt::warp_reduce(val, [](T a, T b) { return b < a ? b : a; });
}

// ---- 原子操作 -------------------------------------------------------------------------------------------------
// Each returns the value at address before the operation (原子操作/asc_atomic_*.md). Fibers switch only at
// meetings, so the read-modify-write cannot interleave with another thread's.
template <class T, class U>
inline T asc_atomic_add(T* address, U val) { T old = *address; *address = (T)(old + (T)val); return old; }
template <class T, class U>
inline T asc_atomic_sub(T* address, U val) { T old = *address; *address = (T)(old - (T)val); return old; }
template <class T, class U>
inline T asc_atomic_exch(T* address, U val) { T old = *address; *address = (T)val; return old; }
template <class T, class U>
inline T asc_atomic_max(T* address, U val) { T old = *address; if ((T)val > old) *address = (T)val; return old; }
template <class T, class U>
inline T asc_atomic_min(T* address, U val) { T old = *address; if ((T)val < old) *address = (T)val; return old; }
template <class T, class U>
inline T asc_atomic_and(T* address, U val) { T old = *address; *address = (T)(old & (T)val); return old; }
template <class T, class U>
inline T asc_atomic_or(T* address, U val) { T old = *address; *address = (T)(old | (T)val); return old; }
template <class T, class U>
inline T asc_atomic_xor(T* address, U val) { T old = *address; *address = (T)(old ^ (T)val); return old; }
// asc_atomic_inc.md: old >= val ? 0 : old + 1.
template <class T, class U>
inline T asc_atomic_inc(T* address, U val) { T old = *address; *address = old >= (T)val ? (T)0 : (T)(old + 1); return old; }
// asc_atomic_dec.md: (old == 0 || old > val) ? val : old - 1.
template <class T, class U>
inline T asc_atomic_dec(T* address, U val) {
    T old = *address;
    *address = (old == (T)0 || old > (T)val) ? (T)val : (T)(old - 1);
    return old;
}
// asc_atomic_cas.md: stores val when the value equals compare.
template <class T, class U, class V>
inline T asc_atomic_cas(T* address, U compare, V val) {
    T old = *address;
    if (old == (T)compare) *address = (T)val;
    return old;
}

// ---- 访存函数 -------------------------------------------------------------------------------------------------
// asc_ldcg / asc_ldca / asc_stcg / asc_stwt: loads and stores with a cache hint; the hint changes only timing.
template <class T>
inline T asc_ldcg(T* address) { return *address; }
template <class T>
inline T asc_ldca(T* address) { return *address; }
template <class T, class U>
inline void asc_stcg(T* address, U val) { *address = (T)val; }
template <class T, class U>
inline void asc_stwt(T* address, U val) { *address = (T)val; }
inline void asc_nop() {}

// ---- 地址空间谓词 / 转换 (地址空间谓词函数/, 地址空间转换函数/) ------------------------------------------------------
// The emulator has one address space: a device pointer is global unless it is in the dynamic Unified Buffer.
inline bool __isUbuf(const void* p) {
    const uint8_t* b = ascendc_emu::dyn_ubuf();
    return (const uint8_t*)p >= b && (const uint8_t*)p < b + ascendc_emu::kDynUbufBytes;
}
inline bool __isGlobal(const void* p) { return !__isUbuf(p); }
inline bool __isLocal(const void*) { return false; }

// ---- asc_vf_call: a SIMT function run by `threads` threads from a SIMD kernel (VF调用/asc_vf_call.md) --------
template <auto funcPtr, typename... Args>
inline void asc_vf_call(dim3 threads, Args&&... args) {
    auto body = [&]() { funcPtr(args...); };
    using Body = decltype(body);
    uint32_t idx = (uint32_t)ascendc_emu::blk().idx;
    uint32_t n = (uint32_t)(ascendc_emu::rt().block_dim / (ascendc_emu::rt().task_ratio ? ascendc_emu::rt().task_ratio : 1));
    ascendc_emu::simt::run_block(dim3(n ? n : 1), threads, dim3(idx), [](void* p) { (*(Body*)p)(); }, (void*)&body);
}

#ifndef __simt_vf__
#define __simt_vf__
#endif
#ifndef __simt_callee__
#define __simt_callee__
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif
#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif
#endif  // ASCENDC_EMU_ASCENDC_EMU_SIMT_H_
