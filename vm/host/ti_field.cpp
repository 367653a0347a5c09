// Fields and SNodes on the host: element access straight through
// Program::element_address (ARCHITECTURE.md: host access must be cheap in
// loops, so no accessor kernels), shape/dtype/fill, and ti.root building.
#include <cstring>

#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"
#include "vm/host/ti_compound.h"
#include "vm/host/ti_objects.h"
#include "vm/host/ti_state.h"
#include "vm/ti/field_copy.h"
#include "vm/ti/quant_access.h"

namespace kiln::host {

// ---- scalars <-> typed values --------------------------------------------------

ConstVal to_const(Evaluator& ev, const Value& v, Prim p, SourceLoc loc) {
  switch (v.kind) {
    case Kind::Bool:
    case Kind::Int: return ConstVal::make_int(p, v.as_int());
    case Kind::Float: return ConstVal::make_float(p, v.f);
    default: break;
  }
  Value m;
  if ((v.kind == Kind::Instance || v.kind == Kind::Host) && ev.try_get_attr(v, "__float__", loc, m))
    return to_const(ev, ev.call(m, {}, loc), p, loc);
  raise("TypeError", "expected a number for a " + std::string(prim_name(p)) + " value, got '" + ev.type_name(v) + "'", loc);
}

Value from_const(const ConstVal& c) {
  if (prim_is_float(c.prim)) return Value::floating(c.as_double());
  return Value::integer(c.as_int64());
}

Value load_element(const FieldInfo& f, const void* p) {
  uint64_t bits = 0;
  std::memcpy(&bits, p, (size_t)prim_bits(f.dtype) / 8);
  return from_const(const_from_bits(f.dtype, bits));
}

void store_element(Evaluator& ev, const FieldInfo& f, void* p, const Value& v, SourceLoc loc) {
  uint64_t bits = const_to_bits(to_const(ev, v, f.dtype, loc));
  std::memcpy(p, &bits, (size_t)prim_bits(f.dtype) / 8);
}

Value read_element(Program& prog, const FieldInfo& f, const int64_t* idx, int n, SourceLoc loc) {
  if (f.quant) return from_const(ti::quant_get(prog, f, idx, n, loc));
  return load_element(f, prog.element_read_address(f, idx, n, loc));
}

void write_element(Evaluator& ev, Program& prog, const FieldInfo& f, const int64_t* idx, int n, SourceLoc loc,
                   const Value& v, SourceLoc vloc) {
  if (f.quant) return ti::quant_set(prog, f, idx, n, to_const(ev, v, f.dtype, vloc), loc);
  store_element(ev, f, prog.element_address(f, idx, n, loc), v, vloc);
}

Value DTypeObj::call(Evaluator& ev, const Value&, CallArgs& a) {
  expect_args(a, prim_name(prim).data(), 1, 1);
  return from_const(to_const(ev, a.pos[0], prim, a.loc));
}

std::string AxisObj::repr(Evaluator&) const {
  static const char names[] = "ijklmnopqrst";
  std::string s = "Axis(";
  for (int a : axes) s += names[a];
  return s + ")";
}

// ---- fields ----------------------------------------------------------------------

FieldInfo& FieldObj::checked(SourceLoc loc) const {
  // After a reset `info` points into the freed Program: only the kept name may be read.
  if (generation != ti->generation)
    raise("RuntimeError", "field '" + (name.empty() ? std::string("field") : name) +
                              "' belongs to a program that ti.init() has reset", loc);
  if (name.empty() && info) name = info->name;
  return *info;
}

// A field index: None (0-D), an int, or a tuple/list of ints (ti_objects.h).
std::vector<int64_t> field_index(Evaluator& ev, const FieldInfo& f, const Value& key, SourceLoc loc) {
  std::vector<Value> parts;
  if (key.is_none()) {
  } else if (key.kind == Kind::Tuple || key.kind == Kind::List) {
    parts = ev.to_vector(key, loc);
  } else {
    parts.push_back(key);
  }
  if (parts.size() != f.shape.size())
    raise("AssertionError", "Slicing is not supported on ti.field", loc);
  std::vector<int64_t> idx;
  for (auto& p : parts) {
    if (!p.is_int_like())
      raise("TypeError", "Detected illegal element of type: <class '" + ev.type_name(p) +
                             "'>. Please be aware that slicing a ti.field is not supported so far.", loc);
    idx.push_back(p.as_int());
  }
  return idx;
}

std::string FieldObj::str(Evaluator& ev) { return field_str(ev, *this, {}); }

bool FieldObj::get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) {
  FieldInfo& f = checked(loc);
  auto idx = field_index(ev, f, key, loc);
  out = read_element(*ti->program, f, idx.data(), (int)idx.size(), loc);
  return true;
}

