// Weight payloads: nested torch.save zips (pickled, §2.1) and raw storage
// files described by a PayloadConfig JSON (§2.2). Every size, stride and
// offset is checked against the payload before a view is made.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "atenrt/tensor.h"
#include "frontend/zip_archive.h"

namespace atenrt::frontend {

using TensorMap = std::map<std::string, Tensor>;

// A torch.save zip (bytes) whose object is a dict fqn → tensor. `display`
// names it in messages ("model.pt2: serialized_state_dict.pt").
TensorMap load_torch_save_dict(const std::vector<std::byte>& bytes, const std::string& display,
                               const ReadLimits& limits, ByteBudget& budget);

// A torch.save zip whose object is a single tensor (a use_pickle payload).
Tensor load_torch_save_tensor(const std::vector<std::byte>& bytes, const std::string& display,
                              const ReadLimits& limits, ByteBudget& budget);

// A torch.save zip of reference outputs: a tensor, a tuple or list of them
// (nested ones flattened depth first) named arr_0, arr_1, ..., or a dict of
// them by string key (flat). Anything else (other values, nesting past 32) is
// a FormatError naming `display` and where in the object.
std::vector<std::pair<std::string, Tensor>> load_torch_save_outputs(const std::vector<std::byte>& bytes,
                                                                   const std::string& display,
                                                                   const ReadLimits& limits, ByteBudget& budget);

// A torch.save zip of any nesting (up to 32 deep) of tuples, lists and dicts,
// as the `(args, kwargs)` of an archive's sample inputs: its tensor leaves,
// depth first, dict values in order. Numbers, strings, booleans and None are
// leaves that are skipped (constant inputs); a global or storage where a value
// belongs is a FormatError naming `display` and where in the object.
std::vector<Tensor> load_torch_save_tensor_leaves(const std::vector<std::byte>& bytes, const std::string& display,
                                                  const ReadLimits& limits, ByteBudget& budget);

// A PayloadConfig (`config_entry`, e.g. "model/data/weights/model_weights_config.json")
// whose payload files sit in `dir` ("model/data/weights/").
TensorMap load_payload_config(const ZipArchive& zip, const std::string& dir,
                              const std::string& config_entry, const ReadLimits& limits,
                              ByteBudget& budget);

// A checked strided view: sizes/strides/offset must be non-negative, their
// products must not overflow, and the view must stay inside the storage. The
// view's logical size is charged to `budget`: a stride-0 view of a tiny
// storage can claim terabytes that a consumer would later materialize.
Tensor make_checked_view(std::shared_ptr<Storage> storage, DType dtype,
                         const std::vector<std::int64_t>& sizes,
                         const std::vector<std::int64_t>& strides, std::int64_t offset,
                         const std::string& where, ByteBudget& budget);

// Checked numel * element size; throws FormatError naming `where` on overflow.
std::uint64_t checked_nbytes(const std::vector<std::int64_t>& sizes, DType dtype,
                             const std::string& where);

}  // namespace atenrt::frontend
