// Debug interfaces (clean-room): printf/PRINTF, DumpTensor, DumpAccChkPoint, ShapeInfo, ascendc_assert/assert,
// ASSERT/ASCENDC_ASSERT, Trap, GetSystemCycle. Sources: docs/zh/api/SIMD-API/基础API/调试接口/ (上板打印/printf.md,
// DumpTensor.md, DumpAccChkPoint.md; 异常检测/assert.md, ascendc_assert.md, Trap.md; 关闭ASCENDC_DUMP说明.md) and
// docs/zh/api/SIMD-API/基础API/辅助数据结构/ShapeInfo.md.
#ifndef ASCENDC_EMU_ASCENDC_EMU_DEBUG_H_
#define ASCENDC_EMU_ASCENDC_EMU_DEBUG_H_
#include <cassert>  // first, so the AscendC `assert` below replaces the C one for the kernel
#include <string>
#include "tensor.h"

// ASCENDC_DUMP=0 switches the printing and assert interfaces off (关闭ASCENDC_DUMP说明.md).
#ifndef ASCENDC_DUMP
#define ASCENDC_DUMP 1
#endif


namespace ascendc_emu {
// printf arguments as the C library takes them: 16-bit floats print with %f (printf.md), everything else unchanged.
template <class T>
inline const T& print_arg(const T& v) { return v; }
inline double print_arg(const half& v) { return (double)(float)v; }
inline double print_arg(const bfloat16_t& v) { return (double)(float)v; }
template <class... A>
inline void kernel_printf(const char* fmt, const A&... a) {
    if (!ASCENDC_DUMP) return;
    ::printf(fmt, print_arg(a)...);
    fflush(stdout);
}
template <class T>
inline double dump_value(const uint8_t* p) {
    T v;
    memcpy(&v, p, sizeof(T));
    return (double)(calc_t<T>)v;
}
// Prints `count` elements of a tensor's bytes (clamped to what it holds), with an optional shape.
template <class T>
inline void dump(const char* what, const char* where, const uint8_t* p, uint64_t held, uint32_t desc, uint32_t count,
                 const AscendC::ShapeInfo* shape) {
    if (!ASCENDC_DUMP) return;
    const int b = rt().cur ? blk().idx : -1;
    ::printf("%s: block=%d, desc=%u, %s, dtype=%s, count=%u\n", what, b, desc, where, dtype_name<T>(), count);
    uint64_t n = count < held ? count : held;
    uint64_t row = shape && shape->shapeDim ? shape->shape[shape->shapeDim - 1] : 16;
    if (!row) row = 16;
    for (uint64_t i = 0; i < n; i++) {
        double v = dump_value<T>(p + i * sizeof(T));
        if (std::is_floating_point<calc_t<T>>::value) ::printf("%s%g", i % row ? " " : "", v);
        else ::printf("%s%lld", i % row ? " " : "", (long long)v);
        if (i % row == row - 1 || i + 1 == n) ::printf("\n");
    }
    if (shape && (uint64_t)AscendC::GetShapeSize(*shape) > n)
        ::printf("(%llu more elements of the shape not dumped: -)\n", (unsigned long long)(AscendC::GetShapeSize(*shape) - n));
    fflush(stdout);
}
// A failed kernel assert prints the NPU's line and stops the core (assert.md: "[ASSERT] file:line: Assertion `expr'").
template <class... A>
[[noreturn]] inline void assert_fail(const char* api, const char* expr, const Loc& loc, const char* fmt = nullptr,
                                     const A&... a) {
    char msg[600] = "";
    if (fmt) snprintf(msg, sizeof msg, fmt, print_arg(a)...);
    ::printf("[ASSERT] %s:%d: Assertion `%s' %s\n", loc.file ? loc.file : "?", loc.line, expr, msg);
    fflush(stdout);
    if (!rt().cur) abort();  // host code: the C library's behaviour
    report_error("assert", "aicore-exception-triage", -1, api, loc, "%s(%s) failed%s%s: the core stops here", api,
                 expr, msg[0] ? ": " : "", msg);
    kill_block(false);
}
}  // namespace ascendc_emu

