// Running the program under the debugger and deciding where it stops.
#include "vm/debug/session.h"

#include "vm/host/ti_state.h"

namespace kiln::debug {

namespace {

bool same_file(const SourceLoc& loc, const std::string& file) {
  if (!loc.file) return false;
  const std::string& p = loc.file->path;
  if (p == file) return true;
  // `break prog.py:3` also names examples/prog.py.
  return p.size() > file.size() && p[p.size() - file.size() - 1] == '/' &&
         p.compare(p.size() - file.size(), file.size(), file) == 0;
}

}  // namespace

bool Session::wants(const bc::Function& fn) {
  if (mode != Mode::run || !watches.empty() || pause_requested.load()) return true;
  for (auto& b : breakpoints)
    for (auto& loc : fn.lines)
      if (loc.line == b.line && same_file(loc, b.file)) return true;
  return false;
}

void Session::at(const bc::Function& fn, uint32_t pc, const uint64_t* R, LaunchContext&) {
  SourceLoc loc = fn.loc_at(pc);
  if (!loc.known()) return;
  // An inlined ti.func's prologue (its parameters being bound) sits on the
  // call's line: it belongs to the caller's line, so `break` on that line
  // stops before the call and `step` goes on to the func's first line.
  int frame = pc < fn.frame_at.size() ? fn.frame_at[pc] : 0;
  if (frame > 0 && frame < (int)fn.frames.size() && fn.frames[frame].call.line == loc.line &&
      fn.frames[frame].call.file == loc.file)
    frame = fn.frames[frame].parent;
  int depth = kernel_depth(frame, fn);
  if (&fn != last_fn) line_at_depth.clear();
  last_fn = &fn;
  if ((int)line_at_depth.size() > depth + 1) line_at_depth.resize((size_t)depth + 1);
  if ((int)line_at_depth.size() <= depth) line_at_depth.resize((size_t)depth + 1, {nullptr, 0});
  auto here = std::make_pair(loc.file, loc.line);
  // `finish` stops as soon as the frame returns, mid-line as gdb does.
  bool returned = mode == Mode::finish && depth < mode_depth;
  if (line_at_depth[(size_t)depth] == here && !returned) return;
  line_at_depth[(size_t)depth] = here;
  Place p;
  p.kernel = true;
  p.loc = loc;
  p.depth = depth;
  p.fn = &fn;
  p.pc = pc;
  p.R = R;
  p.frame = frame;
  p.mid_line = returned;
  consider(p);
}

void Session::fault(const bc::Function& fn, uint32_t pc, const uint64_t* R, LaunchContext&, const Error& e) {
  Place p;
  p.kernel = true;
  p.loc = fn.loc_at(pc);
  p.frame = pc < fn.frame_at.size() ? fn.frame_at[pc] : 0;
  p.depth = kernel_depth(p.frame, fn);
  p.fn = &fn;
  p.pc = pc;
  p.R = R;
  stop(p, "Program stopped on " + e.kind + ": " + e.message, "exception");
  // Whatever the user does now, the error goes on (continue shows it).
}

// A new place: stop if a breakpoint, the stepping mode or a watchpoint says so.
void Session::consider(const Place& p) {
  if (pending.load(std::memory_order_relaxed) && on_poll) on_poll();
  if (pause_requested.exchange(false)) return stop(p, "", "pause");
  std::string why, reason = "step";
  for (size_t i = 0; i < breakpoints.size() && why.empty(); i++) {
    Breakpoint& b = breakpoints[i];
    if (p.mid_line || b.line != p.loc.line || !same_file(p.loc, b.file)) continue;
    if (!b.cond.empty()) {
      try {
        if (!truthy(p, b.cond)) continue;
      } catch (const Error& e) {
        say("Error in breakpoint " + std::to_string(b.id) + "'s condition: " + e.kind + ": " + e.message + "\n");
      }
    }
    b.hits++;
    reason = "breakpoint";
    why = (b.temporary ? "Temporary breakpoint " : "Breakpoint ") + std::to_string(b.id);
    if (b.temporary) breakpoints.erase(breakpoints.begin() + (std::ptrdiff_t)i);
  }
  bool stepping = (mode == Mode::step) || (mode == Mode::next && p.depth <= mode_depth) ||
                  (mode == Mode::finish && p.depth < mode_depth);
  for (Watch& w : watches) {
    std::optional<std::string> now;
    try {
      now = value_text(p, w.expr);
    } catch (const Error&) {
      continue;  // not readable here (a kernel local seen from host code)
    }
    if (w.last && *now != *w.last) {
      if (!why.empty()) why += "\n";
      reason = "data breakpoint";
      why += "Watchpoint " + std::to_string(w.id) + ": " + w.expr + "\n\nOld value = " + *w.last +
             "\nNew value = " + *now;
    }
    w.last = now;
  }
  if (why.empty() && !stepping) return;
  if (p.kernel && !focus.empty()) {
    try {
      if (!truthy(p, focus)) return;
    } catch (const Error&) {
      return;  // the focus names something this place does not have
    }
  }
  stop(p, why, reason);
}

// Reports the stop and reads commands until one resumes the program.
void Session::stop(const Place& p, const std::string& why, const std::string& reason) {
  if (on_stop) {
    mode = Mode::run;
    on_stop(p, why, reason);
    return changed();
  }
  std::string where_now = where(p);
  std::string at = where_now + " at " + p.loc.file->path + ":" + std::to_string(p.loc.line) + "\n";
  if (why.find('\n') != std::string::npos) say("\n" + why + "\n" + at);  // a watchpoint's old and new value
  else if (!why.empty()) say("\n" + why + ", " + at);
  else if (where_now != shown_where || p.fn != shown_fn) say(at);
  shown_where = where_now;
  shown_fn = p.fn;
  say(source_line(p.loc));
  mode = Mode::run;
  std::string line;
  for (;;) {
    if (!io.read("(kdb) ", line)) side->quit();
    bool resume = command(line, &p);
    changed();
    if (resume) return;
  }
}

int Session::start() {
  running = true;
  mode = Mode::run;
  last_fn = nullptr;
  line_at_depth.clear();
  shown_fn = nullptr;
  shown_where.clear();
  for (Watch& w : watches) w.last.reset();
  int status = 0;
  try {
    status = side->run(*this);
  } catch (const Quit&) {
    running = false;
    throw;
  }
  running = false;
  ran = true;
  return status;
}

int run_session(const std::string& path, const std::string& text, std::vector<std::string> argv,
                std::unique_ptr<HostSide> side, DebugIO io) {
  Session s;
  s.side = std::move(side);
  s.io = std::move(io);
  s.path = path;
  s.text = text;
  s.argv = std::move(argv);
  std::string line;
  try {
    while (s.io.read("(kdb) ", line)) s.command(line, nullptr);
  } catch (const Quit&) {
  }
  return 0;
}

}  // namespace kiln::debug
