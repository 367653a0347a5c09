// The canvas of a GGUI window: what the program draws during a frame, kept
// as a list of drawings (GGUI is retained within a frame) and replayed
// into a Frame whenever the frame's pixels are asked for: at show(),
// save_image() or get_image_buffer_as_numpy(). The background colour
// stays from frame to frame; the drawings go at next_frame().
//
// 2-D positions are in [0, 1]^2 with y up; circle radii and line widths
// are fractions of the window's height, as GGUI's.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "vm/ggui/frame.h"
#include "vm/ggui/scene.h"
#include "vm/gui/image.h"

namespace kiln::ggui {

class Painter {
 public:
  RGB background;

  // Each returns "" or why the data cannot be drawn (nothing is drawn then).
  std::string triangles(Geometry2 g);
  std::string circles(Geometry2 g, std::vector<float> radii, float radius);
  std::string lines(Geometry2 g, float width);
  // The image, stretched over the whole canvas (nearest pixel).
  std::string set_image(const gui::ImageView& v);
  // The scene as it is now (its declarations are copied).
  void scene(const Scene& s);

  void render(Frame& f) const;
  void next_frame() { drawings_.clear(); }

 private:
  std::vector<std::function<void(Frame&)>> drawings_;
};

}  // namespace kiln::ggui
