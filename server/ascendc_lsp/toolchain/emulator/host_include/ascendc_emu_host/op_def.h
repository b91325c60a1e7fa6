// Host-side shim (clean-room) of the op prototype registration API: ops::OpDef, OpParamDef, OpAttrDef,
// OpAICoreDef, OpAICoreConfig, OP_ADD, and the op implementation registration IMPL_OP / IMPL_OP_OPTILING.
// From docs/zh/api/Utils-API/原型注册与管理/** (OpDef, OpParamDef, OpAttrDef, OpAICoreDef, OpAICoreConfig,
// 原型注册接口（OP_ADD）.md). The objects only record what the op declares; the driver describes them as JSON.
#ifndef ASCENDC_EMU_HOST_OP_DEF_H_
#define ASCENDC_EMU_HOST_OP_DEF_H_
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "exe_graph.h"
#include "registry.h"

namespace ops {
enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
enum class FollowType { ALL = 0, DTYPE = 1, FORMAT = 2, SHAPE = 3 };
enum class DependScope { ALL = 0, TILING = 1 };
enum class FormatCheckOption { DEFAULT = 0, STRICT = 1 };
enum class ItemFindStatus { ITEM_FIND = 0, ITEM_NOEXIST = 1 };

class OpParamDef {
public:
    explicit OpParamDef(const char* name = "") : name_(name ? name : "") {}
    OpParamDef& ParamType(Option t) {
        param_type_ = t;
        return *this;
    }
    OpParamDef& DataType(std::vector<ge::DataType> v) {
        dtypes_ = std::move(v);
        dtype_list_ = false;
        return *this;
    }
    OpParamDef& DataTypeList(std::vector<ge::DataType> v) {
        dtypes_ = std::move(v);
        dtype_list_ = true;
        return *this;
    }
    OpParamDef& DataTypeForBinQuery(std::vector<ge::DataType>) { return *this; }
    OpParamDef& Format(std::vector<ge::Format> v) {
        formats_ = std::move(v);
        format_list_ = false;
        return *this;
    }
    OpParamDef& FormatList(std::vector<ge::Format> v) {
        formats_ = std::move(v);
        format_list_ = true;
        return *this;
    }
    OpParamDef& FormatForBinQuery(std::vector<ge::Format>) { return *this; }
    OpParamDef& UnknownShapeFormat(std::vector<ge::Format> v) {
        if (formats_.empty()) formats_ = std::move(v);
        return *this;
    }
    OpParamDef& ValueDepend(Option v) {
        value_depend_ = v;
        return *this;
    }
    OpParamDef& ValueDepend(Option v, DependScope) { return ValueDepend(v); }
    OpParamDef& IgnoreContiguous() { return *this; }
    OpParamDef& AutoContiguous() { return *this; }
    OpParamDef& Scalar() { return *this; }
    OpParamDef& ScalarList() { return *this; }
    OpParamDef& To(ge::DataType) { return *this; }
    OpParamDef& To(const char*) { return *this; }
    OpParamDef& Version(uint32_t) { return *this; }
    OpParamDef& InitValue(uint64_t) { return *this; }
    template <class T>
    OpParamDef& InitValue(const T&) {
        return *this;
    }
    template <class A, class B>
    OpParamDef& InitValue(const A&, const B&) {
        return *this;
    }
    OpParamDef& OutputShapeDependOnCompute() { return *this; }
    OpParamDef& Follow(const char* other) { return Follow(other, FollowType::ALL); }
    OpParamDef& Follow(const char* other, FollowType t) {
        follow_ = other ? other : "";
        follow_type_ = t;
        return *this;
    }
    OpParamDef& Comment(const char*) { return *this; }
    OpParamDef& NoNeedSetOutputDtype() { return *this; }

