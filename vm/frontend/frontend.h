// The frontend: a kernel's AST -> typed IR (seed 000's typing rules), with
// ti.func inlining and ti.static evaluated at compile time.
//
// The frontend never runs host code itself. Whatever a kernel names from host
// scope (globals, fields, ti.func objects, the `ti` module, template
// arguments) it asks the host for through HostEnv, and receives a
// StaticValue: a compile-time constant as the kernel sees it. Python-scope
// globals are therefore constants captured at first compilation, as in Taichi.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "vm/ir/ir.h"
#include "vm/lang/ast.h"
#include "vm/runtime/program.h"

namespace kiln::frontend {

struct StaticValue {
  enum class Kind : uint8_t {
    none,      // Python None
    boolean, integer, floating, string,
    tuple,     // tuple or list: elems
    dtype,     // a primitive type object: ti.f32, ti.i32, and `int`/`float` used as dtypes
    field,     // a field (FieldInfo*)
    func,      // a @ti.func: def + env; `b` set for a @ti.real_func (a real call)
    kernel,    // a @ti.kernel (calling one from a kernel is an error)
    builtin,   // an intrinsic the frontend knows by `name`: "ti.sqrt", "range", "print", ...
    module,    // a host module (`ti`, `math`): attributes through HostEnv::attr
    object,    // any other host object (class instance, ...): attributes through HostEnv::attr
    // ---- compound types (vectors, matrices, structs) ----
    matrix,        // a host ti.Vector / ti.Matrix value: elems (numbers) row-major, rows, cols
    matrix_field,  // ti.Vector.field / ti.Matrix.field: `fields` (rows*cols component
                   // fields, row-major, each a scalar field of the same shape), rows, cols
    struct_type,   // ti.types.struct(...) / @ti.dataclass: `names` + `elems` (member types:
                   // dtype or struct_type); `handle` is the host's type object, through
                   // which HostEnv::attr finds the dataclass's @ti.func methods
    struct_value,  // a host struct instance: `names` + `elems` (member values); its
                   // struct_type in `ctype`
    struct_field,  // ti.Struct.field / Dataclass.field: `names` + `elems` (member fields:
                   // field, matrix_field or struct_field)
    snode,         // an SNode (ti.root.pointer(...), x.parent(), x.snode): `snode`
    sparse_builder,  // a SparseMatrixBuilder argument: `fields` = its index, value and
                     // counter arrays (lower_linalg.cpp); `A[i, j] += v` appends a triplet
  };
  Kind kind = Kind::none;
  bool b = false;
  // integer: the value, when it fits in 64 bits. Python's ints are unbounded;
  // compile-time arithmetic keeps 128 bits (2 ** 64 - 1 is a u64 literal):
  // `wide` says the value is hi * 2**64 + (uint64_t)i (see big()/of_big()).
  int64_t i = 0;
  int64_t hi = 0;
  bool wide = false;
  double f = 0;
  std::string s;                   // string value; builtin name; module/object type name;
                                   // the user's name of a matrix_field/struct_field/struct_type
  Prim prim = Prim::none;          // dtype
  std::vector<StaticValue> elems;  // tuple
  FieldInfo* field = nullptr;
  SNode* snode = nullptr;          // snode
  const ast::FunctionDef* def = nullptr;  // func / kernel
  std::shared_ptr<void> handle;    // the host's own object (env of a func, module, instance)

  // Compound types. A dtype with rows > 0 is a vector (cols == 0) or matrix
  // type: ti.types.vector(3, ti.f32) is {dtype, prim f32, rows 3, cols 0};
  // ti.types.matrix(2, 2, ti.f32) is {dtype, f32, 2, 2}. matrix and
  // matrix_field use rows/cols the same way.
  int rows = 0, cols = 0;
  std::vector<std::string> names;         // struct_type / struct_value / struct_field members
  std::vector<FieldInfo*> fields;         // matrix_field components, row-major
  std::shared_ptr<StaticValue> ctype;     // struct_value / struct_field: its struct_type