namespace AscendC {
template <class... A>
inline void printf(const char* fmt, const A&... a) { ascendc_emu::kernel_printf(fmt, a...); }
template <class... A>
inline void PRINTF(const char* fmt, const A&... a) { ascendc_emu::kernel_printf(fmt, a...); }

template <typename T>
inline void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t dumpSize) {
    ascendc_emu::dump<T>("DumpTensor", ascendc_emu::pos_name(t.pos_), t.ptr_, t.size_, desc, dumpSize, nullptr);
}
template <typename T>
inline void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t dumpSize, const ShapeInfo& shape) {
    ascendc_emu::dump<T>("DumpTensor", ascendc_emu::pos_name(t.pos_), t.ptr_, t.size_, desc, dumpSize, &shape);
}
template <typename T>
inline void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t dumpSize) {
    ascendc_emu::dump<T>("DumpTensor", "GM", (const uint8_t*)t.ptr_, dumpSize, desc, dumpSize, nullptr);
}
template <typename T>
inline void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t dumpSize, const ShapeInfo& shape) {
    ascendc_emu::dump<T>("DumpTensor", "GM", (const uint8_t*)t.ptr_, dumpSize, desc, dumpSize, &shape);
}
template <typename T>
inline void DumpAccChkPoint(const LocalTensor<T>& t, uint32_t index, uint32_t countOff, uint32_t dumpSize) {
    uint64_t held = countOff < t.size_ ? t.size_ - countOff : 0;
    ascendc_emu::dump<T>("DumpAccChkPoint", ascendc_emu::pos_name(t.pos_), t.ptr_ + (uint64_t)countOff * sizeof(T), held,
                         index, dumpSize, nullptr);
}
template <typename T>
inline void DumpAccChkPoint(const GlobalTensor<T>& t, uint32_t index, uint32_t countOff, uint32_t dumpSize) {
    ascendc_emu::dump<T>("DumpAccChkPoint", "GM", (const uint8_t*)(t.ptr_ + countOff), dumpSize, index, dumpSize, nullptr);
}
inline void PrintTimeStamp(uint32_t descId) { ascendc_emu::kernel_printf("TimeStamp: descId=%u\n", descId); }
// Trap.md: stops the kernel (an aicore exception on the NPU).
inline void Trap(EMU_LOC) {
    ascendc_emu::report_error("trap", "aicore-exception-triage", -1, "Trap", loc, "Trap() stops the core");
    ascendc_emu::kill_block(false);
}
// The system cycle counter: the emulator has no clock of its own; it counts traced events, monotonically.
inline int64_t GetSystemCycle() { return ascendc_emu::rt().cur ? (int64_t)ascendc_emu::blk().seq : 0; }
}  // namespace AscendC

// ascendc_assert / assert (assert.md, ascendc_assert.md): on the NPU a failed condition prints
// "[ASSERT] file:line: Assertion `expr' <message>" and stops the core; ASCENDC_DUMP=0 (and NDEBUG for assert)
// compiles them out. They take an optional printf-style message.
#define ASCENDC_EMU_KASSERT(api, expr, ...)                                                                     \
    do {                                                                                                         \
        if (ASCENDC_DUMP && !(expr))                                                                             \
            ::ascendc_emu::assert_fail(api, #expr, ::ascendc_emu::Loc(), ##__VA_ARGS__);                         \
    } while (0)
#define ascendc_assert(expr, ...) ASCENDC_EMU_KASSERT("ascendc_assert", expr, ##__VA_ARGS__)
#undef assert
#ifdef NDEBUG
#define assert(...) ((void)0)
#else
#define assert(expr, ...) ASCENDC_EMU_KASSERT("assert", expr, ##__VA_ARGS__)
#endif

// ASSERT / ASCENDC_ASSERT: the SDK's internal checks. The NPU build compiles them out entirely (the condition is
// not even compiled: kernels write `x = n ASSERT(n != 0);`); the CPU-debug build traps. The trap is the strict
// mode: the harness defines ASCENDC_EMU_ASSERT_TRAP 1 after the precompiled header (--strict-assert), and the
// choice is made where the kernel expands the macro.
#ifndef ASCENDC_EMU_ASSERT_TRAP
#define ASCENDC_EMU_ASSERT_TRAP 0
#endif
#define ASCENDC_EMU_CAT_(a, b) a##b
#define ASCENDC_EMU_CAT(a, b) ASCENDC_EMU_CAT_(a, b)
#define ASCENDC_EMU_ASSERT_MODE_0(...)
#define ASCENDC_EMU_ASSERT_MODE_1(cond, ...)                                                                     \
    do {                                                                                                         \
        if (!(cond)) {                                                                                           \
            __VA_ARGS__;                                                                                         \
            ::ascendc_emu::report_error("assert", "aicore-exception-triage", -1, "ASSERT", ::ascendc_emu::Loc(),  \
                                        "ASSERT(%s) failed (CPU-debug trap, --strict-assert; the NPU build "     \
                                        "compiles ASSERT out)", #cond);                                          \
            ::ascendc_emu::kill_block(false);                                                                    \
        }                                                                                                        \
    } while (0)
#define ASCENDC_ASSERT(...) ASCENDC_EMU_CAT(ASCENDC_EMU_ASSERT_MODE_, ASCENDC_EMU_ASSERT_TRAP)(__VA_ARGS__)
#define ASSERT(...) ASCENDC_EMU_CAT(ASCENDC_EMU_ASSERT_MODE_, ASCENDC_EMU_ASSERT_TRAP)(__VA_ARGS__)
// ASSERT_MSG(expr, fmt, ...): the same family with a message (kernels: `ASSERT_MSG(n != 0, "Division by zero")`).
#define ASCENDC_EMU_ASSERT_MSG_0(...)
#define ASCENDC_EMU_ASSERT_MSG_1(expr, ...)                                                                       \
    do {                                                                                                         \
        if (!(expr)) ::ascendc_emu::assert_fail("ASSERT_MSG", #expr, ::ascendc_emu::Loc(), __VA_ARGS__);          \
    } while (0)
#define ASSERT_MSG(...) ASCENDC_EMU_CAT(ASCENDC_EMU_ASSERT_MSG_, ASCENDC_EMU_ASSERT_TRAP)(__VA_ARGS__)
#endif  // ASCENDC_EMU_ASCENDC_EMU_DEBUG_H_
