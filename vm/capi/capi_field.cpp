// The C API's fields: element access through Program::element_address (the
// same bounds-checked path as `x[i, j]` on the host) and bulk copies through
// the to_numpy / from_numpy copy loop, straight into the caller's buffer.
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

// The component fields of a field handle (one for a scalar field), checked
// against ti.init having reset the program; n x m is the element's shape.
struct Comps {
  std::vector<FieldInfo*> fields;
  int n = 1, m = 1, elem_dims = 0;
  std::string name;
};

Comps comps_of(const kiln_field* f) {
  Comps c;
  c.name = f->name;
  if (auto* s = host_as<FieldObj>(f->field)) {
    c.fields.push_back(&s->checked({}));
  } else {
    auto* mf = host_as<MatrixFieldObj>(f->field);
    mf->checked({});
    c.fields = mf->comps;
    c.n = mf->n;
    c.m = mf->m;
    c.elem_dims = mf->ndim;
  }
  return c;
}

Program& program_of(const kiln_field* f) { return ti_program(*f->vm->host->ev); }

// The component field and the field index for a kiln_field_get/set index.
FieldInfo& element(const Comps& c, const int64_t* index, int nindex) {
  int ndim = (int)c.fields[0]->shape.size();
  if (nindex != ndim + c.elem_dims)
    throw Error("IndexError", "field '" + c.name + "' takes " + std::to_string(ndim + c.elem_dims) + " indices (" +
                                  std::to_string(ndim) + " field axes" +
                                  (c.elem_dims ? " + " + std::to_string(c.elem_dims) + " component" : std::string()) +
                                  "), got " + std::to_string(nindex));
  if (nindex && !index) invalid("index is NULL");
  int64_t row = c.elem_dims >= 1 ? index[ndim] : 0, col = c.elem_dims == 2 ? index[ndim + 1] : 0;
  if (row < 0 || row >= c.n || col < 0 || col >= c.m)
    throw Error("IndexError", "component (" + std::to_string(row) + (c.elem_dims == 2 ? ", " + std::to_string(col) : std::string()) +
                                  ") is out of range for the elements of field '" + c.name + "' (" + std::to_string(c.n) +
                                  (c.elem_dims == 2 ? "x" + std::to_string(c.m) : std::string()) + ")");
  return *c.fields[(size_t)(row * c.m + col)];
}

size_t field_bytes(const Comps& c) {
  size_t n = (size_t)prim_bits(c.fields[0]->dtype) / 8 * (size_t)c.n * (size_t)c.m;
  for (auto d : c.fields[0]->shape) n *= (size_t)d;
  return n;
}

void check_copy(const Comps& c, const void* buffer, size_t bytes, kiln_dtype dtype) {
  need(buffer, "buffer");
  Prim fdt = c.fields[0]->dtype;
  if (fdt == Prim::bf16) throw Error("TypeError", "field '" + c.name + "' is bf16, which has no host type; copy it element by element");
  if (prim_of(dtype) != fdt)
    throw Error("TypeError", "field '" + c.name + "' is " + std::string(prim_name(fdt)) + ", the buffer is " + kiln_dtype_name(dtype));
  if (bytes != field_bytes(c))
    throw Error("ValueError", "field '" + c.name + "' holds " + std::to_string(field_bytes(c)) + " bytes, the buffer " +
                                  std::to_string(bytes));
}

std::vector<int64_t> comp_shape(const Comps& c) {
  if (c.elem_dims == 1) return {c.n};
  if (c.elem_dims == 2) return {c.n, c.m};
  return {};
}

}  // namespace

extern "C" {

kiln_status kiln_module_field(kiln_module* m, const char* name, kiln_field** out) {
  return guard(m ? m->vm : nullptr, [&] {
    const Value& v = module_global(m, name, out, "field");
    if (!host_as<FieldObj>(v) && !host_as<MatrixFieldObj>(v))
      throw Error("TypeError", std::string("'") + name + "' is a " + m->vm->host->ev->type_name(v) +
                                   ", not a scalar, vector or matrix field");
    auto h = std::make_unique<kiln_field>();
    h->vm = m->vm;
    h->field = v;
    h->name = name;
    *out = h.release();
  });
}

void kiln_field_destroy(kiln_field* f) { delete f; }

kiln_status kiln_field_info(const kiln_field* f, kiln_dtype* dtype, int* ndim, int64_t* shape, int* n, int* m) {
  return guard(f ? f->vm : nullptr, [&] {
    need(f, "field");
    Comps c = comps_of(f);
    program_of(f).materialize();  // a field's shape is known once placed
    const FieldInfo& f0 = *c.fields[0];
    if (dtype) *dtype = dtype_of(f0.dtype);
    if (ndim) *ndim = (int)f0.shape.size();
    if (shape)
      for (size_t d = 0; d < f0.shape.size() && d < 8; d++) shape[d] = f0.shape[d];
    if (n) *n = c.n;
    if (m) *m = c.m;
  });
}

kiln_status kiln_field_get(kiln_field* f, const int64_t* index, int nindex, kiln_value* out) {
  return guard(f ? f->vm : nullptr, [&] {
    need(f, "field");
    need(out, "out");
    Comps c = comps_of(f);
    FieldInfo& fi = element(c, index, nindex);
    Program& prog = program_of(f);
    prog.materialize();
    int ndim = (int)fi.shape.size();
    const void* p = prog.element_read_address(fi, index, ndim, {});
    uint64_t bits = 0;
    std::memcpy(&bits, p, (size_t)prim_bits(fi.dtype) / 8);
    *out = to_value(const_from_bits(fi.dtype, bits));
  });
}

kiln_status kiln_field_set(kiln_field* f, const int64_t* index, int nindex, const kiln_value* value) {
  return guard(f ? f->vm : nullptr, [&] {
    need(f, "field");
    need(value, "value");
    Comps c = comps_of(f);
    FieldInfo& fi = element(c, index, nindex);
    if (prim_of(value->dtype) != fi.dtype)
      throw Error("TypeError", "field '" + c.name + "' is " + std::string(prim_name(fi.dtype)) + ", the value is " +
                                   kiln_dtype_name(value->dtype));
    Program& prog = program_of(f);
    prog.materialize();
    uint64_t bits = const_to_bits(from_value(*value, "value"));
    std::memcpy(prog.element_address(fi, index, (int)fi.shape.size(), {}), &bits, (size_t)prim_bits(fi.dtype) / 8);
  });
}

kiln_status kiln_field_copy_to_host(kiln_field* f, void* buffer, size_t bytes, kiln_dtype dtype) {
  return guard(f ? f->vm : nullptr, [&] {
    need(f, "field");
    Comps c = comps_of(f);
    check_copy(c, buffer, bytes, dtype);
    copy_field_buffer(*f->vm->host->ev, program_of(f), c.fields, comp_shape(c), buffer, true, {});
  });
}

kiln_status kiln_field_copy_from_host(kiln_field* f, const void* buffer, size_t bytes, kiln_dtype dtype) {
  return guard(f ? f->vm : nullptr, [&] {
    need(f, "field");
    Comps c = comps_of(f);
    check_copy(c, buffer, bytes, dtype);
    // copy_fields only reads from the buffer in this direction
    copy_field_buffer(*f->vm->host->ev, program_of(f), c.fields, comp_shape(c), const_cast<void*>(buffer), false, {});
  });
}

}  // extern "C"
