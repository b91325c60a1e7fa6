// TCubeTiling for a spec's tiling section (the kernel copies it from GM word by word).
#include "kernel_tiling/kernel_tiling.h"
