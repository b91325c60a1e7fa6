// TPipe / TQue / TQueBind / TBuf, hardware events (SetFlag/WaitFlag/PipeBarrier), SyncAll, atomics.
// Queue operations are modelled as the event pairs they imply (docs: EnQue on VECIN = SetFlag MTE2_V, DeQue =
// WaitFlag MTE2_V, FreeTensor = SetFlag V_MTE2 and the next AllocTensor of that buffer = WaitFlag V_MTE2).
#ifndef ASCENDC_EMU_ASCENDC_EMU_TPIPE_H_
#define ASCENDC_EMU_ASCENDC_EMU_TPIPE_H_
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

EMU_RT_FN void set_flag(HardEvent e, int id, const Loc& loc, const char* api = "SetFlag", const char* queue = nullptr)
#if ASCENDC_EMU_RT_BODIES
{
    Block& b = blk();
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
    join(b.vc[in.dst], f.snap);
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
        uint32_t all[NPIPE] = {};
        for (int q = 0; q < NPIPE; q++) join(all, b.vc[q]);
        for (int q = 0; q < NPIPE; q++) join(b.vc[q], all);
        for (int q = 0; q < NPIPE; q++) if (b.has_last[q]) after[n++] = b.last_seq[q];
    } else if (p == P_S) {
        report_warning("barrier-pipe-s", "sync-missing", P_S, "PipeBarrier", loc,
                       "PipeBarrier<PIPE_S> is not supported (scalar ordering is automatic); it has no effect");
        return;
    } else if (b.has_last[p]) {
        after[n++] = b.last_seq[p];
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
    bool enque(Slot* s, uint32_t gen, const Loc& loc);
    Slot* deque(const Loc& loc);
    void free_(Slot* s, uint32_t gen, const Loc& loc);
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
    void reset();
};

