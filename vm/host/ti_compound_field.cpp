// Vector, matrix and struct fields on the host. As in Taichi, a compound
// field is made of scalar component fields (one FieldInfo each), and with
// `shape` they are placed together under one dense: AoS, the layout
// `ti.root.dense(axes, shape).place(c0, c1, ...)` gives. An element read on
// the host is a vector/matrix/struct that reads and writes the field's memory
// (Taichi's SNodeHostAccess entries), so `x[i][j] = v` and `s[i].v.x = 1`
// update the field.
#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"
#include "vm/host/ti_compound.h"
#include "vm/host/ti_state.h"
#include "vm/runtime/sizes.h"

#include <optional>

namespace kiln::host {

std::vector<int64_t> matrix_shape(const MatrixObj& mo);

namespace {

std::string shape_str(const std::vector<int64_t>& s) { return format_shape(s); }


Program& program_of(TiState* ti) { return *ti->program; }

// The dimensions of `shape=` (an int or a sequence of ints), checked by the
// runtime's rules before any component exists; nullopt without a shape.
// `cell_bytes`: the bytes of one element (every component), for the memory check.
std::optional<std::vector<int64_t>> field_dims(Evaluator& ev, const Value& shape, int64_t cell_bytes, SourceLoc loc) {
  if (shape.is_none()) return std::nullopt;
  std::vector<int64_t> dims = arg_shape(ev, shape, "field", loc);
  check_dense(dims, cell_bytes, "field", loc);
  return dims;
}

// Places the components under one new dense when `dims` is given (AoS), or
// each under its own dense (layout=ti.Layout.SOA).
void place_all(Evaluator& ev, const std::vector<FieldInfo*>& comps, const std::optional<std::vector<int64_t>>& dims,
               bool soa, SourceLoc loc, const std::vector<int64_t>& offset, const std::vector<int>& order = {}) {
  if (!dims) return;
  Program& prog = ti_program(ev);
  auto container = [&]() {
    SNode* parent = prog.open_root();
    if (dims->empty()) return parent;
    if (!order.empty()) {  // one dense level per axis, outermost first
      for (int d : order) parent = prog.add_container(parent, SNodeKind::dense, {d}, {(*dims)[(size_t)d]}, loc);
      return parent;
    }
    std::vector<int> axes(dims->size());
    for (size_t i = 0; i < axes.size(); i++) axes[i] = (int)i;
    return prog.add_container(parent, SNodeKind::dense, axes, *dims, loc);
  };
  SNode* parent = soa ? nullptr : container();
  for (auto* f : comps) prog.place(soa ? container() : parent, f, loc, offset);
}

// Bytes of one element of a struct type: its members' components, unpadded
// (a lower bound of the cell the layout gives them, for the memory check).
int64_t struct_bytes(const StructTypeObj& t) {
  int64_t sum = 0;
  for (const Value& v : t.types) {
    if (auto* mt = host_as<MatrixTypeObj>(v)) sum += (int64_t)mt->n * mt->m * std::max(1, prim_bits(mt->dtype) / 8);
    else if (auto* st = host_as<StructTypeObj>(v)) sum += struct_bytes(*st);
    else if (auto* dt = host_as<DTypeObj>(v)) sum += std::max(1, prim_bits(dt->prim) / 8);
  }
  return std::max<int64_t>(sum, 1);
}

struct FieldOpts {
  Value shape;
  Value order;
  std::string name;
  std::vector<int64_t> offset;
  bool soa = false;
};

FieldOpts field_opts(Evaluator& ev, CallArgs& a, const char* fname, std::string default_name) {
  FieldOpts o;
  o.name = std::move(default_name);
  Value v;
  a.take_kw("shape", o.shape);
  if (a.take_kw("name", v) && !v.is_none()) o.name = ev.str(v);
  for (const char* ignored : {"needs_grad", "needs_dual", "ndim"}) a.take_kw(ignored, v);
  if (a.take_kw("layout", v) && !v.is_none()) {
    std::string l = ev.str(v);
    if (l != "Layout.AOS" && l != "Layout.SOA") raise("TypeError", "layout must be ti.Layout.AOS or ti.Layout.SOA", a.loc);
    o.soa = l == "Layout.SOA";
  }
  if (a.take_kw("offset", v) && !v.is_none()) o.offset = arg_shape(ev, v, "offset", a.loc);
  a.take_kw("order", o.order);
  no_kwargs(a, fname);
  if (!a.pos.empty()) raise("TypeError", std::string(fname) + "() got too many positional arguments", a.loc);
  return o;
}

// order="ji" of a compound field: its axes outermost first (none: the default).
std::vector<int> field_order(const FieldOpts& o, const std::optional<std::vector<int64_t>>& dims, SourceLoc loc) {
  if (o.order.is_none()) return {};
  if (!dims) raise("ValueError", "order= needs a shape: ti.field(dtype, shape=(n, m), order='ji')", loc);
  std::vector<int> order = order_axes(o.order, dims->size(), loc);
  if (order.size() < 2) order.clear();  // one axis: nothing to order
  return order;
}

std::string what_field(const FieldInfo& f, const char* kind) {
  return std::string(kind) + (f.name.empty() ? " field" : " field '" + f.name + "'");
}

}  // namespace

// A component's type of a matrix field with a dtype per component: a plain
// dtype, or a quantized type (which computes in its compute type).
struct ComponentType {
  Prim prim = Prim::none;
  const QuantType* quant = nullptr;
};

Value create_matrix_field(Evaluator& ev, int64_t n, int64_t m, int ndim, Prim dtype, CallArgs& a,
                          const QuantType* quant = nullptr, const std::vector<ComponentType>* per = nullptr) {
  FieldOpts o = field_opts(ev, a, "field", "");
  for (size_t k = 0; per && !quant && k < per->size(); k++) quant = (*per)[k].quant;  // a quantized component
  if (quant && !o.shape.is_none())
    raise("TypeError", "a field of quantized type " + quant->describe() +
                           " cannot have a shape: place it through ti.BitpackedFields or ti.root.quant_array(...)", a.loc);
  Program& prog = ti_program(ev);
  int64_t comps = ndim == 1 ? check_vector_components(n, a.loc) : check_matrix_components(n, m, a.loc);
  auto dims = field_dims(ev, o.shape, comps * std::max(1, prim_bits(dtype) / 8), a.loc);
  check_offset(dims ? &*dims : nullptr, o.offset, a.loc);  // before any component exists
  std::vector<int> order = field_order(o, dims, a.loc);
  auto mf = std::make_shared<MatrixFieldObj>();
  mf->n = (int)n;
  mf->m = ndim == 1 ? 1 : (int)m;
  mf->ndim = ndim;
  mf->ti = ev.ti.get();
  mf->generation = ev.ti->generation;
  for (int64_t k = 0; k < comps; k++) {
    const QuantType* q = per ? (*per)[(size_t)k].quant : quant;
    Prim p = per ? (*per)[(size_t)k].prim : dtype;
    mf->comps.push_back(q ? prog.create_quant_field(*q, o.name, a.loc) : prog.create_field(p, o.name, a.loc));
  }
  place_all(ev, mf->comps, dims, o.soa, a.loc, o.offset, order);
  return Value::of(mf);
}

// ti.Matrix.field(n, m, dtype=[[t00, t01], ...]) / ti.Vector.field(n, dtype=[t0, ...]):
// a dtype per component, as in Taichi (a matrix of quantized types packed by
// ti.BitpackedFields); the components share one compute type.
Value create_mixed_matrix_field(Evaluator& ev, int64_t n, int64_t m, int ndim, const Value& types, CallArgs& a) {
  auto items = [&](const Value& v) -> const std::vector<Value>* {
    if (v.kind == Kind::List) return &v.as<ListObj>()->items;
    if (v.kind == Kind::Tuple) return &v.as<TupleObj>()->items;
    return nullptr;
  };
  std::vector<Value> flat;
  const std::vector<Value>* rows = items(types);
  bool shaped = rows && (int64_t)rows->size() == n;
  for (size_t i = 0; shaped && i < rows->size(); i++) {
    const std::vector<Value>* r = ndim == 2 ? items((*rows)[i]) : nullptr;
    if (ndim == 2 && (!r || (int64_t)r->size() != m)) shaped = false;
    else if (r) flat.insert(flat.end(), r->begin(), r->end());
    else flat.push_back((*rows)[i]);
  }
  if (!shaped)
    raise("TypeError", ndim == 2 ? "a dtype per component of a " + std::to_string(n) + "x" + std::to_string(m) +
                                       " matrix field is a list of " + std::to_string(n) + " lists of " +
                                       std::to_string(m) + " dtypes"
                                 : "a dtype per component of a " + std::to_string(n) + "-vector field is a list of " +
                                       std::to_string(n) + " dtypes",
          a.loc);
  std::vector<ComponentType> per;
  for (const Value& t : flat) {
    ComponentType c;
    c.quant = quant_type_of(t);
    c.prim = c.quant ? c.quant->compute : dtype_prim(ev, t, a.loc);
    if (!per.empty() && c.prim != per[0].prim)
      raise("RuntimeError", "Member fields of a matrix field must have the same compute type (" +
                                std::string(prim_name(per[0].prim)) + " and " + std::string(prim_name(c.prim)) + ")",
            a.loc);
    per.push_back(c);
  }
  return create_matrix_field(ev, n, m, ndim, per.empty() ? Prim::f32 : per[0].prim, a, nullptr, &per);
}

Value create_struct_field(Evaluator& ev, std::shared_ptr<StructTypeObj> type, CallArgs& a) {
  FieldOpts o = field_opts(ev, a, "field", "<Struct>");
  Program& prog = ti_program(ev);
  // The shape first, so that a bad one leaves no member behind.
  auto dims = field_dims(ev, o.shape, struct_bytes(*type), a.loc);
  check_offset(dims ? &*dims : nullptr, o.offset, a.loc);
  std::vector<int> order = field_order(o, dims, a.loc);
  auto sf = std::make_shared<StructFieldObj>();
  sf->type = type;
  sf->names = type->names;
  sf->name = o.name;
  for (size_t k = 0; k < type->names.size(); k++) {
    const Value& t = type->types[k];
    std::string nm = o.name + "." + type->names[k];
    CallArgs sub;
    sub.loc = a.loc;
    sub.kw.emplace_back("name", Value::str(nm));
    if (auto* mt = host_as<MatrixTypeObj>(t)) {
      sf->members.push_back(create_matrix_field(ev, mt->n, mt->m, mt->ndim, mt->dtype, sub));
    } else if (host_as<StructTypeObj>(t)) {
      sf->members.push_back(create_struct_field(ev, t.ptr<StructTypeObj>(), sub));
    } else {
      auto f = std::make_shared<FieldObj>();
      f->ti = ev.ti.get();
      f->generation = ev.ti->generation;
      f->info = prog.create_field(t.as<DTypeObj>()->prim, nm, a.loc);
      sf->members.push_back(Value::of(f));
    }
  }
  // AoS: every member's components under one dense; SoA: a dense per member
  // (a vector member keeps its components together, as Taichi places it).
  std::vector<std::vector<FieldInfo*>> groups(1);
  for (auto& m : sf->members) {
    if (o.soa) groups.emplace_back();
    field_components(m, a.loc, groups.back());
  }
  for (auto& g : groups)
    if (!g.empty()) place_all(ev, g, dims, false, a.loc, o.offset, order);
  return Value::of(sf);
}

bool field_components(const Value& v, SourceLoc loc, std::vector<FieldInfo*>& out) {
  if (auto* f = host_as<FieldObj>(v)) {
    out.push_back(&f->checked(loc));
    return true;
  }
  if (auto* mf = host_as<MatrixFieldObj>(v)) {
    mf->checked(loc);
    out.insert(out.end(), mf->comps.begin(), mf->comps.end());
    return true;
  }
  if (auto* sf = host_as<StructFieldObj>(v)) {
    for (auto& m : sf->members) field_components(m, loc, out);
    return true;
  }
  return false;
}

void name_compound_field(const Value& v, const std::string& name) {
  if (auto* mf = host_as<MatrixFieldObj>(v)) {
    for (auto* c : mf->comps)
      if (c->name.empty()) c->name = name;
  } else if (auto* sf = host_as<StructFieldObj>(v)) {
    if (sf->name != "<Struct>") return;
    // Taichi names members "<Struct>.a": name them after the variable instead.
    std::function<void(const Value&, const std::string&)> rename = [&](const Value& x, const std::string& prefix) {
      if (auto* f = host_as<FieldObj>(x)) {
        f->info->name = prefix;
      } else if (auto* m = host_as<MatrixFieldObj>(x)) {
        for (auto* c : m->comps) c->name = prefix;
      } else if (auto* s = host_as<StructFieldObj>(x)) {
        s->name = prefix;
        for (size_t k = 0; k < s->names.size(); k++) rename(s->members[k], prefix + "." + s->names[k]);
      }
    };
    rename(v, name);
  }
}

// ---- matrix fields ---------------------------------------------------------------------

const FieldInfo& MatrixFieldObj::checked(SourceLoc loc) const {
  if (generation != ti->generation)
    raise("RuntimeError", what_field(*comps[0], "vector") + " belongs to a program that ti.init() has reset", loc);
  return *comps[0];
}

std::string MatrixFieldObj::repr(Evaluator&) const {
  return "<" + std::to_string(n) + "x" + std::to_string(m) + " ti.Matrix.field>";
}

// str(field.to_numpy()): a vector field's array has shape + (n,), a matrix field's shape + (n, m).
std::string MatrixFieldObj::str(Evaluator& ev) {
  const FieldInfo& f0 = checked({});
  std::vector<int64_t> shape = f0.shape;
  shape.push_back(n);
  if (m != 1) shape.push_back(m);
  Program& prog = program_of(ti);
  int64_t per = (int64_t)comps.size();
  std::vector<int64_t> idx(f0.shape.size());
  return ndarray_str(ev, shape, f0.dtype, [&](int64_t k) {
    int64_t c = k % per, e = k / per;
    for (size_t d = f0.shape.size(); d-- > 0;) {
      idx[d] = e % f0.shape[d] + f0.offset_at(d);  // printing ignores offsets: element 0 first
      e /= f0.shape[d];
    }
    return read_element(prog, *comps[(size_t)c], idx.data(), (int)idx.size(), {});
  });
}

static Value matrix_element(Evaluator& ev, const std::shared_ptr<MatrixFieldObj>& mf, std::vector<int64_t> idx, SourceLoc loc) {
  const FieldInfo& f0 = mf->checked(loc);
  program_of(mf->ti).element_read_address(f0, idx.data(), (int)idx.size(), loc);  // bounds check now, not on first use
  auto mo = std::make_shared<MatrixObj>();
  mo->n = mf->n;
  mo->m = mf->m;
  mo->ndim = mf->ndim;
  mo->dtype = prim_is_float(f0.dtype) ? Prim::f64 : Prim::i64;
  mo->field = mf;
  mo->index = std::move(idx);
  return Value::of(mo);
}

// dst = v for a whole vector/matrix: from a matrix of the same shape, a
// (nested) list, or a scalar broadcast to every element. `what` names the
// target in the shape-mismatch message.
void assign_matrix(Evaluator& ev, MatrixObj& dst, const Value& v, const std::string& what, SourceLoc loc) {
  std::vector<int64_t> want = matrix_shape(dst);
  std::vector<Value> vals;
  std::vector<int64_t> got;
  if (v.is_number()) {
    vals.assign((size_t)dst.size(), v);
    got = want;
  } else if (auto* mo = host_as<MatrixObj>(v)) {
    got = matrix_shape(*mo);
    vals = mo->values(loc);
  } else if (v.kind == Kind::List || v.kind == Kind::Tuple) {
    auto items = ev.to_vector(v, loc);
    got = {(int64_t)items.size()};
    bool nested = !items.empty() && (items[0].kind == Kind::List || items[0].kind == Kind::Tuple || host_as<MatrixObj>(items[0]));
    if (nested) {
      int64_t inner = -1;
      for (auto& r : items) {
        auto row = ev.to_vector(r, loc);
        if (inner >= 0 && (int64_t)row.size() != inner) raise("ValueError", "rows of different lengths assigned to " + what, loc);
        inner = (int64_t)row.size();
        vals.insert(vals.end(), row.begin(), row.end());
      }
      got.push_back(inner);
    } else {
      vals = items;
    }
  } else {
    raise("TypeError", "cannot assign a '" + ev.type_name(v) + "' to " + what + " (a vector, a list or a number is expected)", loc);
  }
  if (got != want)
    raise("TypeError", "cannot assign a value of shape " + shape_str(got) + " to " + what + " of shape " + shape_str(want), loc);
  for (int64_t k = 0; k < dst.size(); k++) dst.set(ev, k, vals[(size_t)k], loc);
}

bool MatrixFieldObj::get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) {
  out = matrix_element(ev, shared_from_this(), field_index(ev, checked(loc), key, loc), loc);
  return true;
}

