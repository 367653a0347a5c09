// The GUI's window: SDL2 over X11 when Kiln was built with SDL2 and a
// display is there; callers fall back to drawing headless otherwise.
//
// Events use Taichi's vocabulary so the Python side passes them through:
// keys are X11 keysym names ("a", "Escape", "Shift_L", " "), mouse buttons
// "LMB"/"MMB"/"RMB", the wheel "Wheel", pointer motion "Motion", and the
// window's close button "WMClose".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "vm/gui/canvas.h"

namespace kiln::gui {

enum class EventType { motion = 0, press = 1, release = 2 };

struct Event {
  EventType type = EventType::motion;
  std::string key;
  int x = 0, y = 0;    // pixels of the canvas, y counted from the bottom
  int dx = 0, dy = 0;  // wheel steps times 120, as Taichi reports them
};

class Window {
 public:
  // Opens a window of the canvas's size (or the desktop's, fullscreen).
  // Returns null and says why in `error` when none can be opened.
  static std::unique_ptr<Window> open(const std::string& title, int width, int height, bool fullscreen,
                                      std::string* error);
  virtual ~Window() = default;
  // Puts the canvas on the screen (scaled when the window's size differs).
  virtual void present(const Canvas& c) = 0;
  // Appends what happened since the last call to `out`.
  virtual void poll(std::vector<Event>& out) = 0;
  virtual void set_title(const std::string& title) = 0;
  // The window's pixels as the window system holds them, read back from
  // the window's surface (RGBA, top row first, as a Canvas).
  virtual Canvas read_back() = 0;
  int cursor_x = 0, cursor_y = 0;  // last pointer position, y from the bottom
};

// True when this build can open windows at all (built with SDL2).
bool windows_supported();

}  // namespace kiln::gui
