#include "conversion/extension_context.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "atenrt/errors.h"
#include "conversion/context.h"
#include "conversion/host_tensor.h"
#include "conversion/scope.h"
#include "ir/checked_math.h"
#include "ir/memory_limit.h"
#include "network/plugin_kernels.h"

namespace atenrt::conversion {
namespace {

using network::NetworkTensor;

std::optional<TensorInfo> info_of(const ir::TensorMeta* m) {
  if (!m || !m->dtype) return std::nullopt;
  return TensorInfo{*m->dtype, m->static_sizes()};
}

// atenrt::NodeInfo over a NodeView; Base is NodeInfo or ConverterContext.
template <class Base>
class NodeInfoOver : public Base {
 public:
  explicit NodeInfoOver(const NodeView& view) : view_(view) {}

  std::string target() const override { return view_.target(); }
  std::string name() const override { return view_.name(); }
  std::string where() const override { return view_.where(); }
  bool has_arg(std::string_view arg) const override { return view_.has(arg); }
  bool is_none(std::string_view arg) const override { return view_.is_none(arg); }
  std::optional<std::int64_t> literal_int(std::string_view arg) const override { return view_.literal_int(arg); }
  std::optional<double> literal_float(std::string_view arg) const override { return view_.literal_number(arg); }
  std::optional<bool> literal_bool(std::string_view arg) const override { return view_.literal_bool(arg); }
  std::optional<std::string> literal_string(std::string_view arg) const override {
    return view_.literal_string(arg);
  }
  std::optional<std::vector<std::int64_t>> literal_ints(std::string_view arg) const override {
    return view_.literal_ints(arg);
  }
  std::optional<TensorInfo> arg_info(std::string_view arg) const override { return info_of(view_.meta(arg)); }
  std::optional<TensorInfo> output_info(std::size_t index) const override {
    return info_of(view_.output_meta(index));
  }
  bool output_used(std::size_t index) const override { return view_.output_used(index); }

 private:
  const NodeView& view_;
};

// A name from the network's op tables ("mul", "exp") to its enum value.
template <class Op>
Op op_named(std::string_view name, int count, std::string_view (*name_of)(Op), std::string_view what,
            const std::string& where) {
  std::string known;
  for (int k = 0; k < count; ++k) {
    const auto op = static_cast<Op>(k);
    if (name_of(op) == name) return op;
    known += (known.empty() ? "" : " ") + std::string(name_of(op));
  }
  throw UnsupportedError(where + ": unknown " + std::string(what) + " op '" + std::string(name) + "' (known: " +
                         known + ")");
}

constexpr int kReduceOpCount = 9;  // network::ReduceOp: sum ... all
static_assert(static_cast<int>(network::ReduceOp::All) == kReduceOpCount - 1,
              "a new ReduceOp: update kReduceOpCount (and the op list in include/atenrt/extension.h)");

class PluginConverterContext final : public NodeInfoOver<atenrt::ConverterContext> {
 public:
  PluginConverterContext(const Scope& scope, const NodeArgs& args)
      : NodeInfoOver<atenrt::ConverterContext>(args), scope_(scope), args_(args) {}

  // Tensors this call handed out; the plugin gets them back as results.
  NetworkTensor* own(const NetTensor* t, std::string_view what) const {
    if (!t) fail(std::string(what) + " is null");
    if (lists_.count(t)) fail(std::string(what) + " is a list (from list()), not a tensor: lists are only returned");
    if (!issued_.count(t)) {
      fail(std::string(what) + " is not a tensor of this converter call (tensors are valid during the call that "
           "made them)");
    }
    return reinterpret_cast<NetworkTensor*>(const_cast<NetTensor*>(t));
  }
  NetTensor* issue(NetworkTensor* t) {
    auto* handle = reinterpret_cast<NetTensor*>(t);
    if (t) issued_.insert(handle);
    return handle;
  }

  NetTensor* tensor(std::string_view arg) override { return issue(args_.tensor(arg)); }
  NetTensor* optional_tensor(std::string_view arg) override { return issue(args_.opt_tensor(arg)); }
  std::vector<NetTensor*> tensors(std::string_view arg) override {
    std::vector<NetTensor*> out;
    for (auto* t : args_.tensors(arg)) out.push_back(issue(t));
    return out;
  }
  std::int64_t int_arg(std::string_view arg) override { return args_.i(arg); }
  double float_arg(std::string_view arg) override { return args_.f(arg); }
  bool bool_arg(std::string_view arg) override { return args_.b(arg); }
  std::string string_arg(std::string_view arg) override { return args_.str(arg); }
  std::vector<std::int64_t> ints_arg(std::string_view arg) override { return args_.ints(arg); }
  std::optional<DType> dtype_arg(std::string_view arg) override { return args_.opt_dtype(arg); }
  std::optional<ConstTensorView> constant_value(std::string_view arg) override {
    std::optional<Tensor> t = args_.has(arg) ? args_.host_tensor(arg) : std::nullopt;
    if (!t || !t->defined()) return std::nullopt;
    // Kept for the call: the view points into it.
    const Tensor& kept = kept_.emplace_back(t->contiguous());
    return ConstTensorView{kept.dtype(), kept.sizes(), kept.raw_data()};
  }

