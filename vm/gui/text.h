// Text on the canvas: a TrueType font from the system when one is there
// (Debian's fonts-dejavu-core, or KILN_GUI_FONT=path.ttf), rendered with
// stb_truetype; otherwise (or with KILN_GUI_FONT=builtin) stb_easy_font's
// built-in segment font, so text always draws, headless machines included.
#pragma once

#include <string>

#include "vm/gui/canvas.h"

namespace kiln::gui {

// Draws UTF-8 `text` with its top-left corner at (x, top), in pixels of
// Taichi's frame (y up), `size` pixels from ascender to descender.
void text(Canvas& c, const std::string& utf8, float x, float top, float size, Color color);

// The TrueType file text() uses, or "" when it uses the built-in font.
const std::string& text_font();

}  // namespace kiln::gui
