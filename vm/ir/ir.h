// Kiln's kernel IR: hierarchical, statically typed SSA (seed 001).
//
// A kernel is a tree of Blocks holding Stmts. Control flow is structural (if,
// while, range_for, offloaded tasks own nested blocks), never a CFG. Mutable
// locals are `alloca` slots accessed through local_load/local_store, so values
// are SSA without phi nodes, as in Taichi. Statements are one plain struct with
// a kind tag and a few payload fields; passes switch on the kind.
//
// Printed form (vm/ir/printer.cpp), exactly seed 001's:
//   <i32> $3 = cmp_lt $1 $2
//   $6 : if $5 {
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "vm/ir/compact.h"
#include "vm/support/diag.h"
#include "vm/types/type.h"

namespace kiln::ir {

#define KILN_IR_STMTS(_)                                                              \
  _(const_, "const")                /* value */                                       \
  _(arg_load, "arg")                /* index: kernel argument number */               \
  _(unary, "unary")                 /* uop, ops[0]; cast_value/cast_bits use type */  \
  _(binary, "binary")               /* bop, ops[0], ops[1] */                         \
  _(select, "select")               /* ops: cond, if_true, if_false */                \
  _(fma, "fma")                     /* ops: a, b, c; a * b + c rounded once (f32/f64) */ \
  _(matrix_init, "matrix init")     /* ops = elements, row-major; type is a tensor */ \
  _(matrix_extract, "matrix extract") /* ops[0] = tensor; index = flat element */     \
  _(alloca, "alloca")               /* a mutable local of `type` */                   \
  _(local_load, "local load")       /* ops[0] = alloca */                             \
  _(local_store, "local store")     /* ops[0] = alloca, ops[1] = value */             \
  _(global_ptr, "global ptr")       /* access, ops = indices; type is a pointer */    \
  _(global_temp, "global tmp var")  /* index = slot; a pointer to a launch scratch slot */ \
  _(global_load, "global load")     /* ops[0] = pointer */                            \
  _(global_store, "global store")   /* ops[0] = pointer, ops[1] = value */            \
  _(atomic, "atomic")               /* aop, ops[0] = pointer, ops[1] = value; gives old */ \
  _(if_, "if")                      /* ops[0] = cond; body, else_body */              \
  _(while_, "while")                /* body; exits through break */                   \
  _(range_for, "range_for")         /* ops: begin, end; body; serial inner loop */    \
  _(loop_index, "loop index")       /* loop = range_for or offloaded; index = which */\
  _(break_, "break")                /* loop = the innermost while/range_for */        \
  _(continue_, "continue")          /* loop = the innermost while/range_for/task */   \
  _(print, "print")                 /* ops + print_parts */                           \
  _(assert_, "assert")              /* ops[0] = cond, ops[1..] = format args; text */ \
  _(random, "rand")                 /* ops[0] = stream key (int); a draw of `type` */ \
  _(return_, "return")              /* ops = returned values */                       \
  _(snode_op, "snode op")           /* sop on SNode `snode`; ops = indices (+ value) */ \
  _(offloaded, "offloaded")         /* task, body; see Task */                        \
  _(stop_grad, "stop grad")         /* ops[0]; ti.stop_grad: the value, no derivative */ \
  _(ad_stack, "ad stack")           /* autodiff's tape of `type` values; index = capacity */ \
  _(ad_push, "ad push")             /* ops[0] = ad_stack, ops[1] = value */           \
  _(ad_pop, "ad pop")               /* ops[0] = ad_stack */                           \
  _(ad_top, "ad top")               /* ops[0] = ad_stack; its last pushed value */   \
  _(call, "call")                   /* ti.real_func: index = Kernel::funcs; ops = args */ \
  _(call_ret, "call result")        /* ops[0] = call; index = which returned slot */ \
  _(shared_array, "shared array")   /* ti.simt.block.SharedArray: a pointer type; index = elements; access.shape, .field */ \
  _(shared_ptr, "shared ptr")       /* ops[0] = shared_array, ops[1..] = its indices; type is a pointer */ \
  _(simt, "simt")                   /* index = SimtOp; aop: a subgroup scan's op; ops = operands */

enum class StmtKind : uint8_t {
#define KILN_IR_ENUM(k, s) k,
  KILN_IR_STMTS(KILN_IR_ENUM)
#undef KILN_IR_ENUM
};
const char* stmt_kind_name(StmtKind k);

// Tensors (vectors, matrices) are values of a Type with rows > 0. Until the
// scalarize pass splits them, unary/binary/select/cast apply element-wise to
// tensors of one shape, and alloca/local_load/local_store hold whole tensors;
// matrix_init builds one from scalars and matrix_extract reads an element.
// Nothing after scalarize (offload, bytecode) sees a tensor.

// Unary ops. cast_value converts numerically to `type`, cast_bits reinterprets.
// popcnt and clz count the bits of an integer's width-bit pattern.
#define KILN_IR_UNARY(_) \
  _(neg) _(bit_not) _(logic_not) _(abs) _(sqrt) _(rsqrt) _(sin) _(cos) _(tan) \
  _(asin) _(acos) _(atan) _(tanh) _(exp) _(log) _(floor) _(ceil) _(round)   \
  _(cast_value) _(cast_bits) _(popcnt) _(clz)
enum class UnaryOp : uint8_t {
#define KILN_IR_ENUM(k) k,
  KILN_IR_UNARY(KILN_IR_ENUM)
#undef KILN_IR_ENUM
};
const char* unary_op_name(UnaryOp op);

// Binary ops. Operands always have the same type (the frontend casts first),
// except bit_shl/bit_shr/bit_sar whose right operand may differ. Comparisons
// give i32 0/1. div on ints is C division (raw_div); floordiv/mod are Python's.
// bit_shr is logical, bit_sar arithmetic. pow on ints is integer power.
#define KILN_IR_BINARY(_) \
  _(add) _(sub) _(mul) _(div) _(floordiv) _(mod) _(raw_mod) _(pow) _(max) _(min) _(atan2) \
  _(bit_and) _(bit_or) _(bit_xor) _(bit_shl) _(bit_shr) _(bit_sar)               \
  _(cmp_lt) _(cmp_le) _(cmp_gt) _(cmp_ge) _(cmp_eq) _(cmp_ne)
enum class BinaryOp : uint8_t {
#define KILN_IR_ENUM(k) k,
  KILN_IR_BINARY(KILN_IR_ENUM)
#undef KILN_IR_ENUM
};
const char* binary_op_name(BinaryOp op);
inline bool is_comparison(BinaryOp op) { return op >= BinaryOp::cmp_lt; }

#define KILN_IR_ATOMIC(_) _(add) _(sub) _(min) _(max) _(bit_and) _(bit_or) _(bit_xor) _(mul)
enum class AtomicOp : uint8_t {
#define KILN_IR_ENUM(k) k,
  KILN_IR_ATOMIC(KILN_IR_ENUM)
#undef KILN_IR_ENUM
};
const char* atomic_op_name(AtomicOp op);
// The binary op an atomic applies (`*p = *p op v`).
inline BinaryOp binary_of(AtomicOp op) {
  switch (op) {
    case AtomicOp::add: return BinaryOp::add;
    case AtomicOp::sub: return BinaryOp::sub;
    case AtomicOp::min: return BinaryOp::min;
    case AtomicOp::max: return BinaryOp::max;
    case AtomicOp::bit_and: return BinaryOp::bit_and;
    case AtomicOp::bit_or: return BinaryOp::bit_or;
    case AtomicOp::bit_xor: return BinaryOp::bit_xor;
    case AtomicOp::mul: return BinaryOp::mul;
  }
  return BinaryOp::add;
}

// GPU-only operations of a `simt` statement (ti.simt.block, ti.simt.subgroup),
// by their Taichi names; reduce/inclusive/exclusive apply the statement's aop.
// Only GPU backends compile them (the frontend refuses them on the CPU).
#define KILN_IR_SIMT(_)                                                                        \
  _(block_sync) _(block_mem_sync) _(thread_idx) _(global_thread_idx) _(subgroup_barrier)       \
  _(subgroup_memory_barrier) _(elect) _(group_size) _(invocation_id) _(broadcast)              \
  _(broadcast_first) _(shuffle) _(shuffle_xor) _(shuffle_up) _(shuffle_down) _(all_true)        \
  _(any_true) _(all_equal) _(reduce) _(inclusive) _(exclusive)
enum class SimtOp : uint8_t {
#define KILN_IR_ENUM(k) k,
  KILN_IR_SIMT(KILN_IR_ENUM)
#undef KILN_IR_ENUM
};
const char* simt_op_name(SimtOp op);
// Whether the op gives a value (the barriers give none).
inline bool simt_has_value(SimtOp op) {
  return op != SimtOp::block_sync && op != SimtOp::block_mem_sync && op != SimtOp::subgroup_barrier &&
         op != SimtOp::subgroup_memory_barrier;
}

// ti.activate / ti.deactivate / ti.is_active / ti.append / ti.length on an
// SNode (indices are virtual, full resolution). append's value is stored by
// the frontend through a global_ptr at the returned index.
enum class SNodeOpKind : uint8_t { activate, deactivate, is_active, append, length };
const char* snode_op_name(SNodeOpKind k);

// A typed constant. Ints are kept sign- or zero-extended to 64 bits according
// to the type; floats of every width are kept as the double of their value
// (an f32 constant holds exactly the f32 value).
struct Const {
  Prim prim = Prim::i32;
  union {
    int64_t i;
    uint64_t u;
    double f;
  };
  Const() : i(0) {}
  static Const of_int(Prim p, int64_t v) { Const c; c.prim = p; c.i = v; return c; }
  static Const of_float(Prim p, double v) { Const c; c.prim = p; c.f = v; return c; }
};

// How a global_ptr finds its element: everything the bytecode needs, computed
// by the frontend from the runtime's SNode layout, so that IR and bytecode never
// depend on the runtime.
//   address = tree_base[tree] + offset + sum_k ((index[k.axis] / k.div) % k.mod) * k.stride
// (mod == 0 means no modulo). Bounds: 0 <= index[a] < shape[a] for every axis a.
struct IndexTerm {
  int axis = 0;
  int64_t div = 1;
  int64_t mod = 0;
  int64_t stride = 0;
};
struct Access {
  KILN_IR_MEMORY
  int tree = 0;                  // which SNode tree's buffer
  int64_t offset = 0;            // byte offset of element (0, 0, ...)
  std::vector<IndexTerm> terms;
  std::vector<int64_t> shape;    // virtual shape, for bounds checks and messages
  // The field's index offsets, for messages only: the frontend has already
  // subtracted them, so the ops index storage from 0.
  std::vector<int64_t> index_offset;
  std::string field;             // the field's name for messages ("x")
  std::string snode;             // printed name, e.g. "S2place<f32>"
  bool checked = true;           // false once proven in bounds
  // Under pointer/bitmasked/dynamic SNodes there is no affine formula: the
  // address comes from the runtime's lookup of place SNode `sparse_place`
  // (terms are empty). `activate` is set (mark_activation) when the pointer
  // is written: writes activate, reads of inactive cells give 0.
  int sparse_place = -1;
  bool activate = false;
  // Sparse accesses also name the container SNode whose cells hold the
  // element (the place's parent) and keep in `offset` the element's byte
  // offset inside such a cell. Inside a struct-for over that container, at
  // the loop's own indices, the struct_for_access pass sets `in_cell`: the
  // element is at ops[0] + offset, ops[0] being the loop's cell address
  // (the struct-for's loop_index past its indices). The cell is active (the
  // list holds it), so there is no lookup and nothing to activate.
  int sparse_cell = -1;
  bool in_cell = false;
  // ndarray kernel arguments (seed 003): no SNode tree. The data pointer is
  // kernel argument `ext_arg` and the shape (i32, one per index) the next
  // ops.size() arguments; element (i0, ..., in) of component `ext_comp` is at
  //   ptr + ((i0 * s1 + i1) * s2 + ... + in) * ext_comps + ext_comp) * sizeof(T)
  // (C order, a vector/matrix element's components innermost). Bounds come
  // from the same shape arguments.
  int ext_arg = -1;
  int ext_comps = 1;
  int ext_comp = 0;
  // The field (Program::fields index) this accesses, -1 for ndarrays: autodiff
  // finds the field's gradient / dual companion through it.
  int field_id = -1;
};

// One piece of a print statement: a literal string, or an operand with a
// Python format spec (empty spec = Taichi's default formatting of that type).
struct PrintPart {
  bool is_value = false;
  int op = -1;            // index into Stmt::ops when is_value
  std::string text;       // literal text, or the format spec
};

// Offloaded task kinds (seed 001). clear_list/listgen/gc arrive with sparse SNodes.
enum class Task : uint8_t { serial, range_for, struct_for, clear_list, listgen, gc };
const char* task_name(Task t);

struct Block;

// What only a few statements carry (offloaded tasks' TLS blocks and launch
// shape, print's parts, assert's message and SNode names, a struct-for's
// SNode path), behind one pointer in the Stmt: inline, these were 144 of
// its 320 bytes, and a kernel of 10^5 statements is that many Stmts that
// every pass walks (issue 16). Read with Stmt::rare() (an empty one for a
// statement without), write with Stmt::rare_mut() (allocates it).
struct StmtRare {
  KILN_IR_MEMORY
  // range_for/struct_for tasks after make_thread_local (else null): code that
  // runs once per chunk of iterations, before the loop (thread-local
  // accumulators start at their op's identity) and after it (each folds into
  // its global with one atomic). Values the prologue defines are visible in
  // the body and the epilogue; the epilogue sees no value of the body.
  std::unique_ptr<Block> tls_prologue;
  std::unique_ptr<Block> tls_epilogue;
  std::vector<PrintPart> print_parts;
  // assert_: the message format; struct_for/clear_list/listgen/snode_op:
  // the SNode's printed name.
  std::string text;
  int num_loop_indices = 1;          // range_for over ndrange after flattening: 1
                                     // (a struct_for's loop_index num_loop_indices is its cell's address)
  int block_dim = 0;
  bool begin_const = true, end_const = true;  // range_for task: `begin`/`end` is the constant, else a slot
  // A struct-for's SNode path, root first, ending with the SNode it visits:
  // ids and printed names ("S0root", "S1dense", ...), for offload's lists.
  std::vector<int> path_ids;
  std::vector<std::string> path_names;
};

struct Stmt {
  // The fields every pass's walk reads come first, in the Stmt's first cache
  // line (kind, type, parent, the inline operands, the body; else_body opens
  // the second): a kernel of 10^4 statements is megabytes of Stmts, and a
  // walk that touched three lines of each was bound by cache misses (issue
  // 16). The rest is kept small too (compact.h, StmtRare): 192 bytes in all
  // (a static_assert in ir.cpp), with no padding between the small fields.
  StmtKind kind;
  Task task = Task::serial;   // offloaded: what the task runs (below)
  Type type;                  // result type; none for statements without a value
  SNodeOpKind sop{};          // snode_op
  bool serialize = false;     // ti.loop_config(serialize=True)
  int id = -1;                // $id, assigned by Kernel::renumber()
  Block* parent = nullptr;
  Operands ops;               // operands (other statements' values), inline up to 3
  std::unique_ptr<Block> body;       // if_ (true branch), while_, range_for, offloaded
  std::unique_ptr<Block> else_body;  // if_
  // See StmtRare; null for most statements. Beside else_body, in the second
  // cache line, because every walk asks for a task's TLS blocks through it.
  std::unique_ptr<StmtRare> rare_;
  int frame = 0;              // the inlined ti.func it came from (Kernel::frames; 0: the kernel's body)
  UnaryOp uop{};
  BinaryOp bop{};
  AtomicOp aop{};
  uint8_t var_kind = 0;       // what `name` is: 0 a local, 1 a kernel argument, 2 a loop index
  SourceLoc loc;
  Const value;                // const_
  int index = 0;              // arg_load: argument; loop_index: which index; global_temp: slot;
                              // alloca: kInOrder when its sums keep program order (below)
  // Sparse SNodes. A range_for with snode >= 0 is a struct-for over that
  // SNode's active cells (rare().num_loop_indices indices; its bounds are
  // unused) until offload splits it into clear_list/listgen tasks and a
  // struct_for task. Those tasks and snode_op name their SNode here (id, and
  // printed name in rare().text); listgen's `index` is the level of the
  // target's path it generates (0 = the root's child).
  int snode = -1;
  Stmt* loop = nullptr;       // loop_index / break_ / continue_: the loop statement
  // For the debugger: the source variable this value or local holds ("x",
  // "v[1]", "p.mass"; empty if none), its kind in `var_kind` and its inlined
  // ti.func in `frame` (above).
  std::string name;
  Box<Access> access;         // global_ptr (allocated when written)
  // offloaded tasks (`task` above): range_for iterates [begin, end). Each
  // bound is a constant or read from a global_temp slot that an earlier
  // serial task wrote (rare().begin_const / end_const).
  int64_t begin = 0, end = 0;        // the constant, or the global_temp slot