    std::string name_;
    Option param_type_ = REQUIRED;
    std::vector<ge::DataType> dtypes_;
    std::vector<ge::Format> formats_;
    bool dtype_list_ = false, format_list_ = false;
    Option value_depend_ = IGNORE;
    std::string follow_;
    FollowType follow_type_ = FollowType::ALL;
};

class OpAttrDef {
public:
    explicit OpAttrDef(const char* name = "") : name_(name ? name : "") {}
    OpAttrDef& AttrType(Option t) {
        attr_type_ = t;
        return *this;
    }
    OpAttrDef& Bool() { return kind("bool"); }
    OpAttrDef& Bool(bool v) { return value("bool", v ? "true" : "false"); }
    OpAttrDef& Float() { return kind("float"); }
    OpAttrDef& Float(float v) { return value("float", num(v)); }
    OpAttrDef& Int() { return kind("int"); }
    OpAttrDef& Int(int64_t v) { return value("int", std::to_string(v)); }
    OpAttrDef& String() { return kind("str"); }
    OpAttrDef& String(const char* v) { return value("str", quote(v ? v : "")); }
    OpAttrDef& ListBool() { return kind("list_bool"); }
    OpAttrDef& ListBool(std::vector<bool> v) {
        std::string s;
        for (bool b : v) s += std::string(s.empty() ? "" : ",") + (b ? "true" : "false");
        return value("list_bool", "[" + s + "]");
    }
    OpAttrDef& ListFloat() { return kind("list_float"); }
    OpAttrDef& ListFloat(std::vector<float> v) {
        std::string s;
        for (float f : v) s += std::string(s.empty() ? "" : ",") + num(f);
        return value("list_float", "[" + s + "]");
    }
    OpAttrDef& ListInt() { return kind("list_int"); }
    OpAttrDef& ListInt(std::vector<int64_t> v) {
        std::string s;
        for (int64_t i : v) s += std::string(s.empty() ? "" : ",") + std::to_string(i);
        return value("list_int", "[" + s + "]");
    }
    OpAttrDef& ListListInt() { return kind("list_list_int"); }
    OpAttrDef& ListListInt(std::vector<std::vector<int64_t>>) { return kind("list_list_int"); }
    OpAttrDef& Version(uint32_t) { return *this; }
    OpAttrDef& Comment(const char*) { return *this; }
    ge::AscendString GetName() const { return ge::AscendString(name_.c_str()); }
    bool IsRequired() const { return attr_type_ == REQUIRED; }

    std::string name_;
    Option attr_type_ = REQUIRED;
    std::string kind_;
    std::string default_json_;  // empty: no default

private:
    OpAttrDef& kind(const char* k) {
        kind_ = k;
        return *this;
    }
    OpAttrDef& value(const char* k, std::string json) {
        kind_ = k;
        default_json_ = std::move(json);
        return *this;
    }
    static std::string num(double v) {
        char b[64];
        std::snprintf(b, sizeof(b), "%.9g", v);
        std::string s = b;
        if (s == "inf") return "\"inf\"";
        if (s == "-inf") return "\"-inf\"";
        if (s == "nan" || s == "-nan") return "\"nan\"";
        return s;
    }
    static std::string quote(const std::string& s) {
        std::string o = "\"";
        for (char c : s) {
            if (c == '"' || c == '\\') o += '\\';
            if (static_cast<unsigned char>(c) >= 0x20) o += c;
        }
        return o + "\"";
    }
};

class OpAICoreConfig {
public:
    OpAICoreConfig() = default;
    explicit OpAICoreConfig(const char*) {}
    OpParamDef& Input(const char* name) { return param(inputs_, name); }
    OpParamDef& Output(const char* name) { return param(outputs_, name); }
    OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
    OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
    OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
    OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
    OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
    OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
    OpAICoreConfig& ExtendCfgInfo(const char*, const char*) { return *this; }
    // older graph-compiler flags (the acl_invocation samples set them); like the flags above, no kernel effect
    OpAICoreConfig& AsyncFlag(bool) { return *this; }
    OpAICoreConfig& RangeLimitValue(const char*) { return *this; }