bool MatrixFieldObj::set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) {
  Value e = matrix_element(ev, shared_from_this(), field_index(ev, checked(loc), key, loc), loc);
  assign_matrix(ev, *host_as<MatrixObj>(e), v, "an element of " + what_field(*comps[0], ndim == 1 ? "vector" : "matrix"), loc);
  return true;
}

// Calls fn(index) for every element index of `f`, row-major.
template <class F> static void each_index(const FieldInfo& f, F&& fn) {
  std::vector<int64_t> idx(f.shape.size(), 0);
  for (auto n : f.shape)
    if (n == 0) return;
  while (true) {
    fn(idx);
    int d = (int)idx.size() - 1;
    while (d >= 0 && ++idx[d] == f.shape[d]) idx[d--] = 0;
    if (d < 0) return;
  }
}

static Value shape_of(const FieldInfo& f) {
  std::vector<Value> items;
  for (auto n : f.shape) items.push_back(Value::integer(n));
  return make_tuple(std::move(items));
}

static Value snode_of(TiState* ti, int generation, const FieldInfo& f, SourceLoc loc) {
  if (!f.place) raise("RuntimeError", f.describe() + " is not placed yet", loc);
  auto s = std::make_shared<SNodeObj>();
  s->node = f.place;
  s->generation = generation;
  s->ti = ti;
  return Value::of(s);
}

