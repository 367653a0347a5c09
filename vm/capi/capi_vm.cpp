// The C API's VMs, modules, errors and dtype names (include/kiln/kiln.h).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "vm/capi/capi_state.h"
#include "vm/host/evaluator.h"
#include "vm/support/diag.h"

namespace kiln::capi {

namespace {

// The last failure on this thread: kiln_last_error / kiln_last_diagnostic
// point into it, so it lives until the next failure replaces it.
struct LastError {
  std::string kind, file, message, formatted;
  kiln_diagnostic d{};
};
thread_local LastError last;

kiln_status status_of(const std::string& kind) {
  if (kind == "InvalidArgument") return KILN_ERROR_INVALID_ARGUMENT;
  if (kind == "SyntaxError" || kind == "IndentationError" || kind == "TaichiSyntaxError") return KILN_ERROR_SYNTAX;
  if (kind == "NameError" || kind == "AttributeError" || kind == "KeyError") return KILN_ERROR_NAME;
  if (kind == "TypeError" || kind == "TaichiTypeError") return KILN_ERROR_TYPE;
  if (kind == "ValueError") return KILN_ERROR_VALUE;
  if (kind == "IndexError") return KILN_ERROR_INDEX;
  if (kind == "AssertionError") return KILN_ERROR_ASSERTION;
  if (kind == "OSError" || kind == "FileNotFoundError" || kind == "IOError") return KILN_ERROR_IO;
  if (kind == "SystemExit") return KILN_ERROR_EXIT;
  if (kind == "MemoryError") return KILN_ERROR_OUT_OF_MEMORY;
  if (kind == "InternalError") return KILN_ERROR_INTERNAL;
  return KILN_ERROR_RUNTIME;
}

void write_sink(void (*cb)(void*, const char*, size_t), void* user, FILE* fallback, std::string_view s) {
  if (cb) cb(user, s.data(), s.size());
  else std::fwrite(s.data(), 1, s.size(), fallback);
}

}  // namespace

[[noreturn]] void invalid(const std::string& message) { throw Error("InvalidArgument", message); }
void need(const void* p, const char* what) {
  if (!p) invalid(std::string(what) + " is NULL");
}

const host::Value& module_global(kiln_module* m, const char* name, const void* out, const char* what) {
  need(m, "module");
  need(name, "name");
  need(out, "out");
  auto& vars = m->vm->host->ev->main_env->vars;
  auto it = vars.find(name);
  if (it == vars.end()) throw Error("NameError", std::string("no ") + what + " named '" + name + "' in " + m->name);
  return it->second;
}

kiln_status fail(kiln_vm* vm, const Error& e) {
  last.kind = e.kind;
  last.file = e.loc.file ? e.loc.file->path : "";
  last.message = e.message;
  last.formatted = format_error(e);
  last.d.status = status_of(e.kind);
  last.d.kind = last.kind.c_str();
  last.d.file = last.file.c_str();
  last.d.line = (int)e.loc.line;
  last.d.column = (int)e.loc.col;
  last.d.message = last.message.c_str();
  last.d.formatted = last.formatted.c_str();
  if (vm && vm->cfg.diagnostic) {
    // A throwing callback must not unwind through C frames.
    try {
      vm->cfg.diagnostic(vm->cfg.user_data, &last.d);
    } catch (...) {
    }
  }
  return last.d.status;
}

kiln_status fail_status(kiln_vm* vm, const char* kind, const std::string& message) {
  return fail(vm, Error(kind, message));
}

Prim prim_of(kiln_dtype t) {
  switch (t) {
    case KILN_I8: return Prim::i8;
    case KILN_I16: return Prim::i16;
    case KILN_I32: return Prim::i32;
    case KILN_I64: return Prim::i64;
    case KILN_U8: return Prim::u8;
    case KILN_U16: return Prim::u16;
    case KILN_U32: return Prim::u32;
    case KILN_U64: return Prim::u64;
    case KILN_F16: return Prim::f16;
    case KILN_BF16: return Prim::bf16;
    case KILN_F32: return Prim::f32;
    case KILN_F64: return Prim::f64;
    default: return Prim::none;
  }
}

kiln_dtype dtype_of(Prim p) {
  for (int t = KILN_I8; t <= KILN_F64; t++)
    if (prim_of((kiln_dtype)t) == p) return (kiln_dtype)t;
  return KILN_DTYPE_NONE;
}

kiln_value to_value(const ConstVal& c) {
  kiln_value v;
  v.dtype = dtype_of(c.prim);
  if (prim_is_float(c.prim)) v.v.f = c.as_double();
  else if (prim_is_signed(c.prim)) v.v.i = c.as_int64();
  else v.v.u = c.as_uint64();
  return v;
}

ConstVal from_value(const kiln_value& v, const char* what) {
  Prim p = prim_of(v.dtype);
  if (p == Prim::none)
    throw Error("TypeError", std::string(what) + " must be a scalar value, got dtype " + kiln_dtype_name(v.dtype));
  if (prim_is_float(p)) return ConstVal::make_float(p, v.v.f);
  if (prim_is_signed(p)) return ConstVal::make_int(p, v.v.i);
  return ConstVal::make_uint(p, v.v.u);
}

}  // namespace kiln::capi

