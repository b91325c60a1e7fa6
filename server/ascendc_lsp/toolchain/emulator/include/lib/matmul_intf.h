// The Matmul high-level API header that kernels include ("lib/matmul_intf.h"); see ascendc_emu/matmul.h.
#ifndef ASCENDC_EMU_LIB_MATMUL_INTF_H_
#define ASCENDC_EMU_LIB_MATMUL_INTF_H_
#include "../kernel_operator.h"
#include "../ascendc_emu/matmul.h"
// Visible at global scope as in the SDK: kernels write `MatmulType<TPosition::GM, CubeFormat::ND, half>` with only
// `using AscendC::MatmulType; using AscendC::TPosition;` (samples 6_group_matmul).
using AscendC::CubeFormat;
#endif  // ASCENDC_EMU_LIB_MATMUL_INTF_H_
