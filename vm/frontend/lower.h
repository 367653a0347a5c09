// Private to the frontend: the state of lowering one kernel.
//
// An expression lowers to a KVal: an IR value (a typed scalar Stmt*), a
// compile-time StaticValue from host scope (literals, globals, fields,
// ti.func objects, template arguments), or a tuple of KVals (ti.grouped
// indices, tuple expressions). Statics become IR constants only where an IR
// operation needs them, typed by default_ip/default_fp as Taichi types literals.
#pragma once
#include <string>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "vm/frontend/frontend.h"

namespace kiln::frontend {

struct KVal {
  // struct_: a struct value; `s` is its struct_type, `elems` its members in order.
  enum class Kind : uint8_t { none, value, static_, tuple, struct_ } kind = Kind::none;
  // A tuple that is a Python list (a literal, a comprehension, list * n, list
  // + list): bound to a name, its run-time elements become local variables
  // that `xs[k] = v` reassigns, as Taichi's lists of variables.
  bool list = false;
  ir::Stmt* v = nullptr;
  StaticValue s;
  std::vector<KVal> elems;

  // Most KVals are IR values: a copy copies the static part and the elements
  // only when they hold something (copying an empty StaticValue member by
  // member was a tenth of the frontend's time on large kernels, issue 16).
  KVal() = default;
  KVal(const KVal& o) : kind(o.kind), list(o.list), v(o.v) { copy_parts(o); }
  KVal(KVal&&) noexcept = default;
  KVal& operator=(const KVal& o) {
    if (this != &o) *this = KVal(o);
    return *this;
  }
  KVal& operator=(KVal&&) noexcept = default;

  static KVal of(ir::Stmt* st) { KVal k; k.kind = Kind::value; k.v = st; return k; }
  static KVal of(StaticValue&& sv) { KVal k; k.kind = Kind::static_; k.s = std::move(sv); return k; }
  static KVal of(const StaticValue& sv) { KVal k; k.kind = Kind::static_; k.s = sv; return k; }
  bool is_value() const { return kind == Kind::value; }
  bool is_static() const { return kind == Kind::static_; }
  bool is_tuple() const { return kind == Kind::tuple; }
  bool is_struct() const { return kind == Kind::struct_; }

