// The debugger's state, shared by session.cpp, commands.cpp and inspect.cpp.
#pragma once
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "vm/bytecode/function.h"
#include "vm/debug/debugger.h"
#include "vm/host/evaluator.h"
#include "vm/interp/interp.h"

namespace kiln::debug {

struct Breakpoint {
  int id = 0;
  std::string file;       // as the program names it ("prog.py")
  uint32_t line = 0;
  std::string cond;       // empty: always
  bool temporary = false; // tbreak: deleted when hit
  int hits = 0;
};

struct Watch {
  int id = 0;
  std::string expr;
  std::optional<std::string> last;  // its value's text when last seen (none: not readable)
};

// Where the program is stopped: a host statement, or an instruction of a
// kernel task with its register frame.
struct Place {
  bool kernel = false;
  const void* host_frame = nullptr;     // host on CPython: the PyFrameObject of the statement
  SourceLoc loc;
  int depth = 0;                        // frames below: host frames + kernel + inlined funcs
  host::Env* env = nullptr;             // host: the statement's scope
  const bc::Function* fn = nullptr;     // kernel
  uint32_t pc = 0;
  const uint64_t* R = nullptr;
  int frame = 0;                        // the inline frame (bc::Function::frames) it is in
  bool mid_line = false;                // back from an inlined func: its line's breakpoints already fired
};

enum class Mode { run, step, next, finish };

// A variable as a debugger front end lists it: vectors, matrices and structs
// have children. kind: 0 a local, 1 a kernel argument, 2 a loop index.
struct VarView {
  std::string name, value;
  int kind = 0;
  std::vector<VarView> children;
};

// One frame of a stopped place, innermost first: inlined ti.funcs, the
// kernel, host functions. view() is the Place to inspect it through.
struct FrameView {
  std::string name;
  SourceLoc loc;
  Place view;
};

// Thrown by `quit` (and the end of input) to leave the running program; not
// a std::exception, so nothing on the way mistakes it for an error.
struct Quit {};

struct Session;

// The host side of a session: what runs the program's host code and reads
// host frames. The built-in evaluator is one (builtin_host.cpp); CPython
// embedded in the kiln executable is the other (tools/python_debug.cpp).
// The kernel side (the interpreter's hook, kernel frames and registers) and
// the command language are the Session's, the same for both.
struct HostSide {
  virtual ~HostSide() = default;
  // Runs the program from its top to its end, reporting host statements to
  // s.consider and with s as the kernels' debug hook; returns the exit
  // status. Quit passes through.
  virtual int run(Session& s) = 0;
  // Whether `run` may start the program again after it ended.
  virtual bool can_rerun() const { return true; }
  // Leaves the debugger (`quit`, the end of input) from anywhere.
  [[noreturn]] virtual void quit() { throw Quit{}; }
  virtual int depth() const = 0;  // host frames now (a kernel launched now sits below them)
  virtual std::string where(const Place& host_place) const = 0;  // "<module>", "square"
  // The host frames, innermost first, appended to out; `p` is the stop (a
  // host place is the innermost frame's view).
  virtual void frames(const Place& p, std::vector<FrameView>& out) const = 0;
  virtual std::vector<VarView> variables(const Place& host_place) = 0;
  // `expr` at p as repr text / as a condition: a host place evaluates in
  // its frame; a kernel place with the kernel's variables (s.kernel_values)
  // over the globals of the host frame that launched the kernel. Throw
  // kiln::Error.
  virtual std::string value_text(Session& s, const Place& p, const std::string& expr) = 0;
  virtual bool truthy(Session& s, const Place& p, const std::string& expr) = 0;
  // The fields among the program's globals (the DAP server's Fields scope),
  // 1-D ones with their first elements as children.
  virtual std::vector<VarView> fields(Session& s) = 0;
  // Set by the DAP server: the program's own stdout and stderr go to the
  // session's io (output events), not to the process's, which carry the protocol.
  bool route_output = false;
};

// The built-in evaluator's host side (HostOptions say how it runs).
std::unique_ptr<HostSide> builtin_host(HostOptions base);

struct Session : interp::DebugHook {
  DebugIO io;
  std::string path, text;
  std::vector<std::string> argv;
  std::unique_ptr<HostSide> side;  // runs the host code
  bool running = false;
  bool ran = false;             // the program ran to its end once

  std::vector<Breakpoint> breakpoints;
  std::vector<Watch> watches;
  int next_id = 1;              // breakpoints and watchpoints share numbers, as in gdb
  int next_value = 1;           // $1, $2, ... of print
  std::string focus;            // `focus COND`: kernel stops only where COND holds

  Mode mode = Mode::run;
  int mode_depth = 0;
  // `at` runs before every instruction; a place is new when its line differs
  // from the line last seen at the same depth (so returning from an inlined
  // func to the line that called it is not a new place). Cleared when host
  // code runs or another task starts.
  const bc::Function* last_fn = nullptr;
  std::vector<std::pair<const SourceFile*, uint32_t>> line_at_depth;
  const bc::Function* shown_fn = nullptr;  // what the last stop report named
  std::string shown_where;

  // Front ends other than the command line (the DAP server) take over here.
  // on_stop replaces the command loop: it returns when the program should
  // resume, with `mode` set. on_poll runs between places while `pending` is
  // set (requests that arrived while the program runs); pause_requested
  // stops at the next place.
  std::function<void(const Place&, const std::string& why, const std::string& reason)> on_stop;
  std::function<void()> on_poll;
  std::atomic<bool> pending{false};
  std::atomic<bool> pause_requested{false};

  // ---- session.cpp
  bool wants(const bc::Function& fn) override;
  void changed() { epoch.fetch_add(1); }
  void at(const bc::Function& fn, uint32_t pc, const uint64_t* R, LaunchContext& ctx) override;
  void fault(const bc::Function& fn, uint32_t pc, const uint64_t* R, LaunchContext& ctx, const Error& e) override;
  void consider(const Place& p);
  void stop(const Place& p, const std::string& why, const std::string& reason);
  int start();                  // `run`: the program from the top, to its end; its exit status
  void say(const std::string& s) { io.out(s); }

  // ---- commands.cpp
  // Runs one command at a stop (p non-null) or before/after the run. Returns
  // true when the program should resume (continue, next, step, finish).
  bool command(const std::string& line, const Place* p);

  // ---- inspect.cpp
  int kernel_depth(int frame, const bc::Function& fn) const;
  std::string where(const Place& p) const;           // "kernel 'fill'", "<module>", "ti.func 'f'"
  std::string source_line(const SourceLoc& loc) const;  // "12\t    x[i] = 1\n"
  std::string list(const Place* p, int center) const;
  std::vector<FrameView> frames(const Place& p) const;
  std::string backtrace(const Place& p) const;
  std::string locals(const Place& p);
  std::vector<VarView> variables(const Place& p);  // what is in scope at p
  // The value of `expr` at `p` as text (repr), or throws kiln::Error.
  std::string value_text(const Place& p, const std::string& expr);
  bool truthy(const Place& p, const std::string& expr) { return side->truthy(*this, p, expr); }
  // The kernel variables at a kernel place, by the name the user wrote:
  // as host values (vectors as lists, structs as dicts), and as Python
  // literal text ("[1.0, 2.5]", "{'m': 2.0}"; inf and nan as names).
  std::vector<std::pair<std::string, host::Value>> kernel_values(const Place& p) const;
  std::vector<std::pair<std::string, std::string>> kernel_literals(const Place& p) const;
};

}  // namespace kiln::debug