  explicit Stmt(StmtKind k) : kind(k) {}
  // Every Stmt comes from mimalloc, whatever allocator the process has
  // (ir_memory.h): under CPython the global one is glibc's.
  KILN_IR_MEMORY
  bool has_value() const { return !type.is_none(); }
  inline const StmtRare& rare() const;
  StmtRare& rare_mut() {
    if (!rare_) rare_ = std::make_unique<StmtRare>();
    return *rare_;
  }
  // A task's TLS blocks, null when it has none.
  Block* tls_prologue() const { return rare_ ? rare_->tls_prologue.get() : nullptr; }
  Block* tls_epilogue() const { return rare_ ? rare_->tls_epilogue.get() : nullptr; }
};

// Stmt::index of an alloca that stands for a field element (promote_elements):
// fast_math's split_sums leaves its sums in program order, as in memory.
constexpr int kInOrder = 1;

// A block's statements; its buffer from mimalloc as the Stmts are (ir_memory.h).
using StmtList = std::vector<std::unique_ptr<Stmt>, IrAllocator<std::unique_ptr<Stmt>>>;

struct Block {
  KILN_IR_MEMORY
  StmtList stmts;
  Stmt* owner = nullptr;      // the statement this block belongs to; null for the kernel root

  Stmt* add(std::unique_ptr<Stmt> s);                         // append, setting parent
  Stmt* insert(size_t pos, std::unique_ptr<Stmt> s);
  std::unique_ptr<Stmt> take(size_t pos);                     // remove without destroying
};

// An inlined ti.func call: frame `parent` called `func` at `call`.
inline const StmtRare& Stmt::rare() const {
  static const StmtRare none;
  return rare_ ? *rare_ : none;
}

struct InlineFrame {
  int parent = -1;
  std::string func;
  SourceLoc call;
};

struct KernelArg {
  std::string name;
  Type type;
};

struct Kernel {
  std::string name;
  std::vector<KernelArg> args;
  std::vector<Type> rets;
  Block root;
  int num_global_temps = 0;   // 8-byte scratch slots per launch (offload bounds)
  SourceLoc loc;
  std::vector<InlineFrame> frames{InlineFrame{}};  // [0] = the kernel body itself
  bool keep_names = false;    // under the debugger: DCE keeps named locals
  // Autodiff kernels (vm/autodiff): ndarray argument `first` (its pointer
  // slot) has its gradient or dual array at argument slot `second` (pointer,
  // then the same shape). Empty for ordinary kernels.
  std::vector<std::pair<int, int>> ext_companion;
  std::vector<int> stop_grad_fields;  // ti.stop_grad(x): x's loads pass no gradient
  // ti.real_func instances this kernel calls, directly or through each other
  // (a `call` names one by index). Each is a Kernel of its own: scalar
  // arguments (arg_load), scalar returns (one return_ at its end), a serial
  // body; the top-level kernel owns them all, so recursion is an index.
  // A function's own `funcs` stays empty.
  std::vector<std::unique_ptr<Kernel>> funcs;

