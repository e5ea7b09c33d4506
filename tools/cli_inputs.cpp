#include "cli_inputs.h"

#include <map>

#include "atenrt/errors.h"
#include "atenrt/inspect.h"

namespace atenrt::cli {

bool is_torch_file(const std::string& path) { return path.ends_with(".pt") || path.ends_with(".pth"); }

namespace {

std::string expected_list(const std::vector<TensorSpec>& expected) {
  std::string want;
  for (const auto& e : expected) want += "\n  " + e.to_string();
  return want;
}

InputError count_error(const std::string& source, std::size_t given, const std::vector<TensorSpec>& expected) {
  return InputError(source + ": " + std::to_string(given) + " tensors given, the model takes " +
                    std::to_string(expected.size()) + ":" + expected_list(expected));
}

void check_one(const std::string& source, const std::string& label, std::size_t i, DType dtype,
               const std::vector<std::int64_t>& shape, const std::vector<TensorSpec>& expected) {
  if (i >= expected.size()) throw count_error(source, i + 1, expected);
  if (dtype != expected[i].dtype || !expected[i].accepts(shape)) {
    throw InputError(source + ": " + label + " is " + std::string(dtype_name(dtype)) + shape_to_string(shape) +
                     ", but input " + std::to_string(i) + " is " + expected[i].to_string());
  }
}

// A .pt dict may name the inputs; arr_N keys (or any other) count by position.
std::vector<std::pair<std::string, Tensor>> in_input_order(std::vector<std::pair<std::string, Tensor>> named,
                                                           const std::string& path,
                                                           const std::vector<TensorSpec>* expected) {
  if (!expected || named.empty() || named.front().first.starts_with("arr_")) return named;
  std::map<std::string, std::size_t> by_name;
  for (std::size_t i = 0; i < named.size(); ++i) by_name[named[i].first] = i;
  bool all_named = by_name.size() == expected->size();
  for (const auto& spec : *expected) all_named = all_named && by_name.contains(spec.name);
  if (!all_named) {
    std::string keys;
    for (const auto& [k, t] : named) keys += (keys.empty() ? "'" : ", '") + k + "'";
    throw InputError(path + ": a dict of inputs is keyed by the model's input names (keys " + keys +
                     "; inputs:" + expected_list(*expected) + "), or use a tuple or list in input order");
  }
  std::vector<std::pair<std::string, Tensor>> ordered;
  for (const auto& spec : *expected) ordered.push_back(std::move(named[by_name[spec.name]]));
  return ordered;
}

}  // namespace

ModelInputs read_model_inputs(const std::string& model, const std::string& path,
                              const std::vector<TensorSpec>* expected) {
  ModelInputs in;
  std::vector<std::pair<std::string, Tensor>> named;
  if (path.empty()) {
    SampleInputs sample = read_sample_inputs(model);
    in.source = model + ": " + sample.entry;
    for (std::size_t i = 0; i < sample.tensors.size(); ++i) {
      named.emplace_back("tensor " + std::to_string(i), std::move(sample.tensors[i]));
    }
  } else if (is_torch_file(path)) {
    in.source = path;
    named = in_input_order(read_torch_save(path), path, expected);
  } else {
    in.source = path;
    NpyHeaderCheck check;
    if (expected) {
      check = [&](std::size_t i, const std::string&, DType dtype, const std::vector<std::int64_t>& shape) {
        check_one(path, "arr_" + std::to_string(i), i, dtype, shape, *expected);
      };
    }
    named = read_npz(path, check);
  }
  for (std::size_t i = 0; i < named.size(); ++i) {
    if (expected) check_one(in.source, named[i].first, i, named[i].second.dtype(), named[i].second.sizes(), *expected);
    in.tensors.push_back(std::move(named[i].second));
  }
  if (expected && in.tensors.size() != expected->size()) throw count_error(in.source, in.tensors.size(), *expected);
  return in;
}

void write_outputs(const std::string& path, const std::vector<Tensor>& outputs, const std::vector<std::string>& names) {
  if (is_torch_file(path)) {
    write_torch_save(path, outputs, names);
  } else {
    write_npz(path, outputs, names);
  }
}

}  // namespace atenrt::cli
