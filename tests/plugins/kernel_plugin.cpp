// A test plugin with kernels of its own (plugin layers, atenrt/plugin_layer.h),
// for tests/unit/conversion/plugin_test.cpp and tests/python/test_plugins.py:
//   test::bucketize v1  torch.bucketize(x, boundaries, right) with the
//                       boundaries as an attribute (float32 in, int64 out)
//   test::unbind v1     torch.unbind(x, dim): as many outputs as x.size(dim)
// and converters that use them for nodes named "plugin_*": aten.bucketize.Tensor
// reads its boundaries (a weight) at conversion time; aten.unbind.int returns
// a Tensor[]. Nodes named "misuse_*" misuse the kernel API on purpose.
#include <atenrt/extension.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using atenrt::Capability;
using atenrt::DType;
using atenrt::NetTensor;
using atenrt::PluginAttributes;
using atenrt::TensorInfo;

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

Capability named(const atenrt::NodeInfo& node) {
  if (starts_with(node.name(), "plugin_") || starts_with(node.name(), "misuse_")) return Capability::yes();
  return Capability::no("not a node this plugin takes");
}

// ---- test::bucketize
std::vector<TensorInfo> bucketize_infer(const std::vector<TensorInfo>& in, const PluginAttributes& a) {
  if (in.size() != 1) throw std::invalid_argument("takes one input");
  const auto& b = a.get_floats("boundaries");
  if (!std::is_sorted(b.begin(), b.end())) throw std::invalid_argument("boundaries are not sorted");
  const std::int64_t right = a.get_int("right");
  if (right != 0 && right != 1) throw std::invalid_argument("right must be 0 or 1");
  return {{DType::Int64, in[0].dims}};
}

void bucketize_execute(const atenrt::KernelLaunch& l) {
  const auto& b = l.attributes.get_floats("boundaries");
  const bool right = l.attributes.get_int("right") == 1;
  const float* x = l.inputs[0].data_as<float>();
  auto* y = l.outputs[0].data_as<std::int64_t>();
  for (std::int64_t i = 0, n = l.inputs[0].numel(); i < n; ++i) {
    const double v = x[i];
    // torch: right=False gives the first index with v <= b[i], right=True the first with v < b[i].
    y[i] = right ? std::upper_bound(b.begin(), b.end(), v) - b.begin() : std::lower_bound(b.begin(), b.end(), v) - b.begin();
  }
}

// ---- test::unbind
std::int64_t unbind_dim(const TensorInfo& x, const PluginAttributes& a) {
  std::int64_t dim = a.get_int("dim");
  if (dim < 0) dim += x.rank();
  if (dim < 0 || dim >= x.rank()) throw std::invalid_argument("dim out of range");
  if (x.dims[dim] < 0) throw std::invalid_argument("the size of dim must be static");
  return dim;
}

std::vector<TensorInfo> unbind_infer(const std::vector<TensorInfo>& in, const PluginAttributes& a) {
  if (in.size() != 1) throw std::invalid_argument("takes one input");
  const std::int64_t dim = unbind_dim(in[0], a);
  TensorInfo out{in[0].dtype, in[0].dims};
  out.dims.erase(out.dims.begin() + dim);
  return std::vector<TensorInfo>(static_cast<std::size_t>(in[0].dims[dim]), out);
}

void unbind_execute(const atenrt::KernelLaunch& l) {
  const auto& x = l.inputs[0];
  const TensorInfo info{x.dtype, {x.dims.begin(), x.dims.end()}};
  const std::int64_t dim = unbind_dim(info, l.attributes);
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < dim; ++d) outer *= x.dims[d];
  for (std::size_t d = dim + 1; d < x.dims.size(); ++d) inner *= x.dims[d];
  const std::size_t bytes = static_cast<std::size_t>(inner) * atenrt::element_bytes(x.dtype);
  const auto* src = static_cast<const char*>(x.data);
  for (std::size_t k = 0; k < l.outputs.size(); ++k) {
    auto* dst = static_cast<char*>(l.outputs[k].data);
    for (std::int64_t o = 0; o < outer; ++o) {
      std::memcpy(dst + o * bytes, src + (o * static_cast<std::int64_t>(l.outputs.size()) + k) * bytes, bytes);
    }
  }
}

// ---- converters
std::vector<NetTensor*> bucketize(atenrt::ConverterContext& ctx) {
  const auto boundaries = ctx.constant_value("boundaries");
  if (!boundaries) throw std::runtime_error("boundaries are not known at conversion time");
  if (boundaries->dtype != DType::Float32 || boundaries->dims.size() != 1) {
    throw std::runtime_error("boundaries must be 1-d float32");
  }
  const float* b = boundaries->data_as<float>();
  std::vector<double> values(b, b + boundaries->numel());
  PluginAttributes attrs{{"boundaries", values}, {"right", std::int64_t{ctx.bool_arg("right") ? 1 : 0}}};
  if (ctx.name() == "misuse_unknown_kernel") return ctx.plugin_layer("test::nothing", 1, {ctx.tensor("self")}, attrs);
  if (ctx.name() == "misuse_bad_attribute") attrs.set("no spaces", std::int64_t{1});
  if (ctx.name() == "misuse_refused") attrs.set("right", std::int64_t{7});
  if (ctx.name() == "misuse_list_as_input") {
    NetTensor* list = ctx.list({ctx.tensor("self")});
    return ctx.plugin_layer("test::bucketize", 1, {list}, attrs);
  }
  return ctx.plugin_layer("test::bucketize", 1, {ctx.tensor("self")}, attrs);
}

std::vector<NetTensor*> unbind(atenrt::ConverterContext& ctx) {
  const PluginAttributes attrs{{"dim", ctx.int_arg("dim")}};
  return {ctx.list(ctx.plugin_layer("test::unbind", 1, {ctx.tensor("self")}, attrs))};
}

void register_plugin(atenrt::PluginRegistry& registry) {
  registry.add_kernel({.name = "test::bucketize",
                       .version = 1,
                       .infer = bucketize_infer,
                       .execute = bucketize_execute,
                       .dtypes = {DType::Float32}});
  registry.add_kernel({.name = "test::unbind", .version = 1, .infer = unbind_infer, .execute = unbind_execute});
  registry.add_converter({.keys = {"aten.bucketize.Tensor"},
                          .convert = bucketize,
                          .validator = named,
                          .priority = atenrt::ConverterPriority::High});
  registry.add_converter({.keys = {"aten.unbind.int"},
                          .convert = unbind,
                          .validator = named,
                          .priority = atenrt::ConverterPriority::High});
}

}  // namespace

ATENRT_PLUGIN("kernel_test", register_plugin)