 private:
  void copy_parts(const KVal& o) {
    if (o.kind == Kind::static_ || o.kind == Kind::struct_ || o.s.kind != StaticValue::Kind::none) s = o.s;
    if (!o.elems.empty()) elems = o.elems;
  }
};

// What a name means inside the kernel.
struct Binding {
  // struct_: a struct local, one Binding per member (`s` is the struct_type).
  enum class Kind : uint8_t { local, value, static_, tuple, struct_ } kind = Kind::local;
  ir::Stmt* stmt = nullptr;   // local: the alloca; value: an immutable SSA value
  StaticValue s;              // static_; struct_: the type
  KVal tuple;                 // tuple: an assigned tuple or list, a ti.func's tuple argument; value: a struct argument's value
  // struct_: one per member. A tuple bound from a list (`list`): one per
  // element, a local (the element's variable) or, for a compile-time element
  // (tuple.elems[k] itself), static_.
  std::vector<Binding> members;
  bool list = false;
  const char* what = "";      // for immutable values: "kernel argument", "loop variable"
};

struct Scope {
  std::unordered_map<std::string, Binding> vars;
};

struct Loop {
  ir::Stmt* stmt = nullptr;   // the range_for / while statement (break/continue target)
  bool parallel = false;      // the kernel's outermost loop: break is an error there
  // A `for ... in ti.static(...)` being unrolled: break/continue end the
  // unrolling / this copy of the body at compile time (1 continue, 2 break).
  bool is_static = false;
  size_t depth = 0;           // blocks.size() when it began: exits under a runtime if are errors
  int exit = 0;
};

// One function being lowered: the kernel itself, or an inlined ti.func.
struct Frame {
  const ast::FunctionDef* def = nullptr;
  std::shared_ptr<void> env;  // host scope of the definition
  std::vector<Scope> scopes;
  std::vector<Loop> loops;
  bool is_kernel = false;
  // ti.func returns: the value lands in ret_slot and control leaves the
  // inlined body through `break` out of a one-shot while loop (see lower_call).
  Type ret_type;
  bool has_ret_annotation = false;
  // A scalar annotation (`-> ti.f32`) casts what an inlined func returns, as
  // Taichi's ti.cast does, elementwise: a vector returned under it stays a
  // vector (of f32), so the slot takes the first return's shape.
  bool ret_shape_from_value = false;
  ir::Stmt* ret_slot = nullptr;
  ir::Stmt* ret_loop = nullptr;
  int returns_seen = 0;
  bool ended = false;         // a top-level return was lowered: the rest of the body is dead
  size_t body_blocks = 0;     // blocks.size() where an inlined ti.func's body begins
  // Where the call began: an un-annotated ti.func's return slot is created at
  // its first return (its type is that value's) but must sit before the body.
  ir::Block* call_block = nullptr;
  size_t call_pos = 0;
  // A struct return value lives in one local per member.
  bool has_ret_struct = false;
  Binding ret_struct;
  StaticValue ret_struct_type;  // a struct return annotation
  bool has_ret_tuple = false;   // `return a, b`: one local per element
  std::vector<Binding> ret_tuple;
  // Names this function's body assigns through a subscript (`xs[k] = v`,
  // `xs[k] += v`): a list bound to one of them is a list of variables
  // (list_local); found once, at the first list binding.
  bool scanned_list_targets = false;
  std::unordered_set<std::string> list_targets;
};

// A quantized field's element handle (lower_quant.cpp): the global_ptr the
// rest of the frontend sees (typed as the compute type), and where the
// element's digits start in the word (an i32 value).
struct QuantRef {
  const FieldInfo* field = nullptr;
  ir::Stmt* handle = nullptr;
  ir::Stmt* shift = nullptr;
};

// ti.real_func instances of one kernel compilation (lower_real_func.cpp):
// one per (function, template arguments), each an ir::Kernel in the top-level
// kernel's `funcs`. Shared by the kernel's Lowerer and its functions'.
struct RealFunc {
  const ast::FunctionDef* def = nullptr;
  std::vector<StaticValue> templates;  // the compile-time arguments (self, ti.template())
  int index = 0;                       // in ir::Kernel::funcs
};
struct RealFuncs {
  ir::Kernel* owner = nullptr;         // the kernel being compiled
  std::vector<RealFunc> list;
};

struct Lowerer {
  HostEnv& host;
  Program& prog;
  ir::Kernel& kernel;
  TypeConfig types;
  bool debug = false;
  AutodiffMode ad_mode = AutodiffMode::none;  // an autodiff kernel keeps ti.stop_grad marks
  std::vector<ir::Block*> blocks;   // insertion points, innermost last
  std::deque<Frame> frames;         // innermost last (a deque: Frame& stays valid across inlining)
  std::vector<std::string> warnings;
  int func_depth = 0;
  std::vector<StaticValue> ret_types;  // the kernel's return annotation (see LoweredKernel)
  bool ret_is_tuple = false;
  bool serialize_next = false;      // ti.loop_config(serialize=True) seen
  int block_dim_next = 0;           // ti.loop_config(block_dim=N) seen: the next parallel loop's block size
  // The linear index of the parallel loop being lowered (null outside one):
  // ti.random draws from that iteration's stream (vm/runtime/rng.h).
  ir::Stmt* rng_index = nullptr;
  // While lowering the body of a struct-for that runs a dense block's cells
  // as an inner loop (lower_sparse.cpp): the block SNode, the loop variables'
  // values (before field offsets) and the visited cell's address. Accesses
  // at exactly those indices address the cell directly.
  struct RowCells {
    int snode = -1;
    std::vector<ir::Stmt*> idx;
    ir::Stmt* addr = nullptr;
  };
  const RowCells* row_cells = nullptr;
  void at_row_cell(ir::Stmt* ptr) const;
  // ndarray arguments, seen as fields (FieldInfo::ndarray_arg) while lowering.
  std::deque<FieldInfo> ndarrays;
  // ndarray argument slot -> its companion array's slot and name (`x.grad` in a kernel)
  std::map<int, std::pair<int, std::string>> ndarray_companion;
  int cur_frame = 0;                // the inlined ti.func being lowered (ir::Kernel::frames)
  // ti.real_func: the instances this compilation made, and, while lowering
  // one's body, that it is one (its loops run serially, `return` ends it) and
  // its ti.ref parameters, whose values every return hands back.
  std::shared_ptr<RealFuncs> real_funcs = std::make_shared<RealFuncs>();
  bool real_func = false;
  std::vector<Binding> ref_params;