#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
EMU_RT_FN bool TPipeBase::init_buffer(QueBase& q, int num, uint32_t len, const Loc& loc)
{
    Runtime& r = rt();
    Block& b = blk();
    Space sp = pos_space(q.info.pos);
    const char* api = "InitBuffer";
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
        return false;
    }
    if (sp == SP_GM) {
        report_error("initbuffer-position", "queue-misuse", P_S, api, loc,
                     "InitBuffer of %s: position %s is global memory on %s; a TQue/TBuf needs an on-chip position",
                     q.name, pos_name(q.info.pos), r.soc.name);
        return false;
    }
    uint32_t alen = (len + 31u) / 32u * 32u;  // documented: len is rounded up to 32 B
    uint64_t need = (uint64_t)num * alen;
    uint64_t cap = r.soc.capacity(sp);
    if (nbuf + num > r.soc.max_buffers)
        report_error("buffer-count", "queue-misuse", P_S, api, loc,
                     "InitBuffer of %s brings the buffers managed by TPipe to %d; the limit is %d", q.name, nbuf + num,
                     r.soc.max_buffers);
    if (used[sp] + need > cap) {
        if (sp == SP_UB && r.soc.ub_reserved)
            report_error("ub-capacity", "ub-overflow", P_S, api, loc,
                         "InitBuffer of %s needs %s B (%d x %s B) but only %s B of UB are left (UB %s B on %s, %s B "
                         "reserved, %s B already used by earlier InitBuffer calls)", q.name, EMU_N(need), num,
                         EMU_N(alen), EMU_N(used[sp] > cap ? 0 : cap - used[sp]), EMU_N(r.soc.bytes[sp]), r.soc.name,
                         EMU_N(r.soc.ub_reserved), EMU_N(used[sp]));
        else
            report_error("ub-capacity", sp == SP_UB ? "ub-overflow" : "ub-overflow", P_S, api, loc,
                         "InitBuffer of %s needs %s B (%d x %s B) but only %s B of %s are left (%s %s B on %s, %s B "
                         "already used by earlier InitBuffer calls)", q.name, EMU_N(need), num, EMU_N(alen),
                         EMU_N(used[sp] > cap ? 0 : cap - used[sp]), space_name(sp), space_name(sp),
                         EMU_N(r.soc.bytes[sp]), r.soc.name, EMU_N(used[sp]));
    }
    if (used[sp] + need > b.mem_bytes[sp]) {
        report_error("ub-capacity", "ub-overflow", P_S, api, loc,
                     "InitBuffer of %s: %s B requested in total, far beyond %s; stopping this block", q.name,
                     EMU_N(used[sp] + need), space_name(sp));
        kill_block(false);
    }
    q.slots.assign((size_t)num, Slot());
    q.fifo.clear();
    q.next = 0;
    q.init_loc = loc;
    q.pipe = this;
    for (int i = 0; i < num; i++) {
        Slot& s = q.slots[(size_t)i];
        s.addr = (uint32_t)(used[sp] + (uint64_t)i * alen);
        s.len = alen;
        s.host = b.mem[sp] + s.addr;
        s.que = &q;
        s.state = q.is_tbuf ? SL_TBUF : SL_FREE;
    }
    used[sp] += need;
    nbuf += num;
    bool known = false;
    for (QueBase* x : ques) known |= x == &q;
    if (!known) ques.push_back(&q);
    return true;
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
    if (s->has_free) join(b.vc[info.prod], s->free_snap);
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
EMU_RT_FN bool QueBase::enque(Slot* s, uint32_t gen, const Loc& loc)
{
    Block& b = blk();
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
    memcpy(s->enq_snap, b.vc[info.prod], sizeof s->enq_snap);
    fifo.push_back((int)(s - slots.data()));
    Ev ev;
    trace_begin(ev, info.prod, "EnQue", loc);
    s->enq_seq = ev.seq;
    if (ev.text) {  // queue labels are for the trace file only
        char e[24];
        snprintf(e, sizeof e, "%s_%s", pipe_uc(info.prod), pipe_uc(info.cons));
        ev.j.s("event", e).s("queue", name);
    }
    trace_end(ev);
    return true;
}
#endif
#if ASCENDC_EMU_RT_BODIES  // member function: defined in the runtime object only
EMU_RT_FN Slot* QueBase::deque(const Loc& loc)
{
    Block& b = blk();
    if (fifo.empty()) {
        report_hang("deque-empty", "sync-deadlock", info.cons, "DeQue", loc,
                    "DeQue on %s, which holds no enqueued tensor: the consumer waits forever (every DeQue needs an "
                    "earlier EnQue on the same queue)", name[0] ? name : "a queue");
        kill_block(true);
    }
    Slot* s = &slots[(size_t)fifo.front()];
    fifo.erase(fifo.begin());
    s->state = SL_DEQUE;
    join(b.vc[info.cons], s->enq_snap);
    Ev ev;
    trace_begin(ev, info.cons, "DeQue", loc);
    if (ev.text) {  // queue labels are for the trace file only
        char e[24];
        snprintf(e, sizeof e, "%s_%s", pipe_uc(info.prod), pipe_uc(info.cons));
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
    TQueBind(const TQueBind&) = delete;
    template <typename T>
    LocalTensor<T> AllocTensor(EMU_LOC) {
        ascendc_emu::Slot* s = alloc(loc);
        return tensor<T>(s);
    }
    template <typename T>
    bool EnQue(const LocalTensor<T>& t, EMU_LOC) { return enque(t.slot_, t.gen_, loc); }
    template <typename T>
    LocalTensor<T> DeQue(EMU_LOC) { return tensor<T>(deque(loc)); }
    template <typename T>
    void FreeTensor(LocalTensor<T>& t, EMU_LOC) { free_(t.slot_, t.gen_, loc); }
    bool VacantInQue() const { return depth == 0 || (int)fifo.size() < depth; }
    bool HasTensorInQue() const { return !fifo.empty(); }
    int32_t GetTensorCountInQue() const { return (int32_t)fifo.size(); }
    bool HasIdleBuffer() const {
        for (auto& s : slots) if (s.state == ascendc_emu::SL_FREE) return true;
        return false;
    }
    void FreeAllEvent() {}
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
    TBuf(const TBuf&) = delete;
    template <typename T>
    LocalTensor<T> Get(EMU_LOC) {
        if (slots.empty()) { uninit(loc); return LocalTensor<T>(); }
        return tensor<T>(&slots[0]);
    }
    template <typename T>
    LocalTensor<T> Get(uint32_t count, EMU_LOC) {
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
    void uninit(const ascendc_emu::Loc& loc) {
        ascendc_emu::report_error("tbuf-uninitialised", "queue-misuse", -1, "TBuf::Get", loc,
                                  "TBuf::Get before TPipe::InitBuffer gave the TBuf its memory");
    }
};

template <TPosition pos, int32_t depth = 1, auto mask = 0>
using TSCM = TQueBind<pos, TPosition::TSCM, depth, mask>;

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

// Cross-block barrier: a rendezvous of all blocks (fibres); a block that never arrives is a deadlock.
template <bool isAIVOnly = true>
inline void SyncAll(EMU_LOC) {
    using namespace ascendc_emu;
    Runtime& r = rt();
    Block& b = blk();
    pipe_barrier(P_ALL, loc);
    Ev ev;
    trace_begin(ev, P_S, "SyncAll", loc);
    trace_end(ev);
    b.syncall_calls++;
    b.sync_loc = loc;
    uint64_t my = r.sync_epoch;
    if (++r.sync_arrived == r.block_dim) {
        r.sync_arrived = 0;
        r.sync_epoch++;
        for (Block* o : r.blocks) if (o->state == BS_SYNCALL) o->state = BS_RUNNABLE;
        return;
    }
    b.state = BS_SYNCALL;
    while (r.sync_epoch == my) swapcontext(&b.ctx, &r.main_ctx);
}
template <bool isAIVOnly = true, class G, class L>
inline void SyncAll(const G&, const L&, int32_t = 0, EMU_LOC) { SyncAll<isAIVOnly>(loc); }

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
#endif  // ASCENDC_EMU_ASCENDC_EMU_TPIPE_H_
