// TPipe / TQue / TQueBind / TBuf, hardware events (SetFlag/WaitFlag/PipeBarrier), SyncAll, atomics.
// Queue operations are modelled as the event pairs they imply (docs: EnQue on VECIN = SetFlag MTE2_V, DeQue =
// WaitFlag MTE2_V, FreeTensor = SetFlag V_MTE2 and the next AllocTensor of that buffer = WaitFlag V_MTE2).
#ifndef ASCENDC_EMU_ASCENDC_EMU_TPIPE_H_
#define ASCENDC_EMU_ASCENDC_EMU_TPIPE_H_
#include <tuple>
#include "tensor.h"

// Pipes as the compiler names them (global namespace in CANN too).
enum pipe_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4, PIPE_MTE5, PIPE_V2,
              PIPE_FIX, VIRTUAL_PIPE_MTE2_L1A, VIRTUAL_PIPE_MTE2_L1B, PIPE_NUM };
enum event_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

namespace AscendC {
#define ASCENDC_EMU_HARD_EVENTS(X)                                                                           \
    X(MTE2_MTE1, P_MTE2, P_MTE1) X(MTE1_MTE2, P_MTE1, P_MTE2) X(MTE1_M, P_MTE1, P_M) X(M_MTE1, P_M, P_MTE1)       \
    X(MTE2_V, P_MTE2, P_V) X(V_MTE2, P_V, P_MTE2) X(MTE3_V, P_MTE3, P_V) X(V_MTE3, P_V, P_MTE3) X(M_V, P_M, P_V) \
    X(V_M, P_V, P_M) X(V_V, P_V, P_V) X(MTE3_MTE1, P_MTE3, P_MTE1) X(MTE1_MTE3, P_MTE1, P_MTE3)                  \
    X(MTE1_V, P_MTE1, P_V) X(MTE2_M, P_MTE2, P_M) X(M_MTE2, P_M, P_MTE2) X(V_MTE1, P_V, P_MTE1)                  \
    X(M_FIX, P_M, P_FIX) X(FIX_M, P_FIX, P_M) X(MTE3_MTE2, P_MTE3, P_MTE2) X(MTE2_MTE3, P_MTE2, P_MTE3)          \
    X(S_V, P_S, P_V) X(V_S, P_V, P_S) X(S_MTE2, P_S, P_MTE2) X(MTE2_S, P_MTE2, P_S) X(S_MTE3, P_S, P_MTE3)        \
    X(MTE3_S, P_MTE3, P_S) X(MTE2_FIX, P_MTE2, P_FIX) X(FIX_MTE2, P_FIX, P_MTE2) X(FIX_S, P_FIX, P_S)            \
    X(M_S, P_M, P_S) X(FIX_MTE3, P_FIX, P_MTE3) X(MTE1_FIX, P_MTE1, P_FIX) X(FIX_MTE1, P_FIX, P_MTE1)            \
    X(FIX_FIX, P_FIX, P_FIX)
#define ASCENDC_EMU_EV_ENUM(n, a, b) n,
enum class HardEvent : uint8_t { ASCENDC_EMU_HARD_EVENTS(ASCENDC_EMU_EV_ENUM) MAX };
#undef ASCENDC_EMU_EV_ENUM
using TEventID = int8_t;
}  // namespace AscendC

