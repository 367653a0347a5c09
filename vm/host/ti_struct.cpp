// Struct types (ti.types.struct, @ti.dataclass), host struct values, and
// ti.Struct. Construction follows Taichi's StructType.__call__: members by
// position, then by keyword, missing ones 0, and a scalar given for a vector
// member broadcasts (Ray(1) sets ro = vec3(1)). Scalar members become int()
// or float() of the value; vector members are built by their type.
// A struct prints as Taichi's str(self.to_dict()): a dict whose vectors are
// lists ({'a': 1.0, 'v': [0.0, 0.0, 0.0]}).
#include <algorithm>

#include "vm/host/evaluator.h"
#include "vm/host/ti_compound.h"
#include "vm/host/ti_state.h"

namespace kiln::host {

void gc_traverse_members(GcVisitor& v, const std::shared_ptr<StructTypeObj>& type, const std::vector<Value>& members) {
  if (type) v.visit(static_cast<const Object*>(type.get()));
  for (auto& x : members) v.visit(x);
}

void gc_clear_members(std::shared_ptr<StructTypeObj>& type, std::vector<Value>& members) {
  type.reset();
  members.clear();
}


Value create_struct_field(Evaluator& ev, std::shared_ptr<StructTypeObj> type, CallArgs& a);
void assign_matrix(Evaluator& ev, MatrixObj& dst, const Value& v, const std::string& what, SourceLoc loc);

namespace {

// A member annotation as a type value: dtypes (int/float too), vector/matrix and struct types.
Value member_type(Evaluator& ev, const Value& t, SourceLoc loc) {
  if (host_as<MatrixTypeObj>(t) || host_as<StructTypeObj>(t)) return t;
  return Value::of(std::make_shared<DTypeObj>(dtype_prim(ev, t, loc)));
}

Value struct_to_dict(Evaluator& ev, const StructObj& s, SourceLoc loc) {
  auto d = std::make_shared<DictObj>();
  for (size_t k = 0; k < s.names.size(); k++) {
    Value v = s.member(ev, (int)k, loc);
    if (auto* st = host_as<StructObj>(v)) v = struct_to_dict(ev, *st, loc);
    else if (host_as<MatrixObj>(v)) v = ev.call(ev.get_attr(v, "to_list", loc), {}, loc);
    d->set(Value::str(s.names[k]), v, loc);
  }
  return Value::of(d);
}

// StructType.cast: each member converted to its type.
Value cast_member(Evaluator& ev, const Value& type, const Value& data, SourceLoc loc);

Value make_struct(Evaluator& ev, const std::shared_ptr<StructTypeObj>& t, const std::vector<Value>& data, SourceLoc loc) {
  auto s = std::make_shared<StructObj>();
  s->type = t;
  s->names = t->names;
  for (size_t k = 0; k < t->names.size(); k++) s->members.push_back(cast_member(ev, t->types[k], data[k], loc));
  return Value::of(s);
}

Value cast_member(Evaluator& ev, const Value& type, const Value& data, SourceLoc loc) {
  if (host_as<MatrixTypeObj>(type)) {
    CallArgs a;
    a.pos = {data};
    a.loc = loc;
    return type.as<HostObj>()->call(ev, type, a);
  }
  if (auto* st = host_as<StructTypeObj>(type)) {
    auto tp = type.ptr<StructTypeObj>();
    std::vector<Value> members;
    if (auto* src = host_as<StructObj>(data)) {
      if (src->names != st->names) raise("TaichiSyntaxError", "Incompatible arguments for custom struct members!", loc);
      for (size_t k = 0; k < st->names.size(); k++) members.push_back(src->member(ev, (int)k, loc));
    } else if (data.kind == Kind::Dict) {
      for (auto& n : st->names) {
        Value* v = data.as<DictObj>()->find(Value::str(n), loc);
        if (!v) raise("TaichiSyntaxError", "Incompatible arguments for custom struct members!", loc);
        members.push_back(*v);
      }
    } else {
      CallArgs a;  // StructType(data): data is the first member, the rest 0
      a.pos = {data};
      a.loc = loc;
      return st->call(ev, type, a);
    }
    return make_struct(ev, tp, members, loc);
  }
  Prim p = type.as<DTypeObj>()->prim;
  if (!data.is_number()) {
    const char* fn = prim_is_int(p) ? "int" : "float";
    raise("TypeError", std::string(fn) + "() argument must be a string or a real number, not '" + ev.type_name(data) + "'", loc);
  }
  if (prim_is_int(p)) return data.kind == Kind::Float ? Value::integer(float_to_int(data.f, loc)) : Value::integer(data.as_int());
  return Value::floating(data.as_double());
}

}  // namespace

std::string StructTypeObj::repr(Evaluator& ev) const {
  std::string s = "<ti.StructType ";
  for (size_t k = 0; k < names.size(); k++) s += (k ? ", " : "") + names[k] + "=" + ev.str(types[k]);
  return s + ", struct_methods={}>";
}

Value StructTypeObj::call(Evaluator& ev, const Value& self, CallArgs& a) {
  std::vector<Value> data;
  for (size_t k = 0; k < names.size(); k++) {
    Value v = Value::integer(0);
    if (k < a.pos.size()) v = a.pos[k];
    else
      for (auto& [n, x] : a.kw)
        if (n == names[k]) v = x;
    data.push_back(v);
  }
  return make_struct(ev, self.ptr<StructTypeObj>(), data, a.loc);
}

bool StructTypeObj::get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) {
  if (name == "field") {
    auto me = self.ptr<StructTypeObj>();
    out = make_builtin("field", [me](Evaluator& ev, CallArgs& a) { return create_struct_field(ev, me, a); });
    return true;
  }
  if (name == "members") {
    auto d = std::make_shared<DictObj>();
    for (size_t k = 0; k < names.size(); k++) d->set(Value::str(names[k]), types[k], loc);
    out = Value::of(d);
    return true;
  }
  if (name == "__name__") { out = Value::str(this->name); return true; }
  if (const Value* m = method(name)) {
    out = *m;
    return true;
  }
  return false;
}

