// The host driver ascendc-lsp links with an op project's op_host/*.cpp (all compiled on the CPU against the
// host shims). Two jobs, both writing JSON:
//   driver --describe OUT.json        the registered ops (OpDef: inputs, outputs, dtype/format lists, attrs,
//                                     per-SoC configs), tiling data classes with their fields, and bindings
//   driver --run IN.txt OUT.json      run the op's TilingFunc (after its TilingParse and, for outputs whose
//                                     shape the test case leaves open, its InferShape) on a node described by
//                                     IN.txt; report block dim, tiling key, tiling bytes, workspace sizes
// IN.txt is line based (see read_node); ascendc-lsp writes it (toolchain/opproject/host.py).
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "exe_graph.h"
#include "op_def.h"
#include "registry.h"
#include "../tiling/platform/platform_ascendc.h"
#include "../base/alog_pub.h"

// base/alog_pub.h's CheckLogLevel, weak: an op_host source that defines its own replaces it at link time.
__attribute__((weak)) int CheckLogLevel(int, int level) { return AlogCheckDebugLevel(0, level); }

namespace {
using ascendc_emu_host::Node;

std::string esc(const std::string& s) {
    std::string o = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += static_cast<char>(c);
        } else if (c < 0x20) {
            char b[8];
            std::snprintf(b, sizeof(b), "\\u%04x", c);
            o += b;
        } else {
            o += static_cast<char>(c);
        }
    }
    return o + "\"";
}

const char* option_name(ops::Option o) {
    switch (o) {
        case ops::OPTIONAL: return "optional";
        case ops::DYNAMIC: return "dynamic";
        case ops::REQUIRED: return "required";
        default: return "ignore";
    }
}

const char* follow_name(ops::FollowType t) {
    switch (t) {
        case ops::FollowType::DTYPE: return "dtype";
        case ops::FollowType::FORMAT: return "format";
        case ops::FollowType::SHAPE: return "shape";
        default: return "all";
    }
}

std::string params_json(const std::vector<ops::OpParamDef>& ps) {
    std::string o = "[";
    for (size_t i = 0; i < ps.size(); ++i) {
        const ops::OpParamDef& p = ps[i];
        o += i ? "," : "";
        o += "{\"name\":" + esc(p.name_) + ",\"param_type\":" + esc(option_name(p.param_type_)) + ",\"dtypes\":[";
        for (size_t j = 0; j < p.dtypes_.size(); ++j)
            o += std::string(j ? "," : "") + esc(ge::ascendc_emu_dtype_name(p.dtypes_[j]));
        o += "],\"dtype_list\":" + std::string(p.dtype_list_ ? "true" : "false") + ",\"formats\":[";
        for (size_t j = 0; j < p.formats_.size(); ++j)
            o += std::string(j ? "," : "") + esc(ge::ascendc_emu_format_name(p.formats_[j]));
        o += "],\"format_list\":" + std::string(p.format_list_ ? "true" : "false");
        o += ",\"follow\":" + esc(p.follow_) + ",\"follow_type\":" + esc(follow_name(p.follow_type_));
        o += ",\"value_depend\":" + std::string(p.value_depend_ != ops::IGNORE ? "true" : "false") + "}";
    }
    return o + "]";
}

