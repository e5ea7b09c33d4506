// What the `atenrt` program asks of the library besides compile and run:
// inspecting archives and engine files, the converter table, .npz files.
// tools/ uses only these headers (include/atenrt/).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "atenrt/export.h"
#include "atenrt/settings.h"
#include "atenrt/tensor.h"

namespace atenrt {

// True for an engine file, false for a .pt2 archive (a zip); FormatError
// when the file cannot be opened.
ATENRT_API bool is_engine_file(const std::string& path);

struct InspectReport {
  std::string kind;  // "pt2" or "engine"
  std::string text;  // for people (untrusted names escaped)
  std::string json;  // one JSON object
};

// A .pt2: producer, schema, layout, inputs and outputs, weights, the op
// histogram; with `lowered`, what compile's lowering does under `settings`
// (the same decompositions and passes, the converter registry deciding which
// ops keep their converter). An engine file: what it was built with, the
// load-time settings, inputs and outputs, steps with kernels and fusions,
// the memory plan and the weights. `verbose` lists every weight and step.
ATENRT_API InspectReport inspect(const std::string& path, const CompileSettings& settings = {}, bool lowered = false,
                      bool verbose = false);

// One converter registration, as the partitioner and the converter see it.
struct ConverterInfo {
  std::string key;       // "aten.add.Tensor"
  std::string family;    // "elementwise"
  std::string priority;  // "high" or "standard"
  bool validator = false;
  bool dynamic_shapes = false;
  bool enabled = true;
};
ATENRT_API std::vector<ConverterInfo> list_converters();
ATENRT_API std::vector<std::string> converter_families();  // sorted

// numpy .npz files, the CLI's tensor exchange format. read_npz returns the
// arrays with their names, positional (arr_0, arr_1, ...) in order; each
// array's header (position, "file:entry", dtype, shape) goes to `check`
// before its payload is read, so a wrong array is refused before it is
// inflated. write_npz names them arr_0, arr_1, ... unless `names` are given.
using NpyHeaderCheck = std::function<void(std::size_t index, const std::string& where, DType dtype,
                                          const std::vector<std::int64_t>& shape)>;
ATENRT_API std::vector<std::pair<std::string, Tensor>> read_npz(const std::string& path, const NpyHeaderCheck& check = {});
ATENRT_API void write_npz(const std::string& path, const std::vector<Tensor>& tensors,
               const std::vector<std::string>& names = {});

// Reference outputs saved with torch.save (a .pt file), read without torch
// and treated as untrusted (the .pt2 weights' restricted unpickler: no code
// runs, only tensor rebuilds): a tensor or tuples/lists of tensors come back
// positional (arr_0, arr_1, ...; nested ones depth first), a dict of tensors
// by its keys; tensors contiguous. Anything else is a FormatError naming the
// file and where in the object.
ATENRT_API std::vector<std::pair<std::string, Tensor>> read_torch_save(const std::string& path);

// Tensors as torch.save writes them (torch.load of torch 1.13 and later reads
// the file): a tuple of the tensors, or a dict by name when `names` are given.
// Every dtype travels, bf16 included.
ATENRT_API void write_torch_save(const std::string& path, const std::vector<Tensor>& tensors,
                                 const std::vector<std::string>& names = {});

// The example inputs a .pt2 carries (data/sample_inputs/<model>.pt, or
// serialized_example_inputs.pt in legacy zips): the tensor leaves of the
// `(args, kwargs)` it was exported with, one per tensor input of the graph, in
// order. Read without the weights and without torch (the restricted
// unpickler). InputError naming the file and the entry when the archive has
// none or they cannot be used (unreadable, FakeTensors, a forbidden global,
// a count, dtype or shape that does not match the graph's inputs).
struct SampleInputs {
  std::string entry;  // the zip entry
  std::vector<Tensor> tensors;
};
ATENRT_API SampleInputs read_sample_inputs(const std::string& pt2_path);

// Layer-by-layer values without PyTorch (`atenrt run --compare-layers`): the
// archive compiled with mark_all_outputs and run on `inputs`, and the same
// lowered and converted network run by the reference executor (src/reference:
// plain kernels, computing in double). Both sides share the lowering and the
// converters, so this finds where the engine's kernels, fusions, layouts or
// precision depart from what the network means, not a converter or a
// decomposition that is wrong against PyTorch (atenrt.debug.compare_layers in
// Python compares with PyTorch). One entry per node value the engine marked,
// in graph order, then the graph outputs; UnsupportedError when the graph
// needs the libtorch fallback.
struct LayerValues {
  std::string name;  // the graph value's name
  Tensor engine, reference;
};
ATENRT_API std::vector<LayerValues> reference_layer_values(const std::string& pt2_path,
                                                           const std::vector<Tensor>& inputs,
                                                           const CompileSettings& settings = {});

}  // namespace atenrt
