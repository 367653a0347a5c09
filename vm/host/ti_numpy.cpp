// Fields <-> numpy arrays (seed 003): to_numpy() / from_numpy() of scalar,
// vector, matrix and struct fields. A scalar field's array has the field's
// shape; a vector field's shape + (n,); a matrix field's shape + (n, m); a
// struct field gives a dict of its members' arrays (nested structs nest).
//
// Dense fields copy at memory speed: when the SNode layout is an affine map
// of the index (no div/mod splits), the components' addresses are
// base + sum(index * stride), and when those match the array's C order the
// whole field is one memcpy (a vector field's components sit together, AoS,
// exactly as numpy's trailing axis). Sparse fields go element by element
// (inactive cells read as zero; from_numpy activates what it writes).
#include <cstring>

#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"
#include "vm/host/ti_state.h"
#include "vm/ti/field_copy.h"

namespace kiln::host {

namespace {

// Copies between the component fields and a C-contiguous array `arr` of
// shape field.shape + comp_shape and the fields' dtype. to_array: field -> arr.
void copy_fields(Evaluator& ev, Program& prog, const std::vector<FieldInfo*>& comps, NpArrayObj& arr, bool to_array,
                 SourceLoc loc) {
  ti::copy_components(prog, comps, arr.data(), arr.itemsize(), to_array, loc);
}

Value to_numpy(Evaluator& ev, Program& prog, const std::vector<FieldInfo*>& comps, const std::vector<int64_t>& comp_shape,
               const Value& dtype, SourceLoc loc) {
  prog.materialize();
  const FieldInfo& f0 = *comps[0];
  std::vector<int64_t> shape = f0.shape;
  shape.insert(shape.end(), comp_shape.begin(), comp_shape.end());
  std::shared_ptr<NpArrayObj> r;
  if (f0.dtype == Prim::bf16) {
    r = np_new(Prim::f32, shape);
    ti::each_cell(f0, [&](const std::vector<int64_t>& idx, int64_t flat) {
      for (size_t c = 0; c < comps.size(); c++)
        NpArrayObj::store(ev, Prim::f32, r->data() + (flat * (int64_t)comps.size() + (int64_t)c) * 4,
                          read_element(prog, *comps[c], idx.data(), (int)idx.size(), loc), loc);
    });
  } else {
    // every byte is written below unless the layout is sparse or strided
    r = np_new(f0.dtype, shape, !ti::affine_layout(prog, comps));
    copy_fields(ev, prog, comps, *r, true, loc);
  }
  if (!dtype.is_none()) {
    Prim want = np_dtype_arg(ev, dtype, loc);
    if (want != r->dtype) r = np_copy(ev, *r, want, loc);
  }
  return Value::of(r);
}

void from_numpy(Evaluator& ev, Program& prog, const std::vector<FieldInfo*>& comps, const std::vector<int64_t>& want_shape,
                const Value& v, const std::string& what, SourceLoc loc) {
  prog.materialize();
  for (FieldInfo* f : comps) Program::require_placed(*f);  // before the shape: an unplaced field has none
  auto* arr = np_as(v);
  if (!arr) {
    if (v.kind != Kind::List && v.kind != Kind::Tuple)
      raise("TypeError", "from_numpy() expects a numpy array, got '" + ev.type_name(v) + "'", loc);
  }
  auto src = np_from_value(ev, v, false, Prim::none, loc);
  if (src->shape != want_shape)
    raise("ValueError", what + " expects a numpy array of shape " + np_shape_str(want_shape) + ", got shape " +
                            np_shape_str(src->shape), loc);
  Prim fdt = comps[0]->dtype;
  if (fdt == Prim::bf16) {
    ti::each_cell(*comps[0], [&](const std::vector<int64_t>& idx, int64_t flat) {
      for (size_t c = 0; c < comps.size(); c++)
        write_element(ev, prog, *comps[c], idx.data(), (int)idx.size(), loc,
                      src->get_flat(flat * (int64_t)comps.size() + (int64_t)c), loc);
    });
    return;
  }
  // numpy casts to the field's dtype as Taichi's copy kernel does
  if (src->dtype != fdt || !src->contiguous()) src = np_copy(ev, *src, fdt, loc);
  copy_fields(ev, prog, comps, *src, false, loc);
}

std::string field_shape_text(const FieldInfo& f) { return np_shape_str(f.shape); }

}  // namespace

void copy_field_buffer(Evaluator& ev, Program& prog, const std::vector<FieldInfo*>& comps,
                       const std::vector<int64_t>& comp_shape, void* data, bool to_buffer, SourceLoc loc) {
  prog.materialize();
  NpArrayObj arr;
  arr.dtype = comps[0]->dtype;
  arr.shape = comps[0]->shape;
  arr.shape.insert(arr.shape.end(), comp_shape.begin(), comp_shape.end());
  arr.strides = c_strides(arr.shape, arr.dtype);
  arr.buf = std::make_shared<NpBuffer>(static_cast<uint8_t*>(data), arr.size() * arr.itemsize());
  copy_fields(ev, prog, comps, arr, to_buffer, loc);
}

bool scalar_field_numpy(Evaluator& ev, const std::shared_ptr<FieldObj>& me, const std::string& name, Value& out) {
  if (name == "to_numpy") {
    out = make_builtin("to_numpy", [me](Evaluator& ev, CallArgs& a) {
      Value dtype;
      a.take_kw("dtype", dtype);
      if (!a.kw.empty()) raise("TypeError", "to_numpy() got an unexpected keyword argument '" + a.kw[0].first + "'", a.loc);
      expect_args(a, "to_numpy", 0, 1);
      if (!a.pos.empty()) dtype = a.pos[0];
      FieldInfo& f = me->checked(a.loc);
      return to_numpy(ev, *me->ti->program, {&f}, {}, dtype, a.loc);
    });
    return true;
  }
  if (name == "from_numpy") {
    out = make_builtin("from_numpy", [me](Evaluator& ev, CallArgs& a) {
      expect_args(a, "from_numpy", 1, 1);
      FieldInfo& f = me->checked(a.loc);
      from_numpy(ev, *me->ti->program, {&f}, f.shape, a.pos[0], "from_numpy: " + f.describe() + " of shape " + field_shape_text(f), a.loc);
      return Value();
    });
    return true;
  }
  return false;
}

bool matrix_field_numpy(Evaluator& ev, const std::shared_ptr<MatrixFieldObj>& me, const std::string& name, Value& out) {
  if (name == "to_numpy") {
    out = make_builtin("to_numpy", [me](Evaluator& ev, CallArgs& a) {
      Value dtype, keep = Value::boolean(false);
      a.take_kw("dtype", dtype);
      a.take_kw("keep_dims", keep);
      if (!a.kw.empty()) raise("TypeError", "to_numpy() got an unexpected keyword argument '" + a.kw[0].first + "'", a.loc);
      expect_args(a, "to_numpy", 0, 2);
      if (a.pos.size() > 0) keep = a.pos[0];
      if (a.pos.size() > 1) dtype = a.pos[1];
      me->checked(a.loc);
      // Taichi: a vector (m == 1) drops its column axis unless keep_dims
      bool as_vector = me->m == 1 && !ev.truthy(keep, a.loc);
      std::vector<int64_t> ext = as_vector ? std::vector<int64_t>{me->n} : std::vector<int64_t>{me->n, me->m};
      return to_numpy(ev, *me->ti->program, me->comps, ext, dtype, a.loc);
    });
    return true;
  }
  if (name == "from_numpy") {
    out = make_builtin("from_numpy", [me](Evaluator& ev, CallArgs& a) {
      expect_args(a, "from_numpy", 1, 1);
      const FieldInfo& f0 = me->checked(a.loc);
      std::vector<int64_t> want = f0.shape;
      auto* arr = np_as(a.pos[0]);
      // a vector field takes shape + (n,), and shape + (n, 1) like Taichi's keep_dims arrays
      bool two = me->ndim == 2 || (arr && arr->ndim() == (int)f0.shape.size() + 2);
      want.push_back(me->n);
      if (two) want.push_back(me->m);
      std::string what = "from_numpy: the " + std::string(me->ndim == 1 ? "vector" : "matrix") + " field '" +
                         (f0.name.empty() ? std::string("field") : f0.name) + "' of shape " + field_shape_text(f0) +
                         (me->ndim == 1 ? " with n=" + std::to_string(me->n) : " with n=" + std::to_string(me->n) + ", m=" + std::to_string(me->m));
      from_numpy(ev, *me->ti->program, me->comps, want, a.pos[0], what, a.loc);
      return Value();
    });
    return true;
  }
  return false;
}

bool struct_field_numpy(Evaluator& ev, const std::shared_ptr<StructFieldObj>& me, const std::string& name, Value& out) {
  if (name == "to_numpy") {
    out = make_builtin("to_numpy", [me](Evaluator& ev, CallArgs& a) {
      Value d = make_dict();
      for (size_t k = 0; k < me->names.size(); k++) {
        CallArgs sub;
        sub.loc = a.loc;
        sub.kw = a.kw;
        d.as<DictObj>()->set(Value::str(me->names[k]), ev.call(ev.get_attr(me->members[k], "to_numpy", a.loc), sub));
      }
      return d;
    });
    return true;
  }
  if (name == "from_numpy") {
    out = make_builtin("from_numpy", [me](Evaluator& ev, CallArgs& a) {
      expect_args(a, "from_numpy", 1, 1);
      const Value& src = a.pos[0];
      if (src.kind != Kind::Dict)
        raise("TypeError", "from_numpy of a struct field expects a dict of arrays (one per member), got '" + ev.type_name(src) + "'", a.loc);
      for (size_t k = 0; k < me->names.size(); k++) {
        Value* v = src.as<DictObj>()->find(Value::str(me->names[k]), a.loc);
        if (!v) raise("KeyError", "'" + me->names[k] + "'", a.loc);
        ev.call(ev.get_attr(me->members[k], "from_numpy", a.loc), {*v}, a.loc);
      }
      return Value();
    });
    return true;
  }
  return false;
}

}  // namespace kiln::host