  TensorInfo info(const NetTensor* x) override {
    const auto* t = own(x, "info(): the tensor");
    return {t->dtype, t->dims};
  }

  NetTensor* activation(std::string_view op, NetTensor* x, double alpha, double beta,
                        std::string_view suffix) override {
    const auto o = op_named(op, network::kActivationOpCount, network::activation_op_name, "activation", where());
    return issue(scope_.add_activation(suffix, own(x, "activation(): x"), o, alpha, beta));
  }
  NetTensor* elementwise(std::string_view op, NetTensor* a, NetTensor* b, std::string_view suffix) override {
    const auto o = op_named(op, network::kElementwiseOpCount, network::elementwise_op_name, "elementwise", where());
    return issue(scope_.add_elementwise(suffix, own(a, "elementwise(): a"), own(b, "elementwise(): b"), o));
  }
  NetTensor* unary(std::string_view op, NetTensor* x, std::string_view suffix) override {
    const auto o = op_named(op, network::kUnaryOpCount, network::unary_op_name, "unary", where());
    return issue(scope_.add_unary(suffix, own(x, "unary(): x"), o));
  }
  NetTensor* matmul(NetTensor* a, NetTensor* b, bool transpose_a, bool transpose_b,
                    std::string_view suffix) override {
    return issue(scope_.add_matmul(suffix, own(a, "matmul(): a"), own(b, "matmul(): b"), transpose_a, transpose_b));
  }
  NetTensor* reduce(std::string_view op, NetTensor* x, std::vector<std::int64_t> axes, bool keep_dims,
                    std::string_view suffix) override {
    const auto o = op_named(op, kReduceOpCount, network::reduce_op_name, "reduce", where());
    return issue(scope_.add_reduce(suffix, own(x, "reduce(): x"), o, std::move(axes), keep_dims));
  }
  NetTensor* softmax(NetTensor* x, std::int64_t axis, bool log, std::string_view suffix) override {
    return issue(scope_.add_softmax(suffix, own(x, "softmax(): x"), axis, log));
  }
  NetTensor* cast(NetTensor* x, DType to, std::string_view suffix) override {
    check_dtype(to, "cast()");
    return issue(scope_.add_cast(suffix, own(x, "cast(): x"), to));
  }
  NetTensor* constant(std::vector<double> values, std::vector<std::int64_t> dims, DType dtype,
                      std::string_view suffix) override {
    check_dtype(dtype, "constant()");
    const std::string what = where() + ": constant()";
    const std::uint64_t bytes = checked::nbytes<UnsupportedError>(dims, element_size(dtype), what);
    const std::uint64_t numel = checked::numel<UnsupportedError>(dims, what);
    if (bytes > resolve_memory_limit(0)) {
      fail("constant() of " + format_bytes(bytes) + " exceeds the memory limit");
    }
    if (values.size() != numel && values.size() != 1) {
      fail("constant() has " + std::to_string(values.size()) + " values for " + shape_to_string(dims) + " (" +
           std::to_string(numel) + " elements, or give one value for all)");
    }
    if (values.size() == 1 && numel != 1) values.assign(numel, values[0]);
    return issue(scope_.add_constant(suffix, tensor_from(dtype, std::move(dims), values)));
  }
  NetTensor* reshape(NetTensor* x, std::vector<std::int64_t> dims, std::string_view suffix) override {
    return issue(scope_.add_reshape(suffix, own(x, "reshape(): x"), std::move(dims)));
  }
  NetTensor* permute(NetTensor* x, std::vector<std::int64_t> perm, std::string_view suffix) override {
    return issue(scope_.add_permute(suffix, own(x, "permute(): x"), std::move(perm)));
  }
  NetTensor* concat(std::vector<NetTensor*> xs, std::int64_t axis, std::string_view suffix) override {
    std::vector<NetworkTensor*> in;
    for (std::size_t k = 0; k < xs.size(); ++k) in.push_back(own(xs[k], "concat(): xs[" + std::to_string(k) + "]"));
    return issue(scope_.add_concatenation(suffix, std::move(in), axis));
  }
  NetTensor* slice(NetTensor* x, std::vector<std::int64_t> axes, std::vector<std::int64_t> starts,
                   std::vector<std::int64_t> ends, std::vector<std::int64_t> steps, std::string_view suffix) override {
    return issue(scope_.add_slice(suffix, own(x, "slice(): x"), std::move(axes), std::move(starts), std::move(ends),
                                  std::move(steps)));
  }
  NetTensor* select(NetTensor* cond, NetTensor* a, NetTensor* b, std::string_view suffix) override {
    return issue(scope_.add_select(suffix, own(cond, "select(): cond"), own(a, "select(): a"), own(b, "select(): b")));
  }

