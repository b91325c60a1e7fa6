// Host view of the kernel-side API tiling structs (standard-C++ tiling style: host code fills
// AscendC::tiling::TCubeTiling directly). The very same plain structs the kernel compiles.
#ifndef ASCENDC_EMU_HOST_KERNEL_TILING_H_
#define ASCENDC_EMU_HOST_KERNEL_TILING_H_
#include "../../include/kernel_tiling/kernel_tiling.h"
#endif  // ASCENDC_EMU_HOST_KERNEL_TILING_H_
