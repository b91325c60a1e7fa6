// lib/matrix/matmul/matmul.h: the devkit path of the high-level API header (matmul). In the emulator every high-level API is
// declared by kernel_operator.h (ascendc_emu/adv_api.h); this path exists so kernels that include it compile.
#ifndef ASCENDC_EMU_LIB_MATRIX_MATMUL_MATMUL_H_
#define ASCENDC_EMU_LIB_MATRIX_MATMUL_MATMUL_H_
#include "../../../kernel_operator.h"
#include "../../../ascendc_emu/matmul.h"
#endif  // ASCENDC_EMU_LIB_MATRIX_MATMUL_MATMUL_H_
