// The oneDNN kernel makers, one per layer family; each returns no kernel when
// oneDNN cannot do the case (the next provider then gets the step).
#pragma once

#include "runtime/cpu/kernel.h"

namespace atenrt::runtime::cpu::onednn {

KernelChoice make_convolution(const KernelRequest& r);    // conv.cpp
KernelChoice make_deconvolution(const KernelRequest& r);  // conv.cpp
KernelChoice make_matmul(const KernelRequest& r);         // matmul.cpp
KernelChoice make_pooling(const KernelRequest& r);        // pool.cpp
KernelChoice make_activation(const KernelRequest& r);     // eltwise.cpp
KernelChoice make_binary(const KernelRequest& r);         // eltwise.cpp
KernelChoice make_cast(const KernelRequest& r);           // eltwise.cpp
KernelChoice make_softmax(const KernelRequest& r);        // softmax.cpp
KernelChoice make_normalization(const KernelRequest& r);  // normalization.cpp
KernelChoice make_reduction(const KernelRequest& r);      // normalization.cpp
KernelChoice make_concatenation(const KernelRequest& r);  // concat.cpp

}  // namespace atenrt::runtime::cpu::onednn
