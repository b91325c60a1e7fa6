// TPosition, LocalTensor, GlobalTensor (clean-room). A LocalTensor is a value handle onto a buffer of the
// block's arena; it carries the buffer extent and a generation tag so use-after-FreeTensor is detectable.
#ifndef ASCENDC_EMU_ASCENDC_EMU_TENSOR_H_
#define ASCENDC_EMU_ASCENDC_EMU_TENSOR_H_
#include "runtime.h"

namespace AscendC {
enum class TPosition : uint8_t {
    GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM,
    C2PIPE2GM, C2PIPE2LOCAL, MAX
};
using QuePosition = TPosition;
}  // namespace AscendC

namespace ascendc_emu {
using AscendC::TPosition;

inline Space pos_space(TPosition p) {
    switch (p) {
        case TPosition::GM: case TPosition::CO2: return SP_GM;
        case TPosition::A1: case TPosition::B1: case TPosition::C1: case TPosition::TSCM: case TPosition::SPM: return SP_L1;
        case TPosition::A2: return SP_L0A;
        case TPosition::B2: return SP_L0B;
        case TPosition::CO1: return SP_L0C;
        case TPosition::C2: return SP_BT;
        case TPosition::C2PIPE2GM: case TPosition::C2PIPE2LOCAL: return SP_FB;
        default: return SP_UB;
    }
}
inline const char* pos_name(TPosition p) {
    static const char* n[] = {"GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "VECIN", "VECOUT", "VECCALC",
                              "SPM", "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL", "MAX"};
    unsigned i = (unsigned)p;
    return i < sizeof n / sizeof n[0] ? n[i] : "?";
}

enum SlotState : uint8_t { SL_FREE, SL_OCCUPIED, SL_ENQUE, SL_DEQUE, SL_TBUF };
inline const char* slot_state_name(int s) {
    static const char* n[] = {"FREE", "OCCUPIED", "ENQUE", "DEQUE", "TBUF"};
    return n[s];
}

struct QueBase;
// One buffer of a TQue (num of them per InitBuffer) or the single buffer of a TBuf.
struct Slot {
    uint32_t gen = 1;
    uint8_t state = SL_FREE;
    uint32_t addr = 0, len = 0;  // byte address in its space, bytes
    uint8_t* host = nullptr;
    QueBase* que = nullptr;
    bool has_free = false;
    uint64_t free_seq = 0;
    uint32_t free_snap[NPIPE] = {};
    uint64_t enq_seq = 0;
    uint32_t enq_snap[NPIPE] = {};
    Loc alloc_loc{nullptr, 0};
};

// Common checks before an API touches `bytes` bytes at byte offset `off` of a local tensor.
// Returns false when the access must be skipped (no buffer, or outside the arena).
EMU_RT_FN bool local_check(uint8_t* ptr, uint32_t addr, uint32_t lo, uint32_t hi, TPosition pos, const Slot* slot,
                        uint32_t gen, uint64_t off, uint64_t bytes, bool write, int pipe, const char* api,
                        const Loc& loc, uint32_t align = 32)
#if ASCENDC_EMU_RT_BODIES
{
    if (!ptr) {
        report_error("tensor-uninitialised", "queue-misuse", pipe, api, loc,
                     "%s uses a LocalTensor that was never obtained from AllocTensor/DeQue/TBuf::Get", api);
        return false;
    }
    if (slot && slot->gen != gen)
        report_error("use-after-free", "queue-misuse", pipe, api, loc,
                     "%s %s a LocalTensor after FreeTensor released its buffer (%s at 0x%x, %s B, now %s): the buffer "
                     "may already hold another tile", api, write ? "writes" : "reads", pos_name(pos), slot->addr,
                     EMU_N(slot->len), slot_state_name(slot->state));
    Space sp = pos_space(pos);
    uint64_t a = (uint64_t)addr + off;
    if (align > 1 && a % align && sp != SP_GM)
        report_error("address-alignment", "misaligned-access", pipe, api, loc,
                     "%s %s operand starts at %s address 0x%llx, which is not %u-byte aligned (offset %s B into its "
                     "buffer); use an offset that is a multiple of %u B / sizeof(T)", api, write ? "destination" : "source",
                     space_name(sp), (unsigned long long)a, align, EMU_N(a - lo), align);
    if (bytes && (a < lo || a + bytes > hi)) {
        report_error("local-bounds", sp == SP_UB ? "ub-out-of-bounds" : "ub-out-of-bounds", pipe, api, loc,
                     "%s %s %s B at %s 0x%llx..0x%llx, but the tensor's buffer is 0x%x..0x%x (%s B): %s B outside",
                     api, write ? "writes" : "reads", EMU_N(bytes), space_name(sp), (unsigned long long)a,
                     (unsigned long long)(a + bytes), lo, hi, EMU_N(hi - lo),
                     EMU_N(a < lo ? lo - a : a + bytes - hi));
        Block& b = blk();
        if (a + bytes > b.mem_bytes[sp]) return false;  // would leave the emulated memory
    }
    if (bytes) {
        Block& b = blk();
        if (pipe < NPIPE) shadow_access(sp, a, bytes, write, pipe, intern_site(loc.file, loc.line, api), api, loc);
        (void)b;
    }
    return true;
}
#else
;
#endif
}  // namespace ascendc_emu

