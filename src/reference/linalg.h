// The linear-algebra layers' computation (network::LinalgParams), on LAPACK:
// what the reference kernel runs, and the runtime's own kernel too (with its
// scratch from the memory plan). One code path sizes the scratch and runs, so
// the two cannot drift apart.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "network/layers.h"
#include "network/network.h"

namespace atenrt::reference::linalg {

// Bytes of 64-byte aligned scratch one run needs: column-major copies and
// LAPACK's workspace (its own workspace query). Throws UnsupportedError when a
// size does not fit LAPACK's 32-bit integers.
std::size_t scratch_bytes(std::string_view layer, const network::LinalgParams& p,
                          std::span<const network::TensorDesc> inputs, std::span<const network::TensorDesc> outputs);

// Runs the layer over contiguous row-major buffers whose descs passed shape
// inference. Run-time data LAPACK must not see (pivots out of range) is an
// InputError naming the layer.
void run(std::string_view layer, const network::LinalgParams& p, std::span<const network::TensorDesc> inputs,
         std::span<const network::TensorDesc> outputs, std::span<const void* const> in, std::span<void* const> out,
         void* scratch, std::size_t scratch_size);

}  // namespace atenrt::reference::linalg