  // Most StaticValues are scalars, fields and dtypes, and a compile-time name
  // load copies one (a kernel unrolled by ti.static reads its names 10^4
  // times): a copy or move copies the scalar members and touches a heavy
  // member (string, vectors, shared_ptrs) only when it or its target holds
  // something (member by member, a copy was ~190 instructions, issue 16).
  // A new member goes into copy_light() or take_heavy().
  StaticValue() = default;
  StaticValue(const StaticValue& o) { copy_light(o); take_heavy(o); }
  StaticValue(StaticValue&& o) noexcept { copy_light(o); take_heavy(std::move(o)); }
  StaticValue& operator=(const StaticValue& o) {
    if (this != &o) {
      copy_light(o);
      take_heavy(o);
    }
    return *this;
  }
  StaticValue& operator=(StaticValue&& o) noexcept {
    if (this != &o) {
      copy_light(o);
      take_heavy(std::move(o));
    }
    return *this;
  }
  ~StaticValue() = default;

  static StaticValue of_int(int64_t v) { StaticValue s; s.kind = Kind::integer; s.i = v; return s; }
  // A 128-bit integer: of_int when it fits in an int64, else wide.
  static StaticValue of_big(__int128 v) {
    StaticValue s = of_int((int64_t)v);
    if (v != (__int128)(int64_t)v) {
      s.wide = true;
      s.hi = (int64_t)(v >> 64);
    }
    return s;
  }
  __int128 big() const { return wide ? (__int128)(((unsigned __int128)(uint64_t)hi << 64) | (uint64_t)i) : (__int128)i; }
  static StaticValue of_float(double v) { StaticValue s; s.kind = Kind::floating; s.f = v; return s; }
  static StaticValue of_bool(bool v) { StaticValue s; s.kind = Kind::boolean; s.b = v; return s; }
  static StaticValue of_builtin(std::string n) { StaticValue s; s.kind = Kind::builtin; s.s = std::move(n); return s; }
  static StaticValue of_dtype(Prim p) { StaticValue s; s.kind = Kind::dtype; s.prim = p; return s; }

