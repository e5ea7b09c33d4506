// Loads an engine file (or compiles a .pt2 archive), runs it once on inputs
// filled with ones and prints every output: the C++ API from a program of your own.
//   run_engine model.atrt      (atenrt compile model.pt2 -o model.atrt makes one)
#include <atenrt/atenrt.h>
#include <atenrt/inspect.h>
#include <atenrt/log.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

namespace {

void fill_ones(atenrt::Tensor& t) {
  switch (t.dtype()) {
    case atenrt::DType::Float32:
      for (std::int64_t i = 0; i < t.numel(); ++i) t.mutable_data<float>()[i] = 1.0f;
      break;
    case atenrt::DType::Int64:
      for (std::int64_t i = 0; i < t.numel(); ++i) t.mutable_data<std::int64_t>()[i] = 1;
      break;
    default:
      break;  // other dtypes stay zero
  }
}

void print(const atenrt::TensorSpec& spec, const atenrt::Tensor& t) {
  std::cout << spec.to_string() << ":";
  const atenrt::Tensor c = t.contiguous();
  const std::int64_t shown = std::min<std::int64_t>(c.numel(), 8);
  for (std::int64_t i = 0; i < shown; ++i) {
    if (c.dtype() == atenrt::DType::Float32) std::cout << " " << c.data<float>()[i];
    if (c.dtype() == atenrt::DType::Int64) std::cout << " " << c.data<std::int64_t>()[i];
  }
  if (shown < c.numel()) std::cout << " ...";
  std::cout << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " MODEL.atrt|MODEL.pt2\n";
    return 2;
  }
  // The library's messages go where the program wants them (here: stderr, prefixed).
  atenrt::set_log_callback([](atenrt::LogLevel level, std::string_view message) {
    std::cerr << "[atenrt " << atenrt::log_level_name(level) << "] " << message << "\n";
  }, atenrt::LogLevel::Info);
  try {
    const std::string path = argv[1];
    atenrt::Engine engine = atenrt::is_engine_file(path) ? atenrt::Engine::load(path) : atenrt::compile(path);
    std::vector<atenrt::Tensor> inputs;
    for (const auto& spec : engine.inputs()) {
      inputs.emplace_back(spec.dtype, spec.dims);
      fill_ones(inputs.back());
    }
    atenrt::ExecutionContext ctx = engine.create_context();
    const std::vector<atenrt::Tensor>& outputs = ctx.run(inputs);
    for (std::size_t i = 0; i < outputs.size(); ++i) print(engine.outputs()[i], outputs[i]);
  } catch (const atenrt::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