bool MatrixFieldObj::get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) {
  auto me = shared_from_this();
  if (name == "n") { out = Value::integer(n); return true; }
  if (name == "m") { out = Value::integer(m); return true; }
  if (name == "ndim") { out = Value::integer(ndim); return true; }
  if (name == "shape") { out = shape_of(checked(loc)); return true; }
  if (name == "dtype") { out = Value::of(std::make_shared<DTypeObj>(checked(loc).dtype)); return true; }
  if (name == "name") { out = Value::str(checked(loc).name); return true; }
  if (name == "snode") { out = snode_of(ti, generation, checked(loc), loc); return true; }
  if (name == "fill") {
    out = make_builtin("fill", [me](Evaluator& ev, CallArgs& a) {
      expect_args(a, "fill", 1, 1);
      const FieldInfo& f0 = me->checked(a.loc);
      Value e = matrix_element(ev, me, std::vector<int64_t>(f0.shape.size(), 0), a.loc);
      auto* mo = host_as<MatrixObj>(e);
      // Under sparse SNodes the active elements only, as Taichi's fill
      // kernel (a struct-for): an assignment would activate every cell.
      Program& prog = *me->ti->program;
      prog.materialize();
      const SNode* place = f0.place && f0.place->sparse ? f0.place : nullptr;
      each_index(f0, [&](const std::vector<int64_t>& idx) {
        if (place && !prog.snode_op(Program::SNodeOp::is_active, place->id, idx.data())) return;
        mo->index = idx;
        assign_matrix(ev, *mo, a.pos[0], "the elements of " + what_field(f0, me->ndim == 1 ? "vector" : "matrix"), a.loc);
      });
      return Value();
    });
    return true;
  }
  if (matrix_field_numpy(ev, me, name, out)) return true;
  if (name == "get_scalar_field") {
    out = make_builtin("get_scalar_field", [me](Evaluator& ev, CallArgs& a) {
      expect_args(a, "get_scalar_field", 1, 2);
      int64_t i = arg_int(ev, a.pos[0], "get_scalar_field", a.loc);
      int64_t j = a.pos.size() == 2 ? arg_int(ev, a.pos[1], "get_scalar_field", a.loc) : 0;
      if (i < 0 || i >= me->n || j < 0 || j >= me->m) raise("IndexError", "component index out of range", a.loc);
      auto f = std::make_shared<FieldObj>();
      f->info = me->comps[(size_t)(i * me->m + j)];
      f->ti = me->ti;
      f->generation = me->generation;
      return Value::of(f);
    });
    return true;
  }
  if (name == "__len__") {
    out = make_builtin("__len__", [me](Evaluator&, CallArgs& a) -> Value {
      const FieldInfo& f = me->checked(a.loc);
      if (f.shape.empty()) raise("TypeError", "len() of a 0-D field", a.loc);
      return Value::integer(f.shape[0]);
    });
    return true;
  }
  return false;
}