    std::vector<OpParamDef> inputs_, outputs_;

private:
    static OpParamDef& param(std::vector<OpParamDef>& v, const char* name) {
        for (auto& p : v)
            if (p.name_ == name) return p;
        v.emplace_back(name);
        return v.back();
    }
};

class OpDef;
class OpAICoreDef {
public:
    template <class F>
    OpAICoreDef& SetTiling(F f, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
        tiling_ = static_cast<ascendc_emu_host::TilingFn>(f);
        tiling_file_ = file;
        tiling_line_ = line;
        return *this;
    }
    // SetCheckSupport.md's example registers the compile-info parser here too: the driver runs it before tiling,
    // as it runs an IMPL_OP TilingParse.
    OpAICoreDef& SetTilingParse(ascendc_emu_host::TilingParseFn f) {
        tiling_parse_ = f;
        return *this;
    }
    template <class F>
    OpAICoreDef& SetCheckSupport(F) {
        return *this;
    }
    template <class F>
    OpAICoreDef& SetOpSelectFormat(F) {
        return *this;
    }
    template <class F>
    OpAICoreDef& SetOpSupportInfo(F) {
        return *this;
    }
    template <class F>
    OpAICoreDef& SetOpSpecInfo(F) {
        return *this;
    }
    template <class F>
    OpAICoreDef& SetParamGeneralize(F) {
        return *this;
    }
    OpAICoreDef& AddConfig(const char* soc) {
        configs_.emplace_back(soc ? soc : "", OpAICoreConfig());
        has_config_.push_back(false);
        return *this;
    }
    OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig& cfg) {
        configs_.emplace_back(soc ? soc : "", cfg);
        has_config_.push_back(true);
        return *this;
    }
    OpAICoreDef& LaunchWithZeroEleOutputTensors(bool) { return *this; }

    ascendc_emu_host::TilingFn tiling_ = nullptr;
    ascendc_emu_host::TilingParseFn tiling_parse_ = nullptr;
    std::string tiling_file_;
    int tiling_line_ = 0;
    std::vector<std::pair<std::string, OpAICoreConfig>> configs_;
    std::vector<bool> has_config_;
};

class OpMC2Def {
public:
    OpMC2Def& HcclGroup(const char*) { return *this; }
    OpMC2Def& HcclGroup(std::vector<const char*>) { return *this; }
    OpMC2Def& HcclServerType(int, const char* = nullptr) { return *this; }
};

class OpAICPUDef {};
class OpHostCPUDef {};

class OpDef {
public:
    explicit OpDef(const char* type) : type_(type ? type : "") {}
    virtual ~OpDef() = default;
    OpParamDef& Input(const char* name) { return param(inputs_, name); }
    OpParamDef& Output(const char* name) { return param(outputs_, name); }
    OpAttrDef& Attr(const char* name) {
        for (auto& a : attrs_)
            if (a.name_ == name) return a;
        attrs_.emplace_back(name);
        return attrs_.back();
    }
    template <class F>
    OpDef& SetInferShape(F f) {
        infer_shape_ = static_cast<ascendc_emu_host::InferShapeFn>(f);
        return *this;
    }
    template <class F>
    OpDef& SetInferShapeRange(F) {
        return *this;
    }
    template <class F>
    OpDef& SetInferDataType(F f) {
        infer_dtype_ = static_cast<ascendc_emu_host::InferDataTypeFn>(f);
        return *this;
    }
    OpAICoreDef& AICore() { return aicore_; }
    OpAICPUDef& AICPU() { return aicpu_; }
    OpHostCPUDef& HostCPU() { return hostcpu_; }
    OpMC2Def& MC2() { return mc2_; }
    OpDef& EnableFallBack() { return *this; }
    OpDef& Comment(const char*) { return *this; }
    OpDef& Comment(int, const char*) { return *this; }
    OpDef& FormatMatchMode(FormatCheckOption) { return *this; }
    ge::AscendString& GetOpType() { return type_as_; }

    std::string type_;
    std::vector<OpParamDef> inputs_, outputs_;
    std::vector<OpAttrDef> attrs_;
    ascendc_emu_host::InferShapeFn infer_shape_ = nullptr;
    ascendc_emu_host::InferDataTypeFn infer_dtype_ = nullptr;
    OpAICoreDef aicore_;

private:
    static OpParamDef& param(std::vector<OpParamDef>& v, const char* name) {
        for (auto& p : v)
            if (p.name_ == name) return p;
        v.emplace_back(name);
        return v.back();
    }
    OpAICPUDef aicpu_;
    OpHostCPUDef hostcpu_;
    OpMC2Def mc2_;
    ge::AscendString type_as_{type_.c_str()};
};
}  // namespace ops

