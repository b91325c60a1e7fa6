// ascendc-lsp test program (our own): the tiling struct passed by value to the kernel.
#ifndef SCALE_TILING_H
#define SCALE_TILING_H
#include <cstdint>
struct ScaleTilingData {
    uint32_t totalLength;
    uint32_t tileLength;
    float scale;
};
#endif
