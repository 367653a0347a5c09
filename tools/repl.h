// The REPL on the built-in evaluator (`kiln repl --host=builtin`): the
// C API's module language at a prompt. `kiln repl` itself runs on CPython
// (python_repl.cpp); both share the input loop and the `:` commands.
//
//   repl_session.cpp   the input loop and the `:` commands (both REPLs)
//   repl_terminal.cpp  libedit: line editing, history, Ctrl-C at the prompt
//   repl.cpp           this session: the evaluator, Ctrl-C while code runs
//   repl_input.cpp     when the lines typed so far form a complete input
//   repl_complete.cpp  tab completion of names, attributes and commands
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "tools/repl_session.h"
#include "vm/host/host.h"

namespace kiln::repl {

// Runs a session on stdin/stdout and returns the process exit status.
// A terminal on stdin gets prompts, line editing and history; otherwise the
// lines are read without prompts (for `kiln repl < session.txt`), with the
// same echo, commands and error recovery.
int run(HostOptions options);

// Collects typed lines until they form one input, as Python's interactive
// mode decides: a logical line is complete when its brackets, triple-quoted
// strings and backslash continuations are closed; a compound statement (a
// line ending in ':' or a decorator) continues until a blank line.
class Chunker {
 public:
  // Adds one line (without its newline). Returns true when the text
  // collected so far is complete and should run.
  bool add(std::string_view line);
  // Whether more lines are expected (the prompt is then "... ").
  bool pending() const { return !text_.empty(); }
  // The collected text; resets the chunker.
  std::string take();
  void clear();

 private:
  std::string text_;
  int depth_ = 0;            // open ( [ {
  char triple_ = 0;          // inside a ''' or """ string: its quote
  bool backslash_ = false;   // the previous physical line ended in '\'
  bool block_ = false;       // a compound statement: ends at a blank line
  bool line_start_ = true;   // the next physical line starts a logical line
  char first_ = 0;           // first significant character of the logical line
  char last_ = 0;            // last significant character so far
};

// Completions of `word` (the text under the cursor back to a word break),
// given `before`, the line's text before the word: commands after a leading
// ':', kernel names after ":ir " / ":bc ", session globals, builtins and
// keywords for a name, attributes for `obj.attr` (`ti.` lists the module).
// Sorted, without duplicates; names starting with '_' only when `word`'s
// last part does.
std::vector<std::string> complete(Host& h, std::string_view before, std::string_view word);

}  // namespace kiln::repl
