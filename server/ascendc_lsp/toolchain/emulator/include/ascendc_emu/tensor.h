// TPosition, LocalTensor, GlobalTensor (clean-room). A LocalTensor is a value handle onto a buffer of the
// block's arena; it carries the buffer extent and a generation tag so use-after-FreeTensor is detectable.
#ifndef ASCENDC_EMU_ASCENDC_EMU_TENSOR_H_
#define ASCENDC_EMU_ASCENDC_EMU_TENSOR_H_
#include <string>
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
inline AscendC::TPosition space_pos(int sp) {
    using AscendC::TPosition;
    switch (sp) {
        case SP_L1: return TPosition::A1;
        case SP_L0A: return TPosition::A2;
        case SP_L0B: return TPosition::B2;
        case SP_L0C: return TPosition::CO1;
        case SP_BT: return TPosition::C2;
        case SP_FB: return TPosition::C2PIPE2GM;
        default: return TPosition::VECCALC;
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
        // one taxonomy slug for every local-memory overrun (ub-out-of-bounds); the message and the NPU code name
        // the memory that overran: UB, L1, L0A/L0B or L0C
        if (const NpuCode* code = local_bounds_code(sp)) code_override() = code;
        report_error("local-bounds", "ub-out-of-bounds", pipe, api, loc,
                     "%s %s %s B at %s 0x%llx..0x%llx, past its %s tensor's buffer in %s 0x%x..0x%x (%s B): %s B "
                     "outside the buffer", api, write ? "writes" : "reads", EMU_N(bytes), space_name(sp),
                     (unsigned long long)a, (unsigned long long)(a + bytes), pos_name(pos), space_name(sp), lo, hi,
                     EMU_N(hi - lo), EMU_N(a < lo ? lo - a : a + bytes - hi));
        Block& b = blk();
        if (a + bytes > b.mem_bytes[sp]) return false;  // would leave the emulated memory
    }
    if (bytes && sp != SP_GM && a + bytes > rt().soc.bytes[sp])
        report_error("ub-capacity", "ub-overflow", pipe, api, loc,
                     "%s %s %s B at %s 0x%llx..0x%llx, past the end of %s (%s B on %s): the buffer lies beyond the "
                     "memory (an InitBuffer total over capacity, or a LocalTensor address out of range)", api,
                     write ? "writes" : "reads", EMU_N(bytes), space_name(sp), (unsigned long long)a,
                     (unsigned long long)(a + bytes), space_name(sp), EMU_N(rt().soc.bytes[sp]), rt().soc.name);
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
// ShapeInfo.md
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };
constexpr uint32_t K_MAX_DIM = 8;
struct ShapeInfo {
    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    uint32_t shape[K_MAX_DIM] = {};
    uint32_t originalShape[K_MAX_DIM] = {};
    DataFormat dataFormat = DataFormat::ND;
    ShapeInfo() {}
    ShapeInfo(const uint8_t dim, const uint32_t s[], const uint8_t odim, const uint32_t os[], const DataFormat f)
        : shapeDim(dim), originalShapeDim(odim), dataFormat(f) {
        for (uint32_t i = 0; i < dim && i < K_MAX_DIM; i++) shape[i] = s[i];
        for (uint32_t i = 0; i < odim && i < K_MAX_DIM; i++) originalShape[i] = os[i];
    }
    ShapeInfo(const uint8_t dim, const uint32_t s[], const DataFormat f) : ShapeInfo(dim, s, dim, s, f) {}
    ShapeInfo(const uint8_t dim, const uint32_t s[]) : ShapeInfo(dim, s, dim, s, DataFormat::ND) {}
};
inline int GetShapeSize(const ShapeInfo& s) {
    int n = 1;
    for (uint32_t i = 0; i < s.shapeDim && i < K_MAX_DIM; i++) n *= (int)s.shape[i];
    return n;
}

using TTagType = int32_t;
// Memory kinds of LocalMemAllocator (LocalMemAllocator构造函数.md).
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };
// L2 cache hints of GlobalTensor::SetL2CacheHint (SetL2CacheHint.md); the emulator has no L2 model.
enum class CacheMode : uint8_t { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2, CACHE_MODE_PERSISTENT = 4 };
enum CacheRwMode { READ = 1, WRITE = 2, RW = 3 };
}  // namespace AscendC

namespace ascendc_emu {
// Shapes attached with SetShapeInfo (rare; kept out of the tensor handle, which is copied on every API call).
inline std::vector<AscendC::ShapeInfo>& shape_store() {
    static std::vector<AscendC::ShapeInfo> s(1);
    return s;
}
inline uint32_t store_shape(const AscendC::ShapeInfo& s) {
    shape_store().push_back(s);
    return (uint32_t)shape_store().size() - 1;
}
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
    uint32_t shape_id_ = 0;

