// Our own test op (not public code): a standard C++ tiling struct shared by host and kernel.
#ifndef SQUARE_CUSTOM_TILING_H
#define SQUARE_CUSTOM_TILING_H
#include <cstdint>
struct SquareCustomTilingData {
    uint32_t totalLength;
    uint32_t tileLength;
    bool negate;
    uint8_t pad[3];
};
#endif