  Lowerer(HostEnv& h, Program& p, ir::Kernel& k) : host(h), prog(p), kernel(k) {}

  // ---- emitting IR (lower_emit.cpp) -------------------------------------
  ir::Stmt* emit(std::unique_ptr<ir::Stmt> s, SourceLoc loc);
  ir::Stmt* emit_const(ir::Const c, SourceLoc loc);
  ir::Stmt* emit_cast(ir::Stmt* v, Prim to, SourceLoc loc);   // no-op when already `to`
  ir::Stmt* emit_unary(ir::UnaryOp op, ir::Stmt* v, Type t, SourceLoc loc);
  ir::Stmt* emit_binary(ir::BinaryOp op, ir::Stmt* a, ir::Stmt* b, Type t, SourceLoc loc);
  ir::Stmt* emit_alloca(Type t, SourceLoc loc);
  // x.fill(v) inside a kernel: a loop over every element of field(s) `f`
  void fill_field(const StaticValue& f, const KVal& v, SourceLoc loc);
  ir::Stmt* emit_load(ir::Stmt* alloca_or_ptr, SourceLoc loc);
  void emit_store(ir::Stmt* alloca_or_ptr, ir::Stmt* v, SourceLoc loc);
  // ---- quantized fields (lower_quant.cpp): emit_load/emit_store and the
  // atomic updates send their handles here.
  std::unordered_map<const ir::Stmt*, QuantRef> quant_refs;
  // Names read from the host scope of each frame's env (load_name).
  std::unordered_map<const void*, std::unordered_map<std::string, StaticValue>> host_names;
  // Each field's addressing (Program::access_of), worked out at its first access.
  std::unordered_map<const FieldInfo*, ir::Access> access_memo;
  // Each constant once per block (emit_const): the key is the block, the
  // type and the value's bits.
  struct ConstKey {
    const ir::Block* block;
    Prim prim;
    uint64_t bits;
    bool operator==(const ConstKey&) const = default;
  };
  struct ConstKeyHash {
    size_t operator()(const ConstKey& k) const {
      return std::hash<uint64_t>()(k.bits * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)k.block ^ (uint64_t)k.prim);
    }
  };
  std::unordered_map<ConstKey, ir::Stmt*, ConstKeyHash> const_memo;
  // Store-to-load forwarding of locals (emit_store/emit_load): the value a
  // local's last whole store put there, and the block (and its depth in
  // `blocks`) that store is in. A later read takes that value instead of a
  // local_load while the store's block is still open and no loop body opened
  // since (a loop's next iteration may have stored something else); any other
  // statement naming the local (an element store, a raw local_store) forgets
  // it. Straight-line code, ti.static-unrolled bodies above all, then carries
  // a value, not a load per read, through every pass (issue 16).
  struct KnownLocal {
    const ir::Block* block;
    size_t depth;
    ir::Stmt* value;
  };
  std::unordered_map<const ir::Stmt*, KnownLocal> known_locals;
  ir::Stmt* forwarded(const ir::Stmt* local) const;
  void note_quant_ptr(ir::Stmt* handle, const FieldInfo& f, SourceLoc loc);
  bool is_quant_ptr(const ir::Stmt* p) const;
  ir::Stmt* quant_load(ir::Stmt* p, SourceLoc loc);
  void quant_store(ir::Stmt* p, ir::Stmt* v, SourceLoc loc);
  ir::Stmt* quant_atomic(ir::Stmt* p, ir::AtomicOp op, ir::Stmt* v, SourceLoc loc);
  // A new statement owning a body block, with the builder positioned inside it
  // until the matching pop_block().
  ir::Block* push_block(ir::Stmt* owner, bool else_branch = false);
  void pop_block();

