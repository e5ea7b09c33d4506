#include "ir/node_view.h"

#include "atenrt/errors.h"

namespace atenrt::ir {

std::string NodeView::where() const { return node_->describe(); }

const Argument* NodeView::find(std::string_view arg_name) const {
  for (const auto& named : node_->inputs) {
    if (named.name == arg_name) return &named.arg;
  }
  return nullptr;
}

const Argument& NodeView::arg(std::string_view arg_name) const {
  if (const Argument* a = find(arg_name)) return *a;
  throw UnsupportedError(where() + ": missing argument '" + std::string(arg_name) + "'");
}

const Argument& NodeView::arg(std::size_t index) const {
  if (index >= node_->inputs.size()) {
    throw UnsupportedError(where() + ": missing argument #" + std::to_string(index) + " (has " +
                           std::to_string(node_->inputs.size()) + ")");
  }
  return node_->inputs[index].arg;
}

bool NodeView::is_none(std::string_view arg_name) const {
  const Argument* a = find(arg_name);
  return a == nullptr || a->is_none();
}

std::optional<std::int64_t> NodeView::literal_int(std::string_view arg_name) const {
  const Argument* a = find(arg_name);
  return a ? ir::literal_int(*a) : std::nullopt;
}

std::optional<double> NodeView::literal_number(std::string_view arg_name) const {
  const Argument* a = find(arg_name);
  return a ? ir::literal_number(*a) : std::nullopt;
}

std::optional<bool> NodeView::literal_bool(std::string_view arg_name) const {
  const Argument* a = find(arg_name);
  return a ? ir::literal_bool(*a) : std::nullopt;
}

std::optional<std::string> NodeView::literal_string(std::string_view arg_name) const {
  const Argument* a = find(arg_name);
  return a ? ir::literal_string(*a) : std::nullopt;
}

std::optional<std::vector<std::int64_t>> NodeView::literal_ints(std::string_view arg_name) const {
  const Argument* a = find(arg_name);
  return a ? ir::literal_ints(*a) : std::nullopt;
}

const TensorMeta* NodeView::meta(std::string_view arg_name) const {
  const Argument* a = find(arg_name);
  if (!a) return nullptr;
  if (const auto* t = a->get_if<TensorRef>()) return graph_->meta(t->name);
  return nullptr;
}

const TensorMeta* NodeView::output_meta(std::size_t index) const {
  if (index >= node_->outputs.size()) return nullptr;
  if (const auto* t = node_->outputs[index].get_if<TensorRef>()) return graph_->meta(t->name);
  return nullptr;
}

std::optional<DType> NodeView::dtype_of(std::string_view arg_name) const {
  const TensorMeta* m = meta(arg_name);
  return m ? m->dtype : std::nullopt;
}

namespace {
bool argument_mentions(const Argument& a, const std::string& name) {
  bool found = false;
  for_each_value(a, [&](const std::string& v) { found = found || v == name; });
  return found;
}
}  // namespace

bool NodeView::output_used(std::size_t index) const {
  if (index >= node_->outputs.size()) return false;
  std::vector<std::string> names;
  const Argument& out = node_->outputs[index];
  if (const auto* t = out.get_if<TensorRef>()) names.push_back(t->name);
  if (const auto* l = out.get_if<TensorList>()) {
    for (const auto& t : *l) names.push_back(t.name);
  }
  if (const auto* s = out.get_if<SymInt>()) names.push_back(s->name);
  for (const auto& name : names) {
    for (const auto& n : graph_->nodes) {
      for (const auto& in : n.inputs) {
        if (argument_mentions(in.arg, name)) return true;
      }
    }
    for (const auto& o : graph_->outputs) {
      if (argument_mentions(o, name)) return true;
    }
  }
  return false;
}

bool NodeView::has_dynamic_shapes() const {
  auto dynamic = [&](const std::string& value) {
    const TensorMeta* m = graph_->meta(value);
    return m && !m->is_static();
  };
  for (const auto& in : node_->inputs) {
    if (const auto* t = in.arg.get_if<TensorRef>()) {
      if (dynamic(t->name)) return true;
    } else if (const auto* l = in.arg.get_if<TensorList>()) {
      for (const auto& t : *l) {
        if (dynamic(t.name)) return true;
      }
    }
  }
  for (const auto& out : node_->outputs) {
    if (const auto* t = out.get_if<TensorRef>()) {
      if (dynamic(t->name)) return true;
    }
  }
  return false;
}

}  // namespace atenrt::ir