bool FieldObj::set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) {
  FieldInfo& f = checked(loc);
  auto idx = field_index(ev, f, key, loc);
  write_element(ev, *ti->program, f, idx.data(), (int)idx.size(), loc, v, loc);
  return true;
}

static Value shape_tuple(const std::vector<int64_t>& shape) {
  std::vector<Value> items;
  for (auto n : shape) items.push_back(Value::integer(n));
  return make_tuple(std::move(items));
}

bool FieldObj::get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) {
  auto me = self.ptr<FieldObj>();
  if (name == "shape") {
    out = shape_tuple(checked(loc).shape);
    return true;
  }
  if (name == "dtype") {
    out = Value::of(std::make_shared<DTypeObj>(checked(loc).dtype));
    return true;
  }
  if (name == "name") {
    out = Value::str(checked(loc).name);
    return true;
  }
  if (name == "snode") {
    auto s = std::make_shared<SNodeObj>();
    s->node = checked(loc).place;
    s->generation = generation;
    s->ti = ti;
    if (!s->node) raise("RuntimeError", checked(loc).describe() + " is not placed yet", loc);
    out = Value::of(s);
    return true;
  }
  if (name == "fill") {
    out = make_builtin("fill", [me](Evaluator& ev, CallArgs& a) {
      expect_args(a, "fill", 1, 1);
      FieldInfo& f = me->checked(a.loc);
      if (f.quant) {
        ConstVal c = to_const(ev, a.pos[0], f.dtype, a.loc);
        ti::each_cell(f, [&](const std::vector<int64_t>& idx, int64_t) {
          ti::quant_set(*me->ti->program, f, idx.data(), (int)idx.size(), c, a.loc);
        });
        return Value();
      }
      ti::fill_elements(*me->ti->program, f, const_to_bits(to_const(ev, a.pos[0], f.dtype, a.loc)), (size_t)prim_bits(f.dtype) / 8, a.loc);
      return Value();
    });
    return true;
  }
  if (name == "parent") {
    out = make_builtin("parent", [me](Evaluator& ev, CallArgs& a) {
      FieldInfo& f = me->checked(a.loc);
      int64_t n = a.pos.empty() ? 1 : arg_int(ev, a.pos[0], "parent", a.loc);
      SNode* s = f.place;
      for (int64_t k = 0; k < n && s; k++) s = s->parent;
      if (!s) return Value();
      auto o = std::make_shared<SNodeObj>();
      o->node = s;
      o->generation = me->generation;
      o->ti = me->ti;
      return Value::of(o);
    });
    return true;
  }
  if (name == "__len__") {
    out = make_builtin("__len__", [me](Evaluator&, CallArgs& a) -> Value {
      FieldInfo& f = me->checked(a.loc);
      if (f.shape.empty()) raise("TypeError", "len() of a 0-D field", a.loc);
      return Value::integer(f.shape[0]);
    });
    return true;
  }
  if (scalar_field_numpy(ev, me, name, out)) return true;
  if (name == "to_list") {  // Kiln: the elements as nested Python lists
    out = make_builtin("to_list", [me](Evaluator&, CallArgs& a) {
      FieldInfo& f = me->checked(a.loc);
      if (f.shape.empty()) return read_element(*me->ti->program, f, nullptr, 0, a.loc);
      std::vector<Value> flat;
      ti::each_element(*me->ti->program, f, a.loc, [&](void* p, const std::vector<int64_t>&) { flat.push_back(load_element(f, p)); }, true);
      // Regroup the flat row-major list, innermost axis first.
      for (size_t d = f.shape.size(); d-- > 1;) {
        std::vector<Value> grouped;
        size_t n = (size_t)f.shape[d];
        for (size_t k = 0; k < flat.size(); k += n) grouped.push_back(make_list(std::vector<Value>(flat.begin() + k, flat.begin() + k + n)));
        flat = std::move(grouped);
      }
      return make_list(std::move(flat));
    });
    return true;
  }
  return false;
}

