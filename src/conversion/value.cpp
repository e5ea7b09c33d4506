#include "conversion/value.h"

namespace atenrt::conversion {

std::string Value::describe() const {
  if (is_none()) return "None";
  if (is_network_tensor()) {
    const auto* t = network_tensor();
    return "tensor " + network::desc_to_string(t->desc());
  }
  if (is_host_tensor()) {
    return "constant tensor " + std::string(dtype_name(host_tensor().dtype())) +
           shape_to_string(host_tensor().sizes());
  }
  if (is_int()) return "int " + std::to_string(as_int());
  if (is_double()) return "float " + std::to_string(as_double());
  if (is_bool()) return as_bool() ? "bool True" : "bool False";
  return "list of " + std::to_string(list().size());
}

}  // namespace atenrt::conversion
