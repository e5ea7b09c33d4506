// What a graph value is during conversion: a network tensor, a host tensor
// known at conversion time (weights, folded constants), a static scalar, a
// list of values (tuple / Tensor[] results), or nothing.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "atenrt/tensor.h"
#include "network/network.h"

namespace atenrt::conversion {

struct Value {
  using List = std::vector<Value>;
  std::variant<std::monostate, network::NetworkTensor*, Tensor, std::int64_t, double, bool, List> v;

  Value() = default;
  Value(network::NetworkTensor* t) : v(t) {}  // NOLINT: implicit, converters return tensors
  Value(Tensor t) : v(std::move(t)) {}        // NOLINT
  Value(std::int64_t i) : v(i) {}             // NOLINT
  Value(int i) : v(static_cast<std::int64_t>(i)) {}  // NOLINT
  Value(double d) : v(d) {}                   // NOLINT
  Value(bool b) : v(b) {}                     // NOLINT
  Value(List l) : v(std::move(l)) {}          // NOLINT

  bool is_none() const { return std::holds_alternative<std::monostate>(v); }
  bool is_network_tensor() const { return std::holds_alternative<network::NetworkTensor*>(v); }
  bool is_host_tensor() const { return std::holds_alternative<Tensor>(v); }
  bool is_tensor() const { return is_network_tensor() || is_host_tensor(); }
  bool is_int() const { return std::holds_alternative<std::int64_t>(v); }
  bool is_double() const { return std::holds_alternative<double>(v); }
  bool is_bool() const { return std::holds_alternative<bool>(v); }
  bool is_number() const { return is_int() || is_double() || is_bool(); }
  bool is_list() const { return std::holds_alternative<List>(v); }

  network::NetworkTensor* network_tensor() const { return std::get<network::NetworkTensor*>(v); }
  const Tensor& host_tensor() const { return std::get<Tensor>(v); }
  std::int64_t as_int() const { return std::get<std::int64_t>(v); }
  double as_double() const { return std::get<double>(v); }
  bool as_bool() const { return std::get<bool>(v); }
  const List& list() const { return std::get<List>(v); }

  // "network tensor float32[2, 3]", "int 4", "list of 3" ...
  std::string describe() const;
};

// What a converter returns: one value per node output, in order. A tuple
// output that the converter does not compute is Value() (none); using it
// later is an error that names the node.
using Outputs = std::vector<Value>;

}  // namespace atenrt::conversion
