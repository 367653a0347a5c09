// How the CPU engines cut a parallel range_for into chunks (vm/interp/
// launch.cpp), for the device backends that must sum a chunk in the same
// order (gpu/vulkan: a float reduction's thread-local sum is one chunk's).
#pragma once
#include <cstdint>

namespace kiln {

// Below this many iterations a range_for runs as one chunk: a parallel launch
// would cost more than it saves. (So does any range_for with one thread in
// the pool, under debug=True, or serialized.)
constexpr int64_t kMinParallel = 256;

}  // namespace kiln