int describe(const char* out_path) {
    std::string o = "{\"ops\":[";
    bool first = true;
    for (auto& e : ascendc_emu_host::op_entries()) {
        std::unique_ptr<ops::OpDef> d(e.make(e.type.c_str()));
        o += first ? "" : ",";
        first = false;
        o += "{\"type\":" + esc(e.type) + ",\"file\":" + esc(e.file) + ",\"line\":" + std::to_string(e.line);
        o += ",\"inputs\":" + params_json(d->inputs_) + ",\"outputs\":" + params_json(d->outputs_) + ",\"attrs\":[";
        for (size_t i = 0; i < d->attrs_.size(); ++i) {
            const ops::OpAttrDef& a = d->attrs_[i];
            o += i ? "," : "";
            o += "{\"name\":" + esc(a.name_) + ",\"type\":" + esc(a.kind_) +
                 ",\"required\":" + (a.attr_type_ == ops::REQUIRED ? "true" : "false") +
                 ",\"default\":" + (a.default_json_.empty() ? "null" : a.default_json_) + "}";
        }
        o += "],\"configs\":[";
        const auto& cfgs = d->aicore_.configs_;
        for (size_t i = 0; i < cfgs.size(); ++i) {
            o += i ? "," : "";
            o += "{\"soc\":" + esc(cfgs[i].first) + ",\"inputs\":" + params_json(cfgs[i].second.inputs_) +
                 ",\"outputs\":" + params_json(cfgs[i].second.outputs_) + "}";
        }
        auto impl = ascendc_emu_host::op_impls().find(e.type);
        bool has_impl = impl != ascendc_emu_host::op_impls().end() && impl->second.tiling;
        std::string tfile = d->aicore_.tiling_ ? d->aicore_.tiling_file_ : (has_impl ? impl->second.tiling_file : "");
        int tline = d->aicore_.tiling_ ? d->aicore_.tiling_line_ : (has_impl ? impl->second.tiling_line : 0);
        o += "],\"has_tiling\":" + std::string(d->aicore_.tiling_ || has_impl ? "true" : "false");
        o += ",\"tiling_file\":" + esc(tfile) + ",\"tiling_line\":" + std::to_string(tline);
        o += ",\"has_infer_shape\":" +
             std::string(d->infer_shape_ || (impl != ascendc_emu_host::op_impls().end() && impl->second.infer_shape)
                             ? "true"
                             : "false") +
             "}";
    }
    o += "],\"impls\":[";
    first = true;
    for (auto& kv : ascendc_emu_host::op_impls()) {
        o += first ? "" : ",";
        first = false;
        o += "{\"op\":" + esc(kv.first) + ",\"tiling\":" + (kv.second.tiling ? "true" : "false") +
             ",\"file\":" + esc(kv.second.tiling_file) + ",\"line\":" + std::to_string(kv.second.tiling_line) + "}";
    }
    o += "],\"classes\":[";
    first = true;
    for (auto& c : ascendc_emu_host::tiling_classes()) {
        o += first ? "" : ",";
        first = false;
        o += "{\"name\":" + esc(c.name) + ",\"file\":" + esc(c.file) + ",\"line\":" + std::to_string(c.line) +
             ",\"size\":" + std::to_string(c.size()) + ",\"fields\":[";
        for (size_t i = 0; i < c.fields.size(); ++i) {
            ascendc_emu_host::FieldInfo f = c.fields[i]();
            o += i ? "," : "";
            o += "{\"kind\":" + esc(f.kind) + ",\"type\":" + esc(f.type) + ",\"name\":" + esc(f.name) +
                 ",\"elem_size\":" + std::to_string(f.elem_size) + ",\"count\":" + std::to_string(f.count) +
                 ",\"offset\":" + std::to_string(f.offset) + "}";
        }
        o += "]}";
    }
    o += "],\"bindings\":[";
    first = true;
    for (auto& b : ascendc_emu_host::tiling_bindings()) {
        o += first ? "" : ",";
        first = false;
        o += "{\"op\":" + esc(b.op) + ",\"class\":" + esc(b.cls) + ",\"file\":" + esc(b.file) +
             ",\"line\":" + std::to_string(b.line) + "}";
    }
    o += "],\"dtypes\":{";
    first = true;
#define ASCENDC_EMU_DT_JSON(name, num, bytes)                 \
    o += std::string(first ? "" : ",") + "\"" #name "\":" #num; \
    first = false;
    ASCENDC_EMU_GE_DATATYPES(ASCENDC_EMU_DT_JSON)
#undef ASCENDC_EMU_DT_JSON
    o += "},\"formats\":{";
    first = true;
#define ASCENDC_EMU_FMT_JSON(name, num)                       \
    o += std::string(first ? "" : ",") + "\"" #name "\":" #num; \
    first = false;
    ASCENDC_EMU_GE_FORMATS(ASCENDC_EMU_FMT_JSON)
#undef ASCENDC_EMU_FMT_JSON
    o += "}}\n";
    std::ofstream f(out_path);
    f << o;
    return f ? 0 : 2;
}

[[noreturn]] void bad_input(const std::string& why) {
    std::fprintf(stderr, "ascendc-lsp host driver: %s\n", why.c_str());
    std::exit(2);
}

gert::Shape read_shape(std::istringstream& in, bool& known) {
    long long ndim = 0;
    in >> ndim;
    gert::Shape s;
    known = ndim >= 0;
    for (long long i = 0; i < ndim; ++i) {
        long long d = 0;
        in >> d;
        s.AppendDim(d);
    }
    return s;
}

