// lib/matrix/matmul/tiling.h: the devkit path of the Matmul templates (MatmulConfig, Get*Config, CFG_*,
// GetMMConfig, MatmulApiStaticTiling); in the emulator they are declared by ascendc_emu/matmul.h.
#ifndef ASCENDC_EMU_LIB_MATRIX_MATMUL_TILING_H_
#define ASCENDC_EMU_LIB_MATRIX_MATMUL_TILING_H_
#include "../../../kernel_operator.h"
#include "../../../ascendc_emu/matmul.h"
#endif  // ASCENDC_EMU_LIB_MATRIX_MATMUL_TILING_H_