// ---- struct fields ---------------------------------------------------------------------

static const FieldInfo& first_component(const StructFieldObj& sf, SourceLoc loc) {
  std::vector<FieldInfo*> comps;
  field_components(sf.members[0], loc, comps);
  return *comps[0];
}

std::string StructFieldObj::repr(Evaluator& ev) const {
  std::string s = "{";
  for (size_t k = 0; k < names.size(); k++) s += (k ? ", '" : "'") + names[k] + "': " + ev.str(members[k]);
  return s + "}";
}

static Value struct_element(const std::shared_ptr<StructFieldObj>& sf, std::vector<int64_t> idx) {
  auto s = std::make_shared<StructObj>();
  s->type = sf->type;
  s->names = sf->names;
  s->field = sf;
  s->index = std::move(idx);
  return Value::of(s);
}

Value struct_field_member(Evaluator& ev, const StructObj& s, int k, SourceLoc loc) {
  const Value& mf = s.field->members[(size_t)k];
  if (auto* f = host_as<FieldObj>(mf)) {
    FieldInfo& info = f->checked(loc);
    return read_element(program_of(f->ti), info, s.index.data(), (int)s.index.size(), loc);
  }
  if (host_as<MatrixFieldObj>(mf)) return matrix_element(ev, mf.ptr<MatrixFieldObj>(), s.index, loc);
  return struct_element(mf.ptr<StructFieldObj>(), s.index);
}