// ---- SNodes ------------------------------------------------------------------------

std::string SNodeObj::repr(Evaluator&) const { return node ? node->name() : "SNode"; }

static std::vector<int64_t> snode_sizes(Evaluator& ev, const Value& v, size_t naxes, SourceLoc loc) {
  std::vector<int64_t> sizes;
  if (v.is_int_like()) {
    sizes.assign(naxes, v.as_int());  // dense(ti.ij, 4) is (4, 4)
  } else {
    sizes = arg_shape(ev, v, "SNode", loc);
  }
  return sizes;
}

static std::vector<int> axes_of(Evaluator& ev, const Value& v, SourceLoc loc) {
  if (v.kind == Kind::Host)
    if (auto* a = dynamic_cast<AxisObj*>(v.as<HostObj>())) return a->axes;
  if (v.kind == Kind::Tuple || v.kind == Kind::List) {
    std::vector<int> out;
    for (auto& x : ev.to_vector(v, loc)) {
      auto more = axes_of(ev, x, loc);
      out.insert(out.end(), more.begin(), more.end());
    }
    return out;
  }
  raise("TypeError", "SNode axes must be ti.i, ti.j, ti.ij, ..., not '" + ev.type_name(v) + "'", loc);
}

bool SNodeObj::get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) {
  auto me = self.ptr<SNodeObj>();
  auto check = [me](SourceLoc l) {
    if (me->generation != me->ti->generation) raise("RuntimeError", "this SNode belongs to a program that ti.init() has reset", l);
  };
  auto wrap = [me](SNode* s) {
    auto o = std::make_shared<SNodeObj>();
    o->node = s;
    o->generation = me->generation;
    o->ti = me->ti;
    return Value::of(o);
  };
  static const std::map<std::string, SNodeKind> containers = {
      {"dense", SNodeKind::dense}, {"pointer", SNodeKind::pointer}, {"bitmasked", SNodeKind::bitmasked}, {"dynamic", SNodeKind::dynamic}};
  auto c = containers.find(name);
  if (c != containers.end()) {
    SNodeKind kind = c->second;
    out = make_builtin(name, [me, kind, check, wrap, name](Evaluator& ev, CallArgs& a) {
      check(a.loc);
      Value axes_v, size_v, chunk;
      a.take_kw("chunk_size", chunk);
      if (a.take_kw("axis", axes_v)) a.pos.insert(a.pos.begin(), axes_v);
      if (a.take_kw("dimensions", size_v) || a.take_kw("shape", size_v) || a.take_kw("n", size_v)) a.pos.push_back(size_v);
      no_kwargs(a, name.c_str());
      expect_args(a, name.c_str(), 2, 2);
      auto axes = axes_of(ev, a.pos[0], a.loc);
      auto sizes = snode_sizes(ev, a.pos[1], axes.size(), a.loc);
      int64_t cs = 0;
      if (!chunk.is_none()) {
        if (kind != SNodeKind::dynamic) raise("TypeError", name + "() got an unexpected keyword argument 'chunk_size'", a.loc);
        cs = arg_int(ev, chunk, "chunk_size", a.loc);
        if (cs <= 0) raise("ValueError", "the chunk_size of a dynamic SNode must be positive, got " + std::to_string(cs), a.loc);
      }
      return wrap(me->ti->program->add_container(me->node, kind, axes, sizes, a.loc, cs));
    });
    return true;
  }
  if (name == "place") {
    out = make_builtin("place", [me, check, self](Evaluator& ev, CallArgs& a) {
      check(a.loc);
      Value ov;
      std::vector<int64_t> offset;
      if (a.take_kw("offset", ov) && !ov.is_none()) offset = arg_shape(ev, ov, "offset", a.loc);
      no_kwargs(a, "place");
      // A vector/matrix/struct field places all of its components here (AoS).
      for (auto& v : a.pos) {
        if (place_bitpacked(ev, *me->ti->program, me->node, v, a.loc)) continue;
        std::vector<FieldInfo*> comps;
        if (!field_components(v, a.loc, comps)) raise("TypeError", "place() takes fields, not '" + ev.type_name(v) + "'", a.loc);
        for (auto* f : comps) me->ti->program->place(me->node, f, a.loc, offset);
      }
      return self;
    });
    return true;
  }
  if (name == "quant_array" || name == "bit_array") {
    out = make_builtin(name, [me, check, wrap](Evaluator& ev, CallArgs& a) {
      check(a.loc);
      Value axes_v, size_v, mb;
      if (a.take_kw("axes", axes_v)) a.pos.insert(a.pos.begin(), axes_v);
      if (a.take_kw("dimensions", size_v)) a.pos.push_back(size_v);
      if (a.take_kw("max_num_bits", mb)) a.pos.push_back(mb);
      no_kwargs(a, "quant_array");
      expect_args(a, "quant_array", 3, 3);
      auto axes = axes_of(ev, a.pos[0], a.loc);
      auto sizes = snode_sizes(ev, a.pos[1], axes.size(), a.loc);
      int bits = (int)arg_int(ev, a.pos[2], "quant_array", a.loc);
      return wrap(me->ti->program->add_quant_array(me->node, axes, sizes, bits, a.loc));
    });
    return true;
  }
  if (name == "parent") {
    out = make_builtin("parent", [me, wrap](Evaluator& ev, CallArgs& a) {
      int64_t n = a.pos.empty() ? 1 : arg_int(ev, a.pos[0], "parent", a.loc);
      SNode* s = me->node;
      for (int64_t k = 0; k < n && s; k++) s = s->parent;
      return s ? wrap(s) : Value();
    });
    return true;
  }
  if (name == "shape") {
    check(loc);
    std::vector<int64_t> shape;
    for (int v : node->physical_index_position) {
      int64_t n = 1;
      for (const SNode* s = node; s; s = s->parent) n *= s->extent[v] ? s->extent[v] : 1;
      shape.push_back(n);
    }
    out = shape_tuple(shape);
    return true;
  }
  if (name == "id") {
    out = Value::integer(node->id);
    return true;
  }
  if (name == "physical_index_position") {  // seed 001: {virtual index: its place in memory order}
    out = make_builtin("physical_index_position", [me, check](Evaluator&, CallArgs& a) {
      check(a.loc);
      expect_args(a, "physical_index_position", 0, 0);
      Value d = make_dict();
      std::vector<int> pos = me->node->physical_positions();
      for (size_t v = 0; v < pos.size(); v++) d.as<DictObj>()->set(Value::integer((int64_t)v), Value::integer(pos[v]));
      return d;
    });
    return true;
  }
  if (name == "deactivate_all") {
    out = make_builtin("deactivate_all", [me, check](Evaluator&, CallArgs& a) {
      check(a.loc);
      expect_args(a, "deactivate_all", 0, 0);
      me->ti->program->deactivate_all(me->node);
      return Value();
    });
    return true;
  }
  return false;
}

void name_field_if_unnamed(const Value& v, const std::string& name) {
  if (v.kind != Kind::Host) return;
  name_compound_field(v, name);
  auto* f = dynamic_cast<FieldObj*>(v.as<HostObj>());
  if (f && f->info && f->info->name.empty()) f->info->name = name;
}

}  // namespace kiln::host