  std::vector<NetTensor*> plugin_layer(std::string_view kernel, std::int64_t version, std::vector<NetTensor*> inputs,
                                       PluginAttributes attributes, std::string_view suffix) override {
    const network::PluginKernel* k = network::find_plugin_kernel(kernel, version);
    if (!k) {
      fail("plugin_layer(): no loaded plugin registers " + network::kernel_label(kernel, version) +
           " (PluginRegistry::add_kernel)");
    }
    network::PluginParams params{std::string(kernel), version, k->plugin, std::move(attributes)};
    if (auto problem = network::plugin_params_problem(params); !problem.empty()) fail("plugin_layer(): " + problem);
    std::vector<NetworkTensor*> in;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      in.push_back(own(inputs[i], "plugin_layer(): inputs[" + std::to_string(i) + "]"));
    }
    network::Layer* layer = scope_.add_layer(suffix, std::move(in), std::move(params));
    std::vector<NetTensor*> out;
    for (auto* t : layer->outputs) out.push_back(issue(t));
    return out;
  }
  NetTensor* list(std::vector<NetTensor*> items) override {
    std::vector<NetworkTensor*> tensors;
    for (std::size_t i = 0; i < items.size(); ++i) tensors.push_back(own(items[i], "list(): items[" + std::to_string(i) + "]"));
    // The handle is the address of the list's entry: never a NetworkTensor.
    auto& entry = list_store_.emplace_back(std::move(tensors));
    const auto* handle = reinterpret_cast<const NetTensor*>(&entry);
    lists_[handle] = &entry;
    return const_cast<NetTensor*>(handle);
  }

  // The converter's results as the registry's Outputs.
  Outputs results(const std::vector<NetTensor*>& outs) const {
    Outputs out;
    for (std::size_t k = 0; k < outs.size(); ++k) {
      if (auto it = lists_.find(outs[k]); it != lists_.end()) {
        Value::List items;
        for (auto* t : *it->second) items.emplace_back(t);
        out.emplace_back(std::move(items));
      } else if (outs[k]) {
        out.emplace_back(own(outs[k], "output " + std::to_string(k)));
      } else {
        out.emplace_back();
      }
    }
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw UnsupportedError(where() + ": " + why); }
  void check_dtype(DType d, std::string_view what) const {
    if (static_cast<int>(d) >= kDTypeCount) {
      fail(std::string(what) + ": dtype " + std::to_string(static_cast<int>(d)) + " is not an atenrt::DType");
    }
  }

  const Scope& scope_;
  const NodeArgs& args_;
  std::set<const NetTensor*> issued_;
  std::deque<Tensor> kept_;                              // what constant_value views
  std::deque<std::vector<NetworkTensor*>> list_store_;  // list() results
  std::map<const NetTensor*, const std::vector<NetworkTensor*>*> lists_;
};

// "aten.renorm.default": a namespace, an op and an overload, nothing empty.
bool is_overload_key(const std::string& key) {
  const auto first = key.find('.');
  const auto last = key.rfind('.');
  if (first == std::string::npos || first == last) return false;
  if (first == 0 || last + 1 == key.size()) return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  });
}

}  // namespace

std::vector<ConverterRegistration> registrations_of(const atenrt::ConverterSpec& spec, const std::string& family,
                                                    const std::string& source) {
  if (spec.keys.empty()) throw FormatError(source + ": a converter lists no key");
  if (!spec.convert) throw FormatError(source + ": the converter for " + spec.keys.front() + " has no convert function");
  for (const auto& key : spec.keys) {
    if (!is_overload_key(key)) {
      throw FormatError(source + ": converter key '" + key +
                  "' is not an op overload (namespace.op.overload, e.g. aten.renorm.default)");
    }
  }
  ConverterOptions options;
  options.priority = spec.priority == atenrt::ConverterPriority::High ? Priority::High : Priority::Standard;
  options.supports_dynamic_shapes = spec.supports_dynamic_shapes;
  options.enabled = spec.enabled;
  if (spec.validator) {
    options.validator = [validator = spec.validator](const NodeView& node, const ConversionSettings&) {
      const NodeInfoOver<atenrt::NodeInfo> info(node);
      const atenrt::Capability c = validator(info);
      return c.ok ? Capability::yes() : Capability::no(c.reason);
    };
  }
  ConverterFn convert = [fn = spec.convert, source](const Scope& scope, const NodeArgs& args) -> Outputs {
    PluginConverterContext ctx(scope, args);
    std::vector<NetTensor*> outs;
    try {
      outs = fn(ctx);
    } catch (const Error&) {
      throw;  // messages made here name the node already; the plugin's own say what they say
    } catch (const std::exception& e) {
      throw UnsupportedError("the converter from " + source + " failed: " + e.what());
    }
    return ctx.results(outs);
  };
  std::vector<ConverterRegistration> out;
  for (const auto& key : spec.keys) out.push_back({key, family, convert, options, source, 0});
  return out;
}

}  // namespace atenrt::conversion
