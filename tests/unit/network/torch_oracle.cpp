#include "torch_oracle.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "ir/npz.h"
#include "reference/reference.h"
#include "support/compare.h"

namespace atenrt::testing {

namespace fs = std::filesystem;
using network::Dims;

namespace {

Tensor generate(const InputSpec& spec, std::mt19937& rng) {
  Tensor t(spec.dtype, spec.dims);
  const std::int64_t n = t.numel();
  std::vector<double> v(static_cast<std::size_t>(n));
  std::normal_distribution<double> normal(0.0, 2.0);
  auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  auto integer = [&](std::int64_t lo, std::int64_t hi) {
    return static_cast<double>(std::uniform_int_distribution<std::int64_t>(lo, hi)(rng));
  };
  const std::int64_t last = spec.dims.empty() ? 1 : spec.dims.back();
  for (std::int64_t i = 0; i < n; ++i) {
    double& e = v[i];
    switch (spec.gen) {
      case Gen::Normal: e = normal(rng); break;
      case Gen::Positive: e = uniform(0.1, 3.0); break;
      case Gen::Unit: e = uniform(-0.9, 0.9); break;
      case Gen::AboveOne: e = uniform(1.0, 4.0); break;
      case Gen::HalfSteps: e = integer(-8, 8) / 2.0; break;
      case Gen::SmallInt: e = integer(-6, 6); break;
      case Gen::NonZeroInt: e = integer(1, 6) * (integer(0, 1) ? 1 : -1); break;
      case Gen::Exponent: e = integer(0, 3); break;
      case Gen::Bool: e = integer(0, 1); break;
      case Gen::Special: {
        const double specials[] = {NAN, INFINITY, -INFINITY, 0.0};
        e = integer(0, 2) == 0 ? specials[static_cast<int>(integer(0, 3))] : normal(rng);
        break;
      }
      case Gen::Index: e = integer(0, spec.bound - 1); break;
      case Gen::IndexNeg: e = integer(-spec.bound, spec.bound - 1); break;
      case Gen::Distinct: e = 0; break;  // filled below
      case Gen::Wide: e = integer(-300, 300); break;
    }
  }
  if (spec.gen == Gen::Distinct) {
    std::vector<std::int64_t> pool(static_cast<std::size_t>(spec.bound));
    for (std::int64_t r = 0; r < n / std::max<std::int64_t>(last, 1); ++r) {
      for (std::int64_t k = 0; k < spec.bound; ++k) pool[k] = k;
      std::shuffle(pool.begin(), pool.end(), rng);
      for (std::int64_t k = 0; k < last; ++k) v[r * last + k] = static_cast<double>(pool[k]);
    }
  }
  const std::size_t es = element_size(spec.dtype);
  for (std::int64_t i = 0; i < n; ++i) {
    std::byte* p = t.raw_mutable_data() + i * static_cast<std::int64_t>(es);
    switch (spec.dtype) {
      case DType::Float32: { float f = static_cast<float>(v[i]); std::memcpy(p, &f, 4); break; }
      case DType::Float64: std::memcpy(p, &v[i], 8); break;
      case DType::Int64: { auto x = static_cast<std::int64_t>(v[i]); std::memcpy(p, &x, 8); break; }
      case DType::Int32: { auto x = static_cast<std::int32_t>(v[i]); std::memcpy(p, &x, 4); break; }
      case DType::Bool: { auto x = static_cast<std::uint8_t>(v[i] != 0); std::memcpy(p, &x, 1); break; }
      default: throw Error("oracle: cannot generate " + std::string(dtype_name(spec.dtype)));
    }
  }
  return t;
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

}  // namespace

OracleResult run_oracle(const std::vector<OracleCase>& cases) {
  OracleResult result;
  if (std::system("/usr/bin/python3 -c 'import torch' > /dev/null 2>&1") != 0) {
    result.torch_missing = true;
    return result;
  }
  const fs::path dir = fs::temp_directory_path() /
                       ("atenrt_oracle_" + std::to_string(std::random_device{}()));
  fs::create_directories(dir);
  std::vector<std::vector<Tensor>> inputs(cases.size());
  std::ostringstream py;
  py << "import math, sys, numpy as np, torch\nimport torch.nn.functional as F\n"
     << "torch.set_num_threads(1)\nd = " << quote(dir.string()) << "\ncases = [\n";
  for (std::size_t c = 0; c < cases.size(); ++c) {
    std::mt19937 rng(static_cast<unsigned>(1000 + c));
    for (const auto& spec : cases[c].inputs) inputs[c].push_back(generate(spec, rng));
    if (!inputs[c].empty()) io::write_npz((dir / (cases[c].name + "_in.npz")).string(), inputs[c]);
    py << "  (" << quote(cases[c].name) << ", " << quote(cases[c].expr) << ", " << cases[c].inputs.size() << "),\n";
  }
  py << "]\n"
        "for name, expr, n in cases:\n"
        "    z = np.load(f'{d}/{name}_in.npz') if n else {}\n"
        "    env = {'torch': torch, 'F': F, 'math': math}\n"
        "    for i in range(n): env[f'x{i}'] = torch.from_numpy(z[f'arr_{i}'])\n"
        "    try:\n"
        "        r = eval(expr, env)\n"
        "        r = tuple(r) if isinstance(r, (tuple, list)) else (r,)\n"
        "        np.savez(f'{d}/{name}_out.npz', *[t.detach().contiguous().numpy() for t in r])\n"
        "    except Exception as e:\n"
        "        open(f'{d}/{name}_err.txt', 'w').write(repr(e))\n";
  std::ofstream((dir / "oracle.py")) << py.str();
  const std::string cmd = "/usr/bin/python3 " + (dir / "oracle.py").string() + " > " +
                          (dir / "log.txt").string() + " 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    std::ifstream log(dir / "log.txt");
    std::stringstream s;
    s << log.rdbuf();
    result.failures.push_back("python oracle failed: " + s.str());
    fs::remove_all(dir);
    return result;
  }
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const OracleCase& oc = cases[c];
    const std::string prefix = oc.name + " [" + oc.expr + "]: ";
    try {
      if (fs::exists(dir / (oc.name + "_err.txt"))) {
        std::ifstream e(dir / (oc.name + "_err.txt"));
        std::stringstream s;
        s << e.rdbuf();
        result.failures.push_back(prefix + "torch raised " + s.str());
        continue;
      }
      const auto want = io::read_npz((dir / (oc.name + "_out.npz")).string());
      network::Network net;
      std::vector<network::NetworkTensor*> ins;
      reference::TensorMap feed;
      for (std::size_t i = 0; i < oc.inputs.size(); ++i) {
        const std::string name = "x" + std::to_string(i);
        ins.push_back(net.add_input(name, oc.inputs[i].dtype, oc.inputs[i].dims));
        feed[name] = inputs[c][i];
      }
      const auto outs = oc.build(net, ins);
      for (auto* o : outs) net.mark_output(o);
      net.validate();
      const auto got = reference::run(net, feed);
      if (outs.size() != want.size()) {
        result.failures.push_back(prefix + std::to_string(outs.size()) + " outputs, torch gives " +
                                  std::to_string(want.size()));
        continue;
      }
      for (std::size_t i = 0; i < outs.size(); ++i) {
        // The network's inferred desc must be what the kernel produced.
        const Tensor& g = got.at(outs[i]->name);
        // (-1: a size only the run knows, a data-dependent layer's.)
        bool dims_ok = g.sizes().size() == outs[i]->dims.size();
        for (std::size_t d = 0; dims_ok && d < g.sizes().size(); ++d) {
          dims_ok = outs[i]->dims[d] == network::kDynamicDim || outs[i]->dims[d] == g.sizes()[d];
        }
        if (!dims_ok || g.dtype() != outs[i]->dtype) {
          result.failures.push_back(prefix + "inferred " + network::desc_to_string(outs[i]->desc()) +
                                    " but ran to " + network::desc_to_string({g.dtype(), g.sizes()}));
          break;
        }
        const std::string diff = compare_tensors(g, want[i], oc.rtol, oc.atol);
        if (!diff.empty()) {
          result.failures.push_back(prefix + "output " + std::to_string(i) + ": " + diff);
          break;
        }
      }
      ++result.checked;
    } catch (const std::exception& e) {
      result.failures.push_back(prefix + "threw " + e.what());
    }
  }
  fs::remove_all(dir);
  return result;
}

}  // namespace atenrt::testing
