// Our own test op (not public code): y = alpha * x (+ bias). Tiling classes exercise nested structs, arrays,
// an intermediate-struct registration and a per-tiling-key struct.
#ifndef SCALE_ADD_CUSTOM_TILING_H
#define SCALE_ADD_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleAddTileInfo)
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 2, loops);  // loops[0]: full tiles per block, loops[1]: tail elements
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleAddTileInfoOp, ScaleAddTileInfo)

BEGIN_TILING_DATA_DEF(ScaleAddTilingData)
TILING_DATA_FIELD_DEF(uint64_t, totalLength);
TILING_DATA_FIELD_DEF(float, alpha);
TILING_DATA_FIELD_DEF(uint32_t, blockLength);
TILING_DATA_FIELD_DEF(uint16_t, hasBias);
TILING_DATA_FIELD_DEF_STRUCT(ScaleAddTileInfo, tile);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleAddCustom, ScaleAddTilingData)

// tiling key 2 (no bias): a smaller struct, registered for that key only
BEGIN_TILING_DATA_DEF(ScaleAddNoBiasTilingData)
TILING_DATA_FIELD_DEF(uint32_t, blockLength);
TILING_DATA_FIELD_DEF(float, alpha);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF(uint32_t, fullTiles);
TILING_DATA_FIELD_DEF(uint32_t, tail);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleAddCustom_2, ScaleAddNoBiasTilingData)
}  // namespace optiling
#endif  // SCALE_ADD_CUSTOM_TILING_H
