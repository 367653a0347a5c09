// The C API's kernels: look a @ti.kernel up in the VM's globals and call it
// through the host evaluator's own KernelObj::call (the same binding, cache
// and launch as a call from Python), with typed arguments checked against the
// annotations first and host arrays wrapped without a copy.
#include <cstring>

#include "vm/capi/capi_state.h"
#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"
#include "vm/host/ti_compound.h"
#include "vm/host/ti_objects.h"
#include "vm/host/ti_state.h"

using namespace kiln;
using namespace kiln::capi;
using namespace kiln::host;

namespace {

// A kiln_vector as the host's ti.Vector / ti.Matrix of the parameter's type,
// after checking its dtype and shape against the annotation.
template <class What>
Value vector_arg(Evaluator& ev, const MatrixTypeObj& mt, const kiln_vector* v, const What& what, SourceLoc loc) {
  if (!v) invalid(what() + ": the kiln_vector pointer is NULL");
  if (!v->data) invalid(what() + ": vector data is NULL");
  Prim p = prim_of(v->dtype);
  if (p != mt.dtype)
    throw Error("TypeError", what() + " is a " + mt.repr(ev) + ", got components of dtype " +
                                 kiln_dtype_name(v->dtype), loc);
  int want_m = mt.ndim == 1 ? 0 : mt.m;
  if (v->n != mt.n || v->m != want_m) {
    auto shape = [](int n, int m) { return m ? "(" + std::to_string(n) + ", " + std::to_string(m) + ")" : "(" + std::to_string(n) + ",)"; };
    throw Error("ValueError", what() + " has shape " + shape(mt.n, want_m) + ", got a kiln_vector of shape " + shape(v->n, v->m) +
                                  (mt.ndim == 1 ? " (vectors have m = 0)" : ""), loc);
  }
  size_t count = (size_t)mt.n * (size_t)(mt.ndim == 1 ? 1 : mt.m), size = (size_t)prim_bits(p) / 8;
  std::vector<Value> vals(count);
  for (size_t k = 0; k < count; k++) {
    uint64_t bits = 0;
    std::memcpy(&bits, static_cast<const uint8_t*>(v->data) + k * size, size);
    ConstVal c = const_from_bits(p, bits);
    vals[k] = prim_is_float(p) ? Value::floating(c.as_double()) : prim_is_signed(p) ? Value::integer(c.as_int64())
                                                                                    : Value::integer((int64_t)c.as_uint64());
  }
  return make_matrix(ev, mt.n, mt.m, mt.ndim, p, std::move(vals), loc);
}

// A scalar kiln_value as the host's Python number (rounded to its dtype).
Value python_number(const kiln_value& v) {
  Prim p = prim_of(v.dtype);
  if (prim_is_float(p)) return Value::floating(ConstVal::make_float(p, v.v.f).as_double());
  if (prim_is_signed(p)) return Value::integer(ConstVal::make_int(p, v.v.i).as_int64());
  return Value::integer((int64_t)ConstVal::make_uint(p, v.v.u).as_uint64());
}

bool is_template_ann(const Value& ann) { return host_as<TemplateObj>(ann) != nullptr; }

}  // namespace

