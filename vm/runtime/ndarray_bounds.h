// The IndexError text of an out-of-range index into an ndarray argument,
// whose shape comes with the launch: one text for every engine.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

// "index 5 is out of bounds for axis 0 of ndarray 'x' with shape (4,)"
// (`name` empty: "ndarray").
std::string ndarray_bounds_message(const std::string& name, int axis, int64_t index, const std::vector<int64_t>& shape);

}  // namespace kiln
