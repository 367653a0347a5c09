// The `ti` module (`import taichi as ti` / `import kiln as ti`): ti.init,
// dtypes, archs, fields, ti.root and axes, decorators, and the intrinsics.
// Every intrinsic is a builtin named "ti.<attr>", which is how the frontend
// recognises it inside kernels; on the host the same builtins compute in
// f64/int (ti_intrinsics.cpp).
#include <cstdlib>

#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"
#include "vm/host/ti_compound.h"
#include "vm/host/ti_objects.h"
#include "vm/ti/kernels.h"
#include "vm/host/ti_state.h"
#include "jit/jit.h"
#include "vm/interp/interp.h"
#include "vm/runtime/device_pools.h"

namespace kiln::host {

void install_ti_intrinsics(Evaluator& ev, ModuleObj& m);

Program& ti_program(Evaluator& ev) {
  if (!ev.ti->program) ti_reset(ev, Config{});
  return *ev.ti->program;
}

void ti_reset(Evaluator& ev, Config cfg) {
  TiState& ti = *ev.ti;
  const HostOptions& o = ti.options;
  ti::ProgramOptions po;
  po.force_debug = o.force_debug;
  po.force_print_ir = o.force_print_ir;
  po.engine = o.engine;
  po.threads = o.threads;
  po.debugger = o.debugger;
  po.alloc_hooks = o.alloc_hooks;
  std::unique_ptr<Program> prog = ti::make_program(cfg, po);
  ti.cache.clear();
  ti.cache_epoch++;
  ti.program.reset();
  ti.program = std::move(prog);
  ti.program->out = ev.out;
  ti.generation++;
}

void configure_ti(Evaluator& ev, const HostOptions& options) { ev.ti->options = options; }
const std::vector<KernelDump>& ti_kernel_dumps(const Evaluator& ev) { return ev.ti->dumps; }

Prim dtype_prim(Evaluator& ev, const Value& v, SourceLoc loc) {
  if (v.kind == Kind::Host)
    if (auto* d = dynamic_cast<DTypeObj*>(v.as<HostObj>())) return d->prim;
  // numpy dtypes (np.float32) name the same primitive types; numpy's bool has no Taichi twin
  if (v.kind == Kind::Host && host_as<NpArrayObj>(v) == nullptr && v.as<HostObj>()->type_name() == "type") {
    Prim p = np_dtype_arg(ev, v, loc);
    if (p != Prim::none) return p;
  }
  if (v.kind == Kind::Class && v.as<ClassObj>()->builtin_type) {
    const std::string& n = v.as<ClassObj>()->name;
    if (n == "int") return ti_program(ev).config.types.default_ip;
    if (n == "float") return ti_program(ev).config.types.default_fp;
  }
  raise("TypeError", "expected a dtype such as ti.f32, not " + ev.repr(v), loc);
}

namespace {

Value init(Evaluator& ev, CallArgs& a) {
  Config cfg;
  Value v;
  Value fallback = Value::boolean(true);
  a.take_kw("enable_fallback", fallback);
  if (a.take_kw("arch", v) || !a.pos.empty()) {
    if (!a.pos.empty()) v = a.pos[0];
    // an arch, or a list of them to try in order (Taichi's ti.init(arch=[ti.cuda, ti.vulkan]))
    std::vector<Value> given{v};
    if (v.kind == Kind::List) given = v.as<ListObj>()->items;
    if (v.kind == Kind::Tuple) given = v.as<TupleObj>()->items;
    std::vector<std::string> names;
    for (const Value& g : given) {
      auto* arch = g.kind == Kind::Host ? dynamic_cast<ArchObj*>(g.as<HostObj>()) : nullptr;
      if (!arch) break;
      names.push_back(arch->name);
    }
    if (names.empty() || names.size() != given.size())
      raise("TypeError", "ti.init(arch=...) takes an arch such as ti.cpu or ti.vulkan, or a list of them, not " + ev.repr(v), a.loc);
    std::string warning;
    cfg.arch = ti::select_arch(names, ev.truthy(fallback), &warning);
    if (!warning.empty()) ev.err(format_warning(warning, a.loc));
  }
  if (a.take_kw("debug", v)) cfg.debug = ev.truthy(v);
  if (a.take_kw("print_ir", v)) cfg.print_ir = ev.truthy(v);
  if (a.take_kw("fast_math", v)) cfg.fast_math = ev.truthy(v);
  if (a.take_kw("default_ip", v)) {
    cfg.types.default_ip = dtype_prim(ev, v, a.loc);
    if (!prim_is_int(cfg.types.default_ip)) raise("ValueError", "default_ip must be an integer type", a.loc);
  }
  if (a.take_kw("default_fp", v)) {
    cfg.types.default_fp = dtype_prim(ev, v, a.loc);
    if (!prim_is_float(cfg.types.default_fp)) raise("ValueError", "default_fp must be a floating-point type", a.loc);
  }
  if (a.take_kw("cpu_max_num_threads", v)) cfg.num_threads = (int)arg_int(ev, v, "init", a.loc);
  if (a.take_kw("random_seed", v)) cfg.random_seed = (uint64_t)arg_int(ev, v, "init", a.loc);
  if (a.take_kw("device_memory_GB", v)) {
    cfg.device_memory_gb = arg_float(ev, v, "init", a.loc);
    try {
      device_pool_budget(cfg.device_memory_gb);  // a ValueError at ti.init for a budget it cannot have
    } catch (Error& e) {
      raise(e.kind, e.message, a.loc);
    }
  }
  if (a.take_kw("engine", v)) cfg.engine = ev.str(v);
  if (a.take_kw("offline_cache", v)) cfg.offline_cache = ev.truthy(v);
  if (a.take_kw("offline_cache_file_path", v)) {
    if (v.kind != Kind::Str)
      raise("TypeError", "offline_cache_file_path must be a str (a directory), not " + ev.repr(v), a.loc);
    cfg.offline_cache_dir = ev.str(v);
  }
  if (a.take_kw("dtype_cast_mode", v)) {
    std::optional<CastMode> m = v.kind == Kind::None ? CastMode::none : cast_mode_from_name(ev.str(v));
    if (!m)
      raise("ValueError", "dtype_cast_mode must be \"upcast\", \"downcast\", \"crosscast\", \"cast\" or None, not " + ev.repr(v), a.loc);
    cfg.dtype_cast_mode = *m;
  }
  // Accepted and ignored: they change nothing observable here.
  for (auto& [k, val] : a.kw) {
    static const char* ignored[] = {"kernel_profiler", "log_level", "advanced_optimization",
                                    "device_memory_fraction", "packed",
                                    "dynamic_index", "verbose", "check_out_of_bound", "excepthook", "ad_stack_size",
                                    "default_up", "cfg_optimization",
                                    "opt_level", "print_kernel_llvm_ir", "unrolling_limit"};
    bool ok = false;
    for (auto* n : ignored) ok |= k == n;
    if (!ok) raise("TypeError", "init() got an unexpected keyword argument '" + k + "'", a.loc);
  }
  ti_reset(ev, cfg);
  return Value();
}

Value field(Evaluator& ev, CallArgs& a) {
  Value dtype, shape, name, v;
  if (a.take_kw("dtype", dtype)) a.pos.insert(a.pos.begin(), dtype);
  if (a.take_kw("shape", shape) && a.pos.size() < 2) a.pos.push_back(shape);
  a.take_kw("name", name);
  a.take_kw("needs_grad", v);
  a.take_kw("needs_dual", v);
  std::vector<int64_t> offset;
  if (a.take_kw("offset", v) && !v.is_none()) offset = arg_shape(ev, v, "offset", a.loc);
  Value order, layout;
  a.take_kw("order", order);
  a.take_kw("layout", layout);
  no_kwargs(a, "field");
  expect_args(a, "field", 1, 2);
  Program& prog = ti_program(ev);
  std::string nm = name.is_none() ? "" : ev.str(name);
  auto f = std::make_shared<FieldObj>();
  f->ti = ev.ti.get();
  f->generation = ev.ti->generation;
  Value sh = a.pos.size() == 2 ? a.pos[1] : Value();
  if (const QuantType* qt = quant_type_of(a.pos[0])) {
    if (!sh.is_none())
      raise("TypeError", "a field of quantized type " + qt->describe() +
                             " cannot have a shape: place it through ti.BitpackedFields or ti.root.quant_array(...)", a.loc);
    f->info = prog.create_quant_field(*qt, nm, a.loc);
    return Value::of(f);
  }
  Prim p = dtype_prim(ev, a.pos[0], a.loc);
  if (sh.is_none()) check_offset(nullptr, offset, a.loc);  // the runtime's error for offset without shape
  if (FieldInfo* fi = create_ordered_field(ev, p, sh, order, layout, nm, a.loc)) {
    f->info = fi;
    prog.set_offset(fi, offset, a.loc);
  } else if (sh.is_none()) {
    f->info = prog.create_field(p, nm, a.loc);  // placed later with ti.root...place
  } else {
    f->info = prog.create_dense_field(p, arg_shape(ev, sh, "field", a.loc), nm, a.loc, offset);
  }
  return Value::of(f);
}

Value decorate(Evaluator& ev, CallArgs& a, bool is_func, bool is_real = false) {
  const char* what = is_real ? "real_func" : is_func ? "func" : "kernel";
  expect_args(a, what, 1, 1);
  if (a.pos[0].kind != Kind::Function || !a.pos[0].as<FunctionObj>()->def)
    raise("TypeError", std::string("@ti.") + what + " decorates a def", a.loc);
  auto k = std::make_shared<KernelObj>();
  k->fn = a.pos[0];
  k->ti = ev.ti->alive;
  k->key_head = "K" + std::to_string(ev.ti->next_kernel_id++) + "|";
  k->is_func = is_func;
  k->is_real = is_real;
  return Value::of(k);
}

}  // namespace

static Value make_ti(Evaluator& ev) {
  if (!ev.ti->module.is_none()) return ev.ti->module;
  auto m = std::make_shared<ModuleObj>();
  m->name = "taichi";
  auto def = [&](const std::string& name, NativeFn fn) { m->attrs[name] = make_builtin("ti." + name, std::move(fn)); };
  def("init", init);
  def("reset", [](Evaluator& ev, CallArgs&) {
    ti_reset(ev, ev.ti->program ? ev.ti->program->config : Config{});
    return Value();
  });
  def("sync", [](Evaluator& ev, CallArgs&) {  // waits for a device's deferred launches, as on CPython
    if (ev.ti->program) ev.ti->program->materialize();
    return Value();
  });
  def("field", field);
  def("kernel", [](Evaluator& ev, CallArgs& a) { return decorate(ev, a, false); });
  def("func", [](Evaluator& ev, CallArgs& a) { return decorate(ev, a, true); });
  def("real_func", [](Evaluator& ev, CallArgs& a) { return decorate(ev, a, true, true); });
  def("ref", [](Evaluator&, CallArgs& a) {
    expect_args(a, "ref", 1, 1);
    auto r = std::make_shared<RefObj>();
    r->dtype = a.pos[0];
    return Value::of(r);
  });
  def("data_oriented", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "data_oriented", 1, 1);
    // The mark a kernel method's class needs (ti_kernel.cpp), as in Taichi.
    if (a.pos[0].kind == Kind::Class) {
      auto* c = a.pos[0].as<ClassObj>();
      if (!c->attrs.count("_data_oriented")) c->attr_order.push_back("_data_oriented");
      c->attrs["_data_oriented"] = Value::boolean(true);
    }
    return a.pos[0];
  });
  Value tmpl = Value::of(std::make_shared<TemplateObj>());
  def("template", [tmpl](Evaluator&, CallArgs&) { return tmpl; });
  for (int k = 0; k < kNumPrims; k++) {
    Prim p = (Prim)k;
    m->attrs[std::string(prim_name(p))] = Value::of(std::make_shared<DTypeObj>(p));
  }
  const std::pair<const char*, const char*> aliases[] = {
      {"int8", "i8"}, {"int16", "i16"}, {"int32", "i32"}, {"int64", "i64"}, {"uint8", "u8"}, {"uint16", "u16"},
      {"uint32", "u32"}, {"uint64", "u64"}, {"float16", "f16"}, {"float32", "f32"}, {"float64", "f64"}};
  for (auto& [alias, name] : aliases) m->attrs[alias] = m->attrs[name];
  for (const char* arch : {"cpu", "x64", "arm64", "gpu", "cuda", "vulkan", "metal", "opengl", "gles", "dx11", "dx12", "amdgpu"})
    m->attrs[arch] = Value::of(std::make_shared<ArchObj>(arch));
  const std::pair<const char*, std::vector<int>> axes[] = {
      {"i", {0}}, {"j", {1}}, {"k", {2}}, {"l", {3}}, {"ij", {0, 1}}, {"ik", {0, 2}}, {"jk", {1, 2}},
      {"il", {0, 3}}, {"jl", {1, 3}}, {"kl", {2, 3}}, {"ijk", {0, 1, 2}}, {"ijl", {0, 1, 3}}, {"ikl", {0, 2, 3}},
      {"jkl", {1, 2, 3}}, {"ijkl", {0, 1, 2, 3}}};
  for (auto& [name, ax] : axes) m->attrs[name] = Value::of(std::make_shared<AxisObj>(ax));
  def("axes", [](Evaluator& ev, CallArgs& a) {  // ti.axes(0, 1, 4): the axes of more than 4 dimensions
    std::vector<int> ax;
    for (auto& v : a.pos) {
      int64_t k = arg_int(ev, v, "axes", a.loc);
      if (k < 0 || k >= kMaxIndices)
        raise("ValueError", "axis " + std::to_string(k) + " is out of range (at most " + std::to_string(kMaxIndices) + " axes)", a.loc);
      ax.push_back((int)k);
    }
    return Value::of(std::make_shared<AxisObj>(ax));
  });
  // ti.root: the open tree of the current Program (a new one after a kernel ran).
  TiState* ti = ev.ti.get();
  m->getattr_hook = [ti](Evaluator& ev, const std::string& name, Value& out) {
    if (name != "root") return false;
    auto s = std::make_shared<SNodeObj>();
    s->node = ti_program(ev).open_root();
    s->ti = ti;
    s->generation = ti->generation;
    out = Value::of(s);
    return true;
  };
  install_ti_intrinsics(ev, *m);
  install_ti_compound(ev, *m);
  install_ti_layout(ev, *m);
  ev.ti->module = Value::of(m);
  return ev.ti->module;
}

void install_module_ti(Evaluator& ev) {
  ev.ti = std::make_unique<TiState>();
  ev.ti->host_env = make_host_env(ev);
  ev.module_factories["taichi"] = make_ti;
  ev.module_factories["kiln"] = make_ti;
}

}  // namespace kiln::host
