// host.h: sessions over one Evaluator.
#include "vm/host/host.h"

#include <pthread.h>
#include <sys/resource.h>

#include <algorithm>

#include "vm/host/evaluator.h"
#include "vm/host/gc.h"
#include "vm/host/ti_state.h"
#include "vm/lang/ast.h"

namespace kiln {

Host::Host() = default;
Host::~Host() {
  // Module-level functions hold the global environment that holds them (a
  // reference cycle Python's collector would break): drop the globals first,
  // so that a destroyed VM (the C API's kiln_vm_destroy) frees its objects.
  if (ev && ev->main_env) {
    auto vars = std::move(ev->main_env->vars);
    vars.clear();
  }
}

std::unique_ptr<Host> make_host(HostOptions options) {
  auto h = std::make_unique<Host>();
  h->ev = std::make_unique<host::Evaluator>();
  if (options.out) h->ev->out = options.out;
  if (options.err) h->ev->err = options.err;
  h->ev->argv = options.argv;
  host::configure_ti(*h->ev, options);
  h->options = std::move(options);
  return h;
}

namespace {

// SystemExit at top level: Python prints a non-int code's str() to stderr
// and exits 1; an int code is the exit status; None is 0.
[[noreturn]] void system_exit(host::Evaluator& ev, const host::Value& exc) {
  host::Value code;
  auto* inst = exc.as<host::InstanceObj>();
  auto it = inst->attrs.find("code");
  if (it != inst->attrs.end()) code = it->second;
  if (code.is_none()) throw SystemExit(0);
  if (code.is_int_like()) throw SystemExit((int)code.as_int());
  ev.err(ev.str(code) + "\n");
  throw SystemExit(1);
}

// How much of this thread's stack the evaluator may use: all but a margin
// for the native code below it (kernel compilation, printing).
size_t stack_budget() {
  size_t size = 8u << 20;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    size_t s = 0;
    if (pthread_attr_getstacksize(&attr, &s) == 0 && s) size = s;
    pthread_attr_destroy(&attr);
  }
  struct rlimit rl;
  if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < size) size = rl.rlim_cur;
  size_t margin = std::min<size_t>(size / 4, 1u << 20);
  return size > margin ? size - margin : size / 2;
}

void run(Host& h, const std::string& path, std::string text, bool interactive) {
  host::Evaluator& ev = *h.ev;
  // Nested runs (a kernel compile calling back into host code) keep the outer base.
  bool outer = ev.stack_base == nullptr;
  if (outer) {
    ev.stack_base = (const char*)__builtin_frame_address(0);
    ev.stack_budget = stack_budget();
  }
  struct Reset {
    host::Evaluator& ev;
    bool outer;
    ~Reset() {
      if (!outer) return;
      ev.stack_base = nullptr;
      // A module load (the C API's kiln_load_*, a REPL input) is a natural
      // point to free what its top level left in cycles: an application that
      // reloads a module replaces the previous generation's objects.
      host::gc_collect();
    }
  } reset{ev, outer};
  const SourceFile* file = ev.sources.add(path, std::move(text));
  if (!interactive) ev.main_env->vars["__file__"] = host::Value::str(path);
  ev.asts.push_back(ast::parse(file));
  const ast::Module& m = *ev.asts.back();
  try {
    if (!interactive) {
      ev.run_module(m, ev.main_env);
    } else {
      // Each statement alone, echoing expression values like Python's REPL.
      for (auto* s : m.body) {
        ast::Module one;
        one.file = m.file;
        one.body.push_back(s);
        if (s->kind == ast::StmtKind::ExprStmt) {
          host::Frame f;
          f.name = "<module>";
          f.env = ev.main_env.get();
          f.cur = s->loc;
          ev.frames.push_back(f);
          try {
            host::Value v = ev.eval(s->as<ast::ExprStmt>()->value, *ev.main_env);
            ev.frames.pop_back();
            if (!v.is_none()) ev.out(ev.repr(v) + "\n");
          } catch (Error& e) {
            e.traceback.insert(e.traceback.begin(), TraceFrame{ev.frames.back().cur, "<module>"});
            ev.frames.pop_back();
            throw;
          }
        } else {
          ev.run_module(one, ev.main_env);
        }
        one.body.clear();
      }
    }
  } catch (host::PyError& e) {
    if (e.exc.as<host::InstanceObj>()->cls->is_subclass_of(ev.exception_class("SystemExit").get()))
      system_exit(ev, e.exc);
    throw;
  } catch (Error&) {
    throw;
  } catch (std::exception& e) {
    // A bug below us must not take the session down with it.
    throw Error("InternalError", e.what());
  }
}

}  // namespace

void run_source(Host& h, const std::string& path, std::string text) { run(h, path, std::move(text), false); }

std::string statistics_text(Host& h) {
  if (!h.ev || !h.ev->ti || !h.ev->ti->program) return "";
  return h.ev->ti->program->statistics_text();
}

void run_interactive(Host& h, const std::string& name, std::string text) {
  struct Note {
    Host& h;
    ~Note() { note_redefinitions(h); }
  } note{h};
  run(h, name, std::move(text), true);
}

void note_redefinitions(Host& h) {
  host::Evaluator& ev = *h.ev;
  std::map<std::string, std::shared_ptr<void>> now;
  for (auto& [name, v] : ev.main_env->vars)
    if (v.kind == host::Kind::Host || v.kind == host::Kind::Class) now[name] = v.obj;
  bool changed = false;
  for (auto& [name, obj] : h.definitions) {
    auto it = now.find(name);
    if (it == now.end() || it->second != obj) changed = true;
  }
  // The old objects stay referenced until here, so a new one cannot have
  // reused an old one's address (the cache keys kernels by address).
  if (changed && ev.ti) {
    ev.ti->cache.clear();
    ev.ti->cache_epoch++;
  }
  h.definitions = std::move(now);
}

void request_interrupt(Host& h) noexcept {
  if (!h.ev) return;
  h.ev->interrupt_requested.store(true, std::memory_order_relaxed);
  if (h.ev->ti)
    if (Program* p = h.ev->ti->program.get()) p->interrupt_requested.store(true, std::memory_order_relaxed);
}

void clear_interrupt(Host& h) {
  h.ev->interrupt_requested.store(false);
  if (h.ev->ti && h.ev->ti->program) h.ev->ti->program->interrupt_requested.store(false);
}

const std::vector<KernelDump>& compiled_kernels(const Host& h) { return host::ti_kernel_dumps(*h.ev); }

}  // namespace kiln
