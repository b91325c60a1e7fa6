// Our own shared kernel helper (found by the include rule: not next to the kernel that includes it).
#ifndef OP_HELPERS_TILE_MATH_H
#define OP_HELPERS_TILE_MATH_H
#include <cstdint>
__aicore__ inline uint32_t CeilDivU32(uint32_t a, uint32_t b) { return b == 0 ? 0 : (a + b - 1) / b; }
#endif
