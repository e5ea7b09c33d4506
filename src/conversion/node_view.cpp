#include "conversion/node_view.h"

#include "atenrt/errors.h"

namespace atenrt::conversion {

std::string NodeView::where() const {
  return "node '" + node_->name + "' (" + node_->target.str() + ")";
}

const ir::Argument* NodeView::find(std::string_view arg_name) const {
  for (const auto& named : node_->inputs) {
    if (named.name == arg_name) return &named.arg;
  }
  return nullptr;
}

const ir::Argument& NodeView::arg(std::string_view arg_name) const {
  if (const ir::Argument* a = find(arg_name)) return *a;
  throw UnsupportedError(where() + ": missing argument '" + std::string(arg_name) + "'");
}

const ir::Argument& NodeView::arg(std::size_t index) const {
  if (index >= node_->inputs.size()) {
    throw UnsupportedError(where() + ": missing argument #" + std::to_string(index) + " (has " +
                           std::to_string(node_->inputs.size()) + ")");
  }
  return node_->inputs[index].arg;
}

bool NodeView::is_none(std::string_view arg_name) const {
  const ir::Argument* a = find(arg_name);
  return a == nullptr || a->is_none();
}

std::optional<std::int64_t> NodeView::literal_int(std::string_view arg_name) const {
  const ir::Argument* a = find(arg_name);
  if (!a) return std::nullopt;
  if (const auto* i = a->get_if<std::int64_t>()) return *i;
  if (const auto* s = a->get_if<ir::SymInt>()) return s->value;
  return std::nullopt;
}

std::optional<double> NodeView::literal_number(std::string_view arg_name) const {
  const ir::Argument* a = find(arg_name);
  if (!a) return std::nullopt;
  if (const auto* d = a->get_if<double>()) return *d;
  if (const auto* b = a->get_if<bool>()) return *b ? 1.0 : 0.0;
  if (auto i = literal_int(arg_name)) return static_cast<double>(*i);
  return std::nullopt;
}

std::optional<bool> NodeView::literal_bool(std::string_view arg_name) const {
  const ir::Argument* a = find(arg_name);
  if (!a) return std::nullopt;
  if (const auto* b = a->get_if<bool>()) return *b;
  return std::nullopt;
}

std::optional<std::string> NodeView::literal_string(std::string_view arg_name) const {
  const ir::Argument* a = find(arg_name);
  if (!a) return std::nullopt;
  if (const auto* s = a->get_if<std::string>()) return *s;
  return std::nullopt;
}

std::optional<std::vector<std::int64_t>> NodeView::literal_ints(std::string_view arg_name) const {
  const ir::Argument* a = find(arg_name);
  if (!a) return std::nullopt;
  if (const auto* l = a->get_if<ir::IntList>()) return *l;
  if (const auto* i = a->get_if<std::int64_t>()) return std::vector<std::int64_t>{*i};
  if (const auto* l = a->get_if<ir::SymIntList>()) {
    std::vector<std::int64_t> out;
    for (const auto& s : *l) {
      if (!s.value) return std::nullopt;
      out.push_back(*s.value);
    }
    return out;
  }
  return std::nullopt;
}

const ir::TensorMeta* NodeView::meta(std::string_view arg_name) const {
  const ir::Argument* a = find(arg_name);
  if (!a) return nullptr;
  if (const auto* t = a->get_if<ir::TensorRef>()) return graph_->meta(t->name);
  return nullptr;
}

const ir::TensorMeta* NodeView::output_meta(std::size_t index) const {
  if (index >= node_->outputs.size()) return nullptr;
  if (const auto* t = node_->outputs[index].get_if<ir::TensorRef>()) return graph_->meta(t->name);
  return nullptr;
}

std::optional<DType> NodeView::dtype_of(std::string_view arg_name) const {
  const ir::TensorMeta* m = meta(arg_name);
  return m ? m->dtype : std::nullopt;
}

namespace {
bool argument_mentions(const ir::Argument& a, const std::string& name) {
  if (const auto* t = a.get_if<ir::TensorRef>()) return t->name == name;
  if (const auto* l = a.get_if<ir::TensorList>()) {
    for (const auto& t : *l) {
      if (t.name == name) return true;
    }
  }
  if (const auto* l = a.get_if<ir::OptionalTensorList>()) {
    for (const auto& t : *l) {
      if (t && t->name == name) return true;
    }
  }
  if (const auto* s = a.get_if<ir::SymInt>()) return !s->value && s->name == name;
  if (const auto* l = a.get_if<ir::SymIntList>()) {
    for (const auto& s : *l) {
      if (!s.value && s.name == name) return true;
    }
  }
  return false;
}
}  // namespace

bool NodeView::output_used(std::size_t index) const {
  if (index >= node_->outputs.size()) return false;
  std::vector<std::string> names;
  const ir::Argument& out = node_->outputs[index];
  if (const auto* t = out.get_if<ir::TensorRef>()) names.push_back(t->name);
  if (const auto* l = out.get_if<ir::TensorList>()) {
    for (const auto& t : *l) names.push_back(t.name);
  }
  if (const auto* s = out.get_if<ir::SymInt>()) names.push_back(s->name);
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
    const ir::TensorMeta* m = graph_->meta(value);
    return m && !m->is_static();
  };
  for (const auto& in : node_->inputs) {
    if (const auto* t = in.arg.get_if<ir::TensorRef>()) {
      if (dynamic(t->name)) return true;
    } else if (const auto* l = in.arg.get_if<ir::TensorList>()) {
      for (const auto& t : *l) {
        if (dynamic(t.name)) return true;
      }
    }
  }
  for (const auto& out : node_->outputs) {
    if (const auto* t = out.get_if<ir::TensorRef>()) {
      if (dynamic(t->name)) return true;
    }
  }
  return false;
}

}  // namespace atenrt::conversion