namespace ascendc_emu {
using AscendC::HardEvent;
struct EvInfo { const char* name; int src, dst; };
inline EvInfo ev_info(HardEvent e) {
#define ASCENDC_EMU_EV_INFO(n, a, b) {#n, a, b},
    static const EvInfo t[] = {ASCENDC_EMU_HARD_EVENTS(ASCENDC_EMU_EV_INFO){"MAX", P_S, P_S}};
#undef ASCENDC_EMU_EV_INFO
    return t[(int)e];
}
inline int pipe_of(pipe_t p) {
    switch (p) {
        case PIPE_S: return P_S;
        case PIPE_V: case PIPE_V2: return P_V;
        case PIPE_M: return P_M;
        case PIPE_MTE1: return P_MTE1;
        case PIPE_MTE2: case VIRTUAL_PIPE_MTE2_L1A: case VIRTUAL_PIPE_MTE2_L1B: return P_MTE2;
        case PIPE_MTE3: return P_MTE3;
        case PIPE_FIX: return P_FIX;
        default: return P_ALL;
    }
}

// The HardEvent between two pipes (raw set_flag/wait_flag, TQueSync); an unsupported pair is reported.
EMU_RT_FN HardEvent hard_event_of(int src, int dst, const char* api, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    for (int e = 0; e < (int)HardEvent::MAX; e++) {
        EvInfo in = ev_info((HardEvent)e);
        if (in.src == src && in.dst == dst) return (HardEvent)e;
    }
    report_error("event-pipes", "sync-deadlock", src, api, loc,
                 "%s between PIPE_%s and PIPE_%s: there is no hardware event for this pipe pair (PIPE_S -> PIPE_S and "
                 "PIPE_ALL have none; use PipeBarrier for one pipe)", api, pipe_uc(src), pipe_uc(dst));
    return HardEvent::MAX;
}
#else
;
#endif
EMU_RT_FN void set_flag(HardEvent e, int id, const Loc& loc, const char* api = "SetFlag", const char* queue = nullptr)
#if ASCENDC_EMU_RT_BODIES
{
    Block& b = blk();
    if (e == HardEvent::MAX) return;  // an unsupported pipe pair, already reported
    EvInfo in = ev_info(e);
    if (id < 0 || id >= rt().soc.event_ids) {
        report_error("event-id", "sync-deadlock", in.src, api, loc,
                     "%s<HardEvent::%s>(%d): event id out of range; %s has ids 0..%d", api, in.name, id, rt().soc.name,
                     rt().soc.event_ids - 1);
        return;
    }
    Flag& f = b.flags[(int)e][id];
    if (f.set && !queue)
        report_error("flag-double-set", "sync-deadlock", in.src, api, loc,
                     "SetFlag<HardEvent::%s>(%d) while the same flag is already set (by line %d) and not yet waited: "
                     "the hardware behaviour is undefined and a later barrier can hang", in.name, id, f.loc.line);
    f.set = true;
    memcpy(f.snap, b.vc[in.src], sizeof f.snap);
    f.loc = loc;
    Ev ev;
    trace_begin(ev, in.src, api, loc);
    f.seq = ev.seq;
    if (ev.on) { ev.j.s("event", in.name).i("id", id); if (queue) ev.j.s("queue", queue); }
    trace_end(ev);
}
#else
;
#endif
EMU_RT_FN void wait_flag(HardEvent e, int id, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    Block& b = blk();
    if (e == HardEvent::MAX) return;
    EvInfo in = ev_info(e);
    if (id < 0 || id >= rt().soc.event_ids) {
        report_error("event-id", "sync-deadlock", in.dst, "WaitFlag", loc,
                     "WaitFlag<HardEvent::%s>(%d): event id out of range; %s has ids 0..%d", in.name, id, rt().soc.name,
                     rt().soc.event_ids - 1);
        return;
    }
    Flag& f = b.flags[(int)e][id];
    if (!f.set) {
        report_hang("wait-unset-flag", "sync-deadlock", in.dst, "WaitFlag", loc,
                    "WaitFlag<HardEvent::%s>(%d) with no SetFlag<HardEvent::%s>(%d) pending: PIPE_%s waits forever "
                    "(every WaitFlag needs an earlier SetFlag with the same event and id)", in.name, id, in.name, id,
                    pipe_uc(in.dst));
        kill_block(true);
    }
    join_into(in.dst, f.snap);
    f.set = false;
    Ev ev;
    trace_begin(ev, in.dst, "WaitFlag", loc);
    if (ev.on) ev.j.s("event", in.name).i("id", id);
    trace_after(ev, &f.seq, 1);
    trace_end(ev);
}
#else
;
#endif
EMU_RT_FN void pipe_barrier(int p, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    Block& b = blk();
    uint64_t after[NPIPE];
    int n = 0;
    if (p == P_ALL) {
        join_all_pipes();
        for (int q = 0; q < NPIPE; q++) if (b.has_last[q]) after[n++] = b.last_seq[q];
    } else if (p == P_S) {
        report_warning("barrier-pipe-s", "sync-missing", P_S, "PipeBarrier", loc,
                       "PipeBarrier<PIPE_S> is not supported (scalar ordering is automatic); it has no effect");
        return;
    } else {
        b.done[p] = b.vc[p][p];  // every earlier instruction of pipe p has finished its reads and writes
        if (b.has_last[p]) after[n++] = b.last_seq[p];
    }
    Ev ev;
    trace_begin(ev, P_ALL, "PipeBarrier", loc);
    if (ev.on) ev.j.s("barrier", pipe_lc(p));
    trace_after(ev, after, n);
    trace_end(ev);
}
#else
;
#endif

// ---------------------------------------------------------------------------------------------- queues
struct QueInfo { TPosition pos; int prod, cons; };
inline int producer_of(TPosition p) {
    switch (p) {
        case TPosition::VECIN: return P_MTE2;
        case TPosition::A1: case TPosition::B1: case TPosition::C1: case TPosition::TSCM: return P_MTE2;
        case TPosition::A2: case TPosition::B2: case TPosition::C2: return P_MTE1;
        case TPosition::CO1: return P_M;
        case TPosition::CO2: return P_FIX;
        default: return P_V;
    }
}
inline int consumer_of(TPosition p) {
    switch (p) {
        case TPosition::VECOUT: return P_MTE3;
        case TPosition::A1: case TPosition::B1: case TPosition::C1: case TPosition::TSCM: return P_MTE1;
        case TPosition::A2: case TPosition::B2: case TPosition::C2: return P_M;
        case TPosition::CO1: return P_FIX;
        default: return P_V;
    }
}
inline QueInfo que_info(TPosition src, TPosition dst) {
    if (src == dst) return {src, producer_of(src), consumer_of(src)};
    if (src == TPosition::GM) return {dst, producer_of(dst) == P_V ? P_MTE2 : producer_of(dst), consumer_of(dst)};
    if (dst == TPosition::GM) return {src, producer_of(src), src == TPosition::CO1 ? P_FIX : P_MTE3};
    return {src, producer_of(src), consumer_of(dst)};
}

class TPipeBase;
// A TBufPool's region (TBufPool.md): [base, base + len) of its memory, buffers handed out from `cur` on.
struct PoolState {
    TPipeBase* pipe = nullptr;
    Space sp = SP_UB;
    uint64_t base = 0, len = 0, cur = 0;
    int bufs = 0, max_bufs = 4;
};
struct QueBase {
    QueInfo info{};
    int depth = 1;
    bool is_tbuf = false;
    std::vector<Slot> slots;
    std::vector<int> fifo;  // indices of enqueued slots, oldest first
    int next = 0;
    int id = 0;
    char name[48] = "";
    TPipeBase* pipe = nullptr;
    Loc init_loc{nullptr, 0};
    ~QueBase();
    Slot* alloc(const Loc& loc);
    // prod / cons: the pipes of the EnQue<srcUserPos, dstUserPos> / DeQue<...> forms (-1: the queue's own)
    bool enque(Slot* s, uint32_t gen, const Loc& loc, int prod = -1);
    Slot* deque(const Loc& loc, int cons = -1);
    void free_(Slot* s, uint32_t gen, const Loc& loc);
    // custom TBufPool (EXTERN_IMPL_BUFPOOL): InitStartBufHandle / InitBufHandle
    void start_handles(int num, uint32_t len, const Loc& loc);
    void handle_at(PoolState& pool, uint32_t index, uint64_t addr, uint32_t len, const Loc& loc);
    template <class T>
    AscendC::LocalTensor<T> tensor(Slot* s, uint32_t off = 0, uint32_t bytes = ~0u) const {
        AscendC::LocalTensor<T> t;
        t.ptr_ = s->host + off;
        t.addr_ = s->addr + off;
        t.lo_ = s->addr;
        t.hi_ = s->addr + s->len;
        uint32_t b = bytes == ~0u ? s->len - off : bytes;
        t.size_ = b / sizeof(T);
        t.pos_ = info.pos;
        t.slot_ = s;
        t.gen_ = s->gen;
        return t;
    }
};

class TPipeBase {
public:
    uint64_t used[NSPACE] = {};
    int nbuf = 0;
    int nque = 0;
    std::vector<QueBase*> ques;
    Loc ctor_loc{nullptr, 0};
    bool init_buffer(QueBase& q, int num, uint32_t len, const Loc& loc);
    uint32_t check_init(QueBase& q, int num, uint32_t len, const char* api, const Loc& loc);
    void place(QueBase& q, int num, uint32_t alen, uint64_t addr, const Loc& loc);
    void initbuffer_overflow(QueBase& q, int num, uint32_t alen, int sp, const Loc& loc);
    bool init_pool(PoolState& pool, int sp, uint32_t len, const PoolState* share, const Loc& loc);
    void reset();
};
EMU_RT_FN bool pool_init_buffer(PoolState& pool, QueBase& q, int num, uint32_t len, const Loc& loc);
EMU_RT_FN bool pool_init_pool(PoolState& pool, PoolState& sub, uint32_t len, const PoolState* share, const Loc& loc);
EMU_RT_FN void pool_reset(PoolState& pool, const Loc& loc);

#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
// InitBuffer totals beyond the memory. The NPU does not check them: TPipe hands out addresses past the end and the
// fault (507035 "the ub address out of bounds") comes from the first instruction touching them (local_check);
// a buffer never touched costs nothing. --strict-ub rejects the InitBuffer itself, as the CPU-debug build does.
EMU_RT_FN void TPipeBase::initbuffer_overflow(QueBase& q, int num, uint32_t alen, int sp, const Loc& loc)
{
    Runtime& r = rt();
    uint64_t need = (uint64_t)num * alen, cap = space_capacity(sp), left = used[sp] > cap ? 0 : cap - used[sp];
    char reserve[160] = "";
    if (sp == SP_UB && r.modes.ub_reserve == UBR_ALWAYS && r.soc.ub_reserved)
        snprintf(reserve, sizeof reserve, ", %s B reserved for the APIs that use the AscendC UB reserve",
                 EMU_N(r.soc.ub_reserved));
    char msg[700];
    snprintf(msg, sizeof msg,
             "InitBuffer of %s needs %s B (%d x %s B) but only %s B of %s are left (%s %s B on %s%s, %s B already "
             "used by earlier InitBuffer calls)", q.name, EMU_N(need), num, EMU_N(alen), EMU_N(left),
             space_name(sp), space_name(sp), EMU_N(r.soc.bytes[sp]), r.soc.name, reserve, EMU_N(used[sp]));
    if (r.modes.strict_ub)
        report_error("ub-capacity", "ub-overflow", P_S, "InitBuffer", loc, "%s", msg);
    else
        report_warning("ub-capacity", "ub-overflow", P_S, "InitBuffer", loc,
                       "%s: bytes 0x%llx..0x%llx lie past the end of %s. The NPU faults only when an instruction "
                       "touches them (reported there); --strict-ub rejects this InitBuffer", msg,
                       (unsigned long long)(cap > used[sp] ? cap : used[sp]), (unsigned long long)(used[sp] + need),
                       space_name(sp));
}
#endif
#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
EMU_RT_FN uint32_t TPipeBase::check_init(QueBase& q, int num, uint32_t len, const char* api, const Loc& loc)
{
    Runtime& r = rt();
    Space sp = pos_space(q.info.pos);
    if (!q.name[0]) {
        q.id = ++nque;
        if (q.is_tbuf) snprintf(q.name, sizeof q.name, "TBuf<%s>#%d", pos_name(q.info.pos), q.id);
        else snprintf(q.name, sizeof q.name, "TQue<%s,%d>#%d", pos_name(q.info.pos), q.depth, q.id);
    }
    if (!q.slots.empty()) {
        report_error("initbuffer-repeat", "queue-misuse", P_S, api, loc,
                     "InitBuffer called again on %s (first at line %d): the first %s B stay allocated, because TPipe "
                     "has no free; InitBuffer inside a loop exhausts %s", q.name, q.init_loc.line,
                     EMU_N((uint64_t)q.slots.size() * q.slots[0].len), space_name(sp));
    }
    if (num <= 0 || len == 0) {
        report_error("initbuffer-args", "queue-misuse", P_S, api, loc,
                     "InitBuffer of %s with num=%d and len=%u: both must be > 0", q.name, num, len);
        return 0;
    }
    if (sp == SP_GM) {
        report_error("initbuffer-position", "queue-misuse", P_S, api, loc,
                     "InitBuffer of %s: position %s is global memory on %s; a TQue/TBuf needs an on-chip position",
                     q.name, pos_name(q.info.pos), r.soc.name);
        return 0;
    }
    if (nbuf + num > r.soc.max_buffers)
        report_error("buffer-count", "queue-misuse", P_S, api, loc,
                     "InitBuffer of %s brings the buffers managed by TPipe to %d; the limit is %d", q.name, nbuf + num,
                     r.soc.max_buffers);
    return (len + 31u) / 32u * 32u;  // documented: len is rounded up to 32 B
}
// Gives q `num` buffers of `alen` bytes at byte address `addr` of its memory (TPipe or a TBufPool region).
EMU_RT_FN void TPipeBase::place(QueBase& q, int num, uint32_t alen, uint64_t addr, const Loc& loc)
{
    Block& b = blk();
    Space sp = pos_space(q.info.pos);
    uint64_t need = (uint64_t)num * alen;
    if (addr + need > b.mem_bytes[sp]) {
        report_error("ub-capacity", "ub-overflow", P_S, "InitBuffer", loc,
                     "InitBuffer of %s: %s B requested in total, far beyond %s; stopping this block", q.name,
                     EMU_N(addr + need), space_name(sp));
        kill_block(false);
    }
    q.slots.assign((size_t)num, Slot());
    q.fifo.clear();
    q.next = 0;
    q.init_loc = loc;
    q.pipe = this;
    for (int i = 0; i < num; i++) {
        Slot& s = q.slots[(size_t)i];
        s.addr = (uint32_t)(addr + (uint64_t)i * alen);
        s.len = alen;
        s.host = b.mem[sp] + s.addr;
        s.que = &q;
        s.state = q.is_tbuf ? SL_TBUF : SL_FREE;
    }
    nbuf += num;
    if (sp == SP_UB) note_ub_use(addr + need);
    bool known = false;
    for (QueBase* x : ques) known |= x == &q;
    if (!known) ques.push_back(&q);
}
EMU_RT_FN bool TPipeBase::init_buffer(QueBase& q, int num, uint32_t len, const Loc& loc)
{
    uint32_t alen = check_init(q, num, len, "InitBuffer", loc);
    if (!alen) return false;
    Space sp = pos_space(q.info.pos);
    uint64_t need = (uint64_t)num * alen;
    if (used[sp] + need > space_capacity(sp)) initbuffer_overflow(q, num, alen, sp, loc);
    place(q, num, alen, used[sp], loc);
    used[sp] += need;
    return true;
}
// TPipe::InitBufPool (InitBufPool.md): a pool region of `len` bytes (rounded up to 32 B) cut from the TPipe, or
// the region of `share` when given (shared mode: same start, len no larger).
EMU_RT_FN bool TPipeBase::init_pool(PoolState& pool, int sp, uint32_t len, const PoolState* share, const Loc& loc)
{
    uint32_t alen = (len + 31u) / 32u * 32u;
    pool.pipe = this;
    pool.sp = (Space)sp;
    pool.cur = 0;
    pool.bufs = 0;
    pool.len = alen;
    if (share) {
        if (!share->len)
            report_error("tbufpool", "queue-misuse", P_S, "InitBufPool", loc,
                         "InitBufPool shares a TBufPool that was never initialised");
        if (alen > share->len)
            report_error("tbufpool", "queue-misuse", P_S, "InitBufPool", loc,
                         "InitBufPool of %s B shares a TBufPool of only %s B: the shared pool must be at least as long",
                         EMU_N(alen), EMU_N(share->len));
        pool.base = share->base;
        return true;
    }
    if (used[sp] + alen > space_capacity(sp)) {
        uint64_t cap = space_capacity(sp);
        const char* m = "InitBufPool needs %s B but only %s B of %s are left (%s B already used)";
        if (rt().modes.strict_ub)
            report_error("ub-capacity", "ub-overflow", P_S, "InitBufPool", loc, m, EMU_N(alen),
                         EMU_N(used[sp] > cap ? 0 : cap - used[sp]), space_name(sp), EMU_N(used[sp]));
        else
            report_warning("ub-capacity", "ub-overflow", P_S, "InitBufPool", loc, m, EMU_N(alen),
                           EMU_N(used[sp] > cap ? 0 : cap - used[sp]), space_name(sp), EMU_N(used[sp]));
    }
    pool.base = used[sp];
    used[sp] += alen;
    if (sp == SP_UB) note_ub_use(used[sp]);
    return true;
}
// TBufPool::InitBuffer (InitBuffer-56.md): buffers cut from the pool's region.
EMU_RT_FN bool pool_init_buffer(PoolState& pool, QueBase& q, int num, uint32_t len, const Loc& loc)
{
    if (!pool.pipe) {
        report_error("tbufpool", "queue-misuse", P_S, "InitBuffer", loc,
                     "TBufPool::InitBuffer before TPipe::InitBufPool gave the pool its memory");
        return false;
    }
    uint32_t alen = pool.pipe->check_init(q, num, len, "InitBuffer", loc);
    if (!alen) return false;
    uint64_t need = (uint64_t)num * alen;
    if (pool.cur + need > pool.len)
        report_error("tbufpool", "ub-overflow", P_S, "InitBuffer", loc,
                     "TBufPool::InitBuffer of %s needs %s B but the pool has %s B left of %s B", q.name, EMU_N(need),
                     EMU_N(pool.cur > pool.len ? 0 : pool.len - pool.cur), EMU_N(pool.len));
    if (pool.bufs + num > pool.max_bufs)
        report_error("tbufpool", "queue-misuse", P_S, "InitBuffer", loc,
                     "TBufPool::InitBuffer of %s brings the pool's buffers to %d; its bufIDSize is %d", q.name,
                     pool.bufs + num, pool.max_bufs);
    pool.pipe->place(q, num, alen, pool.base + pool.cur, loc);
    pool.cur += need;
    pool.bufs += num;
    return true;
}
// TBufPool::InitBufPool (InitBufPool-55.md): a sub-pool cut from this pool, or sharing `share`'s region.
EMU_RT_FN bool pool_init_pool(PoolState& pool, PoolState& sub, uint32_t len, const PoolState* share, const Loc& loc)
{
    uint32_t alen = (len + 31u) / 32u * 32u;
    sub.pipe = pool.pipe;
    sub.sp = pool.sp;
    sub.cur = 0;
    sub.bufs = 0;
    sub.len = alen;
    if (share) {
        if (alen > share->len)
            report_error("tbufpool", "queue-misuse", P_S, "InitBufPool", loc,
                         "InitBufPool of %s B shares a TBufPool of only %s B", EMU_N(alen), EMU_N(share->len));
        sub.base = share->base;
        return true;
    }
    if (pool.cur + alen > pool.len)
        report_error("tbufpool", "ub-overflow", P_S, "InitBufPool", loc,
                     "InitBufPool of %s B from a TBufPool with %s B left of %s B", EMU_N(alen),
                     EMU_N(pool.cur > pool.len ? 0 : pool.len - pool.cur), EMU_N(pool.len));
    sub.base = pool.base + pool.cur;
    pool.cur += alen;
    return true;
}
// TBufPool::Reset (Reset-57.md): ends the pool's pending events before another pool reuses its memory; the
// buffers stay allocated. Modelled as a barrier of every pipe.
EMU_RT_FN void pool_reset(PoolState& pool, const Loc& loc)
{
    (void)pool;
    if (rt().cur) pipe_barrier(P_ALL, loc);
}
#endif
#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
EMU_RT_FN void TPipeBase::reset()
{
    for (QueBase* q : ques) {
        for (Slot& s : q->slots) s.gen++;
        q->slots.clear();
        q->fifo.clear();
        q->pipe = nullptr;
    }
    ques.clear();
    memset(used, 0, sizeof used);
    nbuf = 0;
    if (rt().cur) blk().ub_high = 0;
}
#endif

#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
EMU_RT_FN QueBase::~QueBase()
{
    if (!rt().cur || slots.empty()) return;
    if (pipe)
        for (auto it = pipe->ques.begin(); it != pipe->ques.end(); ++it)
            if (*it == this) { pipe->ques.erase(it); break; }
    if (is_tbuf) return;
    Block& b = blk();
    for (Slot& s : slots) {
        if (s.state == SL_ENQUE)
            report_error("queue-residue", "queue-misuse", info.prod, "EnQue", s.alloc_loc,
                         "a tensor of %s was enqueued but never dequeued when the kernel ended: its event stays set "
                         "and the next kernel on this core can hang", name);
        else if (s.state == SL_OCCUPIED || s.state == SL_DEQUE)
            report_warning("queue-residue", "queue-misuse", info.cons, "AllocTensor", s.alloc_loc,
                           "a tensor of %s allocated here was never released with FreeTensor before the kernel ended",
                           name);
        if (s.state != SL_FREE && s.state != SL_TBUF && b.live[(int)info.pos] > 0) b.live[(int)info.pos]--;
    }
}
#endif

#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
EMU_RT_FN Slot* QueBase::alloc(const Loc& loc)
{
    Block& b = blk();
    if (slots.empty()) {
        report_error("queue-uninitialised", "queue-misuse", info.prod, "AllocTensor", loc,
                     "AllocTensor on %s before TPipe::InitBuffer gave it buffers", name[0] ? name : "a queue");
        kill_block(false);
    }
    int n = (int)slots.size();
    Slot* s = nullptr;
    for (int k = 0; k < n; k++) {
        int i = (next + k) % n;
        if (slots[(size_t)i].state == SL_FREE) { s = &slots[(size_t)i]; next = (i + 1) % n; break; }
    }
    if (!s) {
        report_hang("queue-exhausted", "queue-misuse", info.prod, "AllocTensor", loc,
                    "AllocTensor on %s but all %d buffers are in use (allocated at line %d and not yet released by "
                    "FreeTensor): on the NPU AllocTensor waits forever for a free buffer", name, n,
                    slots[0].alloc_loc.line);
        kill_block(true);
    }
    int live = ++b.live[(int)info.pos];
    if (live > rt().soc.max_live)
        report_error("live-tensors", "queue-misuse", info.prod, "AllocTensor", loc,
                     "AllocTensor makes %d tensors live at once on TPosition %s; %s allows at most %d (one hardware "
                     "event id each): free tensors earlier or use one larger buffer with offsets", live,
                     pos_name(info.pos), rt().soc.name, rt().soc.max_live);
    s->state = SL_OCCUPIED;
    s->alloc_loc = loc;
    // WAR protection: the producer pipe waits for the consumer's release of this buffer.
    if (s->has_free) join_into(info.prod, s->free_snap);
    Ev ev;
    trace_begin(ev, info.prod, "AllocTensor", loc);
    if (ev.text) {  // queue labels are for the trace file only
        char e[24];
        snprintf(e, sizeof e, "%s_%s", pipe_uc(info.cons), pipe_uc(info.prod));
        ev.j.s("event", e).s("queue", name);
    }
    if (s->has_free) trace_after(ev, &s->free_seq, 1);
    trace_end(ev);
    return s;
}
#endif
#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
EMU_RT_FN bool QueBase::enque(Slot* s, uint32_t gen, const Loc& loc, int prod)
{
    Block& b = blk();
    if (prod < 0) prod = info.prod;
    if (!s || s->que != this) {
        report_error("queue-foreign", "queue-misuse", info.prod, "EnQue", loc,
                     "EnQue on %s of a tensor that was not allocated from this queue", name);
        return false;
    }
    if (s->gen != gen || s->state != SL_OCCUPIED) {
        report_error("queue-state", "queue-misuse", info.prod, "EnQue", loc,
                     "EnQue on %s of a tensor in state %s; only a tensor fresh from AllocTensor (OCCUPIED) can be "
                     "enqueued%s", name, s->gen != gen ? "FREE (already released)" : slot_state_name(s->state),
                     s->state == SL_ENQUE ? " (enqueued twice?)" : "");
        return false;
    }
    if (depth > 0 && (int)fifo.size() >= depth) {
        report_error("queue-depth", "queue-misuse", info.prod, "EnQue", loc,
                     "EnQue on %s holding %d tensors: the queue depth is %d, so EnQue fails (returns false) and the "
                     "tensor is lost; DeQue before enqueuing again or raise the TQue depth", name, (int)fifo.size(),
                     depth);
        return false;
    }
    s->state = SL_ENQUE;
    memcpy(s->enq_snap, b.vc[prod], sizeof s->enq_snap);
    fifo.push_back((int)(s - slots.data()));
    Ev ev;
    trace_begin(ev, prod, "EnQue", loc);
    s->enq_seq = ev.seq;
    if (ev.text) {  // queue labels are for the trace file only
        char e[24];
        snprintf(e, sizeof e, "%s_%s", pipe_uc(prod), pipe_uc(info.cons));
        ev.j.s("event", e).s("queue", name);
    }
    trace_end(ev);
    return true;
}
#endif
#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
EMU_RT_FN Slot* QueBase::deque(const Loc& loc, int cons)
{
    Block& b = blk();
    if (cons < 0) cons = info.cons;
    if (fifo.empty()) {
        report_hang("deque-empty", "sync-deadlock", cons, "DeQue", loc,
                    "DeQue on %s, which holds no enqueued tensor: the consumer waits forever (every DeQue needs an "
                    "earlier EnQue on the same queue)", name[0] ? name : "a queue");
        kill_block(true);
    }
    Slot* s = &slots[(size_t)fifo.front()];
    fifo.erase(fifo.begin());
    s->state = SL_DEQUE;
    join_into(cons, s->enq_snap);
    Ev ev;
    trace_begin(ev, cons, "DeQue", loc);
    if (ev.text) {  // queue labels are for the trace file only
        char e[24];
        snprintf(e, sizeof e, "%s_%s", pipe_uc(info.prod), pipe_uc(cons));
        ev.j.s("event", e).s("queue", name);
    }
    trace_after(ev, &s->enq_seq, 1);
    trace_end(ev);
    return s;
}
#endif
#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
EMU_RT_FN void QueBase::free_(Slot* s, uint32_t gen, const Loc& loc)
{
    Block& b = blk();
    if (!s || s->que != this) {
        report_error("queue-foreign", "queue-misuse", info.cons, "FreeTensor", loc,
                     "FreeTensor on %s of a tensor that does not belong to this queue", name);
        return;
    }
    if (s->state == SL_FREE || s->gen != gen) {
        report_error("double-free", "queue-misuse", info.cons, "FreeTensor", loc,
                     "FreeTensor on %s of a tensor that is already free (double FreeTensor, or a stale handle)", name);
        return;
    }
    if (s->state == SL_ENQUE) {
        report_error("queue-state", "queue-misuse", info.cons, "FreeTensor", loc,
                     "FreeTensor on %s of a tensor that is still enqueued (EnQue without DeQue)", name);
        for (size_t i = 0; i < fifo.size(); i++)
            if (&slots[(size_t)fifo[i]] == s) { fifo.erase(fifo.begin() + (long)i); break; }
    }
    s->state = SL_FREE;
    s->gen++;
    if (b.live[(int)info.pos] > 0) b.live[(int)info.pos]--;
    memcpy(s->free_snap, b.vc[info.cons], sizeof s->free_snap);
    s->has_free = true;
    Ev ev;
    trace_begin(ev, info.cons, "FreeTensor", loc);
    s->free_seq = ev.seq;
    if (ev.text) {  // queue labels are for the trace file only
        char e[24];
        snprintf(e, sizeof e, "%s_%s", pipe_uc(info.cons), pipe_uc(info.prod));
        ev.j.s("event", e).s("queue", name);
    }
    trace_end(ev);
}
#endif
#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
// EXTERN_IMPL_BUFPOOL custom pools (自定义TBufPool/*.md, TQueBind/InitStartBufHandle.md, InitBufHandle.md): the
// pool gives the queue `num` buffers, then each buffer's address one by one.
EMU_RT_FN void QueBase::start_handles(int num, uint32_t len, const Loc& loc)
{
    if (num <= 0 || len == 0) {
        report_error("initbuffer-args", "queue-misuse", P_S, "InitStartBufHandle", loc,
                     "InitStartBufHandle with num=%d and len=%u: both must be > 0", num, len);
        return;
    }
    slots.assign((size_t)num, Slot());
    fifo.clear();
    next = 0;
    init_loc = loc;
}
EMU_RT_FN void QueBase::handle_at(PoolState& pool, uint32_t index, uint64_t addr, uint32_t len, const Loc& loc)
{
    if (!pool.pipe) {
        report_error("tbufpool", "queue-misuse", P_S, "InitBufHandle", loc,
                     "InitBufHandle on a custom TBufPool that TPipe::InitBufPool never initialised");
        return;
    }
    if (index >= slots.size()) {
        report_error("tbufpool", "queue-misuse", P_S, "InitBufHandle", loc,
                     "InitBufHandle index %u, but InitStartBufHandle declared %d buffers", index, (int)slots.size());
        return;
    }
    if (addr < pool.base || addr + len > pool.base + pool.len)
        report_error("tbufpool", "ub-overflow", P_S, "InitBufHandle", loc,
                     "InitBufHandle places %s B at 0x%llx, outside the pool's region 0x%llx..0x%llx", EMU_N(len),
                     (unsigned long long)addr, (unsigned long long)pool.base, (unsigned long long)(pool.base + pool.len));
    Block& b = blk();
    Space sp = pos_space(info.pos);
    if (addr + len > b.mem_bytes[sp]) return;
    TPipeBase* p = pool.pipe;
    if (!name[0]) {
        id = ++p->nque;
        snprintf(name, sizeof name, is_tbuf ? "TBuf<%s>#%d" : "TQue<%s>#%d", pos_name(info.pos), id);
    }
    Slot& s = slots[index];
    s.addr = (uint32_t)addr;
    s.len = len;
    s.host = b.mem[sp] + addr;
    s.que = this;
    s.state = is_tbuf ? SL_TBUF : SL_FREE;
    pipe = p;
    p->nbuf++;
    if (sp == SP_UB) note_ub_use(addr + len);
    bool known = false;
    for (QueBase* x : p->ques) known |= x == this;
    if (!known) p->ques.push_back(this);
}
#endif
}  // namespace ascendc_emu

