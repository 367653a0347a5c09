// What both REPLs share above their hosts: the input loop (a terminal with
// prompts, or lines from a pipe without them) and the `:` commands. A
// Session is one host's side of it: the built-in evaluator's (repl.cpp) or
// CPython's (python_repl.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tools/repl_terminal.h"
#include "vm/runtime/program.h"
#include "vm/ti/kernels.h"

namespace kiln::repl {

// What a session's global name holds, for the messages of :ir / :bc.
enum class NameKind { other, kernel, func };

class Session {
 public:
  virtual ~Session() = default;
  int exit_code = -1;  // >= 0 once :quit or sys.exit asked to leave

  // One typed line; returns true when more lines are needed (the "... "
  // prompt). A complete input runs at once; its errors print and the
  // session goes on.
  virtual bool push(const std::string& line) = 0;
  // Runs what push() collected as if a blank line followed (end of a pipe).
  virtual void finish() = 0;
  // Drops what push() collected (Ctrl-C at the prompt).
  virtual void drop() = 0;

  // For the commands. run_statement returns false if it failed (its error printed).
  virtual bool run_statement(const std::string& stmt) = 0;
  virtual void load(const std::string& path) = 0;
  virtual void reset() = 0;
  virtual const std::vector<KernelDump>& dumps() = 0;
  virtual NameKind kind_of(const std::string& name) = 0;
  virtual Program* program() = 0;  // the current one (made with defaults if there is none yet)
  // The (n, m) of the vector or matrix field that global `name` holds, if it does.
  virtual bool compound_dims(const std::string& name, int64_t& n, int64_t& m) = 0;
  virtual std::vector<std::string> complete(std::string_view before, std::string_view word) = 0;
};

// The REPL commands, for :help and completion.
struct Command {
  const char* name;  // ":ir"
  const char* args;  // "NAME"
  const char* help;
};
const std::vector<Command>& commands();

// Runs a `:` command line.
void run_command(Session& s, const std::string& line);

// Reads and runs inputs until Ctrl-D, :quit or sys.exit; returns the exit
// status. A terminal on stdin gets `banner`, prompts, line editing and
// history; otherwise lines are read without prompts (`kiln repl < session`).
int run_loop(Session& s, const char* banner);

}  // namespace kiln::repl
