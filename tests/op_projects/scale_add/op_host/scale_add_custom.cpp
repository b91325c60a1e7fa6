// Our own test op (not public code): y = alpha * x (+ bias), float16 or float32.
#include <algorithm>
#include <cstdio>

#include "register/op_def_registry.h"
#include "scale_add_custom_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFERS = 2;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const float* alpha = context->GetAttrs()->GetFloat(0);
    const int64_t* blocks = context->GetAttrs()->GetInt(1);
    if (*alpha == 0.0f) {
        std::fprintf(stderr, "ScaleAddCustom: alpha must not be 0\n");
        return ge::GRAPH_FAILED;
    }
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint32_t elem = static_cast<uint32_t>(ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType()));
    uint32_t blockDim = *blocks > 0 ? static_cast<uint32_t>(*blocks) : std::min<uint32_t>(platform.GetCoreNumAiv(), 8);
    if (total % blockDim != 0) return ge::GRAPH_FAILED;
    uint32_t blockLength = static_cast<uint32_t>(total / blockDim);
    bool hasBias = context->GetOptionalInputShape(1) != nullptr;
    // x, y (and bias) double-buffered: 2 or 3 tensors of tileLength elements each, twice; keep 1/4 of UB spare
    uint32_t tensors = hasBias ? 3 : 2;
    uint32_t cap = static_cast<uint32_t>(ubSize * 3 / 4 / (BUFFERS * tensors * elem)) / 64 * 64;
    uint32_t tileLength = std::min(blockLength, std::min<uint32_t>(cap, 4096));
    context->SetBlockDim(blockDim);
    if (hasBias) {
        ScaleAddTilingData t;
        t.set_totalLength(total);
        t.set_alpha(*alpha);
        t.set_blockLength(blockLength);
        t.set_hasBias(1);
        t.tile.set_tileLength(tileLength);
        uint32_t loops[2] = {blockLength / tileLength, blockLength % tileLength};
        t.tile.set_loops(loops);
        t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
        context->GetRawTilingData()->SetDataSize(t.GetDataSize());
        context->SetTilingKey(1);
    } else {
        ScaleAddNoBiasTilingData t;
        t.SetDataPtr(context->GetRawTilingData()->GetData());  // setters write straight into the buffer
        t.set_blockLength(blockLength);
        t.set_alpha(*alpha);
        t.set_tileLength(tileLength);
        t.set_fullTiles(blockLength / tileLength);
        t.set_tail(blockLength % tileLength);
        context->GetRawTilingData()->SetDataSize(t.GetDataSize());
        context->SetTilingKey(2);
    }
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize() + 4096;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ScaleAddCustom : public OpDef {
public:
    explicit ScaleAddCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).Follow("x");
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);
        this->Attr("blocks").AttrType(OPTIONAL).Int(0);
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(ScaleAddCustom);
}  // namespace ops