  // ---- tensors: vectors and matrices (lower_matrix.cpp) --------------------
  static Type shaped(const ir::Stmt* like, Prim p) { return Type{p, like->type.rows, like->type.cols, false}; }
  // The type of a rows x cols tensor (cols == 0: a vector; rows == 0: a scalar), or the ValueError
  // of a type with more than 4096 components (vm/runtime/sizes.h).
  static Type tensor_type(Prim p, int rows, int cols, SourceLoc loc);
  static bool is_tensor(const KVal& k) { return k.is_value() && k.v->type.rows > 0; }
  static int num_elems(const Type& t) { return t.rows * (t.cols ? t.cols : 1); }
  // A tensor from scalars (cast to their common type); cols == 0 is a vector.
  ir::Stmt* make_tensor(std::vector<ir::Stmt*> elems, int rows, int cols, SourceLoc loc);
  // v[i] = x on the local tensor `local` (lower_matrix.cpp says how).
  void store_element(ir::Stmt* local, const std::vector<KVal>& idx, ir::Stmt* v, SourceLoc loc);
  ir::Stmt* element(ir::Stmt* t, int i, SourceLoc loc);          // flat, row-major
  std::vector<ir::Stmt*> elements(ir::Stmt* t, SourceLoc loc);
  ir::Stmt* broadcast(ir::Stmt* scalar, const Type& shape, SourceLoc loc);
  // Brings two operands to one shape: a scalar broadcasts to the other's
  // shape; two tensors of different shapes are a TypeError naming `what`.
  void match_shapes(ir::Stmt*& a, ir::Stmt*& b, const std::string& what, SourceLoc loc);
  KVal tensor_binop(ast::BinOpKind op, const KVal& a, const KVal& b, SourceLoc loc);
  KVal matmul(ir::Stmt* a, ir::Stmt* b, SourceLoc loc);
  KVal tensor_index(ir::Stmt* t, const std::vector<KVal>& idx, SourceLoc loc);
  ir::Stmt* tensor_with(ir::Stmt* t, const std::vector<KVal>& idx, ir::Stmt* v, SourceLoc loc);  // t with t[idx] = v
  struct ElementIndex {
    ir::Stmt* value = nullptr;       // the stored value, cast to the element type
    std::vector<ir::Stmt*> runtime;  // per index: its value, or null for a constant
    bool dynamic = false;            // some index is a runtime value
  };
  ElementIndex element_index(const Type& tt, const std::vector<KVal>& idx, ir::Stmt* v, SourceLoc loc);
  bool element_hit(const Type& tt, const std::vector<KVal>& idx, const ElementIndex& ei, int e, ir::Stmt*& hit,
                   SourceLoc loc);
  ir::Stmt* with_element(ir::Stmt* t, const std::vector<KVal>& idx, const ElementIndex& ei, SourceLoc loc);
  KVal swizzle(ir::Stmt* t, const std::string& name, SourceLoc loc);
  KVal tensor_method(ir::Stmt* t, const std::string& name, const ast::Call* c);
  KVal construct_tensor(const StaticValue& type_or_ctor, const ast::Call* c);
  KVal call_math(const std::string& name, const ast::Call* c);  // ti.math.clamp, mix, normalize, ...
  ir::Stmt* reduce(ir::Stmt* t, ir::BinaryOp op, SourceLoc loc);
  ir::Stmt* norm_of(ir::Stmt* t, ir::Stmt* eps, SourceLoc loc);
  ir::Stmt* cross_of(ir::Stmt* a, ir::Stmt* b, SourceLoc loc);

  // ---- structs (lower_struct.cpp) -------------------------------------------
  KVal construct_struct(const StaticValue& type, const ast::Call* c);
  KVal zero_of(const StaticValue& type, SourceLoc loc);           // a dtype or struct_type
  KVal convert_to(const KVal& v, const StaticValue& type, const std::string& what, SourceLoc loc);
  Binding struct_local(const KVal& v, SourceLoc loc);              // fresh locals holding v
  KVal load_binding(const Binding& b, SourceLoc loc);
  Binding list_local(const std::string& name, const KVal& v, SourceLoc loc);  // a list of variables, when reassigned
  void store_list_element(Binding& b, const std::string& name, const ast::Expr* slice, const KVal& v, SourceLoc loc);
  void store_binding(Binding& b, const KVal& v, const std::string& what, SourceLoc loc);
  KVal struct_member(const KVal& sv, const std::string& name, SourceLoc loc);
  // index: lower_index() of the subscript, evaluated once for every member.
  KVal load_struct_field(const StaticValue& sf, const KVal& index, SourceLoc loc);
  void store_struct_field(const StaticValue& sf, const KVal& index, const KVal& v, SourceLoc loc);
  int member_index(const StaticValue& type, const std::string& name, SourceLoc loc);
  // The binding a place names: a local (`v`) or a member of a struct local
  // (`s.a`, `s.a.b`); null for anything else.
  Binding* place_binding(const ast::Expr* e);
  Binding* struct_member_binding(const ast::Expr* e);  // place_binding, if it is a struct
  // Flattened scalar slots of a value of `type` (kernel args and returns).
  int slot_count(const StaticValue& type);
  void flatten(const KVal& v, const StaticValue& type, std::vector<ir::Stmt*>& out, SourceLoc loc);
  KVal from_slots(const StaticValue& type, const std::vector<ir::Stmt*>& slots, size_t& pos, SourceLoc loc);