// IN.txt lines: `op TYPE` | `platform KEY VALUE` | `input NAME DTYPE FORMAT NDIM DIMS...` (one per tensor,
// IR order) | `absent NAME` (optional input left out) | `data INDEX PATH` (input bytes for ValueDepend) |
// `output NAME DTYPE FORMAT NDIM DIMS...` (NDIM -1: infer) | `attr KIND VALUE...` (every attribute, IR order) |
// `capacity BYTES` | `deterministic 0|1`.
void read_node(const char* path, Node& n, std::vector<std::string>& input_names) {
    std::ifstream f(path);
    if (!f) bad_input(std::string("cannot read ") + path);
    std::string line;
    std::string last_name;
    while (std::getline(f, line)) {
        std::istringstream in(line);
        std::string tag;
        in >> tag;
        if (tag.empty()) continue;
        if (tag == "op") {
            in >> n.type;
            n.name = n.type;
        } else if (tag == "platform") {
            std::string k, v;
            in >> k;
            std::getline(in >> std::ws, v);
            fe::PlatFormInfos& p = n.platform;
            if (k == "soc_version") p.soc_version = v;
            else if (k == "short_soc") p.short_soc = v;
            else if (k == "npu_arch") p.npu_arch = v;
            else if (k == "core_num_aiv") p.core_num_aiv = static_cast<uint32_t>(std::stoul(v));
            else if (k == "core_num_aic") p.core_num_aic = static_cast<uint32_t>(std::stoul(v));
            else if (k == "core_num") p.core_num = static_cast<uint32_t>(std::stoul(v));
            else if (k == "ub") p.ub = std::stoull(v);
            else if (k == "l1") p.l1 = std::stoull(v);
            else if (k == "l0a") p.l0a = std::stoull(v);
            else if (k == "l0b") p.l0b = std::stoull(v);
            else if (k == "l0c") p.l0c = std::stoull(v);
            else if (k == "l2") p.l2 = std::stoull(v);
            else if (k == "bt") p.bt = std::stoull(v);
            else if (k == "sys_workspace") p.sys_workspace = static_cast<uint32_t>(std::stoul(v));
        } else if (tag == "res") {
            std::string label, key, v;
            in >> label >> key;
            std::getline(in >> std::ws, v);
            n.platform.res[label][key] = v;
        } else if (tag == "input" || tag == "absent") {
            std::string name;
            in >> name;
            if (n.in_ir.empty() || name != last_name) {
                n.in_ir.push_back(ascendc_emu_host::IrSlot{n.in_shapes.size(), 0});
                input_names.push_back(name);
                last_name = name;
            }
            if (tag == "absent") continue;
            int dt = 0, fmt = 0;
            in >> dt >> fmt;
            bool known = true;
            gert::Shape s = read_shape(in, known);
            gert::StorageShape ss;
            ss.MutableOriginShape() = s;
            ss.MutableStorageShape() = s;
            gert::Tensor t;
            t.MutableShape() = ss;
            t.SetDataType(static_cast<ge::DataType>(dt));
            t.SetFormat(gert::StorageFormat(static_cast<ge::Format>(fmt), static_cast<ge::Format>(fmt)));
            gert::CompileTimeTensorDesc d;
            d.SetDataType(static_cast<ge::DataType>(dt));
            d.SetOriginFormat(static_cast<ge::Format>(fmt));
            d.SetStorageFormat(static_cast<ge::Format>(fmt));
            n.in_shapes.push_back(ss);
            n.in_plain.push_back(s);
            n.in_tensors.push_back(t);
            n.in_desc.push_back(d);
            n.in_ir.back().count++;
        } else if (tag == "data") {
            size_t idx = 0;
            std::string p;
            in >> idx;
            std::getline(in >> std::ws, p);
            if (idx >= n.in_tensors.size()) bad_input("data for an input that does not exist");
            std::ifstream df(p, std::ios::binary);
            std::vector<uint8_t>& bytes = n.in_tensors[idx].ascendc_emu_bytes();
            bytes.assign(std::istreambuf_iterator<char>(df), std::istreambuf_iterator<char>());
        } else if (tag == "output") {
            std::string name;
            int dt = 0, fmt = 0;
            in >> name >> dt >> fmt;
            bool known = true;
            gert::Shape s = read_shape(in, known);
            gert::StorageShape ss;
            ss.MutableOriginShape() = s;
            ss.MutableStorageShape() = s;
            gert::Tensor t;
            t.MutableShape() = ss;
            t.SetDataType(static_cast<ge::DataType>(dt));
            gert::CompileTimeTensorDesc d;
            d.SetDataType(static_cast<ge::DataType>(dt));
            d.SetOriginFormat(static_cast<ge::Format>(fmt));
            d.SetStorageFormat(static_cast<ge::Format>(fmt));
            n.out_shapes.push_back(ss);
            n.out_plain.push_back(s);
            n.out_tensors.push_back(t);
            n.out_desc.push_back(d);
            n.out_shape_known.push_back(known);
        } else if (tag == "attr") {
            std::string kind;
            in >> kind;
            gert::AttrValue a;
            if (kind == "int") {
                a.kind = gert::AttrValue::INT;
                in >> a.i;
            } else if (kind == "float") {
                a.kind = gert::AttrValue::FLOAT;
                std::string v;
                in >> v;
                a.f = std::strtof(v.c_str(), nullptr);
            } else if (kind == "bool") {
                a.kind = gert::AttrValue::BOOL;
                int v = 0;
                in >> v;
                a.b = v != 0;
            } else if (kind == "str") {
                a.kind = gert::AttrValue::STR;
                std::getline(in >> std::ws, a.s);
            } else if (kind == "list_int") {
                a.kind = gert::AttrValue::LIST_INT;
                size_t cnt = 0;
                in >> cnt;
                std::vector<int64_t> v(cnt);
                for (auto& x : v) in >> x;
                auto vec = std::make_shared<gert::TypedContinuousVector<int64_t>>();
                vec->ascendc_emu_assign(v.data(), v.size(), sizeof(int64_t));
                a.list = vec;
            } else if (kind == "list_float") {
                a.kind = gert::AttrValue::LIST_FLOAT;
                size_t cnt = 0;
                in >> cnt;
                std::vector<float> v(cnt);
                for (auto& x : v) {
                    std::string s;
                    in >> s;
                    x = std::strtof(s.c_str(), nullptr);
                }
                auto vec = std::make_shared<gert::TypedContinuousVector<float>>();
                vec->ascendc_emu_assign(v.data(), v.size(), sizeof(float));
                a.list = vec;
            } else if (kind == "list_bool") {
                a.kind = gert::AttrValue::LIST_BOOL;
                size_t cnt = 0;
                in >> cnt;
                std::vector<uint8_t> v(cnt);
                for (auto& x : v) {
                    int b = 0;
                    in >> b;
                    x = b != 0;
                }
                auto vec = std::make_shared<gert::TypedContinuousVector<bool>>();
                vec->ascendc_emu_assign(v.data(), v.size(), sizeof(bool));
                a.list = vec;
            }
            n.attrs.ascendc_emu_values().push_back(a);
        } else if (tag == "capacity") {
            size_t cap = 0;
            in >> cap;
            n.tiling.ascendc_emu_reset(cap);
        } else if (tag == "deterministic") {
            in >> n.deterministic;
        } else {
            bad_input("unknown line in the node description: " + line);
        }
    }
}