namespace AscendC {

template <typename T>
class LocalTensor {
public:
    using PrimType = T;
    // ---- emulator state (public so the free-function APIs can reach it; not part of the AscendC API)
    uint8_t* ptr_ = nullptr;
    uint32_t addr_ = 0, size_ = 0, lo_ = 0, hi_ = 0;
    TPosition pos_ = TPosition::VECCALC;
    ascendc_emu::Slot* slot_ = nullptr;
    uint32_t gen_ = 0;
    uint32_t tag_ = 0;

    LocalTensor() = default;
    template <class E, class = typename E::emu_tensor_expr> LocalTensor& operator=(const E& e) { e.emu_assign(*this); return *this; }  // dst = a + b (vector_operators.h)
    T* data() const { return (T*)ptr_; }
    bool emu_check(uint64_t elem_off, uint64_t elems, bool write, int pipe, const char* api, const ascendc_emu::Loc& loc,
                   uint32_t align = 32) const {
        return ascendc_emu::local_check(ptr_, addr_, lo_, hi_, pos_, slot_, gen_, elem_off * sizeof(T),
                                        elems * sizeof(T), write, pipe, api, loc, align);
    }
    bool emu_check_bytes(uint64_t byte_off, uint64_t bytes, bool write, int pipe, const char* api,
                         const ascendc_emu::Loc& loc, uint32_t align = 32) const {
        return ascendc_emu::local_check(ptr_, addr_, lo_, hi_, pos_, slot_, gen_, byte_off, bytes, write, pipe, api,
                                        loc, align);
    }

    uint32_t GetSize() const { return size_; }
    uint32_t GetLength() const { return size_ * (uint32_t)sizeof(T); }
    void SetSize(uint32_t n) { size_ = n; }
    TPosition GetPosition() const { return pos_; }
    uint64_t GetPhyAddr() const { return (uint64_t)(uintptr_t)ptr_; }  // host address: raw pointer casts keep working
    uint64_t GetPhyAddr(uint32_t off) const { return (uint64_t)(uintptr_t)(ptr_ + off * sizeof(T)); }
    void SetUserTag(int32_t t) { tag_ = (uint32_t)t; }
    int32_t GetUserTag() const { return (int32_t)tag_; }

    LocalTensor operator[](uint32_t off) const { return view(off, ascendc_emu::rt().cur ? ascendc_emu::blk().last_loc : ascendc_emu::Loc()); }
    LocalTensor view(uint64_t off, const ascendc_emu::Loc& loc) const {
        if (off > size_ && ptr_)
            ascendc_emu::report_error("tensor-offset", "ub-out-of-bounds", -1, "operator[]", loc,
                                      "LocalTensor operator[](%llu) on a tensor of %s elements", (unsigned long long)off,
                                      EMU_N(size_));
        LocalTensor t = *this;
        t.ptr_ += off * sizeof(T);
        t.addr_ += (uint32_t)(off * sizeof(T));
        t.size_ = off > size_ ? 0 : size_ - (uint32_t)off;
        return t;
    }
    template <typename U>
    LocalTensor<U> ReinterpretCast() const {
        LocalTensor<U> t;
        t.ptr_ = ptr_; t.addr_ = addr_; t.lo_ = lo_; t.hi_ = hi_; t.pos_ = pos_; t.slot_ = slot_; t.gen_ = gen_;
        t.size_ = (uint32_t)((uint64_t)size_ * sizeof(T) / sizeof(U));
        return t;
    }

