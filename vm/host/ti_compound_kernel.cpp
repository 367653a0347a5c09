// Compound values crossing into kernels: the StaticValues the frontend sees
// for host matrices, compound fields and types (HostEnv), and the flattening
// of compound kernel arguments and return values (frontend.h's rule: a
// vector/matrix is rows*cols slots row-major, a struct its members' slots in
// declaration order).
#include <cinttypes>
#include <cstdio>

#include "vm/host/evaluator.h"
#include "vm/host/ti_compound.h"
#include "vm/host/ti_state.h"

namespace kiln::host {

using frontend::StaticValue;
using K = StaticValue::Kind;

std::vector<int64_t> matrix_shape(const MatrixObj& mo);
std::string matrix_class_builtin(const Value& v);

namespace {

StaticValue number(const Value& v) {
  if (v.kind == Kind::Float) return StaticValue::of_float(v.f);
  if (v.kind == Kind::Bool) return StaticValue::of_bool(v.b);
  return StaticValue::of_int(v.as_int());
}

}  // namespace

bool compound_to_static(Evaluator& ev, const Value& v, StaticValue& s) {
  if (v.kind != Kind::Host) return false;
  HostObj* h = v.as<HostObj>();
  // ti.Vector / ti.Matrix: the frontend knows them by builtin name.
  if (std::string b = matrix_class_builtin(v); !b.empty()) {
    s = StaticValue::of_builtin(b);
    return true;
  }
  if (is_struct_class(v)) {
    s = StaticValue::of_builtin("ti.Struct");
    return true;
  }
  if (auto* mo = dynamic_cast<MatrixObj*>(h)) {
    // Element types are left to the frontend (Taichi infers default_ip /
    // default_fp from a host matrix's entries when a kernel captures it).
    s.kind = K::matrix;
    s.rows = mo->n;
    s.cols = mo->ndim == 1 ? 0 : mo->m;
    for (auto& x : mo->values({})) s.elems.push_back(number(x));
    s.handle = v.obj;
    return true;
  }
  if (auto* mf = dynamic_cast<MatrixFieldObj*>(h)) {
    mf->checked({});
    s.kind = K::matrix_field;
    s.rows = mf->n;
    s.cols = mf->ndim == 1 ? 0 : mf->m;
    s.fields = mf->comps;
    s.s = mf->comps.empty() ? "" : mf->comps[0]->name;  // components carry the field's name
    s.field = mf->comps[0];
    s.prim = mf->comps[0]->dtype;
    s.handle = v.obj;
    return true;
  }
  if (auto* mt = dynamic_cast<MatrixTypeObj*>(h)) {
    s = StaticValue::of_dtype(mt->dtype);
    s.rows = mt->n;
    s.cols = mt->ndim == 1 ? 0 : mt->m;
    s.handle = v.obj;
    return true;
  }
  if (auto* st = dynamic_cast<StructTypeObj*>(h)) {
    s.kind = K::struct_type;
    s.s = st->name;
    s.names = st->names;
    for (auto& t : st->types) s.elems.push_back(to_static(ev, t));
    s.handle = v.obj;
    return true;
  }
  if (auto* sv = dynamic_cast<StructObj*>(h)) {
    s.kind = K::struct_value;
    s.names = sv->names;
    for (size_t k = 0; k < sv->names.size(); k++) s.elems.push_back(to_static(ev, sv->member(ev, (int)k, {})));
    if (sv->type) s.ctype = std::make_shared<StaticValue>(to_static(ev, Value::of(sv->type)));
    s.handle = v.obj;
    return true;
  }
  if (auto* sf = dynamic_cast<StructFieldObj*>(h)) {
    s.kind = K::struct_field;
    s.names = sf->names;
    if (sf->name != "<Struct>") s.s = sf->name;
    for (auto& m : sf->members) s.elems.push_back(to_static(ev, m));
    if (sf->type) s.ctype = std::make_shared<StaticValue>(to_static(ev, Value::of(sf->type)));
    s.handle = v.obj;
    return true;
  }
  return false;
}

bool is_compound_type(const Value& ann) { return host_as<MatrixTypeObj>(ann) || host_as<StructTypeObj>(ann); }

std::string type_key(Evaluator& ev, const Value& type) {
  if (auto* mt = host_as<MatrixTypeObj>(type)) return mt->repr(ev);
  // struct types by identity: their methods are part of what a kernel compiles
  char buf[32];
  std::snprintf(buf, sizeof buf, "S%p", (void*)type.obj.get());
  return buf;
}

void flatten_arg(Evaluator& ev, const Value& type, const Value& v, std::vector<ConstVal>& out, SourceLoc loc) {
  if (auto* mt = host_as<MatrixTypeObj>(type)) {
    std::vector<int64_t> want = mt->ndim == 1 ? std::vector<int64_t>{mt->n} : std::vector<int64_t>{mt->n, mt->m};
    std::vector<Value> vals;
    std::vector<int64_t> got;
    if (auto* mo = host_as<MatrixObj>(v)) {
      got = matrix_shape(*mo);
      vals = mo->values(loc);
    } else if (v.kind == Kind::List || v.kind == Kind::Tuple) {
      for (auto& x : ev.to_vector(v, loc)) {
        if (x.kind == Kind::List || x.kind == Kind::Tuple) {
          auto row = ev.to_vector(x, loc);
          vals.insert(vals.end(), row.begin(), row.end());
          if (got.size() < 2) got = {0, (int64_t)row.size()};
          got[0]++;
        } else {
          vals.push_back(x);
          got = {(int64_t)vals.size()};
        }
      }
    } else {
      raise("TypeError", "a " + mt->repr(ev) + " argument needs a vector/matrix, got '" + ev.type_name(v) + "'", loc);
    }
    if (got != want)
      raise("TypeError", "a " + mt->repr(ev) + " argument needs shape " + format_shape(want) + ", got a value of shape " + format_shape(got), loc);
    for (auto& x : vals) out.push_back(to_const(ev, x, mt->dtype, loc));
    return;
  }
  if (auto* st = host_as<StructTypeObj>(type)) {
    for (size_t k = 0; k < st->names.size(); k++) {
      Value m;
      if (auto* sv = host_as<StructObj>(v)) {
        int i = sv->find(st->names[k]);
        if (i < 0) raise("TypeError", "the struct argument has no member '" + st->names[k] + "'", loc);
        m = sv->member(ev, i, loc);
      } else if (v.kind == Kind::Dict) {
        Value* p = v.as<DictObj>()->find(Value::str(st->names[k]), loc);
        if (!p) raise("TypeError", "the struct argument has no member '" + st->names[k] + "'", loc);
        m = *p;
      } else {
        raise("TypeError", "a struct argument needs a struct value, got '" + ev.type_name(v) + "'", loc);
      }
      flatten_arg(ev, st->types[k], m, out, loc);
    }
    return;
  }
  out.push_back(to_const(ev, v, dtype_prim(ev, type, loc), loc));
}

Value rebuild_value(Evaluator& ev, const StaticValue& type, const std::vector<ConstVal>& slots, size_t& pos) {
  SourceLoc loc;
  if (type.kind == K::dtype && type.rows == 0) return from_const(slots[pos++]);
  if (type.kind == K::dtype) {
    int n = type.rows, m = type.cols == 0 ? 1 : type.cols;
    std::vector<Value> vals;
    for (int k = 0; k < n * m; k++) vals.push_back(from_const(slots[pos++]));
    return make_matrix(ev, n, m, type.cols == 0 ? 1 : 2, type.prim, std::move(vals), loc);
  }
  if (type.kind == K::struct_type) {
    auto s = std::make_shared<StructObj>();
    if (type.handle) {
      Value h;
      h.obj = std::static_pointer_cast<Object>(type.handle);
      h.kind = h.obj->kind;
      if (host_as<StructTypeObj>(h)) s->type = h.ptr<StructTypeObj>();
    }
    s->names = type.names;
    for (auto& t : type.elems) s->members.push_back(rebuild_value(ev, t, slots, pos));
    return Value::of(s);
  }
  raise("TypeError", "unsupported kernel return type");
}

}  // namespace kiln::host