// ---- struct values ---------------------------------------------------------------------

int StructObj::find(const std::string& n) const {
  for (size_t k = 0; k < names.size(); k++)
    if (names[k] == n) return (int)k;
  return -1;
}

Value struct_field_member(Evaluator& ev, const StructObj& s, int k, SourceLoc loc);
void struct_field_set_member(Evaluator& ev, const StructObj& s, int k, const Value& v, SourceLoc loc);

Value StructObj::member(Evaluator& ev, int k, SourceLoc loc) const {
  if (field) return struct_field_member(ev, *this, k, loc);
  return members[(size_t)k];
}

void StructObj::set_member(Evaluator& ev, int k, const Value& v, SourceLoc loc) {
  if (field) return struct_field_set_member(ev, *this, k, v, loc);
  Value& cur = members[(size_t)k];
  if (auto* mo = host_as<MatrixObj>(cur)) return assign_matrix(ev, *mo, v, "member '" + names[(size_t)k] + "'", loc);
  if (auto* st = host_as<StructObj>(cur)) {
    auto* src = host_as<StructObj>(v);
    if (!src || src->names != st->names) raise("TypeError", "member '" + names[(size_t)k] + "' needs a struct with members of the same names", loc);
    for (size_t i = 0; i < st->names.size(); i++) st->set_member(ev, (int)i, src->member(ev, (int)i, loc), loc);
    return;
  }
  // Taichi stores a number as given (no cast) and rejects anything else.
  if (!v.is_number()) raise("TypeError", "A number is expected when assigning struct members", loc);
  cur = v;
}

std::string StructObj::repr(Evaluator& ev) const { return ev.repr(struct_to_dict(ev, *this, {})); }

bool StructObj::get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) {
  int k = find(name);
  if (k >= 0) {
    out = member(ev, k, loc);
    return true;
  }
  if (name == "keys") {
    std::vector<Value> ks;
    for (auto& n : names) ks.push_back(Value::str(n));
    out = make_list(std::move(ks));
    return true;
  }
  if (name == "to_dict") {
    auto me = self.ptr<StructObj>();
    out = make_builtin("to_dict", [me](Evaluator& ev, CallArgs& a) { return struct_to_dict(ev, *me, a.loc); });
    return true;
  }
  if (type)
    if (const Value* m = type->method(name)) {
      out = Value::of(std::make_shared<BoundMethodObj>(self, *m));
      return true;
    }
  return false;
}

bool StructObj::set_attr(Evaluator& ev, const std::string& name, const Value& v, SourceLoc loc) {
  int k = find(name);
  if (k < 0) return false;
  set_member(ev, k, v, loc);
  return true;
}

bool StructObj::get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) {
  int k = key.kind == Kind::Str ? find(str_of(key)) : -1;
  if (k < 0) ev.raise_value(ev.make_exception(ev.exception_class("KeyError"), {key}), loc);
  out = member(ev, k, loc);
  return true;
}

bool StructObj::set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) {
  int k = key.kind == Kind::Str ? find(str_of(key)) : -1;
  if (k < 0) ev.raise_value(ev.make_exception(ev.exception_class("KeyError"), {key}), loc);
  set_member(ev, k, v, loc);
  return true;
}

// ---- ti.types.struct, @ti.dataclass, ti.Struct ------------------------------------------