namespace ascendc_emu_host {
struct OpEntry {
    std::string type;
    std::function<ops::OpDef*(const char*)> make;
    std::string file;
    int line;
};
inline std::vector<OpEntry>& op_entries() {
    static std::vector<OpEntry> v;
    return v;
}
inline int add_op(const char* type, std::function<ops::OpDef*(const char*)> make, const char* file, int line) {
    for (auto& e : op_entries())
        if (e.type == type) return 0;
    op_entries().push_back(OpEntry{type, std::move(make), file, line});
    return 0;
}

// IMPL_OP(Op) / IMPL_OP_OPTILING(Op) / IMPL_OP_INFERSHAPE(Op): a chain of registrations for the op type.
class OpImplRegister {
public:
    OpImplRegister(const char* op, const char* file, int line) : op_(op), file_(file), line_(line) {}
    template <class F>
    OpImplRegister& Tiling(F f, size_t = 0) {
        auto& impl = op_impls()[op_];
        impl.tiling = static_cast<TilingFn>(f);
        impl.tiling_file = file_;
        impl.tiling_line = line_;
        return *this;
    }
    template <class CompileInfo, class F>
    OpImplRegister& TilingParse(F f) {
        auto& impl = op_impls()[op_];
        impl.parse = static_cast<TilingParseFn>(f);
        impl.new_compile_info = []() -> void* { return new CompileInfo(); };
        return *this;
    }
    template <class F>
    OpImplRegister& InferShape(F f) {
        op_impls()[op_].infer_shape = static_cast<InferShapeFn>(f);
        return *this;
    }
    template <class F>
    OpImplRegister& InferDataType(F f) {
        op_impls()[op_].infer_dtype = static_cast<InferDataTypeFn>(f);
        return *this;
    }
    template <class F>
    OpImplRegister& InferShapeRange(F) {
        return *this;
    }
    OpImplRegister& InputsDataDependency(std::initializer_list<int32_t>) { return *this; }
    OpImplRegister& TilingInputsDataDependency(std::initializer_list<int32_t>) { return *this; }
    template <class... A>
    OpImplRegister& TilingInputsDataDependency(std::initializer_list<int32_t>, A&&...) {
        return *this;
    }
    template <class... A>
    OpImplRegister& PrivateAttr(A&&...) {
        return *this;
    }
    template <class... A>
    OpImplRegister& OutputShapeDependOnCompute(A&&...) {
        return *this;
    }
    template <class... A>
    OpImplRegister& GenSimplifiedKey(A&&...) {
        return *this;
    }

private:
    std::string op_, file_;
    int line_;
};
}  // namespace ascendc_emu_host

#define ASCENDC_EMU_CAT_(a, b) a##b
#define ASCENDC_EMU_CAT(a, b) ASCENDC_EMU_CAT_(a, b)

#define OP_ADD(opType, ...)                                                                                  \
    static const int ASCENDC_EMU_CAT(ascendc_emu_op_add_, opType) = ::ascendc_emu_host::add_op(              \
        #opType, [](const char* n) -> ::ops::OpDef* { return new opType(n); }, __FILE__, __LINE__)

// The chain registers as it is evaluated; the static copy only gives the expression a home.
#define IMPL_OP(op_type)                                                                                     \
    static ::ascendc_emu_host::OpImplRegister ASCENDC_EMU_CAT(ascendc_emu_impl_, __COUNTER__) =              \
        ::ascendc_emu_host::OpImplRegister(#op_type, __FILE__, __LINE__)
#define IMPL_OP_OPTILING(op_type) IMPL_OP(op_type)
#define IMPL_OP_INFERSHAPE(op_type) IMPL_OP(op_type)
#define IMPL_OP_CT(op_type) IMPL_OP(op_type)

#endif  // ASCENDC_EMU_HOST_OP_DEF_H_