std::string shape_json(const gert::Shape& s) {
    std::string o = "[";
    for (size_t i = 0; i < s.GetDimNum(); ++i) o += (i ? "," : "") + std::to_string(s.GetDim(i));
    return o + "]";
}

int run(const char* in_path, const char* out_path) {
    Node n;
    std::vector<std::string> input_names;
    read_node(in_path, n, input_names);
    platform_ascendc::PlatformAscendC::ascendc_emu_platform() = &n.platform;

    ascendc_emu_host::OpEntry* entry = nullptr;
    for (auto& e : ascendc_emu_host::op_entries())
        if (e.type == n.type) entry = &e;
    std::unique_ptr<ops::OpDef> def(entry ? entry->make(n.type.c_str()) : nullptr);
    auto impl_it = ascendc_emu_host::op_impls().find(n.type);
    ascendc_emu_host::OpImpl* impl = impl_it == ascendc_emu_host::op_impls().end() ? nullptr : &impl_it->second;

    ascendc_emu_host::TilingFn tiling = def && def->aicore_.tiling_ ? def->aicore_.tiling_ : (impl ? impl->tiling : nullptr);
    std::string stage = "start";
    std::string o;
    ge::graphStatus ret = ge::GRAPH_SUCCESS;
    bool inferred = false;
    std::string error;
    try {
        ascendc_emu_host::TilingParseFn parse =
            impl && impl->parse ? impl->parse : (def ? def->aicore_.tiling_parse_ : nullptr);
        if (parse) {
            stage = "TilingParse";
            n.compile_info = impl && impl->new_compile_info ? impl->new_compile_info() : nullptr;
            gert::TilingParseContext pc(&n);
            ret = parse(&pc);
        }
        bool need_infer = false;
        for (bool k : n.out_shape_known) need_infer |= !k;
        ascendc_emu_host::InferShapeFn infer =
            def && def->infer_shape_ ? def->infer_shape_ : (impl ? impl->infer_shape : nullptr);
        if (ret == ge::GRAPH_SUCCESS && need_infer && infer) {
            stage = "InferShape";
            gert::InferShapeContext ic(&n);
            ret = infer(&ic);
            for (size_t i = 0; i < n.out_plain.size(); ++i) {
                n.out_shapes[i].MutableOriginShape() = n.out_plain[i];
                n.out_shapes[i].MutableStorageShape() = n.out_plain[i];
                n.out_tensors[i].MutableShape() = n.out_shapes[i];
            }
            inferred = true;
        }
        if (ret == ge::GRAPH_SUCCESS && tiling) {
            stage = "Tiling";
            gert::TilingContext tc(&n);
            ret = tiling(&tc);
        }
    } catch (const std::exception& e) {
        error = std::string("a C++ exception escaped the ") + stage + " function: " + e.what();
    } catch (...) {
        error = "a C++ exception escaped the " + stage + " function";
    }
    size_t size = n.tiling.ascendc_emu_size_set() ? n.tiling.GetDataSize() : n.typed_tiling_size;
    if (size > n.tiling.GetCapacity()) size = n.tiling.GetCapacity();
    size_t extent = 0;  // bytes up to the last nonzero one: what SaveToBuffer wrote when SetDataSize was forgotten
    const uint8_t* raw = static_cast<const uint8_t*>(n.tiling.GetData());
    for (size_t i = 0; i < n.tiling.GetCapacity(); ++i)
        if (raw[i]) extent = i + 1;
    size_t dump = size ? size : extent;
    std::string hex;
    static const char* digits = "0123456789abcdef";
    for (size_t i = 0; i < dump; ++i) {
        hex += digits[raw[i] >> 4];
        hex += digits[raw[i] & 15];
    }
    o = "{\"found\":" + std::string(entry ? "true" : "false") + ",\"has_tiling\":" + (tiling ? "true" : "false");
    o += ",\"stage\":" + esc(stage) + ",\"ret\":" + std::to_string(ret) + ",\"error\":" + esc(error);
    o += ",\"block_dim\":" + std::to_string(n.block_dim) + ",\"block_dim_set\":" + (n.block_dim_set ? "true" : "false");
    o += ",\"tiling_key\":" + std::to_string(n.tiling_key) + ",\"tiling_key_set\":" + (n.tiling_key_set ? "true" : "false");
    o += ",\"data_size\":" + std::to_string(size) + ",\"data_size_set\":" + (n.tiling.ascendc_emu_size_set() ? "true" : "false");
    o += ",\"typed_size\":" + std::to_string(n.typed_tiling_size) + ",\"extent\":" + std::to_string(extent);
    o += ",\"tiling\":" + esc(hex) + ",\"workspaces\":[";
    for (size_t i = 0; i < n.workspace_num && i < n.workspaces.size(); ++i)
        o += (i ? "," : "") + std::to_string(n.workspaces[i]);
    o += "],\"schedule_mode\":" + std::to_string(n.schedule_mode);
    o += ",\"inferred\":" + std::string(inferred ? "true" : "false") + ",\"out_shapes\":[";
    for (size_t i = 0; i < n.out_shapes.size(); ++i) o += (i ? "," : "") + shape_json(n.out_shapes[i].GetOriginShape());
    o += "]}\n";
    std::ofstream f(out_path);
    f << o;
    return f ? 0 : 2;
}
}  // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::strcmp(argv[1], "--describe") == 0) return describe(argv[2]);
    if (argc == 4 && std::strcmp(argv[1], "--run") == 0) return run(argv[2], argv[3]);
    std::fprintf(stderr, "usage: %s --describe OUT.json | --run IN.txt OUT.json\n", argv[0]);
    return 2;
}
