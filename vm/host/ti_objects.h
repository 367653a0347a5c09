// Host objects of the `ti` module: dtypes, fields, SNodes, axes, archs,
// kernels and ti.funcs as the host evaluator sees them.
#pragma once
#include "vm/ti/kernels.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "vm/host/objects.h"
#include "vm/runtime/program.h"
#include "vm/types/value.h"

namespace kiln::host {

class Evaluator;
struct TiState;

// ti.f32, ti.i32, ...: a primitive type. Calling one on the host casts.
struct DTypeObj : HostObj {
  Prim prim;
  explicit DTypeObj(Prim p) : prim(p) {}
  std::string type_name() const override { return "DataType"; }
  std::string repr(Evaluator&) const override { return std::string(prim_name(prim)); }
  bool equals(const HostObj& o) const override {
    auto* d = dynamic_cast<const DTypeObj*>(&o);
    return d && d->prim == prim;
  }
  uint64_t hash() const override { return 0xd7e0 + (uint64_t)prim; }
  bool callable() const override { return true; }
  Value call(Evaluator& ev, const Value& self, CallArgs& a) override;
};

// ti.template(): the marker annotation of template kernel parameters.
struct TemplateObj : HostObj {
  std::string type_name() const override { return "Template"; }
  std::string repr(Evaluator&) const override { return "<ti.template>"; }
};

// ti.ref(T): a ti.real_func parameter that writes back to the caller's local.
struct RefObj : HostObj {
  Value dtype;
  std::string type_name() const override { return "Ref"; }
  std::string repr(Evaluator&) const override { return "<ti.ref>"; }
};

// ti.cpu, ti.gpu, ...
struct ArchObj : HostObj {
  std::string name;
  explicit ArchObj(std::string n) : name(std::move(n)) {}
  std::string type_name() const override { return "Arch"; }
  std::string repr(Evaluator&) const override { return name; }
};

// ti.i, ti.ij, ...: physical axes for SNode containers.
struct AxisObj : HostObj {
  std::vector<int> axes;
  explicit AxisObj(std::vector<int> a) : axes(std::move(a)) {}
  std::string type_name() const override { return "Axis"; }
  std::string repr(Evaluator&) const override;
};

// A field. `generation` is the ti.init it belongs to: a field outlives the
// Program that ti.init replaced, and then every access is an error.
// A host index into field `f` (None for 0-D, an int, a tuple/list of ints), checked
// for rank and int-ness with Taichi's messages (ti_field.cpp).
std::vector<int64_t> field_index(Evaluator& ev, const FieldInfo& f, const Value& key, SourceLoc loc);

struct FieldObj : HostObj {
  FieldInfo* info = nullptr;  // owned by the Program: dangling once ti.init() replaced it
  int generation = 0;
  mutable std::string name;   // info->name, kept for the message after a reset
  TiState* ti = nullptr;
  std::string type_name() const override { return "ScalarField"; }
  std::string repr(Evaluator&) const override { return "<ti.field>"; }
  std::string str(Evaluator& ev) override;  // like numpy: str(field.to_numpy())
  FieldInfo& checked(SourceLoc loc) const;
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
  bool get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) override;
  bool set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) override;
};

// ti.root and the containers under it.
struct SNodeObj : HostObj {
  SNode* node = nullptr;
  int generation = 0;
  TiState* ti = nullptr;
  std::string type_name() const override { return "SNode"; }
  std::string repr(Evaluator&) const override;
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
};

// @ti.kernel and @ti.func: the decorated def, compiled on call.
using CompiledEntry = ti::CompiledEntry;

struct KernelObj : HostObj {
  Value fn;                     // the FunctionObj
  bool is_func = false;         // @ti.func (not callable from the host)
  bool is_real = false;         // @ti.real_func: a real call, compiled once (is_func too)
  std::vector<Value> annotations;  // evaluated once, per parameter (None when absent)
  bool annotations_done = false;
  // The last call's return values as flat typed slots (a vector's components,
  // a tuple's members in order): what the C API hands back.
  std::vector<ConstVal> last_rets;
  // The launch fast path of kernels whose parameters are all scalars: their
  // cache key cannot change until the cache is cleared (ti.init, a
  // redefinition), so the entry the last call found is reused while the
  // cache's epoch is the one it was found in.
  CompiledEntry* fast_entry = nullptr;
  uint64_t fast_epoch = 0;
  std::string key_head;  // "K<serial>|": the start of this kernel's cache keys
  std::weak_ptr<TiState*> ti;  // whose cache holds its entries (gone with the VM)
  ~KernelObj() override;
  std::string type_name() const override { return is_func ? "Func" : "Kernel"; }
  std::string repr(Evaluator&) const override;
  bool callable() const override { return true; }
  bool binds_as_method() const override { return true; }
  Value call(Evaluator& ev, const Value& self, CallArgs& a) override;
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
  const FunctionObj& function() const { return *fn.as<FunctionObj>(); }
  KernelObj() { gc_container = true; }
  void gc_traverse(GcVisitor& v) const override {
    v.visit(fn);
    for (auto& a : annotations) v.visit(a);
  }
  void gc_clear() override {
    fn = Value();
    annotations.clear();
    fast_entry = nullptr;
  }
};

// numpy's str() of the field's elements (ti_print.cpp).
std::string field_str(Evaluator& ev, FieldObj& f, SourceLoc loc);
// `x = ti.field(...)` names an unnamed field "x" (and `self.v = ...` names it
// "v"), so that errors can say which field they mean, as the user spelled it.
void name_field_if_unnamed(const Value& v, const std::string& name);

// Reads / writes one field element as a Python value (f32 reads give the
// double of the f32; writes cast like Taichi: float -> int truncates).
Value load_element(const FieldInfo& f, const void* p);
void store_element(Evaluator& ev, const FieldInfo& f, void* p, const Value& v, SourceLoc loc);
// Element `idx` (user indices) of f, through the quantized codec when f is
// quantized (vm/ti/quant_access.h); `vloc` locates the value's conversion.
Value read_element(Program& prog, const FieldInfo& f, const int64_t* idx, int n, SourceLoc loc);
void write_element(Evaluator& ev, Program& prog, const FieldInfo& f, const int64_t* idx, int n, SourceLoc loc,
                   const Value& v, SourceLoc vloc);
// A Python number as a ConstVal of type `p` (TypeError for non-numbers).
ConstVal to_const(Evaluator& ev, const Value& v, Prim p, SourceLoc loc);
Value from_const(const ConstVal& c);
// A dtype argument: ti.f32 etc., or `int` / `float` meaning default_ip / default_fp.
Prim dtype_prim(Evaluator& ev, const Value& v, SourceLoc loc);
// ti_quant.cpp: a ti.types.quant type (null for anything else); place() of a
// ti.BitpackedFields under `parent` (false when v is not one); the module's names.
const QuantType* quant_type_of(const Value& v);
bool place_bitpacked(Evaluator& ev, Program& prog, SNode* parent, const Value& v, SourceLoc loc);
void install_ti_quant(Evaluator& ev, ModuleObj& ti, ModuleObj& types);

}  // namespace kiln::host
