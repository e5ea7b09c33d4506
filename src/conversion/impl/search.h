// Membership and sorted search: isin, bucketize, searchsorted, built from a
// broadcast comparison against every candidate and a reduction over them
// (the candidates are few in the graphs that use these ops: class ids,
// bucket boundaries).
#pragma once

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::search {

// torch.isin: whether each element of `elements` equals any of `test`
// (NaN equals nothing); `invert` negates. Bool, shaped like `elements`.
NetworkTensor* isin(const Scope& s, const Operand& elements, const Operand& test, bool invert);

// torch.searchsorted(sorted, values, right): for each value, how many
// entries of its row of `sorted` are < value (right: <= value); NaN values
// go past the end, as torch places them. `sorted` is 1-D or has the leading
// dims of `values`. int64, or int32 when `out_int32`. bucketize is the 1-D case.
NetworkTensor* searchsorted(const Scope& s, NetworkTensor* sorted, const Operand& values, bool right,
                            bool out_int32);

}  // namespace atenrt::conversion::impl::search
