// Compound values on the host: ti.Vector / ti.Matrix values, vector/matrix
// and struct types (ti.types.*, ti.math.vec3, @ti.dataclass), struct values,
// and the fields made of them (ti.Vector.field, ti.Struct.field, ...).
//
// Taichi keeps a host matrix as a numpy array, so its arithmetic follows
// numpy's dtype rules (int64 for Python ints, float64 for Python floats,
// float32 when made with dt=ti.f32) and it prints as numpy prints. A
// compound field is, as in Taichi, one scalar FieldInfo per component,
// placed together (AoS) under one SNode.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "vm/frontend/frontend.h"
#include "vm/host/ti_objects.h"

namespace kiln::host {

struct MatrixFieldObj;
struct StructFieldObj;
struct StructTypeObj;

// numpy's str() of an array whose elements get(k) gives, row-major (only the
// elements shown are asked for). dtype Prim::none means numpy's bool.
std::string ndarray_str(Evaluator& ev, const std::vector<int64_t>& shape, Prim dtype,
                        const std::function<Value(int64_t)>& get);

// A host ti.Vector (ndim 1) or ti.Matrix (ndim 2). Elements are Python
// values already rounded to `dtype` (Prim::none = bool). A matrix read from
// a compound field reads and writes the field's memory instead (Taichi's
// SNodeHostAccess entries): `field` is set and `index` is the element.
struct MatrixObj : HostObj {
  int n = 0, m = 1;
  int ndim = 1;
  Prim dtype = Prim::i64;
  std::vector<Value> elems;  // row-major, n*m
  std::shared_ptr<MatrixFieldObj> field;
  std::vector<int64_t> index;

  std::string type_name() const override { return ndim == 1 ? "Vector" : "Matrix"; }
  std::string repr(Evaluator& ev) const override;
  int64_t size() const { return (int64_t)n * m; }
  Value get(int64_t k, SourceLoc loc) const;
  void set(Evaluator& ev, int64_t k, const Value& v, SourceLoc loc);
  std::vector<Value> values(SourceLoc loc) const;
  bool equals(const HostObj& o) const override { return this == &o; }
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
  bool set_attr(Evaluator& ev, const std::string& name, const Value& v, SourceLoc loc) override;
  bool get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) override;
  bool set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) override;
  bool as_iterable(Evaluator& ev, SourceLoc loc, Value& out) override;
  MatrixObj() { gc_container = true; }
  void gc_traverse(GcVisitor& v) const override {
    for (auto& x : elems) v.visit(x);
  }
  void gc_clear() override { elems.clear(); }
};

// A vector / matrix type: ti.types.vector(3, ti.f32), ti.math.mat2.
struct MatrixTypeObj : HostObj {
  int n = 0, m = 1, ndim = 1;
  Prim dtype = Prim::f32;
  std::string type_name() const override { return ndim == 1 ? "VectorType" : "MatrixType"; }
  std::string repr(Evaluator&) const override;
  bool equals(const HostObj& o) const override {
    auto* t = dynamic_cast<const MatrixTypeObj*>(&o);
    return t && t->n == n && t->m == m && t->ndim == ndim && t->dtype == dtype;
  }
  uint64_t hash() const override { return 0x3a7 + (uint64_t)n * 31 + (uint64_t)m * 7 + (uint64_t)dtype * 131 + (uint64_t)ndim; }
  bool callable() const override { return true; }
  Value call(Evaluator& ev, const Value& self, CallArgs& a) override;
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
};

// ti.types.struct(a=ti.f32, v=vec3) or a @ti.dataclass class.
struct StructTypeObj : HostObj {
  std::string name;                 // the dataclass's name; "" for ti.types.struct
  std::vector<std::string> names;   // members in order
  std::vector<Value> types;         // DTypeObj, MatrixTypeObj or StructTypeObj
  std::vector<std::pair<std::string, Value>> methods;  // dataclass methods (ti.func or plain defs)
  StructTypeObj() { gc_container = true; }
  void gc_traverse(GcVisitor& v) const override {
    for (auto& x : types) v.visit(x);
    for (auto& [k, x] : methods) v.visit(x);
  }
  void gc_clear() override {
    types.clear();
    methods.clear();
  }
  std::string type_name() const override { return "StructType"; }
  std::string repr(Evaluator& ev) const override;
  bool callable() const override { return true; }
  Value call(Evaluator& ev, const Value& self, CallArgs& a) override;
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
  const Value* method(const std::string& n) const {
    for (auto& [k, v] : methods)
      if (k == n) return &v;
    return nullptr;
  }
};

// What struct values and struct fields hold: their type and their members.
void gc_traverse_members(GcVisitor& v, const std::shared_ptr<StructTypeObj>& type, const std::vector<Value>& members);
void gc_clear_members(std::shared_ptr<StructTypeObj>& type, std::vector<Value>& members);

