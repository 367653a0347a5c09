// The terminal side of both REPLs (repl.cpp on the built-in evaluator,
// python_repl.cpp on CPython): libedit line editing, history in
// ~/.kiln_history, tab completion, and Ctrl-C at the prompt.
//
// While a line is being read, SIGINT and SIGWINCH belong to the reader: a
// Ctrl-C clears the line (terminal_read returns interrupt). Outside a read,
// whatever SIGINT handler was there before runs: the built-in REPL's, which
// stops running code, or CPython's, which raises KeyboardInterrupt.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::repl {

// Completions of `word` (the text under the cursor back to a word break),
// given `before`, the line's text before it.
using Completer = std::function<std::vector<std::string>(std::string_view before, std::string_view word)>;

// Sets up libedit (completion, word breaks) and loads the history.
void terminal_open(Completer complete);
// Saves the history (silently keeps going if it cannot).
void terminal_close();

enum class Read { line, eof, interrupt };
// Reads one line with `prompt`; a non-blank line enters the history.
Read terminal_read(const char* prompt, std::string& out);

}  // namespace kiln::repl