  // ---- GPU-only language: ti.simt (lower_simt.cpp) --------------------------
  KVal call_simt(const std::string& name, const ast::Call* c);  // name: after "ti.simt."
  static bool is_shared(const KVal& v);                          // a ti.simt.block.SharedArray
  std::unordered_map<const ir::Stmt*, std::pair<int, int>> shared_tensors;  // shared_array -> its dtype's rows, cols
  std::vector<ir::Stmt*> shared_ptrs(ir::Stmt* arr, const ast::Expr* slice, SourceLoc loc);  // one per component
  KVal shared_load(ir::Stmt* arr, const ast::Expr* slice, SourceLoc loc);
  // a[i][j] of a shared array of vectors (a[i][j, k]: of matrices); compile-time components
  ir::Stmt* shared_component(ir::Stmt* arr, const ast::Expr* slice, const ast::Expr* comp, SourceLoc loc);
  void shared_store(ir::Stmt* arr, const ast::Expr* slice, const KVal& v, SourceLoc loc);
  void shared_update(ir::Stmt* arr, const ast::Expr* slice, ast::BinOpKind op, std::optional<ir::AtomicOp> aop,
                     const KVal& rhs, SourceLoc loc);

  // ---- values -------------------------------------------------------------
  // The IR value of `k`: statics become constants (int -> default_ip,
  // float -> default_fp, bool -> i32), with out-of-range errors at `loc`.
  ir::Stmt* value_of(const KVal& k, SourceLoc loc);
  Prim prim_of(const KVal& k, SourceLoc loc);          // without emitting
  StaticValue static_of(const KVal& k, const char* what, SourceLoc loc);
  ir::Stmt* as_condition(const KVal& k, SourceLoc loc); // an integer scalar, else TypeError
  // Assignment conversion with seed 000's precision-loss warning.
  ir::Stmt* convert_for_store(ir::Stmt* v, Prim to, const std::string& target, SourceLoc loc);
  void warn(const std::string& msg, SourceLoc loc);

  // ---- names and scopes (lower_kernel.cpp) --------------------------------
  Frame& frame() { return frames.back(); }
  Binding* find_local(const std::string& name);
  KVal load_name(const ast::Name* n);
  void bind(const std::string& name, Binding b);
  void push_scope() { frame().scopes.emplace_back(); }
  void pop_scope() { frame().scopes.pop_back(); }

  // ---- statements (lower_stmt.cpp) -----------------------------------------
  void lower_body(const ast::Body& body);
  // [elt for x in <static> if <static>] (lower_comprehension.cpp): unrolled at compile time.
  KVal lower_comprehension(const ast::ListComp* e);
  // k, or (a list beside a vector) the vector made of it in `made`.
  const KVal& list_beside_tensor(const KVal& k, const KVal& other, KVal& made, SourceLoc loc);
  void lower_stmt(const ast::Stmt* s);
  void lower_assign(const ast::Expr* target, const KVal& v, SourceLoc loc);
  bool bind_static_name(const ast::Expr* target, const KVal& v, const ast::Expr* value);
  void bind_static(const std::string& name, const StaticValue& v);  // a compile-time name
  ir::Stmt* tensor_from_list(const KVal& v, const Type& want, const std::string& what, SourceLoc loc);
  void lower_aug_assign(const ast::AugAssign* s);
  void emit_atomic_update(ir::Stmt* ptr, ir::AtomicOp aop, ir::Stmt* v, const std::string& what, SourceLoc loc);
  void lower_if(const ast::If* s);
  void lower_for(const ast::For* s);
  void lower_while(const ast::While* s);
  void lower_return(const ast::Return* s);
  void lower_print(const ast::Call* c);
  void print_format(const ast::Call* c, const std::function<void(const std::string&)>& text,
                    const std::function<void(const KVal&, const std::string&, SourceLoc)>& one);
  void lower_assert(const ast::Assert* s);
  KVal lower_starred_call(const ast::Call* c);
  KVal struct_literal(const ast::Call* c);  // ti.Struct(...) in a kernel
  // AST the frontend makes (a call's unpacked *args as hidden names), kept
  // as long as the kernel's lowering may refer to it.
  std::vector<std::unique_ptr<ast::Node>> synthesized;
  int starred_names = 0;
  std::string assert_message(const ast::Expr* msg, std::vector<ir::Stmt*>& args);