extern "C" {

kiln_status kiln_module_kernel(kiln_module* m, const char* name, kiln_kernel** out) {
  return guard(m ? m->vm : nullptr, [&] {
    const Value& v = module_global(m, name, out, "kernel");
    auto* k = host_as<KernelObj>(v);
    if (!k || k->is_func)
      throw Error("TypeError", std::string("'") + name + "' is a " + m->vm->host->ev->type_name(v) + ", not a @ti.kernel");
    auto h = std::make_unique<kiln_kernel>();
    h->vm = m->vm;
    h->kernel = v;
    h->name = name;
    *out = h.release();
  });
}

void kiln_kernel_destroy(kiln_kernel* k) { delete k; }

kiln_status kiln_kernel_num_params(const kiln_kernel* k, size_t* out) {
  return guard(k ? k->vm : nullptr, [&] {
    need(k, "kernel");
    need(out, "out");
    *out = k->kernel.as<KernelObj>()->function().def->args.args.size();
  });
}

kiln_status kiln_kernel_call(kiln_kernel* k, const kiln_value* args, size_t nargs, kiln_value* rets, size_t max_rets,
                             size_t* nrets) {
  return guard(k ? k->vm : nullptr, [&] {
    need(k, "kernel");
    if (nargs && !args) invalid("args is NULL but nargs is " + std::to_string(nargs));
    if (max_rets && !rets) invalid("rets is NULL but max_rets is " + std::to_string(max_rets));
    Evaluator& ev = *k->vm->host->ev;
    auto* ko = k->kernel.as<KernelObj>();
    const FunctionObj& fn = ko->function();
    const auto& params = fn.def->args.args;
    if (nargs != params.size())
      throw Error("TypeError", "kernel '" + fn.qualname + "' takes " + std::to_string(params.size()) + " argument" +
                                   (params.size() == 1 ? "" : "s") + ", got " + std::to_string(nargs), fn.def->loc);
    if (!ko->annotations_done) {
      ko->annotations.clear();
      for (auto* p : params) ko->annotations.push_back(p->annotation ? ev.eval(p->annotation, *fn.closure) : Value());
      ko->annotations_done = true;
    }
    TiState& ti = *ev.ti;
    ti_program(ev);  // ti.init's defaults decide what `int` / `float` annotations mean
    if (k->epoch != ti.cache_epoch) {
      k->params.assign(nargs, kiln_kernel::Param::scalar);
      k->prims.assign(nargs, Prim::none);
      for (size_t i = 0; i < nargs; i++) {
        const Value& ann = ko->annotations[i];
        using P = kiln_kernel::Param;
        if (is_template_ann(ann)) k->params[i] = P::templ;
        else if (ann.is_none()) k->params[i] = P::untyped;
        else if (is_ndarray_type(ann)) k->params[i] = P::ndarray;
        else if (host_as<MatrixTypeObj>(ann)) k->params[i] = P::vector;
        else if (is_compound_type(ann)) k->params[i] = P::structure;
        else k->prims[i] = dtype_prim(ev, ann, params[i]->loc);
      }
      k->epoch = ti.cache_epoch;
    }
    // C has no implicit conversions to guess at: a scalar's dtype is its parameter's.
    CallArgs ca;
    ca.pos.resize(nargs);
    for (size_t i = 0; i < nargs; i++) {
      const std::string& pname = params[i]->name;
      SourceLoc ploc = params[i]->loc;
      // built only for a message: calls are hot
      auto what = [&] { return "argument " + std::to_string(i + 1) + " ('" + pname + "') of kernel '" + fn.qualname + "'"; };
      switch (k->params[i]) {
        case kiln_kernel::Param::scalar: {
          Prim want = k->prims[i];
          if (prim_of(args[i].dtype) != want)
            throw Error("TypeError", what() + " is " + std::string(prim_name(want)) + ", got " + kiln_dtype_name(args[i].dtype), ploc);
          ca.pos[i] = python_number(args[i]);
          break;
        }
        case kiln_kernel::Param::ndarray:
          if (args[i].dtype == KILN_NDARRAY) {
            if (!args[i].v.nd) invalid(what() + ": the kiln_ndarray handle is NULL");
            ca.pos[i] = args[i].v.nd->array;
          } else if (args[i].dtype == KILN_ARRAY) {
            ca.pos[i] = wrap_array(args[i].v.array, [&] { return "argument " + std::to_string(i + 1) + " ('" + pname + "')"; });
          } else {
            throw Error("TypeError", what() + " is an ndarray, got a " + kiln_dtype_name(args[i].dtype) + " value", ploc);
          }
          break;
        case kiln_kernel::Param::vector: {
          auto* mt = host_as<MatrixTypeObj>(ko->annotations[i]);
          if (args[i].dtype != KILN_VECTOR)
            throw Error("TypeError", what() + " is a " + mt->repr(ev) + ", got a " + kiln_dtype_name(args[i].dtype) + " value", ploc);
          ca.pos[i] = vector_arg(ev, *mt, args[i].v.vec, what, ploc);
          break;
        }
        case kiln_kernel::Param::structure:
          throw Error("TypeError", what() + " is a struct; the C API passes scalars, vectors, matrices and ndarrays", ploc);
        case kiln_kernel::Param::templ:
          if (args[i].dtype == KILN_FIELD) {
            if (!args[i].v.field) invalid(what() + ": the kiln_field handle is NULL");
            ca.pos[i] = args[i].v.field->field;
          } else if (prim_of(args[i].dtype) != Prim::none) {
            ca.pos[i] = python_number(args[i]);
          } else {
            throw Error("TypeError", what() + " is a ti.template(); pass a field (KILN_FIELD) or a scalar, got a " +
                                         kiln_dtype_name(args[i].dtype) + " value", ploc);
          }
          break;
        case kiln_kernel::Param::untyped:
          throw Error("TypeError", what() + " has no annotation; the C API calls kernels whose parameters are annotated", ploc);
      }
    }
    ev.call(k->kernel, ca);
    const auto& r = ko->last_rets;
    size_t n = r.size() < max_rets ? r.size() : max_rets;
    for (size_t i = 0; i < n; i++) rets[i] = to_value(r[i]);
    if (nrets) *nrets = r.size();
    if (r.size() > max_rets)
      throw Error("ValueError", "kernel '" + fn.qualname + "' returned " + std::to_string(r.size()) + " values but rets holds " +
                                    std::to_string(max_rets) + " (the kernel ran; the first " + std::to_string(max_rets) + " were written)");
  });
}

}  // extern "C"
