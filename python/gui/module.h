// Shared pieces of taichi._gui_core's binding files.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "vm/gui/image.h"

namespace kiln::gui_py {

// A numpy array (or any buffer) of u8/f32/f64 as an image view, in place.
kiln::gui::ImageView view_of_buffer(const pybind11::buffer& obj, const char* what);
// A (width, height, channels) uint8 numpy view of `v`'s bytes, kept alive by `owner`.
pybind11::array bytes_view(const kiln::gui::ImageView& v, pybind11::handle owner);

void bind_canvas(pybind11::module_& m);
void bind_window(pybind11::module_& m);
void bind_ggui(pybind11::module_& m);  // ti.ui's canvas, scene and frame

}  // namespace kiln::gui_py
