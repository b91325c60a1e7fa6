// Utility interfaces real kernels call besides the compute APIs (clean-room): IsSameType, DivCeil/AlignUp,
// AscendCUtils, the system variables (GetDataBlockSizeInBytes, GetArchVersion), and InitGlobalMemory / the GM form
// of Fill. Sources: docs/zh/api/SIMD-API/基础API/工具接口/系统资源与变量/*.md, docs/zh/api/SIMD-API/高阶API/张量变换/
// Fill-97.md; the helpers' semantics from how the docs' examples (ReduceMax.md: DivCeil) and public kernels call them.
#ifndef ASCENDC_EMU_ASCENDC_EMU_UTILS_H_
#define ASCENDC_EMU_ASCENDC_EMU_UTILS_H_
#include "vector.h"

namespace AscendC {
// Block and repeat sizes kernels take from the SDK by name (32-byte DataBlocks, 256-byte repeats).
constexpr uint32_t ONE_BLK_FLOAT_NUM = 8;
constexpr uint32_t ONE_BLK_HALF_NUM = 16;
constexpr uint32_t ONE_REPEAT_FLOAT_SIZE = 64;
constexpr uint32_t ONE_REPEAT_HALF_SIZE = 128;
constexpr uint32_t DEFAULT_BLK_STRIDE = 1;
constexpr uint32_t B16_BYTE_SIZE = 2;
constexpr uint32_t B32_BYTE_SIZE = 4;

// Type comparison as kernels spell it: `if constexpr (IsSameType<T, half>::value)`.
template <typename T, typename U>
struct IsSameType {
    static constexpr bool value = false;
};
template <typename T>
struct IsSameType<T, T> {
    static constexpr bool value = true;
};

// Integer helpers. Two independent template parameters: a kernel's own `template <class T> T AlignUp(T, T)` is
// more specialised and wins overload resolution, so kernels that define their own keep compiling.
template <typename T, typename U>
constexpr T DivCeil(T a, U b) {
    return b == 0 ? T(0) : static_cast<T>((a + static_cast<T>(b) - 1) / static_cast<T>(b));
}
template <typename T, typename U>
constexpr T AlignUp(T a, U b) {
    return b == 0 ? a : static_cast<T>(DivCeil(a, b) * static_cast<T>(b));
}

// GetDataBlockSizeInBytes.md: one DataBlock is 32 B on every architecture the emulator models.
constexpr int16_t GetDataBlockSizeInBytes() { return 32; }
// GetArchVersion.md: the architecture version, hexadecimal-coded (2201 -> 0x2201).
inline void GetArchVersion(uint32_t& coreVersion) {
    uint32_t dec = (uint32_t)ascendc_emu::rt().soc.arch, hex = 0, shift = 0;
    for (; dec; dec /= 10, shift += 4) hex |= (dec % 10) << shift;
    coreVersion = hex;
}

// AscendCUtils: the mask and overflow helpers kernels call (SetMask<T>(count) = a continuous mask of `count`
// lanes, or the (high, low) bit mask; SetMaskCount / SetMaskNorm switch the mask mode).
struct AscendCUtils {
    template <typename T>
    static void SetMask(const uint64_t count) {
        ascendc_emu::set_mask_cont(256 / (int)sizeof(T), count);
    }
    template <typename T>
    static void SetMask(const uint64_t maskHigh, const uint64_t maskLow) {
        SetVectorMask<T>(maskHigh, maskLow);
    }
    template <typename T>
    static void SetMaskCount() { ascendc_emu::blk().counter_mode = true; }
    template <typename T>
    static void SetMaskNorm() { ascendc_emu::blk().counter_mode = false; }
    static void SetOverflow(uint64_t) {}  // saturation control: the emulator always saturates (Cast.md)
    static constexpr int32_t GetC0Count(const int32_t dtypeSize) { return dtypeSize ? 32 / dtypeSize : 0; }
    static constexpr int32_t GetC0Size() { return 32; }
};

// InitGlobalMemory / Fill on GM (Fill-97.md): `size` elements of GM set to `value` by the MTE3 pipe (through a
// UB staging buffer on the NPU). The docs' constraints stay the kernel's: an MTE3 -> MTE2 sync before reading the
// memory back on the same core, SyncAll across cores.
template <typename T>
inline void InitGlobalMemory(const GlobalTensor<T>& gm, const uint64_t size, const ascendc_emu::nd_t<T> value, EMU_LOC) {
    using namespace ascendc_emu;
    uint64_t bytes = size * sizeof(T);
    begin_epoch(P_MTE3);
    Ev ev;
    trace_begin(ev, P_MTE3, "InitGlobalMemory", loc);
    if (ev.on) ev.j.i("bytes", (long long)bytes).s("src", "ub").s("dst", "gm").b("gm_aligned512", ((uintptr_t)gm.ptr_ & 511u) == 0);
    trace_end(ev);
    uint64_t lo, hi;
    if (!bytes || !gm_check(gm.ptr_, bytes, true, P_MTE3, "InitGlobalMemory", loc, &lo, &hi)) return;
    gm_shadow_access((uint8_t*)gm.ptr_ + lo, hi - lo, true, P_MTE3, intern_site(loc.file, loc.line, "InitGlobalMemory"),
                     "InitGlobalMemory", loc);
    dcache_dma((uint8_t*)gm.ptr_ + lo, hi - lo, true, P_MTE3, "InitGlobalMemory", loc);
    for (uint64_t i = lo / sizeof(T); i < hi / sizeof(T); i++) std::memcpy(gm.ptr_ + i, &value, sizeof(T));
}
template <typename T>
inline void Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const ascendc_emu::nd_t<T> value, EMU_LOC) {
    InitGlobalMemory(gmWorkspaceAddr, size, value, loc);
}
// InitOutput: the older kernels' name for the same operation (`InitOutput<float>(yGm[off], n, 0)`).
template <typename T>
inline void InitOutput(const GlobalTensor<T>& gm, const uint64_t size, const ascendc_emu::nd_t<T> value, EMU_LOC) {
    InitGlobalMemory(gm, size, value, loc);
}