  // ---- expressions (lower_expr.cpp) -----------------------------------------
  KVal lower_expr(const ast::Expr* e);
  KVal lower_expr_raw(const ast::Expr* e);  // lower_expr without turning host matrices into tensors
  KVal lower_binop(ast::BinOpKind op, const KVal& a, const KVal& b, SourceLoc loc);
  KVal elementwise_binop(ast::BinOpKind op, ir::Stmt* a, ir::Stmt* b, SourceLoc loc);
  KVal lower_compare(const ast::Compare* c);
  KVal lower_boolop(const ast::BoolOp* b);
  KVal lower_unary(const ast::UnaryOp* u);
  KVal lower_subscript(const ast::Subscript* s);
  // The indices of a subscript, flattened: x[i, j], x[I] (a grouped index), x[None].
  void flatten_index(const ast::Expr* slice, std::vector<KVal>& out);
  // The same as one tuple of values, for global_ptr_at: an element of a
  // vector, matrix or struct field is one access per component, and its index
  // expressions run once (x[ti.atomic_add(n[None], 1)] = v takes one slot).
  KVal lower_index(const ast::Expr* slice);
  // Component k (row-major) of a vector/matrix field, or the component named
  // by a subscript slice (x[i][j], x[i][j, k]).
  StaticValue component_field(const StaticValue& mf, int k);
  StaticValue component_field(const StaticValue& mf, const ast::Expr* slice);
  // The address of field[slice]: x[i, j], x[I] (a grouped index), x[None].
  ir::Stmt* global_ptr(const StaticValue& field, const ast::Expr* slice, SourceLoc loc);
  ir::Stmt* global_ptr_at(const StaticValue& field, const KVal& index, SourceLoc loc);  // index: a tuple of values
  // ndarray arguments (lower_ndarray.cpp): the FieldInfo of an ndarray
  // argument's static (null for real fields), its shape as i32 values, and
  // its attributes in kernels (arr.shape, arr.n, arr.m, arr.dtype).
  static const FieldInfo* ndarray_of(const StaticValue& v);
  std::vector<KVal> ndarray_shape(const FieldInfo& nd, SourceLoc loc);
  KVal ndarray_attr(const FieldInfo& nd, const StaticValue& v, const std::string& name, SourceLoc loc);
  // a.element_shape() of an ndarray argument, at compile time; nullopt for other calls
  std::optional<StaticValue> ndarray_method(const ast::Call* c);
  // sparse matrix builder arguments (lower_linalg.cpp): the static a builder
  // parameter is bound to (its arrays at kernel arg `slot` on), `A[i, j] += v`,
  // and the error for any other use of one in a kernel.
  StaticValue bind_sparse_builder(const std::string& name, int slot);
  void lower_builder_update(const StaticValue& builder, const ast::AugAssign* s);
  [[noreturn]] void builder_misuse(const StaticValue& builder, SourceLoc loc);
  KVal lower_call(const ast::Call* c);
  // `self` is the object of a method call (`self.helper(x)` in a data_oriented class).
  KVal inline_func(const StaticValue& fn, const ast::Call* c, const KVal* self = nullptr);
  // The argument expression of each parameter of `def` at call `c` (null where
  // a default applies); `first` parameters are bound otherwise (self).
  std::vector<const ast::Expr*> call_args(const ast::FunctionDef* def, const ast::Call* c, size_t first, const char* what);
  // A ti.real_func call (lower_real_func.cpp): a `call` statement to its
  // instance for these template arguments, compiled on first use.
  KVal call_real_func(const StaticValue& fn, const ast::Call* c, const KVal* self = nullptr);
  // The return_ of a real function's `return` (lower_stmt.cpp's lower_return
  // hands it the values): its declared slots, then the ti.ref parameters'.
  void emit_real_return(std::vector<ir::Stmt*> ops, SourceLoc loc);
  KVal call_builtin(const std::string& name, const ast::Call* c);

