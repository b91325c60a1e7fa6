// SubScaleCustom's host side, as msOpGen lays it out: the OpDef (two float16 inputs, one output, the `scale`
// attribute) and the TilingFunc that `ascendc-lsp run case.yaml` runs on the CPU to get block_dim, the tiling key
// and the tiling bytes (no hand-computed tiling in the test case).
#include "register/op_def_registry.h"
#include "sub_scale_custom_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_NUM = 4;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t ALIGN_ELEMS = 16;  // 32 B of float16: every tile a whole number of DataCopy blocks

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    uint32_t blockDim = platform.GetCoreNumAiv() < 8 ? platform.GetCoreNumAiv() : 8;
    if (total % (blockDim * TILE_NUM * BUFFER_NUM * ALIGN_ELEMS) != 0) {
        return ge::GRAPH_FAILED;  // every block, tile and buffer must cover whole 32-byte blocks
    }
    const float* scale = context->GetAttrs()->GetFloat(0);
    SubScaleCustomTilingData tiling;
    tiling.set_totalLength(total);
    tiling.set_tileNum(TILE_NUM);
    tiling.set_scale(*scale);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(blockDim);
    context->SetTilingKey(*scale == 1.0f ? 1 : 2);  // key 1: plain x - y; key 2: scaled
    context->GetWorkspaceSizes(1)[0] = 0;
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
class SubScaleCustom : public OpDef {
public:
    explicit SubScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(SubScaleCustom);
}  // namespace ops