    LocalTensor() = default;
    // Static tensor programming (LocalTensor构造函数.md): `tileSize` elements at byte address `addr` of the
    // position's memory, outside any TPipe; the address must be 32-byte aligned (checked at each access) and
    // addr + tileSize * sizeof(T) must stay inside the memory.
    LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize) { bind(pos, addr, tileSize); }
    // note_use: the tensor is one of the kernel's buffers (its end counts for the reserved-UB check); a raw
    // pointer's view (cce.h) is not.
    void bind(TPosition pos, uint32_t addr, uint32_t tileSize, bool note_use = true) {
        using namespace ascendc_emu;
        pos_ = pos;
        addr_ = lo_ = addr;
        size_ = tileSize;
        uint64_t end = (uint64_t)addr + (uint64_t)tileSize * sizeof(T);
        hi_ = end > 0xffffffffull ? 0xffffffffu : (uint32_t)end;
        slot_ = nullptr;
        gen_ = 0;
        Space sp = pos_space(pos);
        if (rt().cur && sp != SP_GM && blk().mem[sp]) {
            ptr_ = blk().mem[sp] + addr;
            if (sp == SP_UB && note_use) note_ub_use(end);
        }
    }
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
    void SetUserTag(TTagType t) { tag_ = (uint32_t)t; }
    TTagType GetUserTag() const { return (TTagType)tag_; }
    void SetShapeInfo(const ShapeInfo& s) { shape_id_ = ascendc_emu::store_shape(s); }
    ShapeInfo GetShapeInfo() const { return ascendc_emu::shape_store()[shape_id_]; }
    // SetBufferLen.md: the tensor's length in elements.
    void SetBufferLen(uint32_t dataLen) { size_ = dataLen; }
    // SetAddrWithOffset.md: this tensor starts `offset` elements (of src) past src's start.
    template <typename U>
    void SetAddrWithOffset(LocalTensor<U>& src, uint32_t offset) {
        *this = src.template ReinterpretCast<T>();
        uint64_t bytes = (uint64_t)offset * sizeof(U), held = (uint64_t)src.size_ * sizeof(U);
        ptr_ += bytes;
        addr_ += (uint32_t)bytes;
        size_ = bytes < held ? (uint32_t)((held - bytes) / sizeof(T)) : 0;
    }
    // CPU-debug helpers (Print.md, ToFile.md).
    void Print() const { Print(size_); }
    void Print(uint32_t len) const {
        for (uint32_t i = 0; i < len && i < size_ && ptr_; i++) {
            T v;
            std::memcpy(&v, ptr_ + (size_t)i * sizeof(T), sizeof(T));
            ::printf("%s%g", i ? " " : "", (double)(ascendc_emu::calc_t<T>)v);
        }
        ::printf("\n");
    }
    int32_t ToFile(const std::string& fileName) const {
        FILE* f = fopen(fileName.c_str(), "wb");
        if (!f) return -1;
        size_t n = ptr_ ? fwrite(ptr_, sizeof(T), size_, f) : 0;
        fclose(f);
        return n == size_ ? 0 : -1;
    }

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
        t.tag_ = tag_;
        t.shape_id_ = shape_id_;
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

// LocalMemAllocator (LocalMemAllocator/*.md): a linear allocator of one memory, from address 0 upwards, without
// free; a tensor past the memory's end is reported (as an error with --strict-ub; otherwise a warning, and the
// fault comes from the first access, as on the NPU). Allocations start 32-byte aligned.
template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
public:
    LocalMemAllocator() {}
    uint32_t GetCurAddr() const { return cur_; }
    template <class DataType, uint32_t tileSize>
    LocalTensor<DataType> Alloc(EMU_LOC) { return alloc<DataType>(default_pos(), tileSize, loc); }
    template <TPosition pos, class DataType, uint32_t tileSize>
    LocalTensor<DataType> Alloc(EMU_LOC) { return alloc<DataType>(pos, tileSize, loc); }
    template <class DataType>
    LocalTensor<DataType> Alloc(uint32_t tileSize, EMU_LOC) { return alloc<DataType>(default_pos(), tileSize, loc); }
    template <TPosition pos, class DataType>
    LocalTensor<DataType> Alloc(uint32_t tileSize, EMU_LOC) { return alloc<DataType>(pos, tileSize, loc); }

private:
    uint32_t cur_ = 0;
    static constexpr ascendc_emu::Space space() {
        using namespace ascendc_emu;
        return hard == Hardware::L1 ? SP_L1 : hard == Hardware::L0A ? SP_L0A : hard == Hardware::L0B ? SP_L0B
             : hard == Hardware::L0C ? SP_L0C : hard == Hardware::BIAS ? SP_BT : hard == Hardware::FIXBUF ? SP_FB : SP_UB;
    }
    static TPosition default_pos() { return ascendc_emu::space_pos(space()); }
    template <class D>
    LocalTensor<D> alloc(TPosition pos, uint32_t n, const ascendc_emu::Loc& loc) {
        using namespace ascendc_emu;
        uint64_t bytes = (uint64_t)n * sizeof(D), end = (uint64_t)cur_ + bytes;
        if (rt().cur && end > space_capacity(space())) {
            const char* m = "LocalMemAllocator::Alloc of %s B at 0x%x runs past the end of %s (%s B on %s)";
            if (rt().modes.strict_ub)
                report_error("ub-capacity", "ub-overflow", P_S, "Alloc", loc, m, EMU_N(bytes), cur_, space_name(space()),
                             EMU_N(space_capacity(space())), rt().soc.name);
            else
                report_warning("ub-capacity", "ub-overflow", P_S, "Alloc", loc, m, EMU_N(bytes), cur_, space_name(space()),
                               EMU_N(space_capacity(space())), rt().soc.name);
        }
        LocalTensor<D> t(pos, cur_, n);
        cur_ = (uint32_t)((end + 31) / 32 * 32);
        return t;
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
    uint32_t shape_id_ = 0;
    template <CacheRwMode rwMode = CacheRwMode::RW>
    void SetL2CacheHint(CacheMode) {}  // no L2 model: the hint changes timing only
    void SetShapeInfo(const ShapeInfo& s) { shape_id_ = ascendc_emu::store_shape(s); }
    ShapeInfo GetShapeInfo() const { return ascendc_emu::shape_store()[shape_id_]; }
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
        dcache_scalar(p, write, api, loc);
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