 private:
  void copy_light(const StaticValue& o) {
    kind = o.kind;
    b = o.b;
    i = o.i;
    hi = o.hi;
    wide = o.wide;
    f = o.f;
    prim = o.prim;
    field = o.field;
    snode = o.snode;
    def = o.def;
    rows = o.rows;
    cols = o.cols;
  }
  // `o` may live inside this value (an element, or its ctype): elems and
  // ctype, which own StaticValues, are replaced last, ctype's new value held
  // before elems changes. A copy (V = const StaticValue&) or a move (V =
  // StaticValue: each member is taken with std::forward). A member is touched
  // only when the source or target holds something (issue 16).
  template <class V> void take_heavy(V&& o) {
    if (!o.s.empty() || !s.empty()) s = std::forward<V>(o).s;
    if (o.handle || handle) handle = std::forward<V>(o).handle;
    if (!o.names.empty() || !names.empty()) names = std::forward<V>(o).names;
    if (!o.fields.empty() || !fields.empty()) fields = std::forward<V>(o).fields;
    if (!o.ctype && !ctype) {
      if (!o.elems.empty() || !elems.empty()) elems = std::forward<V>(o).elems;
      return;
    }
    std::shared_ptr<StaticValue> c = std::forward<V>(o).ctype;
    if (!o.elems.empty() || !elems.empty()) elems = std::forward<V>(o).elems;
    ctype = std::move(c);
  }
};
// copy_light() lists every scalar member: a member added without it would
// be dropped by copies (this size is the layout those functions were written for).
static_assert(sizeof(StaticValue) == 216, "a StaticValue member was added or removed: update copy_light/take_heavy");

// What the host provides to the frontend. `env` is the opaque scope a function
// was defined in (StaticValue::handle of a func/kernel value).
struct HostEnv {
  virtual ~HostEnv() = default;
  // A free name as the function defined in `env` sees it (its module's globals,
  // enclosing scopes, builtins such as `range`, `print`, `int`). nullopt if undefined.
  virtual std::optional<StaticValue> lookup(const std::shared_ptr<void>& env, const std::string& name) = 0;
  // obj.name for a module/object/field value (`ti.f32`, `self.x`, `x.shape`).
  // Throws kiln::Error("AttributeError", ..., loc) when absent.
  virtual StaticValue attr(const StaticValue& obj, const std::string& name, SourceLoc loc) = 0;
  // Calls a host callable at compile time: ti.static(...) arguments that are
  // plain Python calls, ti.template(), host functions applied to constants.
  // Throws kiln::Error on failure. `kwargs`: name=value arguments, in order.
  using Kwargs = std::vector<std::pair<std::string, StaticValue>>;
  virtual StaticValue call(const StaticValue& fn, const std::vector<StaticValue>& args, SourceLoc loc,
                           const Kwargs& kwargs = {}) = 0;
};

// A kernel argument as the host passes it at a call.
// Compound arguments and return values travel flattened: a vector or matrix
// as rows*cols scalar slots (row-major), a struct as its members' slots in
// declaration order (recursively). The host flattens arguments and rebuilds
// return values by the same rule.
struct ArgSpec {
  std::string name;
  // ndarray: an array passed by reference (ti.types.ndarray()); it takes
  // 1 + ndim slots: the data pointer (u64), then the shape (i32 each).
  // sparse_builder: a ti.linalg.SparseMatrixBuilder (ti.types.sparse_matrix_builder());
  // it takes 6 slots: three 1-D arrays (pointer, length), the triplets' indices
  // (i32, 2 per triplet), their values (f64) and the triplet counter (i32[1]).
  // pack: a ti.types.argpack; its members (named "param.member") take their
  // own slots one after another.
  enum class Kind : uint8_t { scalar, template_, compound, ndarray, sparse_builder, pack } kind = Kind::scalar;
  Prim prim = Prim::none;   // scalar: the annotated type; ndarray: the element's scalar type
  int ndim = 0;             // ndarray: number of indices (the element's own dims excluded)
  int rows = 0, cols = 0;   // ndarray of vectors (rows, cols 0) or matrices; 0 for scalars
  // ndarray of an autodiff kernel (KernelRequest::ad_mode): its gradient
  // (reverse) or dual (forward) array is passed too, in slots after every
  // parameter's own (LoweredKernel::companion_slot), with the same shape.
  bool companion = false;
  StaticValue value;        // template_: the object passed (field, value, ...)
  StaticValue type;         // compound: the annotation (dtype with rows > 0, or struct_type)
  std::vector<ArgSpec> members;  // pack
};

// Which kernel a request asks for: the kernel itself, its reverse-mode
// adjoint (kernel.grad()) or its forward-mode (dual) version (vm/autodiff).
// `validation`: the kernel itself, checking Taichi's global data access rule
// (ti.ad.Tape(validation=True)).
enum class AutodiffMode : uint8_t { none, reverse, forward, validation };

struct KernelRequest {
  const ast::FunctionDef* def = nullptr;
  AutodiffMode ad_mode = AutodiffMode::none;
  std::shared_ptr<void> env;         // the kernel's defining scope
  std::vector<ArgSpec> args;         // one per parameter, in order (self included for methods)
  std::string qualified_name;        // "fill", "Sim.step"
};

// The result: IR before passes, plus what the host needs to call it.
struct LoweredKernel {
  std::unique_ptr<ir::Kernel> kernel;
  std::vector<int> arg_slot;         // for each ArgSpec: its first ir arg index, -1 for templates
  std::vector<int> companion_slot;   // for each ArgSpec: its companion array's first slot, -1 for none
  std::vector<Type> rets;            // flattened scalar return slots (empty: returns nothing)
  // The shape of the returned value: empty when nothing is returned; one entry
  // (a dtype, possibly with rows > 0, or a struct_type) for a single value;
  // several for a tuple return (`-> (ti.i32, ti.f32)`).
  std::vector<StaticValue> ret_types;
  bool ret_is_tuple = false;
  std::vector<std::string> warnings; // formatted warnings (implicit casts), printed by the host
};

// Lowers a kernel. Throws kiln::Error (TypeError, SyntaxError, NameError, ...)
// with the offending source location for every compile error.
LoweredKernel lower_kernel(const KernelRequest& req, HostEnv& env, Program& prog);

}  // namespace kiln::frontend