using namespace kiln;
using namespace kiln::capi;

extern "C" {

const char* kiln_version(void) { return "0.1.0"; }
const char* kiln_last_error(void) { return last.formatted.c_str(); }
const kiln_diagnostic* kiln_last_diagnostic(void) {
  if (!last.d.kind) {
    last.d.kind = last.d.file = last.d.message = last.d.formatted = "";
  }
  return &last.d;
}

void kiln_config_init(kiln_config* cfg) {
  if (!cfg) return;
  std::memset(cfg, 0, sizeof *cfg);
}

kiln_status kiln_vm_create(const kiln_config* cfg, kiln_vm** out) {
  return guard(nullptr, [&] {
    need(out, "out");
    auto vm = std::make_unique<kiln_vm>();
    if (cfg) vm->cfg = *cfg;
    else kiln_config_init(&vm->cfg);
    if (vm->cfg.engine) vm->engine = vm->cfg.engine;
    vm->cfg.engine = nullptr;  // not kept: the caller's string
    if (!vm->engine.empty() && vm->engine != "interp" && vm->engine != "jit")
      throw Error("ValueError", "unknown engine '" + vm->engine + "' (engines: interp, jit)");
    if (vm->cfg.threads < 0) throw Error("ValueError", "threads must be 0 (one per core) or positive, got " + std::to_string(vm->cfg.threads));
    HostOptions o;
    o.argv = {"<embedded>"};
    o.engine = vm->engine;
    o.threads = vm->cfg.threads;
    o.force_debug = vm->cfg.debug != 0;
    o.keep_kernel_dumps = false;
    if (!vm->cfg.alloc != !vm->cfg.dealloc) invalid("set both alloc and dealloc in the config, or neither");
    o.alloc_hooks = AllocHooks{vm->cfg.alloc, vm->cfg.dealloc, vm->cfg.allocator_data};
    kiln_vm* raw = vm.get();
    o.out = [raw](std::string_view s) { write_sink(raw->cfg.output, raw->cfg.user_data, stdout, s); };
    o.err = [raw](std::string_view s) {
      if (!raw->cfg.error_output) std::fflush(stdout);
      write_sink(raw->cfg.error_output, raw->cfg.user_data, stderr, s);
    };
    vm->host = make_host(std::move(o));
    *out = vm.release();
  });
}

void kiln_vm_destroy(kiln_vm* vm) {
  try {
    delete vm;
  } catch (...) {
  }
}

kiln_status kiln_load_string(kiln_vm* vm, const char* name, const char* source, kiln_module** out) {
  return guard(vm, [&] {
    need(vm, "vm");
    need(source, "source");
    need(out, "out");
    std::string path = name ? name : "<string>";
    run_source(*vm->host, path, source);
    auto m = std::make_unique<kiln_module>();
    m->vm = vm;
    m->name = path;
    *out = m.release();
  });
}

kiln_status kiln_load_file(kiln_vm* vm, const char* path, kiln_module** out) {
  return guard(vm, [&] {
    need(vm, "vm");
    need(path, "path");
    need(out, "out");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("FileNotFoundError", std::string("cannot open '") + path + "': " + std::strerror(errno));
    std::stringstream ss;
    ss << in.rdbuf();
    run_source(*vm->host, path, ss.str());
    auto m = std::make_unique<kiln_module>();
    m->vm = vm;
    m->name = path;
    *out = m.release();
  });
}

void kiln_module_destroy(kiln_module* m) { delete m; }

const char* kiln_dtype_name(kiln_dtype t) {
  if (t == KILN_NDARRAY) return "ndarray";
  if (t == KILN_ARRAY) return "array";
  if (t == KILN_VECTOR) return "vector";
  if (t == KILN_FIELD) return "field";
  Prim p = prim_of(t);
  if (p == Prim::none) return "none";
  return prim_name(p).data();  // the names are string literals
}

const char* kiln_status_name(kiln_status s) {
  static const char* names[] = {"KILN_OK", "KILN_ERROR_INVALID_ARGUMENT", "KILN_ERROR_SYNTAX", "KILN_ERROR_NAME",
                                "KILN_ERROR_TYPE", "KILN_ERROR_VALUE", "KILN_ERROR_INDEX", "KILN_ERROR_ASSERTION",
                                "KILN_ERROR_IO", "KILN_ERROR_RUNTIME", "KILN_ERROR_EXIT", "KILN_ERROR_OUT_OF_MEMORY",
                                "KILN_ERROR_INTERNAL"};
  if ((int)s < 0 || (size_t)s >= sizeof names / sizeof *names) return "KILN_ERROR_UNKNOWN";
  return names[s];
}

}  // extern "C"
