// Tiling struct of the EvoKernel SoftmaxCustom kernel (its op_host is not in the corpus), written for our spec.
#include <cstdint>
struct SoftmaxCustomTilingData { uint32_t rows; uint32_t cols; uint32_t rowsPerCore; uint32_t tileCols; };
