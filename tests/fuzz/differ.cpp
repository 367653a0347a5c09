// Forked runs of one program on one engine, and the minimizer.
#include "tests/fuzz/differ.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <string_view>

#include "vm/host/host.h"

namespace kiln::fuzz {

namespace {

void put_all(int fd, const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = write(fd, s.data() + off, s.size() - off);
    if (n <= 0) return;
    off += (size_t)n;
  }
}

std::string frame(const std::string& s) { return std::to_string(s.size()) + "\n" + s; }

bool unframe(const std::string& buf, size_t& pos, std::string& out) {
  size_t nl = buf.find('\n', pos);
  if (nl == std::string::npos) return false;
  size_t n = std::stoul(buf.substr(pos, nl - pos));
  if (nl + 1 + n > buf.size()) return false;
  out = buf.substr(nl + 1, n);
  pos = nl + 1 + n;
  return true;
}

}  // namespace

Outcome run_engine(const std::string& src, const char* engine, int timeout_s) {
  int fds[2];
  if (pipe(fds) != 0) return {"crash: pipe failed", "", ""};
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    alarm((unsigned)timeout_s);
    Outcome o{"ok", "", ""};
    HostOptions opt;
    opt.argv = {"fuzz.py"};
    opt.engine = engine;
    // "vulkan" is a backend: the child runs every kernel on the Vulkan
    // device (lavapipe here), as KILN_ARCH=vulkan does for tests/lang.
    if (jam_other && std::string_view(engine) != "interp") setenv("KILN_JAM", "1", 1);
    if (std::string_view(engine) == "vulkan") {
      setenv("KILN_ARCH", "vulkan", 1);
      opt.engine = "interp";
    }
    opt.out = [&](std::string_view s) { o.out += s; };
    opt.err = [&](std::string_view s) { o.err += s; };
    auto host = make_host(opt);  // outlives the catch: an Error's location points into its sources
    try {
      run_source(*host, "fuzz.py", src);
    } catch (const SystemExit& e) {
      o.status = "exit " + std::to_string(e.code);
    } catch (const Error& e) {
      o.status = "error";
      o.err += format_error(e);
    }
    put_all(fds[1], frame(o.status) + frame(o.out) + frame(o.err));
    _exit(0);
  }
  close(fds[1]);
  std::string buf;
  char tmp[65536];
  for (ssize_t n; (n = read(fds[0], tmp, sizeof tmp)) > 0;) buf.append(tmp, (size_t)n);
  close(fds[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  Outcome o;
  size_t pos = 0;
  if (WIFSIGNALED(st)) {
    int sig = WTERMSIG(st);
    return {sig == SIGALRM ? "timeout" : "crash: signal " + std::to_string(sig), "", ""};
  }
  if (!unframe(buf, pos, o.status) || !unframe(buf, pos, o.out) || !unframe(buf, pos, o.err))
    return {"crash: exit status " + std::to_string(WEXITSTATUS(st)), "", ""};
  return o;
}

const char* other_engine = "jit";
bool jam_other = false;

Verdict compare(const std::string& src, Outcome* interp, Outcome* jit) {
  Outcome i = run_engine(src, "interp", 20);
  if (interp) *interp = i;
  // Programs run with debug=True may index past a field's end (loops.cpp);
  // then both engines must report the same IndexError.
  bool may_raise = src.find("debug=True") != std::string::npos && i.status == "error" &&
                   i.err.rfind("IndexError: ", 0) == 0;
  if (i.status != "ok" && !may_raise) return Verdict::invalid;
  Outcome j = run_engine(src, other_engine, 20);
  if (jit) *jit = j;
  return i == j ? Verdict::same : Verdict::differ;
}

namespace {

// Every place in the tree, visited in order; `edit` may change the node and
// returns true when it did. Used to enumerate candidate edits one at a time.
struct Shrinker {
  Node root;
  bool (*keep)(const std::string&, const std::string&);
  std::string first_line;
  size_t tried = 0;

  bool still_differs() { return keep(render(root), first_line); }

  // Tries each edit of `n` (through `apply`, which returns false when there
  // is no k-th edit); keeps the first that still differs.
  bool visit(Node& n) {
    if (n.kind == Node::Block) {
      for (size_t k = 0; k < n.kids.size(); k++) {
        if (n.kids[k].kind != Node::Stmt || !n.kids[k].removable) continue;
        Node saved = n.kids[k];
        n.kids.erase(n.kids.begin() + (long)k);
        tried++;
        if (still_differs()) return true;
        n.kids.insert(n.kids.begin() + (long)k, saved);
      }
      // A compound statement replaced by the statements of one of its blocks.
      for (size_t k = 0; k < n.kids.size(); k++) {
        Node saved = n.kids[k];
        if (saved.kind != Node::Stmt || !saved.removable) continue;
        for (const Node& b : saved.kids) {
          if (b.kind != Node::Block) continue;
          n.kids.erase(n.kids.begin() + (long)k);
          n.kids.insert(n.kids.begin() + (long)k, b.kids.begin(), b.kids.end());
          tried++;
          if (still_differs()) return true;
          n.kids.erase(n.kids.begin() + (long)k, n.kids.begin() + (long)(k + b.kids.size()));
          n.kids.insert(n.kids.begin() + (long)k, saved);
        }
      }
    }
    for (Node& kid : n.kids) {
      if (kid.kind == Node::Expr && !kid.kids.empty()) {
        Node saved = kid;
        // An operand of the same type, then a literal zero.
        for (const Node& op : saved.kids) {
          if (op.kind != Node::Expr || op.ty != saved.ty) continue;
          kid = op;
          tried++;
          if (still_differs()) return true;
          kid = saved;
        }
        kid = expr(saved.ty, zero_of(saved.ty));
        tried++;
        if (still_differs()) return true;
        kid = saved;
      }
      if (visit(kid)) return true;
    }
    return false;
  }
};

}  // namespace

Node minimize(Node program) {
  return minimize(
      std::move(program), [](const std::string& src, const std::string&) { return compare(src) == Verdict::differ; },
      "");
}

Node minimize(Node program, bool (*keep)(const std::string&, const std::string&), const std::string& first_line) {
  Shrinker s{std::move(program), keep, first_line};
  while (s.visit(s.root)) {
  }
  return s.root;
}

}  // namespace kiln::fuzz
