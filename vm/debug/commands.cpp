// The debugger's command language, modelled on gdb's: the same names and
// abbreviations (b, c, n, s, p, bt, l, q), the same messages where gdb has one.
#include <cctype>

#include "vm/debug/session.h"
#include "vm/lang/ast.h"

namespace kiln::debug {

namespace {

const std::vector<CommandHelp> kCommands = {
    {"run", "", "start the program (r)"},
    {"break", "[FILE:]LINE|FUNC [if COND]", "stop at a line of host or kernel code, or a def's first line (b)"},
    {"tbreak", "[FILE:]LINE [if COND]", "a breakpoint deleted when first hit"},
    {"delete", "[N]", "delete breakpoint or watchpoint N, or all of them (d)"},
    {"watch", "EXPR", "stop when the value of EXPR changes (e.g. watch x[3])"},
    {"focus", "[COND]", "in kernels, stop only where COND holds (focus i=5, focus i > j); no COND clears it"},
    {"continue", "", "run to the next breakpoint (c)"},
    {"next", "", "run to the next line, stepping over calls (n)"},
    {"step", "", "run to the next line, stepping into calls and ti.func bodies (s)"},
    {"finish", "", "run until the current function or kernel returns"},
    {"print", "EXPR", "the value of EXPR: locals, loop indices, args, fields, arithmetic (p)"},
    {"info", "locals|args|breakpoints|watchpoints", "list what is in scope, or the breakpoints"},
    {"backtrace", "", "the frames: inlined ti.funcs, the kernel, host functions (bt)"},
    {"list", "[LINE]", "source lines around the current line or LINE (l)"},
    {"help", "", "this list"},
    {"quit", "", "leave the debugger (q)"},
};

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace((unsigned char)s[b])) b++;
  while (e > b && std::isspace((unsigned char)s[e - 1])) e--;
  return s.substr(b, e - b);
}

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit((unsigned char)c)) return false;
  return true;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit((unsigned char)s[0])) return false;
  for (char c : s)
    if (!std::isalnum((unsigned char)c) && c != '_') return false;
  return true;
}

size_t indent_of(std::string_view l) {
  size_t i = 0;
  while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) i++;
  return i;
}

// The first statement nested under line `l` (indented deeper), 0 if none.
uint32_t first_inside(const SourceFile& f, uint32_t l) {
  size_t ind = indent_of(f.line(l));
  for (uint32_t b = l + 1; b <= (uint32_t)f.line_starts.size(); b++) {
    std::string_view body = f.line(b);
    size_t bi = indent_of(body);
    if (bi == body.size() || body[bi] == '#') continue;  // blank or comment
    return bi > ind ? b : 0;
  }
  return 0;
}

// `break NAME`: the first statement of `def NAME` (a host function, a kernel
// or a ti.func) in the program's text; 0 if there is none. A kernel's
// parallel `for` header runs once per launch, so a kernel that starts with
// one breaks at the first statement of its body (every iteration).
uint32_t function_line(const SourceFile& f, const std::string& name) {
  uint32_t n = (uint32_t)f.line_starts.size();
  for (uint32_t l = 1; l <= n; l++) {
    std::string_view t = f.line(l);
    size_t ind = indent_of(t);
    std::string_view rest = t.substr(ind);
    if (rest.rfind("def " + name, 0) != 0) continue;
    std::string_view after = rest.substr(4 + name.size());
    while (!after.empty() && after[0] == ' ') after.remove_prefix(1);
    if (after.empty() || after[0] != '(') continue;
    uint32_t b = first_inside(f, l);
    bool kernel = l > 1 && f.line(l - 1).find("ti.kernel") != std::string_view::npos;
    if (b && kernel && f.line(b).substr(indent_of(f.line(b))).rfind("for ", 0) == 0) {
      uint32_t inner = first_inside(f, b);
      if (inner) return inner;
    }
    return b;
  }
  return 0;
}

