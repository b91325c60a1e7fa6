// The tiling buffer of the MatmulInvocationNeo sample: a TCubeTiling followed by the UB size (uint64_t), which
// the kernel reads at tilingGm + sizeof(TCubeTiling). Written for the emulator spec; the fields come from the spec.
#include "kernel_tiling/kernel_tiling.h"
struct MatmulSampleTiling {
    TCubeTiling cube;
    uint64_t localMemSize;
};
