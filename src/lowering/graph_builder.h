// A small builder that emits ATen nodes into a graph being lowered: fresh
// unique names, schema-ordered named arguments (defaults filled from the
// ATen schemas) and TensorMeta inferred for the ops that decompositions emit.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace atenrt::lowering {

// Thrown by a decomposition that cannot handle this node (a dynamic dim it
// needs, a dtype it does not cover): the node stays as it is and the
// reason goes to the report. Not an error.
struct Decline {
  std::string reason;
};

// Names already used in a graph (values and nodes), so new ones are unique.
class NameSet {
 public:
  explicit NameSet(const ir::Graph& graph);
  // "<base>", or "<base>_<n>" for the first n that is free; reserves it.
  std::string fresh(const std::string& base);
  void reserve(const std::string& name) { used_.insert(name); }

 private:
  std::set<std::string> used_;
};

// The operands of elementwise ops are plain arguments: a TensorRef or a number.
inline ir::Argument num(double v) { return ir::Argument(v); }

class GraphBuilder {
 public:
  // New nodes are named "<prefix>_<op>[_n]" and keep `metadata` of the node
  // they replace.
  GraphBuilder(ir::Graph& graph, NameSet& names, std::string prefix,
               std::map<std::string, std::string> metadata = {});
  ~GraphBuilder();
  GraphBuilder(const GraphBuilder&) = delete;
  GraphBuilder& operator=(const GraphBuilder&) = delete;

  // Emits `target` ("aten.mm.default") with named arguments; returns the
  // output value names (one per tensor the op returns).
  std::vector<std::string> emit_multi(const std::string& target, std::vector<ir::NamedArgument> args);
  std::string emit(const std::string& target, std::vector<ir::NamedArgument> args);

  const ir::TensorMeta& meta(const std::string& value) const;
  DType dtype(const std::string& value) const;
  int rank(const std::string& value) const;
  // Static sizes; throws Decline (naming `why`) when a dim is symbolic.
  std::vector<std::int64_t> static_sizes(const std::string& value, const char* why) const;
  std::int64_t static_dim(const std::string& value, int dim, const char* why) const;

  // Elementwise (broadcasting; a double operand is a Python scalar).
  std::string add(const ir::Argument& a, const ir::Argument& b);
  std::string sub(const ir::Argument& a, const ir::Argument& b);
  std::string mul(const ir::Argument& a, const ir::Argument& b);
  std::string div(const ir::Argument& a, const ir::Argument& b);
  std::string pow(const std::string& a, double exponent);
  std::string where(const std::string& cond, const std::string& a, const std::string& b);
  std::string clamp(const std::string& x, std::optional<double> lo, std::optional<double> hi);
  std::string compare(const std::string& op, const std::string& x, const ir::Argument& other);  // "gt", "lt", "eq", ...
  std::string unary(const std::string& op, const std::string& x);  // "exp", "log", "sqrt", ...
  // Matrix products.
  std::string mm(const std::string& a, const std::string& b);
  std::string bmm(const std::string& a, const std::string& b);
  // Reductions over `dims` (empty = all dims for sum/mean).
  std::string sum(const std::string& x, std::vector<std::int64_t> dims, bool keepdim);
  std::string mean(const std::string& x, std::vector<std::int64_t> dims, bool keepdim);
  std::string amax(const std::string& x, std::vector<std::int64_t> dims, bool keepdim);
  std::string amin(const std::string& x, std::vector<std::int64_t> dims, bool keepdim);
  // Views and data movement.
  std::string view(const std::string& x, std::vector<std::int64_t> sizes);
  std::string reshape(const std::string& x, std::vector<std::int64_t> sizes);
  std::string permute(const std::string& x, std::vector<std::int64_t> dims);
  std::string transpose2d(const std::string& x) { return permute(x, {1, 0}); }
  std::string expand(const std::string& x, std::vector<std::int64_t> sizes);
  std::string unsqueeze(const std::string& x, std::int64_t dim);
  std::string squeeze(const std::string& x, std::vector<std::int64_t> dims);
  std::string slice(const std::string& x, std::int64_t dim, std::int64_t start, std::int64_t end,
                    std::int64_t step = 1);
  std::string cat(const std::vector<std::string>& xs, std::int64_t dim);
  std::string index_select(const std::string& x, std::int64_t dim, const std::string& index);
  // Creation.
  std::string arange(double start, double end, double step, DType dtype);
  std::string full(std::vector<std::int64_t> sizes, double value, DType dtype);
  std::string cast(const std::string& x, DType dtype);  // _to_copy(dtype=...)

  // The nodes emitted so far, in order; the builder forgets them.
  std::vector<ir::Node> take_nodes();
  // Drops what was emitted (values' metas included).
  void abandon();

 private:
  ir::Graph& graph_;
  NameSet& names_;
  std::string prefix_;
  std::map<std::string, std::string> metadata_;
  std::vector<ir::Node> nodes_;
  std::vector<std::string> created_values_;
};

// Normalises a possibly negative dim against rank; throws FormatError naming
// `where` when out of range.
std::int64_t normalize_dim(std::int64_t dim, std::int64_t rank, const std::string& where);

// Shape/dtype inference for the ops the builder emits. Returns nullopt when
// the op is not one the builder knows.
std::optional<std::vector<ir::TensorMeta>> infer_meta(const ir::Graph& graph, const ir::Node& node);

// Type promotion of two operands (tensor values or numbers), as PyTorch does
// for the categories bool < integer < floating.
DType promote(const ir::Graph& graph, const ir::Argument& a, const ir::Argument& b);

}  // namespace atenrt::lowering