void struct_field_set_member(Evaluator& ev, const StructObj& s, int k, const Value& v, SourceLoc loc) {
  const Value& mf = s.field->members[(size_t)k];
  std::string what = "member '" + s.names[(size_t)k] + "'";
  if (auto* f = host_as<FieldObj>(mf)) {
    if (!v.is_number()) raise("TypeError", "A number is expected when assigning struct members", loc);
    FieldInfo& info = f->checked(loc);
    write_element(ev, program_of(f->ti), info, s.index.data(), (int)s.index.size(), loc, v, loc);
  } else if (host_as<MatrixFieldObj>(mf)) {
    Value e = matrix_element(ev, mf.ptr<MatrixFieldObj>(), s.index, loc);
    assign_matrix(ev, *host_as<MatrixObj>(e), v, what, loc);
  } else {
    Value e = struct_element(mf.ptr<StructFieldObj>(), s.index);
    auto* dst = host_as<StructObj>(e);
    for (size_t i = 0; i < dst->names.size(); i++) dst->set_member(ev, (int)i, ev.get_item(v, Value::str(dst->names[i]), loc), loc);
  }
}

bool StructFieldObj::get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) {
  const FieldInfo& f0 = first_component(*this, loc);
  auto idx = field_index(ev, f0, key, loc);
  program_of(ev.ti.get()).element_read_address(f0, idx.data(), (int)idx.size(), loc);
  out = struct_element(shared_from_this(), std::move(idx));
  return true;
}