namespace AscendC {

// (template parameters renamed: members of a non-dependent base would hide them)
template <TPosition src_, TPosition dst_, int32_t depth_, auto mask_ = 0>
class TQueBind : public ascendc_emu::QueBase {
public:
    TQueBind() {
        info = ascendc_emu::que_info(src_, dst_);
        depth = depth_;
    }
    // A copy (apply_fused_ema_adam passes a TQue by value to a helper, as the NPU build allows: the object is a
    // handle to its buffers) is a view of the original queue, as a TBuf copy is: every call acts on the original.
    TQueBind(const TQueBind& other) : TQueBind() {
        shared_ = other.shared_ ? other.shared_ : const_cast<TQueBind*>(&other);
        memcpy(name, other.name, sizeof name);
    }
    TQueBind& operator=(const TQueBind&) = delete;
    // AllocTensor.md / DeQue.md / EnQue.md: the non-inplace forms return a tensor, the inplace forms fill the
    // caller's; the <srcUserPos, dstUserPos> forms of a VECIN/VECOUT-bound queue say which hand-off it is (GM ->
    // UB: MTE2 -> V; UB -> GM: V -> MTE3).
    template <typename T>
    LocalTensor<T> AllocTensor(EMU_LOC) {
        ascendc_emu::Slot* s = q().alloc(loc);
        return q().template tensor<T>(s);
    }
    template <typename T>
    void AllocTensor(LocalTensor<T>& t, EMU_LOC) { t = q().template tensor<T>(q().alloc(loc)); }
    template <typename T>
    bool EnQue(const LocalTensor<T>& t, EMU_LOC) { return q().enque(t.slot_, t.gen_, loc); }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    bool EnQue(const LocalTensor<T>& t, EMU_LOC) {
        return q().enque(t.slot_, t.gen_, loc, srcUserPos == TPosition::GM ? ascendc_emu::P_MTE2 : ascendc_emu::P_V);
    }
    template <typename T>
    LocalTensor<T> DeQue(EMU_LOC) { return q().template tensor<T>(q().deque(loc)); }
    template <typename T>
    void DeQue(LocalTensor<T>& t, EMU_LOC) { t = q().template tensor<T>(q().deque(loc)); }
    // DeQue() without a type (public kernels whose tensor from AllocTensor stays in use): the hand-off alone; the
    // dequeued buffer's address (TBufHandle) is returned.
    uint8_t* DeQue(EMU_LOC) {
        ascendc_emu::Slot* s = q().deque(loc);
        return s ? s->host : nullptr;
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    LocalTensor<T> DeQue(EMU_LOC) {
        return q().template tensor<T>(
            q().deque(loc, dstUserPos == TPosition::GM ? ascendc_emu::P_MTE3 : ascendc_emu::P_V));
    }
    template <typename T>
    void FreeTensor(LocalTensor<T>& t, EMU_LOC) { q().free_(t.slot_, t.gen_, loc); }
    void InitStartBufHandle(uint8_t*, uint8_t num, uint32_t len, EMU_LOC) { q().start_handles(num, len, loc); }
    template <class P>
    void InitBufHandle(P* bufPool, uint32_t index, uint8_t*, uint32_t curPoolAddr, uint32_t len, EMU_LOC) {
        q().handle_at(bufPool->emu_pool_, index, curPoolAddr, len, loc);
    }
    bool VacantInQue() const { return q().depth == 0 || (int)q().fifo.size() < q().depth; }
    bool HasTensorInQue() const { return !q().fifo.empty(); }
    int32_t GetTensorCountInQue() const { return (int32_t)q().fifo.size(); }
    bool HasIdleBuffer() const {
        for (auto& s : q().slots) if (s.state == ascendc_emu::SL_FREE) return true;
        return false;
    }
    void FreeAllEvent() {}

private:
    TQueBind* shared_ = nullptr;  // the queue this one is a copy of
    ascendc_emu::QueBase& q() { return shared_ ? *shared_ : *this; }
    const ascendc_emu::QueBase& q() const { return shared_ ? *shared_ : *this; }
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {};

template <TPosition pos = TPosition::LCM>
class TBuf : public ascendc_emu::QueBase {
public:
    TBuf() {
        info = ascendc_emu::que_info(pos, pos);
        depth = 0;
        is_tbuf = true;
    }
    // A copy (public kernels pass a TBuf by value to helpers, as the NPU build allows: the object is a handle to
    // its buffer) is a view of the original's buffer: Get on it hands out the original's memory and slot.
    TBuf(const TBuf& other) : TBuf() {
        shared_ = other.shared_ ? other.shared_ : const_cast<TBuf*>(&other);
        memcpy(name, other.name, sizeof name);
    }
    TBuf& operator=(const TBuf&) = delete;
    // TBuf简介.md: a TBuf is a TQueBind whose memory only takes part in computation (no EnQue/DeQue) and whose
    // tensors need no release. The inherited AllocTensor hands out the whole buffer, FreeTensor gives it back.
    template <typename T>
    LocalTensor<T> AllocTensor(EMU_LOC) { return Get<T>(loc); }
    template <typename T>
    void AllocTensor(LocalTensor<T>& t, EMU_LOC) { t = Get<T>(loc); }
    template <typename T>
    void FreeTensor(LocalTensor<T>& t, EMU_LOC) {
        const ascendc_emu::QueBase* owner = shared_ ? shared_ : this;
        if (t.slot_ && t.slot_->que != owner)
            ascendc_emu::report_error("queue-foreign", "queue-misuse", -1, "FreeTensor", loc,
                                      "FreeTensor on %s of a tensor that does not belong to it", name);
    }
    void InitStartBufHandle(uint8_t*, uint8_t num, uint32_t len, EMU_LOC) { start_handles(num, len, loc); }
    template <class P>
    void InitBufHandle(P* bufPool, uint32_t index, uint8_t*, uint32_t curPoolAddr, uint32_t len, EMU_LOC) {
        handle_at(bufPool->emu_pool_, index, curPoolAddr, len, loc);
    }
    template <typename T>
    LocalTensor<T> Get(EMU_LOC) {
        if (shared_) return shared_->template Get<T>(loc);
        if (slots.empty()) { uninit(loc); return LocalTensor<T>(); }
        return tensor<T>(&slots[0]);
    }
    template <typename T>
    LocalTensor<T> Get(uint32_t count, EMU_LOC) {
        if (shared_) return shared_->template Get<T>(count, loc);
        if (slots.empty()) { uninit(loc); return LocalTensor<T>(); }
        if ((uint64_t)count * sizeof(T) > slots[0].len)
            ascendc_emu::report_error("tbuf-get", "ub-out-of-bounds", -1, "TBuf::Get", loc,
                                      "Get<%s>(%u) asks for %s B but %s holds %s B", ascendc_emu::dtype_name<T>(),
                                      count, EMU_N((uint64_t)count * sizeof(T)), name, EMU_N(slots[0].len));
        LocalTensor<T> t = tensor<T>(&slots[0]);
        t.size_ = count;
        return t;
    }
    template <typename T>
    LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, EMU_LOC) {
        if (shared_) return shared_->template GetWithOffset<T>(size, bufOffset, loc);
        if (slots.empty()) { uninit(loc); return LocalTensor<T>(); }
        if (bufOffset + (uint64_t)size * sizeof(T) > slots[0].len)
            ascendc_emu::report_error("tbuf-get", "ub-out-of-bounds", -1, "TBuf::GetWithOffset", loc,
                                      "GetWithOffset<%s>(%u, %u) covers bytes %u..%llu but %s holds %s B",
                                      ascendc_emu::dtype_name<T>(), size, bufOffset, bufOffset,
                                      (unsigned long long)(bufOffset + (uint64_t)size * sizeof(T)), name,
                                      EMU_N(slots[0].len));
        if (bufOffset % 32)
            ascendc_emu::report_error("address-alignment", "misaligned-access", -1, "TBuf::GetWithOffset", loc,
                                      "GetWithOffset bufOffset %u is not a multiple of 32 B", bufOffset);
        LocalTensor<T> t = tensor<T>(&slots[0], bufOffset > slots[0].len ? slots[0].len : bufOffset);
        t.size_ = size;
        return t;
    }

private:
    TBuf* shared_ = nullptr;  // the TBuf this one is a copy of
    void uninit(const ascendc_emu::Loc& loc) {
        ascendc_emu::report_error("tbuf-uninitialised", "queue-misuse", -1, "TBuf::Get", loc,
                                  "TBuf::Get before TPipe::InitBuffer gave the TBuf its memory");
    }
};

template <TPosition pos, int32_t depth = 1, auto mask = 0>
using TSCM = TQueBind<pos, TPosition::TSCM, depth, mask>;

using TBufHandle = uint8_t*;
constexpr uint32_t defaultBufIDSize = 4;
// TBufPool.md: a region of UB/L1 cut from the TPipe (InitBufPool), handing out buffers (InitBuffer) and
// sub-pools (InitBufPool); pools may share a region; Reset ends the pool's events before another pool reuses it.
template <TPosition pos, uint32_t bufIDSize = defaultBufIDSize>
class TBufPool {
public:
    ascendc_emu::PoolState emu_pool_;
    TBufPool() {
        emu_pool_.sp = ascendc_emu::pos_space(pos);
        emu_pool_.max_bufs = (int)bufIDSize;
    }
    TBufPool(const TBufPool&) = delete;
    template <class T>
    bool InitBufPool(T& bufPool, uint32_t len, EMU_LOC) {
        return ascendc_emu::pool_init_pool(emu_pool_, bufPool.emu_pool_, len, nullptr, loc);
    }
    template <class T, class U>
    bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf, EMU_LOC) {
        return ascendc_emu::pool_init_pool(emu_pool_, bufPool.emu_pool_, len, &shareBuf.emu_pool_, loc);
    }
    template <class T>
    bool InitBuffer(T& que, uint8_t num, uint32_t len, EMU_LOC) {
        return ascendc_emu::pool_init_buffer(emu_pool_, que, num, len, loc);
    }
    template <TPosition bufPos>
    bool InitBuffer(TBuf<bufPos>& buf, uint32_t len, EMU_LOC) {
        return ascendc_emu::pool_init_buffer(emu_pool_, buf, 1, len, loc);
    }
    void Reset(EMU_LOC) { ascendc_emu::pool_reset(emu_pool_, loc); }
};

// TQueSync (核内同步/TQueSync): SetFlag/WaitFlag between two pipes named by template arguments.
template <pipe_t src, pipe_t dst>
class TQueSync {
public:
    void SetFlag(TEventID id, EMU_LOC) { ascendc_emu::set_flag(event(loc), id, loc); }
    void WaitFlag(TEventID id, EMU_LOC) { ascendc_emu::wait_flag(event(loc), id, loc); }

private:
    static HardEvent event(const ascendc_emu::Loc& loc) {
        return ascendc_emu::hard_event_of(ascendc_emu::pipe_of(src), ascendc_emu::pipe_of(dst), "TQueSync", loc);
    }
};

class TPipe : public ascendc_emu::TPipeBase {
public:
    explicit TPipe(EMU_LOC) {
        using namespace ascendc_emu;
        ctor_loc = loc;
        if (rt().cur) {
            if (blk().pipe)
                report_error("tpipe-twice", "queue-misuse", P_S, "TPipe", loc,
                             "a second TPipe is constructed while the one from line %d is alive; only one TPipe may "
                             "exist per core", blk().pipe->ctor_loc.line);
            else
                blk().pipe = this;
        }
    }
    ~TPipe() {
        if (ascendc_emu::rt().cur && ascendc_emu::blk().pipe == this) ascendc_emu::blk().pipe = nullptr;
        for (ascendc_emu::QueBase* q : ques) q->pipe = nullptr;
    }
    TPipe(const TPipe&) = delete;
    template <class Q>
    bool InitBuffer(Q& que, uint8_t num, uint32_t len, EMU_LOC) { return init_buffer(que, num, len, loc); }
    template <TPosition pos>
    bool InitBuffer(TBuf<pos>& buf, uint32_t len, EMU_LOC) { return init_buffer(buf, 1, len, loc); }
    // InitBuffer.md, the user-address form: one buffer of the queue per (start address, length) tuple, in bytes
    // from the start of the queue's memory. The ranges must be 32-byte aligned and must not overlap; later
    // automatic InitBuffer calls start past the highest of them. (A parameter pack ends the list, so the reports
    // name this header's line rather than the caller's.)
    template <class T, class U, class V, class... Addrs>
    bool InitBuffer(T& que, const std::tuple<U, V>& addr0, const Addrs&... addrs) {  // Std::tuple is std::tuple (std.h)
        using namespace ascendc_emu;
        const Loc loc{};
        const uint64_t ranges[][2] = {{(uint64_t)std::get<0>(addr0), (uint64_t)std::get<1>(addr0)},
                                      {(uint64_t)std::get<0>(addrs), (uint64_t)std::get<1>(addrs)}...};
        const int num = (int)(sizeof(ranges) / sizeof(ranges[0]));
        uint64_t max_len = 0;
        for (int i = 0; i < num; i++) max_len = ranges[i][1] > max_len ? ranges[i][1] : max_len;
        if (!check_init(que, num, (uint32_t)max_len, "InitBuffer", loc)) return false;
        Space sp = pos_space(que.info.pos);
        Block& b = blk();
        uint64_t end = 0;
        for (int i = 0; i < num; i++) {
            const uint64_t a = ranges[i][0], n = ranges[i][1];
            if (a % 32 || n % 32 || !n) {
                report_error("initbuffer-args", "queue-misuse", P_S, "InitBuffer", loc,
                             "InitBuffer of %s: buffer %d at byte %llu with length %llu: start and length must be "
                             "nonzero multiples of 32 B", que.name, i, (unsigned long long)a, (unsigned long long)n);
                return false;
            }
            for (int j = 0; j < i; j++)
                if (a < ranges[j][0] + ranges[j][1] && ranges[j][0] < a + n) {
                    report_error("initbuffer-args", "queue-misuse", P_S, "InitBuffer", loc,
                                 "InitBuffer of %s: buffers %d and %d overlap", que.name, j, i);
                    return false;
                }
            end = a + n > end ? a + n : end;
        }
        if (end > b.mem_bytes[sp]) {
            report_error("ub-capacity", "ub-overflow", P_S, "InitBuffer", loc,
                         "InitBuffer of %s: the buffers reach byte %s, beyond %s", que.name, EMU_N(end),
                         space_name(sp));
            return false;
        }
        place(que, num, 32, 0, loc);  // the queue bookkeeping; the slots then get the given ranges
        for (int i = 0; i < num; i++) {
            Slot& s = que.slots[(size_t)i];
            s.addr = (uint32_t)ranges[i][0];
            s.len = (uint32_t)ranges[i][1];
            s.host = b.mem[sp] + s.addr;
        }
        if (sp == SP_UB) note_ub_use(end);
        if (end > used[sp]) used[sp] = end;
        return true;
    }
    // InitBufPool.md: a TBufPool (or an EXTERN_IMPL_BUFPOOL class) gets a region of this TPipe, or shares one.
    template <class T>
    bool InitBufPool(T& bufPool, uint32_t len, EMU_LOC) {
        return init_pool(bufPool.emu_pool_, bufPool.emu_pool_.sp, len, nullptr, loc);
    }
    template <class T, class U>
    bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf, EMU_LOC) {
        return init_pool(bufPool.emu_pool_, bufPool.emu_pool_.sp, len, &shareBuf.emu_pool_, loc);
    }
    // GetBaseAddr.md (CPU-debug): the host address where a position's memory starts.
    uint8_t* GetBaseAddr(int8_t logicPos) {
        ascendc_emu::Space sp = ascendc_emu::pos_space((TPosition)logicPos);
        return ascendc_emu::rt().cur ? ascendc_emu::blk().mem[sp] : nullptr;
    }
    void Reset() { reset(); }
    void Destroy() { reset(); }
    void Init() {}
    template <HardEvent evt>
    TEventID FetchEventID() { return FetchEventID(evt); }
    TEventID FetchEventID(HardEvent evt) {
        uint8_t m = ascendc_emu::blk().event_alloc[(int)evt];
        for (int i = 0; i < ascendc_emu::rt().soc.event_ids; i++)
            if (!(m & (1u << i))) return (TEventID)i;
        return 0;
    }
    template <HardEvent evt>
    TEventID AllocEventID() {
        TEventID id = FetchEventID(evt);
        ascendc_emu::blk().event_alloc[(int)evt] |= (uint8_t)(1u << id);
        return id;
    }
    template <HardEvent evt>
    void ReleaseEventID(TEventID id) {
        ascendc_emu::blk().event_alloc[(int)evt] &= (uint8_t)~(1u << id);
    }
};