  int renumber();             // assign $ids in print order; returns the root's statements
};

// A new statement for a pass to place: kind, type, location and operands.
std::unique_ptr<Stmt> make_stmt(StmtKind k, Type t, SourceLoc loc, Operands ops = {});
// A copy of `s`'s kind and payload (type, ops, constant, access, loop
// reference, task fields, debugger name), without its blocks.
std::unique_ptr<Stmt> clone_stmt(const Stmt& s);

// Replaces every use of `from` as an operand (anywhere under `root`) with `to`.
// It walks the whole tree: a pass replacing many values renames instead.
void replace_uses(Block& root, Stmt* from, Stmt* to);
// Replaces the operands of `s` that `to` maps (a pass that removes or
// replaces many values renames each statement as it reaches it: uses follow
// definitions in pre-order).
void rename_operands(Stmt& s, const std::unordered_map<const Stmt*, Stmt*>& to);
// Moves a block's statements out, leaving it empty for the pass to refill in
// order: rebuilding a block in one sweep keeps a pass linear where inserting
// or erasing in place, statement by statement, is quadratic (issue 16).
StmtList take_all(Block& b);
// How many statements `b` holds, nested ones included (to size a pass's maps
// up front: rehashing them costs as much as the pass on large kernels).
size_t count_stmts(const Block& b);
// Calls fn(stmt) for every statement under `b`, pre-order (a statement before
// its blocks; a task's TLS prologue before its body, its epilogue after).
template <class F> void walk(Block& b, F&& fn) {
  for (auto& s : b.stmts) {
    fn(s.get());
    if (Block* p = s->tls_prologue()) walk(*p, fn);
    if (s->body) walk(*s->body, fn);
    if (s->else_body) walk(*s->else_body, fn);
    if (Block* e = s->tls_epilogue()) walk(*e, fn);
  }
}

// printer.cpp: the seed-001 text form of a kernel (what print_ir and `kiln dis` show).
// Renumbers the kernel first.
std::string print_kernel(Kernel& k);
// A constant as print_kernel shows it inside `const [...]`: ints in decimal,
// floats as the shortest text that reads back to the same value at their width.
std::string const_text(const Const& c);
// verifier.cpp: operands defined before use and in scope, types consistent,
// loops referenced by loop_index/break/continue enclose them. Throws
// kiln::Error("InternalError", ...) describing the first problem.
void verify(const Kernel& k);

}  // namespace kiln::ir
