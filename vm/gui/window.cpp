// SDL2 implementation of the GUI window (window.h). Built without SDL2,
// open() explains that and the GUI runs headless.
//
// SDL2 is loaded with dlopen when the first window opens, not linked: the
// library and the 50 it needs (X11, Wayland, PulseAudio, codecs) cost every
// process ~5300 relocations and ~7M cycles in the dynamic loader at start
// (LD_DEBUG=statistics), and most programs never open a window. Its header
// gives the functions' types; a missing library is open()'s error.
#include "vm/gui/window.h"

#if KILN_HAVE_SDL2
#include <SDL2/SDL.h>
#include <dlfcn.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#endif

namespace kiln::gui {

#if KILN_HAVE_SDL2

namespace {

constexpr const char* kSdlLibrary = "libSDL2-2.0.so.0";

// The SDL functions the window calls (SDL_BlitSurface and SDL_BlitScaled are
// macros for the Upper* functions).
#define KILN_SDL_FUNCTIONS(X)                                                                                \
  X(SDL_GetKeyName) X(SDL_DestroyWindow) X(SDL_QuitSubSystem) X(SDL_GetWindowSurface)                        \
  X(SDL_CreateRGBSurfaceWithFormatFrom) X(SDL_SetSurfaceBlendMode) X(SDL_UpperBlit) X(SDL_UpperBlitScaled)   \
  X(SDL_FreeSurface) X(SDL_UpdateWindowSurface) X(SDL_GetWindowSize) X(SDL_PollEvent) X(SDL_SetWindowTitle) \
  X(SDL_PumpEvents) X(SDL_ConvertSurfaceFormat) X(SDL_SetHint) X(SDL_InitSubSystem) X(SDL_GetError)          \
  X(SDL_CreateWindow)

struct SdlApi {
#define KILN_SDL_FIELD(f) decltype(&::f) f = nullptr;
  KILN_SDL_FUNCTIONS(KILN_SDL_FIELD)
#undef KILN_SDL_FIELD
  std::string error;  // non-empty: SDL2 cannot be used (why)
};

// Loaded once, at the first window; never unloaded (windows may outlive any owner).
const SdlApi& sdl() {
  static const SdlApi api = [] {
    SdlApi a;
    void* lib = dlopen(kSdlLibrary, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* why = dlerror();
      a.error = std::string("cannot load SDL2 (") + kSdlLibrary + "): " + (why ? why : "not found");
      return a;
    }
#define KILN_SDL_BIND(f)                                                              \
  a.f = reinterpret_cast<decltype(&::f)>(dlsym(lib, #f));                             \
  if (!a.f && a.error.empty()) a.error = std::string(kSdlLibrary) + " has no " #f;
    KILN_SDL_FUNCTIONS(KILN_SDL_BIND)
#undef KILN_SDL_BIND
    return a;
  }();
  return api;
}

// SDL key codes to X11 keysym names, the names Taichi's events carry.
std::string key_name(SDL_Keycode k) {
  switch (k) {
    case SDLK_ESCAPE: return "Escape";
    case SDLK_RETURN: case SDLK_KP_ENTER: return "Return";
    case SDLK_TAB: return "Tab";
    case SDLK_BACKSPACE: return "BackSpace";
    case SDLK_SPACE: return " ";
    case SDLK_UP: return "Up";
    case SDLK_DOWN: return "Down";
    case SDLK_LEFT: return "Left";
    case SDLK_RIGHT: return "Right";
    case SDLK_CAPSLOCK: return "Caps_Lock";
    case SDLK_LSHIFT: return "Shift_L";
    case SDLK_RSHIFT: return "Shift_R";
    case SDLK_LCTRL: return "Control_L";
    case SDLK_RCTRL: return "Control_R";
    case SDLK_LALT: return "Alt_L";
    case SDLK_RALT: return "Alt_R";
    case SDLK_DELETE: return "Delete";
    case SDLK_HOME: return "Home";
    case SDLK_END: return "End";
    case SDLK_PAGEUP: return "Prior";
    case SDLK_PAGEDOWN: return "Next";
    case SDLK_INSERT: return "Insert";
    default: break;
  }
  if (k >= SDLK_F1 && k <= SDLK_F12) return "F" + std::to_string(k - SDLK_F1 + 1);
  if (k > 32 && k < 127) return std::string(1, char(k));  // SDL's printable keys are their ASCII
  const char* n = sdl().SDL_GetKeyName(k);
  return n && *n ? n : "Unknown";
}

std::string button_name(Uint8 b) {
  switch (b) {
    case SDL_BUTTON_LEFT: return "LMB";
    case SDL_BUTTON_MIDDLE: return "MMB";
    case SDL_BUTTON_RIGHT: return "RMB";
    default: return "Button" + std::to_string(b);
  }
}

class SdlWindow final : public Window {
 public:
  SDL_Window* win = nullptr;
  int canvas_w = 0, canvas_h = 0;

  ~SdlWindow() override {
    if (win) sdl().SDL_DestroyWindow(win);
    sdl().SDL_QuitSubSystem(SDL_INIT_VIDEO);
  }

  void present(const Canvas& c) override {
    SDL_Surface* dst = sdl().SDL_GetWindowSurface(win);
    if (!dst) return;
    // RGBA bytes in memory are SDL's RGBA32 on any byte order.
    SDL_Surface* src = sdl().SDL_CreateRGBSurfaceWithFormatFrom(const_cast<uint8_t*>(c.rgba.data()), c.width, c.height, 32,
                                                          c.width * 4, SDL_PIXELFORMAT_RGBA32);
    if (!src) return;
    sdl().SDL_SetSurfaceBlendMode(src, SDL_BLENDMODE_NONE);
    if (dst->w == c.width && dst->h == c.height) sdl().SDL_UpperBlit(src, nullptr, dst, nullptr);
    else sdl().SDL_UpperBlitScaled(src, nullptr, dst, nullptr);
    sdl().SDL_FreeSurface(src);
    sdl().SDL_UpdateWindowSurface(win);
  }

  // Window pixels to canvas pixels (the window may be scaled, fullscreen).
  void to_canvas(int wx, int wy, int& x, int& y) {
    int ww = canvas_w, wh = canvas_h;
    sdl().SDL_GetWindowSize(win, &ww, &wh);
    x = ww > 0 ? int(int64_t(wx) * canvas_w / ww) : wx;
    int row = wh > 0 ? int(int64_t(wy) * canvas_h / wh) : wy;
    y = canvas_h - 1 - row;
  }

  void poll(std::vector<Event>& out) override {
    SDL_Event e;
    while (sdl().SDL_PollEvent(&e)) {
      Event ev;
      ev.x = cursor_x, ev.y = cursor_y;
      switch (e.type) {
        case SDL_QUIT:
          ev.type = EventType::press, ev.key = "WMClose";
          break;
        case SDL_WINDOWEVENT:
          if (e.window.event != SDL_WINDOWEVENT_CLOSE) continue;
          ev.type = EventType::press, ev.key = "WMClose";
          break;
        case SDL_KEYDOWN:
        case SDL_KEYUP:
          if (e.key.repeat) continue;  // X11 reports a held key once
          ev.type = e.type == SDL_KEYDOWN ? EventType::press : EventType::release;
          ev.key = key_name(e.key.keysym.sym);
          break;
        case SDL_MOUSEMOTION:
          to_canvas(e.motion.x, e.motion.y, cursor_x, cursor_y);
          ev.x = cursor_x, ev.y = cursor_y;
          ev.type = EventType::motion, ev.key = "Motion";
          break;
        case SDL_MOUSEBUTTONDOWN:
        case SDL_MOUSEBUTTONUP:
          to_canvas(e.button.x, e.button.y, cursor_x, cursor_y);
          ev.x = cursor_x, ev.y = cursor_y;
          ev.type = e.type == SDL_MOUSEBUTTONDOWN ? EventType::press : EventType::release;
          ev.key = button_name(e.button.button);
          break;
        case SDL_MOUSEWHEEL:
          ev.type = EventType::motion, ev.key = "Wheel";
          ev.dx = e.wheel.x * 120, ev.dy = e.wheel.y * 120;
          break;
        default:
          continue;
      }
      out.push_back(std::move(ev));
    }
  }

  void set_title(const std::string& title) override {
    sdl().SDL_SetWindowTitle(win, title.c_str());
    sdl().SDL_PumpEvents();  // sends the request now (events stay queued for poll)
  }

  Canvas read_back() override {
    Canvas out;
    SDL_Surface* s = sdl().SDL_GetWindowSurface(win);
    if (!s) return out;
    SDL_Surface* rgba = sdl().SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_RGBA32, 0);
    if (!rgba) return out;
    out.width = rgba->w, out.height = rgba->h;
    out.rgba.resize(size_t(out.width) * out.height * 4);
    for (int r = 0; r < out.height; r++)
      std::memcpy(&out.rgba[size_t(r) * out.width * 4], static_cast<uint8_t*>(rgba->pixels) + r * rgba->pitch,
                  size_t(out.width) * 4);
    sdl().SDL_FreeSurface(rgba);
    return out;
  }
};

}  // namespace

bool windows_supported() { return true; }

std::unique_ptr<Window> Window::open(const std::string& title, int width, int height, bool fullscreen,
                                     std::string* error) {
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!display || !*display) && (!wayland || !*wayland)) {
    *error = "no display (DISPLAY is not set)";
    return nullptr;
  }
  if (width <= 0 || height <= 0) {
    *error = "the window needs a positive size";
    return nullptr;
  }
  if (!sdl().error.empty()) {
    *error = sdl().error;
    return nullptr;
  }
  // The GUI owns only the video subsystem; Python keeps its own signals.
  sdl().SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
  if (sdl().SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
    *error = std::string("SDL could not start video: ") + sdl().SDL_GetError();
    return nullptr;
  }
  Uint32 flags = SDL_WINDOW_SHOWN | (fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
  SDL_Window* win = sdl().SDL_CreateWindow(title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height, flags);
  if (!win) {
    *error = std::string("SDL could not open a window: ") + sdl().SDL_GetError();
    sdl().SDL_QuitSubSystem(SDL_INIT_VIDEO);
    return nullptr;
  }
  auto w = std::make_unique<SdlWindow>();
  w->win = win;
  w->canvas_w = width, w->canvas_h = height;
  return w;
}

#else  // built without SDL2

bool windows_supported() { return false; }

std::unique_ptr<Window> Window::open(const std::string&, int, int, bool, std::string* error) {
  *error = "Kiln was built without SDL2 (apt install libsdl2-dev, then rebuild)";
  return nullptr;
}

#endif

}  // namespace kiln::gui