  // ---- sparse SNodes (lower_sparse.cpp) -------------------------------------
  SNode* snode_of(const StaticValue& v, const std::string& what, SourceLoc loc);
  // The SNode a struct-for over `v` visits through lists; null for purely
  // dense fields, which loop over their shape instead.
  const SNode* struct_for_target(const StaticValue& v, SourceLoc loc);
  void lower_struct_for(const ast::For* s, const SNode* target, const std::vector<std::string>& names,
                        bool grouped, bool serialize, const std::vector<int64_t>& offset, int block_dim = 0);
  KVal snode_parent(const StaticValue& base, const ast::Call* c);
  std::vector<ir::Stmt*> snode_indices(const ast::Expr* e, SourceLoc loc);
  KVal call_sparse_builtin(const std::string& name, const ast::Call* c);  // ti.activate & co
  bool dynamic_method(const ast::Call* c, KVal& out);  // x[i].append(v), x[i].length(), x[i].deactivate()
  // One activation op on SNode s at idx (the SNode's own coordinates);
  // `value` is append's value expression.
  KVal snode_op(ir::SNodeOpKind op, const std::string& name, SNode* s, std::vector<ir::Stmt*> idx,
                const ast::Expr* value, SourceLoc loc, SourceLoc node_loc, SourceLoc idx_loc);
  void scalar_parts(const KVal& k, std::vector<ir::Stmt*>& out, SourceLoc loc);

  // ---- compile-time evaluation (lower_static.cpp) --------------------------
  StaticValue eval_static(const ast::Expr* e);
  // Python's operator.NAME(args...) at compile time, for host objects a kernel
  // names (a numpy array: `n[1]`, `n - 1`, `*n`); the host's __import__ finds it.
  StaticValue host_operator(const char* name, const std::vector<StaticValue>& args, SourceLoc loc);
  StaticValue host_binop(ast::BinOpKind op, const StaticValue& a, const StaticValue& b, SourceLoc loc);
  // The elements of a host sequence (`*n` of a numpy array) as a tuple.
  StaticValue host_tuple(const StaticValue& seq, SourceLoc loc);
};

std::string describe_static(const StaticValue& v);
bool same_struct_type(const StaticValue& a, const StaticValue& b);
std::string struct_type_text(const StaticValue& t);  // "struct(center=vec3 f32, radius=i32)"
// a OP b on compile-time values with Python's meaning (ints do not wrap at 32 bits).
StaticValue static_binop(ast::BinOpKind op, const StaticValue& a, const StaticValue& b, SourceLoc loc);
// The first scalar field inside a field, vector field or struct field (null otherwise).
const FieldInfo* first_component(const StaticValue& v);
// The names a for loop (or comprehension) binds: `i` or `i, j`.
std::vector<std::string> target_names(const ast::Expr* t);
bool static_truthy(const StaticValue& v);  // Python's truth of a compile-time value
bool static_equal(const StaticValue& a, const StaticValue& b);
std::string big_text(__int128 v);  // a compile-time integer in decimal  // Python's == at compile time
// The flattened scalar slot types of a value of `type` (a dtype or struct_type).
void slot_prims(const StaticValue& t, std::vector<Prim>& out);
// The binding of one parameter of the kernel (or real function) `k`, whose
// argument slots it appends to k.args (lower_kernel.cpp).
Binding bind_param(Lowerer& L, ir::Kernel& k, const ArgSpec& a, SourceLoc loc);
std::string a_value(Prim p);  // "an i32 value", "a u8 value"
std::string shape_phrase(const Type& t);  // "an f32 value", "a 3-vector of f32", "a 2x2 matrix of f32"  // "field 'x'", "int 3", "function 'f'"

}  // namespace kiln::frontend