// A breakpoint condition must parse as an expression before it is accepted.
std::string condition_error(const std::string& cond) {
  SourceFile f("<condition>", cond);
  try {
    auto m = ast::parse(&f);
    if (m->body.size() != 1 || m->body[0]->kind != ast::StmtKind::ExprStmt) return "the condition is not an expression";
  } catch (const Error& e) {
    return e.kind + ": " + e.message;
  }
  return "";
}

}  // namespace

const std::vector<CommandHelp>& command_help() { return kCommands; }

bool Session::command(const std::string& raw, const Place* p) {
  std::string line = trim(raw);
  if (line.empty()) return false;
  size_t sp = line.find_first_of(" \t");
  std::string cmd = line.substr(0, sp), arg = sp == std::string::npos ? "" : trim(line.substr(sp));
  auto need_stop = [&]() {
    if (p) return true;
    say("The program is not being run.\n");
    return false;
  };

  if (cmd == "q" || cmd == "quit") side->quit();
  if (cmd == "help" || cmd == "h") {
    for (auto& c : kCommands) {
      std::string head = std::string(c.name) + (*c.args ? " " : "") + c.args;
      say("  " + head + std::string(head.size() < 40 ? 40 - head.size() : 1, ' ') + c.help + "\n");
    }
    return false;
  }
  if (cmd == "r" || cmd == "run") {
    if (running) {
      say("The program is already running.\n");
      return false;
    }
    if (ran && !side->can_rerun()) {
      say("The program has run to its end; start kiln debug again to rerun it.\n");
      return false;
    }
    int status = start();
    say(status == 0 ? "[program exited normally]\n" : "[program exited with code " + std::to_string(status) + "]\n");
    return false;
  }
  if (cmd == "b" || cmd == "break" || cmd == "tbreak") {
    Breakpoint b;
    b.temporary = cmd == "tbreak";
    std::string where = arg;
    size_t ifpos = arg.find(" if ");
    if (ifpos != std::string::npos) {
      where = trim(arg.substr(0, ifpos));
      b.cond = trim(arg.substr(ifpos + 4));
    }
    if (where.empty() && p) {
      b.file = p->loc.file->path;
      b.line = p->loc.line;
    } else {
      size_t colon = where.rfind(':');
      std::string file = colon == std::string::npos ? path : where.substr(0, colon);
      std::string num = colon == std::string::npos ? where : where.substr(colon + 1);
      if (colon == std::string::npos && is_identifier(where)) {
        uint32_t l = function_line(SourceFile(path, text), where);
        if (!l) {
          say("Function \"" + where + "\" not defined.\n");
          return false;
        }
        num = std::to_string(l);
      }
      if (!all_digits(num)) {
        say("Bad breakpoint location '" + where + "': expected [FILE:]LINE.\n");
        return false;
      }
      b.file = file;
      b.line = (uint32_t)std::stoul(num);
      // Lines are checked against the program's own file (other files are
      // only known once imported).
      if (file == path) {
        SourceFile sf(path, text);
        if (b.line == 0 || b.line > sf.line_starts.size()) {
          say("No line " + num + " in file \"" + file + "\".\n");
          return false;
        }
      }
    }
    if (!b.cond.empty()) {
      std::string err = condition_error(b.cond);
      if (!err.empty()) {
        say("Bad breakpoint condition '" + b.cond + "': " + err + "\n");
        return false;
      }
    }
    b.id = next_id++;
    say(std::string(b.temporary ? "Temporary breakpoint " : "Breakpoint ") + std::to_string(b.id) + " at " + b.file +
        ":" + std::to_string(b.line) + (b.cond.empty() ? "" : " if " + b.cond) + "\n");
    breakpoints.push_back(b);
    return false;
  }
  if (cmd == "d" || cmd == "delete") {
    if (arg.empty()) {
      breakpoints.clear();
      watches.clear();
      return false;
    }
    if (!all_digits(arg)) {
      say("Bad breakpoint number '" + arg + "'.\n");
      return false;
    }
    int id = std::stoi(arg);
    size_t before = breakpoints.size() + watches.size();
    std::erase_if(breakpoints, [&](const Breakpoint& b) { return b.id == id; });
    std::erase_if(watches, [&](const Watch& w) { return w.id == id; });
    if (breakpoints.size() + watches.size() == before) say("No breakpoint number " + arg + ".\n");
    return false;
  }
  if (cmd == "watch") {
    if (arg.empty()) {
      say("Argument required (expression to watch).\n");
      return false;
    }
    Watch w;
    w.id = next_id++;
    w.expr = arg;
    if (p) {
      try {
        w.last = value_text(*p, arg);
      } catch (const Error& e) {
        say(e.kind + ": " + e.message + "\n");
        return false;
      }
    }
    say("Watchpoint " + std::to_string(w.id) + ": " + arg + "\n");
    watches.push_back(w);
    return false;
  }
  if (cmd == "focus") {
    // `focus i=5` (the short form) means `focus i == 5`.
    size_t eq = arg.find('=');
    if (eq != std::string::npos && eq > 0 && arg.find("==") == std::string::npos &&
        std::string("!<>").find(arg[eq - 1]) == std::string::npos)
      arg = trim(arg.substr(0, eq)) + " == " + trim(arg.substr(eq + 1));
    focus = arg;
    say(arg.empty() ? "Focus cleared: kernels stop in every iteration.\n"
                    : "Kernels stop only where " + arg + ".\n");
    return false;
  }
  if (cmd == "c" || cmd == "continue") {
    if (!need_stop()) return false;
    mode = Mode::run;
    return true;
  }
  if (cmd == "n" || cmd == "next" || cmd == "s" || cmd == "step" || cmd == "finish") {
    if (!need_stop()) return false;
    mode = cmd == "finish" ? Mode::finish : (cmd[0] == 'n' ? Mode::next : Mode::step);
    mode_depth = p->depth;
    return true;
  }
  if (cmd == "p" || cmd == "print") {
    if (!need_stop()) return false;
    if (arg.empty()) {
      say("Argument required (expression to print).\n");
      return false;
    }
    try {
      std::string v = value_text(*p, arg);
      say("$" + std::to_string(next_value++) + " = " + v + "\n");
    } catch (const Error& e) {
      say(e.kind + ": " + e.message + "\n");
    }
    return false;
  }
  if (cmd == "info" || cmd == "i") {
    if (arg == "breakpoints" || arg == "b" || arg == "watchpoints") {
      if (breakpoints.empty() && watches.empty()) {
        say("No breakpoints or watchpoints.\n");
        return false;
      }
      say("Num  What\n");
      for (auto& b : breakpoints)
        say(std::to_string(b.id) + (b.id < 10 ? "    " : "   ") + (b.temporary ? "tbreak " : "break ") + b.file + ":" +
            std::to_string(b.line) + (b.cond.empty() ? "" : " if " + b.cond) +
            (b.hits ? "  (hit " + std::to_string(b.hits) + (b.hits == 1 ? " time)" : " times)") : "") + "\n");
      for (auto& w : watches) say(std::to_string(w.id) + (w.id < 10 ? "    " : "   ") + "watch " + w.expr + "\n");
      return false;
    }
    if (arg == "locals" || arg == "args") {
      if (!need_stop()) return false;
      // In kernels, arguments are listed apart (gdb's split); host scopes
      // list everything under locals.
      bool args = arg == "args";
      std::string l;
      for (auto& v : variables(*p))
        if (!p->kernel ? !args : (v.kind == 1) == args) l += v.name + " = " + v.value + "\n";
      say(!l.empty() ? l : args ? "No arguments.\n" : "No locals.\n");
      return false;
    }
    say("Undefined info command: \"" + arg + "\". Try \"help\".\n");
    return false;
  }
  if (cmd == "bt" || cmd == "backtrace" || cmd == "where") {
    if (!need_stop()) return false;
    say(backtrace(*p));
    return false;
  }
  if (cmd == "l" || cmd == "list") {
    int center = 0;
    if (all_digits(arg)) center = std::stoi(arg);
    else if (!arg.empty()) {
      say("Bad line number '" + arg + "'.\n");
      return false;
    }
    say(list(p, center));
    return false;
  }
  say("Undefined command: \"" + cmd + "\". Try \"help\".\n");
  return false;
}

}  // namespace kiln::debug
