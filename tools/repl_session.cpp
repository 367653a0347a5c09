// The REPLs' input loop and `:` commands (see repl_session.h).
#include "tools/repl_session.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "jit/jit.h"

namespace kiln::repl {

const std::vector<Command>& commands() {
  static const std::vector<Command> c = {
      {":help", "", "this list"},
      {":ir", "NAME", "the IR of kernel NAME as last compiled (after the pass pipeline)"},
      {":bc", "NAME", "the bytecode of kernel NAME as last compiled, with source lines"},
      {":trace", "NAME", "the JIT's traces of kernel NAME: IR, snapshots, machine code, aborts (--engine=jit)"},
      {":time", "STMT", "run STMT and print the wall time it took"},
      {":fields", "", "every field: name, shape, dtype, SNode path, bytes"},
      {":load", "FILE", "run FILE in this session (its globals stay)"},
      {":reset", "", "start a fresh session (forget every variable, field and kernel)"},
      {":quit", "", "leave (Ctrl-D does too)"},
  };
  return c;
}

namespace {

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

std::string human_time(double seconds) {
  char buf[64];
  if (seconds >= 1) std::snprintf(buf, sizeof buf, "%.3f s", seconds);
  else if (seconds >= 1e-3) std::snprintf(buf, sizeof buf, "%.3f ms", seconds * 1e3);
  else std::snprintf(buf, sizeof buf, "%.1f us", seconds * 1e6);
  return buf;
}

// The JIT's report holds one entry per trace or abort, each starting with a
// "trace KERNEL.taskN_kind @pc: ..." or "abort KERNEL.taskN_kind @pc: ..." line.
void show_traces(Session& s, const std::string& name) {
  const char* engine = s.program()->engine->name();
  if (std::string(engine) != "jit") {
    std::printf("this session runs kernels on the %s engine; start it with --engine=jit (or call\n"
                "ti.init(engine=\"jit\")) to trace their loops\n", engine);
    return;
  }
  std::string report = jit::trace_report(), out;
  bool keep = false;
  size_t pos = 0;
  while (pos < report.size()) {
    size_t nl = report.find('\n', pos);
    std::string line = report.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos + 1);
    pos = nl == std::string::npos ? report.size() : nl + 1;
    if (line.rfind("trace ", 0) == 0 || line.rfind("abort ", 0) == 0) keep = line.compare(6, name.size() + 1, name + ".") == 0;
    if (keep) out += line;
  }
  if (out.empty()) std::printf("no traces of kernel '%s' yet (a loop becomes a trace once it is hot)\n", name.c_str());
  else std::fputs(out.c_str(), stdout);
}

void show_code(Session& s, const std::string& name, bool ir) {
  const auto& dumps = s.dumps();
  for (auto it = dumps.rbegin(); it != dumps.rend(); ++it) {
    if (it->name != name) continue;
    const std::string& text = ir ? it->ir : it->bytecode;
    std::fputs(text.c_str(), stdout);
    if (!text.empty() && text.back() != '\n') std::fputc('\n', stdout);
    return;
  }
  NameKind kind = s.kind_of(name);
  if (kind == NameKind::kernel)
    std::fprintf(stderr, "kernel '%s' has not been compiled yet: kernels compile when first called\n", name.c_str());
  else if (kind == NameKind::func)
    std::fprintf(stderr, "'%s' is a @ti.func: it is inlined into the kernels that call it\n", name.c_str());
  else {
    std::string known;
    for (auto& k : dumps)
      if (known.find(" " + k.name + ",") == std::string::npos) known += " " + k.name + ",";
    if (!known.empty()) known.pop_back();
    std::fprintf(stderr, "no kernel named '%s' was compiled%s%s\n", name.c_str(),
                 known.empty() ? "" : "; compiled so far:", known.c_str());
  }
}

void show_fields(Session& s) {
  Program* prog = s.program();
  if (prog->fields.empty()) {
    std::printf("(no fields)\n");
    return;
  }
  struct Row {
    std::string name, shape, dtype, path, bytes;
  };
  std::vector<Row> rows{{"name", "shape", "dtype", "snode path", "bytes"}};
  int64_t total = 0;
  auto& fields = prog->fields;
  for (size_t k = 0; k < fields.size();) {
    const FieldInfo& f = *fields[k];
    Row r;
    r.name = f.name.empty() ? "(unnamed)" : f.name;
    r.shape = format_shape(f.shape);
    r.dtype = prim_name(f.dtype);
    // A vector or matrix field is n*m scalar component fields of one name
    // placed under one parent: it gets one row.
    size_t e = k + 1;
    int64_t n = 0, m = 0;
    if (!f.name.empty() && f.place && s.compound_dims(f.name, n, m) && n > 0 && m > 0 && n * m > 1) {
      while (e < fields.size() && (int64_t)(e - k) < n * m && fields[e]->name == f.name && fields[e]->place &&
             fields[e]->place->parent == f.place->parent && fields[e]->dtype == f.dtype)
        e++;
      if ((int64_t)(e - k) == n * m)
        r.dtype = (m > 1 ? "mat" + std::to_string(n) + "x" + std::to_string(m) : "vec" + std::to_string(n)) + "<" +
                  r.dtype + ">";
      else
        e = k + 1;
    }
    int64_t bytes = 0;
    if (!f.place) {
      r.path = "(not placed)";
    } else {
      int64_t slots = 1;  // how many elements the tree allocates for one component
      std::vector<const SNode*> chain;
      for (const SNode* p = f.place->parent; p; p = p->parent) chain.push_back(p);
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        r.path += (*it)->name() + "->";
        slots *= (*it)->num_cells();
      }
      if (e == k + 1) {
        r.path += f.place->name();
      } else {
        std::string ids;
        for (size_t c = k; c < e; c++) ids += (ids.empty() ? "{S" : ",S") + std::to_string(fields[c]->place->id);
        r.path += ids + "}place<" + std::string(prim_name(f.dtype)) + ">";
      }
      bytes = slots * (prim_bits(f.dtype) / 8) * (int64_t)(e - k);
    }
    total += bytes;
    r.bytes = std::to_string(bytes);
    rows.push_back(std::move(r));
    k = e;
  }
  size_t w[4] = {0, 0, 0, 0};
  for (auto& r : rows) {
    w[0] = std::max(w[0], r.name.size());
    w[1] = std::max(w[1], r.shape.size());
    w[2] = std::max(w[2], r.dtype.size());
    w[3] = std::max(w[3], r.path.size());
  }
  for (auto& r : rows)
    std::printf("%-*s  %-*s  %-*s  %-*s  %s\n", (int)w[0], r.name.c_str(), (int)w[1], r.shape.c_str(), (int)w[2],
                r.dtype.c_str(), (int)w[3], r.path.c_str(), r.bytes.c_str());
  std::printf("%zu field%s, %lld bytes\n", rows.size() - 1, rows.size() == 2 ? "" : "s", (long long)total);
}