// Dynamic-input lists (辅助数据结构/ListTensorDesc.md, TensorDesc/*.md; layout from 如何开发动态输入算子.md): at `data`
// a uint64 ptrOffset, then per tensor a {uint32 dim, uint32 index} word and `dim` uint64 shape values, and at
// data + ptrOffset the tensors' data pointers. The kernel reads them by scalar GM accesses.
template <typename T>
class TensorDesc {
public:
    TensorDesc() {}
    void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
    uint64_t GetDim() { return dim_; }
    uint64_t GetIndex() { return index_; }
    uint64_t GetShape(uint32_t offset) { return shape_ && offset < dim_ ? shape_[offset] : 0; }
    T* GetDataPtr() { return data_; }
    GlobalTensor<T> GetDataObj() {
        GlobalTensor<T> g;
        uint64_t n = dim_ ? 1 : 0;
        for (uint64_t i = 0; i < dim_ && shape_; i++) n *= shape_[i];
        g.SetGlobalBuffer(data_, n);
        return g;
    }
    uint64_t dim_ = 0, index_ = 0;
    uint64_t* shape_ = nullptr;
    T* data_ = nullptr;
};
class ListTensorDesc {
public:
    ListTensorDesc() {}
    ListTensorDesc(void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff, EMU_LOC) {
        Init(data, length, shapeSize, loc);
    }
    void Init(void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff, EMU_LOC) {
        data_ = (uint8_t*)data;
        count_ = 0;
        uint64_t off = word(0, loc);
        for (uint64_t pos = 8; pos < off && count_ < 4096; count_++) pos += 8 * (1 + (word(pos, loc) & 0xffffffffu));
        if (shapeSize != 0xffffffff && shapeSize != count_)
            ascendc_emu::report_error("list-tensor", "tiling-runtime", ascendc_emu::P_S, "ListTensorDesc", loc,
                                      "ListTensorDesc holds %u tensors, the caller says %u", count_, shapeSize);
        (void)length;
    }
    uint32_t GetSize() { return count_; }
    template <typename T>
    T* GetDataPtr(uint32_t index, EMU_LOC) {
        if (index >= count_) return nullptr;
        return (T*)(uintptr_t)word(word(0, loc) + 8ull * index, loc);
    }
    template <typename T>
    void GetDesc(TensorDesc<T>& desc, uint32_t index, EMU_LOC) {
        uint64_t pos = 8;
        for (uint32_t i = 0; i < index && i < count_; i++) pos += 8 * (1 + (word(pos, loc) & 0xffffffffu));
        uint64_t head = word(pos, loc);
        desc.dim_ = head & 0xffffffffu;
        desc.index_ = head >> 32;
        for (uint64_t d = 0; d < desc.dim_ && desc.shape_; d++) desc.shape_[d] = word(pos + 8 + 8 * d, loc);
        desc.data_ = GetDataPtr<T>(index, loc);
    }

private:
    uint64_t word(uint64_t off, const ascendc_emu::Loc& loc) {
        GlobalTensor<uint64_t> g;
        g.SetGlobalBuffer((uint64_t*)(data_ + off));
        return data_ ? g.GetValue(0, loc) : 0;
    }
    uint8_t* data_ = nullptr;
    uint32_t count_ = 0;
};
}  // namespace AscendC
// The name the first AscendC releases used for the namespace: samples write `using namespace tik2;`, `tik2::GmAlloc`
// and open `namespace tik2 { ... }` themselves, so it is a namespace that sees everything of AscendC.
namespace tik2 {
using namespace AscendC;
}
// Names the SDK makes visible at global scope: public kernels call them unqualified without `using namespace
// AscendC` (cann-ops trunc/sync_kl.h: GetTPipePtr, masked_select_v3.cpp: GetUserWorkspace).
using AscendC::GetSysWorkSpacePtr;
using AscendC::GetTPipePtr;
using AscendC::GetUserWorkspace;
#endif  // ASCENDC_EMU_ASCENDC_EMU_UTILS_H_