EMU_RT_FN TPipe* GetTPipePtr()
#if ASCENDC_EMU_RT_BODIES
{ return static_cast<TPipe*>(ascendc_emu::blk().pipe); }
#else
;
#endif

template <HardEvent event>
inline void SetFlag(int32_t eventID, EMU_LOC) { ascendc_emu::set_flag(event, eventID, loc); }
template <HardEvent event>
inline void WaitFlag(int32_t eventID, EMU_LOC) { ascendc_emu::wait_flag(event, eventID, loc); }
template <pipe_t pipe>
inline void PipeBarrier(EMU_LOC) { ascendc_emu::pipe_barrier(ascendc_emu::pipe_of(pipe), loc); }

// Cross-block barrier (SyncAll.md): a rendezvous of all blocks (fibres), or of the first `usedCores` blocks for the
// soft-sync form; a block that never arrives is a deadlock.
struct SyncAllConfig {
    pipe_t triggerPipe;
    pipe_t waitPipe;
};
inline constexpr SyncAllConfig DEFAULT_SYNC_ALL_CONFIG = {PIPE_ALL, PIPE_ALL};
}  // namespace AscendC
namespace ascendc_emu {
EMU_RT_FN void sync_all(int participants, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    Block& b = blk();
    pipe_barrier(P_ALL, loc);
    Ev ev;
    trace_begin(ev, P_S, "SyncAll", loc);
    trace_end(ev);
    b.syncall_calls++;
    b.sync_loc = loc;
    uint64_t my = r.sync_epoch;
    int n = participants > 0 && participants < r.block_dim ? participants : r.block_dim;
    if (++r.sync_arrived >= n) {
        r.sync_arrived = 0;
        r.sync_epoch++;
        for (Block* o : r.blocks) if (o->state == BS_SYNCALL) o->state = BS_RUNNABLE;
        return;
    }
    b.state = BS_SYNCALL;
    while (r.sync_epoch == my) swapcontext(&b.ctx, &r.main_ctx);
}
#else
;
#endif
// CrossCoreSetFlag / CrossCoreWaitFlag (CrossCoreSetFlag(ISASI).md, CrossCoreWaitFlag(ISASI).md), vector-core view:
// each core has 16 counters (flagId 0-15, 0..15 each). Mode 0 (all AIV cores): when every block has set flagId,
// every block's counter goes up by one. Mode 1 (the two AIVs of a core): the emulator runs one AIV per core
// (GetSubBlockNum() == 1), so a set raises the setter's own counter. Mode 2 (AIC <-> AIV): the AIC side is not
// emulated (its Matmul work runs synchronously), so an AIV's set goes nowhere and its wait returns at once.
// A wait blocks the block (a fibre switch) until its counter is non-zero; blocks that never get released are a
// deadlock (507014), and a counter past 15 is the documented flag-counter overflow.
EMU_RT_FN void cross_core_set(int mode, int pipe, int flag, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    Block& b = blk();
    int id = flag & 15;  // "截取最低位4bit"
    Ev ev;
    trace_begin(ev, pipe < NPIPE ? pipe : P_S, "CrossCoreSetFlag", loc);
    if (ev.on) ev.j.i("flag", id).i("mode", mode);
    trace_end(ev);
    auto bump = [&](Block& o) {
        if (++o.xcnt[id] > 15)
            report_error("crosscore-counter", "sync-deadlock", pipe, "CrossCoreSetFlag", loc,
                         "the flag counter of flagId %d on block %d exceeds 15 (more CrossCoreSetFlag than "
                         "CrossCoreWaitFlag): the NPU reports \"The value of the flag counter for inter-core "
                         "communication exceeds the maximum value 15\"", id, o.idx);
        if (o.state == BS_XWAIT && o.xwait_id == id) o.state = BS_RUNNABLE;
    };
    if (mode == 0) {
        if (++r.xarrived[id] >= r.block_dim) {
            r.xarrived[id] = 0;
            for (Block* o : r.blocks) bump(*o);
        }
    } else if (mode == 1) {
        bump(b);
    }
}
#else
;
#endif
EMU_RT_FN void cross_core_wait(int mode, int pipe, int flag, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    Block& b = blk();
    int id = flag & 15;
    if (mode != 2) {
        b.sync_loc = loc;
        while (!b.xcnt[id]) {
            b.state = BS_XWAIT;
            b.xwait_id = id;
            swapcontext(&b.ctx, &r.main_ctx);
        }
        b.xwait_id = -1;
        b.xcnt[id]--;
    }
    Ev ev;
    trace_begin(ev, pipe < NPIPE ? pipe : P_S, "CrossCoreWaitFlag", loc);
    if (ev.on) ev.j.i("flag", id).i("mode", mode);
    trace_end(ev);
}
#else
;
#endif
// GroupBarrier (Cube分组管理（ISASI）/GroupBarrier/*.md): Arrive from the `arrive` blocks of a group, Wait in the
// `wait` blocks until all of them arrived (the k-th Wait of a block waits for the k-th round). The group is named by
// its GM workspace, which must be 512-byte aligned; the barrier occupies the last 1,600 B of UB.
EMU_RT_FN uint64_t& group_arrivals(const void* ws)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    for (auto& g : r.group_arrivals)
        if (g.first == ws) return g.second;
    r.group_arrivals.push_back({ws, 0});
    return r.group_arrivals.back().second;
}
#else
;
#endif
EMU_RT_FN void group_barrier_check(const void* ws, uint32_t arrive, uint32_t wait, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    if ((uintptr_t)ws % 512)
        report_error("address-alignment", "misaligned-access", P_MTE3, "GroupBarrier", loc,
                     "GroupBarrier workspace at %p is not 512-byte aligned", ws);
    if (!arrive || !wait)
        report_error("group-barrier", "sync-deadlock", P_MTE3, "GroupBarrier", loc,
                     "GroupBarrier with %u arriving and %u waiting cores: both must be > 0", arrive, wait);
    uint64_t top = rt().soc.bytes[SP_UB] - 1600;
    if (rt().cur && blk().ub_high > top)
        report_error("ub-reserved", "ub-overflow", P_MTE3, "GroupBarrier", loc,
                     "GroupBarrier uses the last 1,600 B of UB, but the kernel's buffers reach %s B (limit %s B)",
                     EMU_N(blk().ub_high), EMU_N(top));
}
#else
;
#endif
EMU_RT_FN void group_arrive(const void* ws, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    pipe_barrier(P_ALL, loc);  // the arrive message leaves after the core's earlier work
    Ev ev;
    trace_begin(ev, P_MTE3, "GroupBarrier::Arrive", loc);
    trace_end(ev);
    group_arrivals(ws)++;
    for (Block* o : r.blocks)
        if (o->state == BS_XWAIT && o->xwait_id == -2) o->state = BS_RUNNABLE;
}
#else
;
#endif
EMU_RT_FN void group_wait(const void* ws, uint64_t need, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    Block& b = blk();
    b.sync_loc = loc;
    while (group_arrivals(ws) < need) {
        b.state = BS_XWAIT;
        b.xwait_id = -2;
        swapcontext(&b.ctx, &r.main_ctx);
    }
    b.xwait_id = -1;
    Ev ev;
    trace_begin(ev, P_S, "GroupBarrier::Wait", loc);
    trace_end(ev);
    pipe_barrier(P_ALL, loc);
}
#else
;
#endif
// Blocks left in CrossCoreWaitFlag when no block can run any more: reported as the NPU's hang, then dead.
EMU_RT_FN void report_crosscore_deadlock(std::vector<Block*>& blocks)
#if ASCENDC_EMU_RT_BODIES
{
    Runtime& r = rt();
    for (Block* b : blocks) {
        if (b->state != BS_XWAIT) continue;
        r.cur = b;
        if (b->xwait_id == -3)  // op_kernel_compat.h IBWait
            report_hang("ib-wait", "sync-deadlock", P_S, "IBWait", b->sync_loc,
                        "IBWait on block %d waits forever: no block called IBSet with the same blockIdx and "
                        "eventID", b->idx);
        else if (b->xwait_id == -2)
            report_hang("group-barrier", "sync-deadlock", P_S, "GroupBarrier::Wait", b->sync_loc,
                        "GroupBarrier::Wait on block %d waits forever: fewer cores called Arrive than the barrier's "
                        "arriving group", b->idx);
        else
            report_hang("crosscore-wait", "sync-deadlock", P_S, "CrossCoreWaitFlag", b->sync_loc,
                        "CrossCoreWaitFlag(%d) on block %d waits forever: no CrossCoreSetFlag(%d) of the cores it "
                        "syncs with is left (mode 0 needs every block to set the flag)", b->xwait_id, b->idx,
                        b->xwait_id);
        r.deadlock = true;
        b->state = BS_DEAD;
    }
}
#else
;
#endif
}  // namespace ascendc_emu
namespace AscendC {
template <bool isAIVOnly = true, const SyncAllConfig& config = DEFAULT_SYNC_ALL_CONFIG>
inline void SyncAll(EMU_LOC) { ascendc_emu::sync_all(0, loc); }
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t>&, const LocalTensor<int32_t>&, const int32_t usedCores = 0, EMU_LOC) {
    ascendc_emu::sync_all(usedCores, loc);
}
enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };
template <PipeMode pipeMode = PipeMode::MTE3_MODE>
class GroupBarrier {
public:
    GroupBarrier(uint8_t* groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn, EMU_LOC)
        : ws_(groupWorkspace), arrive_(arriveSizeIn), wait_(waitSizeIn) {
        ascendc_emu::group_barrier_check(ws_, arrive_, wait_, loc);
    }
    void Arrive(uint32_t arriveIndex, EMU_LOC) {
        if (arriveIndex >= arrive_)
            ascendc_emu::report_error("group-barrier", "sync-deadlock", ascendc_emu::P_MTE3, "GroupBarrier::Arrive", loc,
                                      "Arrive(%u) on a GroupBarrier of %u arriving cores", arriveIndex, arrive_);
        ascendc_emu::group_arrive(ws_, loc);
    }
    void Wait(uint32_t waitIndex, EMU_LOC) {
        if (waitIndex >= wait_)
            ascendc_emu::report_error("group-barrier", "sync-deadlock", ascendc_emu::P_S, "GroupBarrier::Wait", loc,
                                      "Wait(%u) on a GroupBarrier of %u waiting cores", waitIndex, wait_);
        ascendc_emu::group_wait(ws_, (uint64_t)arrive_ * ++rounds_, loc);
    }
    uint64_t GetWorkspaceLen() const { return (uint64_t)wait_ * 512; }

private:
    uint8_t* ws_;
    uint32_t arrive_, wait_;
    uint64_t rounds_ = 0;
};
template <uint8_t modeId, pipe_t pipe>
inline void CrossCoreSetFlag(uint16_t flagId, EMU_LOC) {
    ascendc_emu::cross_core_set(modeId, ascendc_emu::pipe_of(pipe), flagId, loc);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(uint16_t flagId, EMU_LOC) {
    ascendc_emu::cross_core_wait(modeId, ascendc_emu::pipe_of(pipe), flagId, loc);
}

template <typename T>
inline void SetAtomicAdd() { ascendc_emu::blk().atomic = 1; }
template <typename T>
inline void SetAtomicMax() { ascendc_emu::blk().atomic = 2; }
template <typename T>
inline void SetAtomicMin() { ascendc_emu::blk().atomic = 3; }
template <typename T>
inline void SetAtomicType() {}
inline void SetAtomicNone() { ascendc_emu::blk().atomic = 0; }
inline void DisableDmaAtomic() { ascendc_emu::blk().atomic = 0; }

}  // namespace AscendC