bool is_command(const std::string& line) {
  size_t b = line.find_first_not_of(" \t");
  return b != std::string::npos && line[b] == ':';
}

}  // namespace

void run_command(Session& s, const std::string& line) {
  size_t sp = line.find_first_of(" \t");
  std::string cmd = line.substr(0, sp);
  std::string arg = sp == std::string::npos ? "" : trim(line.substr(sp));
  auto need_arg = [&](const char* what) {
    if (!arg.empty()) return true;
    std::fprintf(stderr, "usage: %s %s\n", cmd.c_str(), what);
    return false;
  };
  if (cmd == ":help" || cmd == ":h" || cmd == ":?") {
    std::printf("Type Python (Taichi dialect): a statement runs when complete; a block (a line\n"
                "ending in ':' or a decorator) runs at the blank line that closes it. The value of\n"
                "an expression is echoed with its repr. Ctrl-C interrupts running code (or clears\n"
                "the line); Ctrl-D or :quit leaves. Commands:\n");
    for (auto& c : commands()) {
      std::string head = std::string(c.name) + (*c.args ? " " : "") + c.args;
      std::printf("  %-14s %s\n", head.c_str(), c.help);
    }
  } else if (cmd == ":ir" || cmd == ":bc") {
    if (need_arg("NAME")) show_code(s, arg, cmd == ":ir");
  } else if (cmd == ":trace") {
    if (need_arg("NAME")) show_traces(s, arg);
  } else if (cmd == ":time") {
    if (!need_arg("STMT")) return;
    auto t0 = std::chrono::steady_clock::now();
    bool ok = s.run_statement(arg);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (ok) std::printf("wall time: %s\n", human_time(secs).c_str());
  } else if (cmd == ":fields") {
    show_fields(s);
  } else if (cmd == ":load") {
    if (need_arg("FILE")) s.load(arg);
  } else if (cmd == ":reset") {
    s.reset();
    std::printf("(a fresh session)\n");
  } else if (cmd == ":quit" || cmd == ":q" || cmd == ":exit") {
    s.exit_code = 0;
  } else {
    std::fprintf(stderr, "unknown command '%s' (:help lists them)\n", cmd.c_str());
  }
  std::fflush(stdout);
  std::fflush(stderr);
}

int run_loop(Session& s, const char* banner) {
  jit::keep_traces(true);  // for :trace
  bool tty = isatty(0);
  if (tty) {
    terminal_open([&s](std::string_view before, std::string_view word) { return s.complete(before, word); });
    std::fputs(banner, stdout);
  }
  bool pending = false;
  while (s.exit_code < 0) {
    std::string line;
    if (tty) {
      Read r = terminal_read(pending ? "... " : ">>> ", line);
      if (r == Read::interrupt) {
        std::fputs("\nKeyboardInterrupt\n", stdout);
        s.drop();
        pending = false;
        continue;
      }
      if (r == Read::eof) {
        std::fputc('\n', stdout);
        break;
      }
    } else if (!std::getline(std::cin, line)) {
      if (pending) s.finish();  // the last block needs no blank line
      break;
    } else if (!line.empty() && line.back() == '\r') {
      line.pop_back();
    }
    if (!pending && is_command(line)) {
      run_command(s, trim(line));
      continue;
    }
    pending = s.push(line);
  }
  if (tty) terminal_close();
  std::fflush(stdout);
  return s.exit_code < 0 ? 0 : s.exit_code;
}

}  // namespace kiln::repl