Value types_struct(Evaluator& ev, CallArgs& a) {
  expect_args(a, "struct", 0, 0);
  auto t = std::make_shared<StructTypeObj>();
  for (auto& [n, v] : a.kw) {
    if (n == "__struct_methods") {
      if (v.kind == Kind::Dict) v.as<DictObj>()->each([&](const Value& k, const Value& f) { t->methods.emplace_back(ev.str(k), f); });
      continue;
    }
    t->names.push_back(n);
    t->types.push_back(member_type(ev, v, a.loc));
  }
  return Value::of(t);
}

Value dataclass_decorator(Evaluator& ev, CallArgs& a) {
  expect_args(a, "dataclass", 1, 1);
  if (a.pos[0].kind != Kind::Class) raise("TypeError", "@ti.dataclass decorates a class", a.loc);
  auto cls = a.pos[0].ptr<ClassObj>();
  auto t = std::make_shared<StructTypeObj>();
  t->name = cls->name;
  auto it = cls->attrs.find("__annotations__");
  if (it != cls->attrs.end() && it->second.kind == Kind::Dict) {
    it->second.as<DictObj>()->each([&](const Value& k, const Value& v) {
      std::string n = ev.str(k);
      t->names.push_back(n);
      t->types.push_back(member_type(ev, v, a.loc));
    });
  }
  for (auto& n : t->names)
    if (cls->attrs.count(n)) raise("TaichiSyntaxError", "Default value in @dataclass is not supported.", a.loc);
  // Taichi attaches every callable attribute not starting with "__", in dir() order.
  std::vector<std::string> keys;
  for (auto& [k, v] : cls->attrs)
    if (k.rfind("__", 0) != 0 && (v.kind == Kind::Function || (v.kind == Kind::Host && v.as<HostObj>()->callable())))
      keys.push_back(k);
  std::sort(keys.begin(), keys.end());
  for (auto& k : keys) t->methods.emplace_back(k, cls->attrs[k]);
  return Value::of(t);
}

namespace {

// ti.Struct({...}) / ti.Struct(a=..., ...): a struct value with no type.
struct StructClassObj : HostObj {
  std::string type_name() const override { return "type"; }
  std::string repr(Evaluator&) const override { return "<class 'taichi.lang.struct.Struct'>"; }
  bool callable() const override { return true; }
  Value call(Evaluator& ev, const Value&, CallArgs& a) override {
    std::vector<std::pair<std::string, Value>> entries;
    if (a.pos.size() == 1 && a.kw.empty() && a.pos[0].kind == Kind::Dict) {
      a.pos[0].as<DictObj>()->each([&](const Value& k, const Value& v) { entries.emplace_back(ev.str(k), v); });
    } else if (a.pos.empty()) {
      entries = a.kw;
    } else {
      raise("TaichiSyntaxError", "Custom structs need to be initialized using either dictionary or keyword arguments", a.loc);
    }
    auto s = std::make_shared<StructObj>();
    for (auto& [k, v] : entries) {
      if (k == "__struct_methods" || k == "__matrix_ndim") continue;
      Value x = v;
      if (v.kind == Kind::List || v.kind == Kind::Tuple) {
        CallArgs ca;
        ca.pos = {v};
        ca.loc = a.loc;
        x = ev.call(ev.get_attr(ev.ti->module, "Matrix", a.loc), ca);
      } else if (v.kind == Kind::Dict) {
        CallArgs ca;
        ca.pos = {v};
        ca.loc = a.loc;
        x = call(ev, Value(), ca);
      }
      s->names.push_back(k);
      s->members.push_back(x);
    }
    return Value::of(s);
  }
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override {
    if (name != "field") return false;
    out = make_builtin("Struct.field", [](Evaluator& ev, CallArgs& a) {
      Value members, methods;
      if (!a.pos.empty()) members = a.pos[0];
      else if (!a.take_kw("members", members)) raise("TypeError", "field() missing 1 required positional argument: 'members'", a.loc);
      if (a.pos.size() > 1) methods = a.pos[1];
      else a.take_kw("methods", methods);
      if (members.kind != Kind::Dict) raise("TypeError", "Struct.field() takes a dict of member types", a.loc);
      auto t = std::make_shared<StructTypeObj>();
      members.as<DictObj>()->each([&](const Value& k, const Value& v) {
        t->names.push_back(ev.str(k));
        t->types.push_back(member_type(ev, v, a.loc));
      });
      if (methods.kind == Kind::Dict)
        methods.as<DictObj>()->each([&](const Value& k, const Value& f) { t->methods.emplace_back(ev.str(k), f); });
      a.pos.clear();
      return create_struct_field(ev, t, a);
    });
    return true;
  }
};

}  // namespace

Value struct_class(Evaluator& ev) { return Value::of(std::make_shared<StructClassObj>()); }

bool is_struct_class(const Value& v) { return v.kind == Kind::Host && dynamic_cast<StructClassObj*>(v.as<HostObj>()); }

}  // namespace kiln::host
