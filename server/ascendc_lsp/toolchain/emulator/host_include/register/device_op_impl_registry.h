// Host shim (clean-room) of the tiling-sink registration, docs/zh/api/Utils-API/Tiling下沉/DEVICE_IMPL_OP_OPTILING.md:
// the sunk TilingFunc is the op's tiling on the CPU too (registered as a host tiling when the op has none).
#pragma once
#include "../ascendc_emu_host/op_def.h"

namespace optiling {
class DeviceOpImplRegister {
public:
    explicit DeviceOpImplRegister(const char* op, const char* file = __builtin_FILE(), int line = __builtin_LINE())
        : op_(op ? op : ""), file_(file), line_(line) {}
    template <class F>
    DeviceOpImplRegister& Tiling(F f) {
        auto& impl = ascendc_emu_host::op_impls()[op_];
        if (!impl.tiling) {
            impl.tiling = static_cast<ascendc_emu_host::TilingFn>(f);
            impl.tiling_file = file_;
            impl.tiling_line = line_;
        }
        return *this;
    }

private:
    std::string op_, file_;
    int line_;
};
}  // namespace optiling

#define DEVICE_IMPL_OP_OPTILING(optype) \
    static ::optiling::DeviceOpImplRegister ASCENDC_EMU_CAT(ascendc_emu_device_impl_, __COUNTER__) = \
        ::optiling::DeviceOpImplRegister(#optype, __FILE__, __LINE__)
