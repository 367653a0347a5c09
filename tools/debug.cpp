// `kiln debug FILE [ARGS...]`: the step debugger (vm/debug) on a terminal
// with libedit line editing and history, or on piped commands without
// prompts; the host code on CPython (python_debug.cpp) or the built-in evaluator.
#include <editline/readline.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "tools/debug.h"
#include "vm/debug/session.h"

namespace kiln::tools {

int debug(const std::string& path, const std::string& text, std::vector<std::string> argv,
          std::unique_ptr<debug::HostSide> side) {
  debug::DebugIO io;
  bool tty = isatty(0);
  std::string last;  // an empty line repeats the last command, as in gdb
  io.read = [tty, &last](const std::string& prompt, std::string& line) {
    if (tty) {
      char* s = readline(prompt.c_str());
      if (!s) return false;
      line = s;
      std::free(s);
      if (!line.empty()) add_history(line.c_str());
    } else if (!std::getline(std::cin, line)) {
      return false;
    }
    if (line.empty()) line = last;
    else last = line;
    return true;
  };
  io.out = [](std::string_view s) {
    std::fwrite(s.data(), 1, s.size(), stdout);
    std::fflush(stdout);
  };
  io.err = [](std::string_view s) {
    std::fflush(stdout);
    std::fwrite(s.data(), 1, s.size(), stderr);
  };
  return debug::run_session(path, text, std::move(argv), std::move(side), std::move(io));
}

}  // namespace kiln::tools
