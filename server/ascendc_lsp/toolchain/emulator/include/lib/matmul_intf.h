// The Matmul high-level API header that kernels include ("lib/matmul_intf.h"); see ascendc_emu/matmul.h.
#ifndef ASCENDC_EMU_LIB_MATMUL_INTF_H_
#define ASCENDC_EMU_LIB_MATMUL_INTF_H_
#include "../kernel_operator.h"
#include "../ascendc_emu/matmul.h"
#endif  // ASCENDC_EMU_LIB_MATMUL_INTF_H_