// A host struct value. Members are numbers, MatrixObjs or StructObjs; one
// read from a struct field reads and writes the field (`field` + `index`).
struct StructObj : HostObj {
  std::shared_ptr<StructTypeObj> type;  // null for ti.Struct(...) built from a dict
  std::vector<std::string> names;
  std::vector<Value> members;
  std::shared_ptr<StructFieldObj> field;
  std::vector<int64_t> index;
  StructObj() { gc_container = true; }
  void gc_traverse(GcVisitor& v) const override { gc_traverse_members(v, type, members); }
  void gc_clear() override { gc_clear_members(type, members); }
  std::string type_name() const override { return "Struct"; }
  std::string repr(Evaluator& ev) const override;
  int find(const std::string& n) const;
  Value member(Evaluator& ev, int k, SourceLoc loc) const;
  void set_member(Evaluator& ev, int k, const Value& v, SourceLoc loc);
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
  bool set_attr(Evaluator& ev, const std::string& name, const Value& v, SourceLoc loc) override;
  bool get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) override;
  bool set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) override;
};

// ti.Vector.field / ti.Matrix.field: rows*cols scalar component fields, row-major.
struct MatrixFieldObj : HostObj, std::enable_shared_from_this<MatrixFieldObj> {
  int n = 0, m = 1, ndim = 1;
  std::vector<FieldInfo*> comps;
  int generation = 0;
  TiState* ti = nullptr;
  std::string type_name() const override { return "MatrixField"; }
  std::string repr(Evaluator&) const override;
  std::string str(Evaluator& ev) override;
  const FieldInfo& checked(SourceLoc loc) const;  // the first component, generation-checked
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
  bool get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) override;
  bool set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) override;
};

// ti.Struct.field / Dataclass.field: members are FieldObj, MatrixFieldObj or StructFieldObj.
struct StructFieldObj : HostObj, std::enable_shared_from_this<StructFieldObj> {
  std::shared_ptr<StructTypeObj> type;
  std::vector<std::string> names;
  std::vector<Value> members;
  std::string name;
  StructFieldObj() { gc_container = true; }
  void gc_traverse(GcVisitor& v) const override { gc_traverse_members(v, type, members); }
  void gc_clear() override { gc_clear_members(type, members); }
  std::string type_name() const override { return "StructField"; }
  std::string repr(Evaluator& ev) const override;
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
  bool get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) override;
  bool set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) override;
};

template <class T> T* host_as(const Value& v) {
  return v.kind == Kind::Host ? dynamic_cast<T*>(v.as<HostObj>()) : nullptr;
}

// A new host matrix from row-major values (cast to `dtype`).
Value make_matrix(Evaluator& ev, int n, int m, int ndim, Prim dtype, std::vector<Value> vals, SourceLoc loc);
// A Python value cast to a numpy dtype (Prim::none = bool): ints wrap, floats round.
Value np_cast(Evaluator& ev, const Value& v, Prim dtype, SourceLoc loc);
// numpy's promote_types over Kiln's prims (Prim::none = bool).
Prim np_promote(Prim a, Prim b);
// Instantiates a vector/matrix/struct type from host arguments (GLSL-style).
Value instantiate_type(Evaluator& ev, const Value& type, CallArgs& a);
// The scalar component fields of any field (a scalar field: itself), in
// placement order; false if `v` is not a field.
bool field_components(const Value& v, SourceLoc loc, std::vector<FieldInfo*>& out);
// Rich comparison for host matrices (elementwise); false when neither side is one.
// One element of `x op y` compared in numpy dtype `ct` (ti_matrix_ops.cpp).
bool np_compare_scalar(ast::CmpOpKind op, const Value& x, const Value& y, Prim ct);
bool host_rich_compare(Evaluator& ev, ast::CmpOpKind op, const Value& a, const Value& b, SourceLoc loc, Value& out);
// Names a compound field after its variable (`x = ti.Vector.field(...)`).
void name_compound_field(const Value& v, const std::string& name);

// Kernel arguments and returns (ti_kernel.cpp): the annotation of a compound
// parameter as the frontend sees it, the number of flattened slots, and the
// conversions between host values and slots.
bool is_compound_type(const Value& ann);
void flatten_arg(Evaluator& ev, const Value& type, const Value& v, std::vector<ConstVal>& out, SourceLoc loc);
Value rebuild_value(Evaluator& ev, const frontend::StaticValue& type, const std::vector<ConstVal>& slots, size_t& pos);
std::string type_key(Evaluator& ev, const Value& type);

// ti.Struct, the class (a kernel builds a struct value with it).
bool is_struct_class(const Value& v);
// HostEnv (host_env.cpp): StaticValues of compound host objects; false if `v` is none.
bool compound_to_static(Evaluator& ev, const Value& v, frontend::StaticValue& out);

// Installs ti.Vector, ti.Matrix, ti.Struct, ti.types, ti.math and ti.dataclass.
void install_ti_compound(Evaluator& ev, ModuleObj& ti);
// ti.layout (ti_layout.cpp) and the field order=/layout= it serves.
void install_ti_layout(Evaluator& ev, ModuleObj& ti);
// order="ji": the axes outermost first, each once (a ValueError otherwise).
std::vector<int> order_axes(const Value& order, size_t ndim, SourceLoc loc);
FieldInfo* create_ordered_field(Evaluator& ev, Prim p, const Value& shape, const Value& order, const Value& layout,
                                const std::string& name, SourceLoc loc);

}  // namespace kiln::host
