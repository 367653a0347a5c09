// Vertex data as GGUI's drawings take it, in 2-D (the canvas) or 3-D (a
// scene): positions (D floats a vertex), optional per-vertex colours (r,
// g, b a vertex; empty: `color`), and the vertex numbers to draw, in order
// (triangles or segments read them three or two at a time).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vm/ggui/frame.h"
#include "vm/ggui/math3d.h"

namespace kiln::ggui {

template <int D>
struct Vertices {
  std::vector<float> pos;
  std::vector<float> colors;
  RGB color;
  std::vector<int32_t> order;

  size_t vertices() const { return pos.size() / D; }
  Vec3 at(int32_t k) const { return {pos[D * k], pos[D * k + 1], D > 2 ? pos[D * k + 2] : 0.0f}; }
  RGB color_of(int32_t k) const {
    return colors.empty() ? color : RGB{colors[3 * k], colors[3 * k + 1], colors[3 * k + 2]};
  }

  // "" or why the data does not hold together (sizes, vertex numbers).
  std::string check(const char* what) const {
    std::string w(what);
    if (pos.size() % D) return w + ": positions must be " + std::to_string(D) + "-D";
    if (!colors.empty() && colors.size() != 3 * vertices())
      return w + ": per_vertex_color has " + std::to_string(colors.size() / 3) + " colours for " +
             std::to_string(vertices()) + " vertices";
    for (int32_t k : order)
      if (k < 0 || size_t(k) >= vertices())
        return w + ": vertex index " + std::to_string(k) + " is out of range for " + std::to_string(vertices()) +
               " vertices";
    return "";
  }
};

using Geometry = Vertices<3>;
using Geometry2 = Vertices<2>;

}  // namespace kiln::ggui