// s[i] = value: every member from value[name] (a struct or a dict), as Taichi's _set_entries.
bool StructFieldObj::set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) {
  Value e;
  get_item(ev, key, loc, e);
  auto* dst = host_as<StructObj>(e);
  if (!host_as<StructObj>(v) && v.kind != Kind::Dict)
    raise("TypeError", "a struct field element is assigned from a struct or a dict, not '" + ev.type_name(v) + "'", loc);
  for (size_t i = 0; i < names.size(); i++) dst->set_member(ev, (int)i, ev.get_item(v, Value::str(names[i]), loc), loc);
  return true;
}

bool StructFieldObj::get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) {
  for (size_t k = 0; k < names.size(); k++)
    if (names[k] == name) {
      out = members[k];
      return true;
    }
  auto me = shared_from_this();
  if (name == "shape") { out = shape_of(first_component(*this, loc)); return true; }
  if (name == "keys") {
    std::vector<Value> ks;
    for (auto& n : names) ks.push_back(Value::str(n));
    out = make_list(std::move(ks));
    return true;
  }
  if (name == "name") { out = Value::str(this->name); return true; }
  if (name == "snode") {
    const FieldInfo& f = first_component(*this, loc);
    out = snode_of(ev.ti.get(), ev.ti->generation, f, loc);
    return true;
  }
  if (name == "fill") {
    out = make_builtin("fill", [me](Evaluator& ev, CallArgs& a) {
      expect_args(a, "fill", 1, 1);
      for (auto& m : me->members) ev.call(ev.get_attr(m, "fill", a.loc), {a.pos[0]}, a.loc);
      return Value();
    });
    return true;
  }
  if (struct_field_numpy(ev, me, name, out)) return true;
  if (name == "get_member_field") {
    out = make_builtin("get_member_field", [me](Evaluator& ev, CallArgs& a) {
      expect_args(a, "get_member_field", 1, 1);
      return ev.get_attr(Value::of(me), ev.str(a.pos[0]), a.loc);
    });
    return true;
  }
  if (name == "__len__") {
    out = make_builtin("__len__", [me](Evaluator&, CallArgs& a) -> Value {
      const FieldInfo& f = first_component(*me, a.loc);
      if (f.shape.empty()) raise("TypeError", "len() of a 0-D field", a.loc);
      return Value::integer(f.shape[0]);
    });
    return true;
  }
  return false;
}

}  // namespace kiln::host
