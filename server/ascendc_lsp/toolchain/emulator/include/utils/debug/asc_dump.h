// asc_dump family (clean-room, from docs/zh/api/Utils-API/调测接口/asc_dump.md): prints `dump_size` elements of
// the memory at `input` (GM, UB, L1 or L0C; the emulator's buffers are host memory, so one printer serves all
// four) or of a vector register inside simd_vf, with the user's uint32_t `desc`. ASCENDC_DUMP=0 turns it off,
// as for DumpTensor (关闭ASCENDC_DUMP说明.md).
#ifndef ASCENDC_EMU_UTILS_DEBUG_ASC_DUMP_H_
#define ASCENDC_EMU_UTILS_DEBUG_ASC_DUMP_H_
#include <type_traits>
#include "../../kernel_operator.h"

namespace ascendc_emu {
template <typename T>
inline void asc_dump_memory(const char* where, const T* input, uint32_t desc, uint32_t dump_size) {
    dump<T>("asc_dump", where, reinterpret_cast<const uint8_t*>(input), dump_size, desc, dump_size, nullptr);
}
}  // namespace ascendc_emu

template <typename T>
inline void asc_dump_gm(__gm__ T* input, uint32_t desc, uint32_t dump_size) {
    ascendc_emu::asc_dump_memory<T>("GM", input, desc, dump_size);
}
template <typename T>
inline void asc_dump_ubuf(__ubuf__ T* input, uint32_t desc, uint32_t dump_size) {
    ascendc_emu::asc_dump_memory<T>("UB", input, desc, dump_size);
}
template <typename T>
inline void asc_dump_l1buf(__cbuf__ T* input, uint32_t desc, uint32_t dump_size) {
    ascendc_emu::asc_dump_memory<T>("L1", input, desc, dump_size);
}
template <typename T>
inline void asc_dump_cbuf(__cc__ T* input, uint32_t desc, uint32_t dump_size) {
    ascendc_emu::asc_dump_memory<T>("L0C", input, desc, dump_size);
}
// The SDK tells the four memories apart by address-space qualifier; the emulator's pointers carry none, so the
// generic form prints without naming the memory.
template <typename T>
inline void asc_dump(T* input, uint32_t desc, uint32_t dump_size) {
    ascendc_emu::asc_dump_memory<T>("memory", input, desc, dump_size);
}
// A vector register (simd_vf, Ascend 950): its bytes as elements of T, clamped to the register's width (a
// register object holds only its lanes, so its size is the register's).
template <typename T, typename U, typename = std::enable_if_t<!std::is_pointer<U>::value>>
inline void asc_dump_reg(U& input, uint32_t desc, uint32_t dump_size) {
    ascendc_emu::dump<T>("asc_dump", "register", reinterpret_cast<const uint8_t*>(&input), sizeof(U) / sizeof(T),
                         desc, dump_size, nullptr);
}
template <typename T, typename U, typename = std::enable_if_t<!std::is_pointer<U>::value>>
inline void asc_dump(U& input, uint32_t desc, uint32_t dump_size) {
    asc_dump_reg<T>(input, desc, dump_size);
}
#endif  // ASCENDC_EMU_UTILS_DEBUG_ASC_DUMP_H_