// EXTERN_IMPL_BUFPOOL宏.md: the members a user-written TBufPool class needs (Reset, Init, GetBufHandle,
// SetCurAddr/GetCurAddr, SetCurBufSize/GetCurBufSize); TPipe::InitBufPool gives it its region.
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                                                 \
public:                                                                                                        \
    ::ascendc_emu::PoolState emu_pool_;                                                                        \
    uint8_t emu_handles_[(BUFID_SIZE) > 0 ? (BUFID_SIZE) : 1] = {};                                           \
    void Init() {                                                                                              \
        emu_pool_.sp = ::ascendc_emu::pos_space(POSITION);                                                     \
        emu_pool_.max_bufs = (int)(BUFID_SIZE);                                                                \
        emu_pool_.cur = 0;                                                                                     \
        emu_pool_.bufs = 0;                                                                                    \
    }                                                                                                          \
    void Reset(EMU_LOC) { ::ascendc_emu::pool_reset(emu_pool_, loc); }                                          \
    ::AscendC::TBufHandle GetBufHandle(uint8_t offset) {                                                       \
        return &emu_handles_[offset < (BUFID_SIZE) ? offset : 0];                                              \
    }                                                                                                          \
    void SetCurAddr(uint32_t curAddr) { emu_pool_.cur = curAddr - emu_pool_.base; }                            \
    uint32_t GetCurAddr() { return (uint32_t)(emu_pool_.base + emu_pool_.cur); }                               \
    void SetCurBufSize(uint8_t n) { emu_pool_.bufs = n; }                                                      \
    uint8_t GetCurBufSize() { return (uint8_t)emu_pool_.bufs; }
#endif  // ASCENDC_EMU_ASCENDC_EMU_TPIPE_H_