    // Scalar accesses run on PIPE_S.
    T GetValue(uint32_t i, EMU_LOC) const {
        T v{};
        ascendc_emu::begin_epoch(ascendc_emu::P_S);
        if (emu_check(i, 1, false, ascendc_emu::P_S, "GetValue", loc, 1)) std::memcpy(&v, ptr_ + (size_t)i * sizeof(T), sizeof(T));
        ascendc_emu::trace_scalar("GetValue", ascendc_emu::pos_space(pos_), loc, false);
        return v;
    }
    void SetValue(uint32_t i, T v, EMU_LOC) const {
        ascendc_emu::begin_epoch(ascendc_emu::P_S);
        if (emu_check(i, 1, true, ascendc_emu::P_S, "SetValue", loc, 1)) std::memcpy(ptr_ + (size_t)i * sizeof(T), &v, sizeof(T));
        ascendc_emu::trace_scalar("SetValue", ascendc_emu::pos_space(pos_), loc, false);
    }
    // Reference access: counted as a scalar read (a write through it is not seen by the race detector).
    T& operator()(uint32_t i, EMU_LOC) const {
        ascendc_emu::begin_epoch(ascendc_emu::P_S);
        static T dummy;
        if (!emu_check(i, 1, false, ascendc_emu::P_S, "operator()", loc, 1)) return dummy;
        ascendc_emu::trace_scalar("GetValue", ascendc_emu::pos_space(pos_), loc, false);
        return *(T*)(ptr_ + (size_t)i * sizeof(T));
    }
};

template <typename T>
class GlobalTensor {
public:
    using PrimType = T;
    T* ptr_ = nullptr;
    uint64_t size_ = 0;

    GlobalTensor() = default;
    void SetGlobalBuffer(T* buffer, uint64_t bufferSize) { ptr_ = buffer; size_ = bufferSize; }
    void SetGlobalBuffer(T* buffer) { ptr_ = buffer; size_ = 0; }
    T* GetPhyAddr() const { return ptr_; }
    T* GetPhyAddr(uint64_t off) const { return ptr_ + off; }
    uint64_t GetSize() const { return size_; }
    void SetSize(uint64_t n) { size_ = n; }
    template <class H> void SetL2CacheHint(H) {}
    GlobalTensor operator[](uint64_t off) const {
        GlobalTensor g = *this;
        g.ptr_ += off;
        g.size_ = off > size_ ? 0 : size_ - off;
        return g;
    }
    template <typename U>
    GlobalTensor<U> ReinterpretCast() const {
        GlobalTensor<U> g;
        g.ptr_ = (U*)ptr_;
        g.size_ = size_ * sizeof(T) / sizeof(U);
        return g;
    }
    // Scalar GM accesses go through the core's DCache (64-byte lines) on PIPE_S.
    T GetValue(uint64_t i, EMU_LOC) const {
        T v{};
        access(i, false, "GetValue", loc, &v);
        return v;
    }
    void SetValue(uint64_t i, T v, EMU_LOC) const { access(i, true, "SetValue", loc, &v); }
    T& operator()(uint64_t i, EMU_LOC) const {
        static T dummy;
        if (!access(i, false, "operator()", loc, nullptr)) return dummy;
        return ptr_[i];
    }

private:
    bool access(uint64_t i, bool write, const char* api, const ascendc_emu::Loc& loc, T* v) const {
        using namespace ascendc_emu;
        begin_epoch(P_S);
        uint64_t lo, hi;
        T* p = ptr_ + i;
        bool ok = gm_check(p, sizeof(T), write, P_S, api, loc, &lo, &hi) && lo == 0 && hi == sizeof(T);
        bool miss = dcache_access(p);
        trace_scalar(api, SP_GM, loc, miss);
        if (!ok) return false;
        gm_shadow_access(p, sizeof(T), write, P_S, intern_site(loc.file, loc.line, api), api, loc);
        if (v) {
            if (write) std::memcpy(p, v, sizeof(T));
            else std::memcpy(v, p, sizeof(T));
        }
        return true;
    }
};

}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_TENSOR_H_
