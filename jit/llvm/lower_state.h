// The lowering's state, shared by lower.cpp (tasks), lower_stmt.cpp
// (statements, control flow), lower_memory.cpp (addresses, atomics),
// lower_calls.cpp (checks, prints, runtime calls, ti.random), lower_rows.cpp
// (flattened ndranges) and lower_arith.cpp (scalar arithmetic). Includes
// LLVM's IR headers: only those files include it.
#pragma once
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <array>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "jit/llvm/lower.h"
#include "jit/llvm/task.h"
#include "vm/runtime/device_pools.h"
#include "vm/runtime/snode.h"

namespace kiln {
struct SNode;
}

namespace kiln::llvmjit {

// Thrown by the lowering for what it does not do yet; lower_task turns it into
// the reason the task falls back to bytecode.
struct Unsupported {
  std::string why;
};
[[noreturn]] void unsupported(const ir::Stmt& s, const std::string& what);
bool is_half(Prim p);  // f16 or bf16
llvm::FunctionType* task_fn_type(llvm::LLVMContext& C);  // TaskFn's
// A move of split sums' partials (p(k-1) = p(k): a local_store of a float
// local_load of another local; lower_lanes.cpp).
bool is_sum_move(const ir::Stmt& s);
// Whether a loop's body holds another loop (lower_stmt.cpp): those poll for
// Ctrl-C at each iteration.
bool has_inner_loop(const ir::Block& b);

// The ti.real_func instances one task's lowering has made (lower_func.cpp):
// each task's module gets its own copies, whose check and print sites are
// numbered in that task's TaskMeta.
struct FuncState {
  const ir::Kernel* owner = nullptr;             // the kernel whose `funcs` calls index
  std::string base;                              // the task function's name (the copies' prefix)
  std::map<int, llvm::Function*> done;           // function index -> its body (i32 (Env*))
  std::set<int> open;                            // being lowered: a call to one of these recurses
  std::vector<llvm::Function*> made;             // erased when the task falls back to bytecode
};

struct Gen {
  Gen(llvm::Module& m, const ir::Kernel& k, TaskMeta& meta, const LowerOptions& opt);
  LowerOptions options() const { return LowerOptions{gpu, prog}; }

  llvm::LLVMContext& C;
  llvm::Module& M;
  llvm::IRBuilder<> B;
  llvm::IRBuilder<> EB;  // the entry block: allocas and loads of the launch's invariants
  const ir::Kernel& kernel;
  TaskMeta& meta;
  bool gpu = false;                     // LowerOptions::gpu
  // Pointer and dynamic blocks come from device pools, allocated by the
  // task's own code (lower_pools.cpp): on the GPU, and on the CPU where the
  // program reserved them (KILN_DEVICE_POOLS=1, which tests that code).
  bool device_pools = false;
  const Program* prog = nullptr;        // LowerOptions::prog
  FuncState* funcs = nullptr;           // ti.real_func bodies of this task's lowering
  bool in_func = false;                 // lowering a ti.real_func's body: its Env is its caller's frame
  const ir::Stmt* task_stmt = nullptr;  // the task being lowered (gpu: its loop's counter keys the log)
  llvm::Function* F = nullptr;
  llvm::Value* env = nullptr;
  llvm::Value* cells = nullptr;  // struct_for: the cells' index table
  // struct_for: int64s per row of the cell table (indices, then the
  // address; over word rows then the word's bits: word_rows_loop).
  int num_cell_indices = 0;
  SourceLoc loc;  // the last known location, as the bytecode's line table keeps it

  std::unordered_map<const ir::Stmt*, llvm::Value*> val;  // SSA values
  std::unordered_map<const ir::Stmt*, llvm::Value*> ptr;  // global_ptr / global_temp / alloca addresses
  std::unordered_map<const ir::Stmt*, llvm::Value*> call_rets;  // call -> its return slots
  // A host ti.append -> its new cell's address (null where the list was
  // full): the write of the appended value at that cell (appended_cell).
  std::unordered_map<const ir::Stmt*, llvm::Value*> append_cells;
  struct Loop {
    llvm::BasicBlock* brk = nullptr;
    llvm::BasicBlock* cont = nullptr;
    llvm::Value* var = nullptr;  // the index's alloca (range loops), the cell counter (struct_for)
    Prim prim = Prim::i32;
    bool cells = false;
    // Over word rows: the visited bit's alloca; the cell number moves the
    // address by cell_size and index column `col` (-1: none) by one.
    llvm::Value* bit = nullptr;
    int64_t cell_size = 0;
    int col = -1;
  };
  std::unordered_map<const ir::Stmt*, Loop> loops;
  struct Tape {
    llvm::Value* values = nullptr;  // [capacity x T] in the entry block
    llvm::Value* count = nullptr;   // i32
    llvm::Type* t = nullptr;
    uint32_t capacity = 0;
  };
  std::unordered_map<const ir::Stmt*, Tape> tapes;  // ad_stack statements
  uint64_t tape_bytes = 0;
  std::map<int, llvm::Value*> env_cache, arg_cache, tree_cache;
  llvm::Value* rng = nullptr;
  // Values the lowering already has for some statements (rows_of_flat_range).
  std::unordered_map<const ir::Stmt*, llvm::Value*> given;
  std::unordered_set<const ir::Stmt*> proven;  // accesses checked before the loop: no check inside  // ti.random's stream: [key, index, state] (vm/runtime/rng.h)

  // ---- types, constants, representations (lower_arith.cpp) ----
  llvm::Type* type(Prim p, const ir::Stmt* where);
  llvm::Value* const_int(Prim p, int64_t v);
  llvm::Value* const_float(Prim p, double v);
  llvm::Value* constant(Prim p, const ir::Const& c);
  llvm::Value* to_bool(llvm::Value* v, Prim p);    // i1: v != 0
  llvm::Value* from_bool(llvm::Value* b, Prim p);  // 1 or 0 of type p
  llvm::Value* to_reg(llvm::Value* v, Prim p);     // the 8-byte register form (args, rets, runtime calls)
  llvm::Value* from_reg(llvm::Value* r, Prim p, const ir::Stmt& s);
  llvm::Value* cast(llvm::Value* v, Prim from, Prim to, const ir::Stmt& s);
  llvm::Value* unary(const ir::Stmt& s);
  llvm::Value* binary(const ir::Stmt& s);
  llvm::Value* binary_op(ir::BinaryOp op, Prim p, llvm::Value* a, llvm::Value* b, const ir::Stmt& s);
  llvm::Value* maxmin(llvm::Value* a, llvm::Value* b, bool is_max);
  llvm::Value* int_pow(Prim p, llvm::Value* a, llvm::Value* b, const ir::Stmt& s);
  llvm::Value* libm(const char* name, Prim p, std::vector<llvm::Value*> args, const ir::Stmt& s);

  // ---- f16/bf16 (lower_half.cpp): f32 registers, 16-bit memory ----
  llvm::Value* half_encode(llvm::Value* f, Prim p);      // f32 (exact or not) -> the rounded 16-bit pattern
  llvm::Value* half_decode(llvm::Value* bits, Prim p);   // 16-bit pattern -> its exact f32
  llvm::Value* half_round(llvm::Value* f, Prim p);       // f32 -> the nearest value of the format, as f32
  llvm::Value* f64_to_f32_odd(llvm::Value* d);
  llvm::Value* half_from_f64(llvm::Value* d, Prim p);    // one rounding
  llvm::Value* half_from_int(llvm::Value* v, Prim from, Prim p);  // one rounding

  // ---- blocks and checks (lower.cpp, lower_stmt.cpp, lower_memory.cpp) ----
  llvm::BasicBlock* new_block(const char* name);
  void ensure_open();  // after a branch, code that follows goes to a fresh (unreachable) block
  void branch(llvm::BasicBlock* to);
  // If `failed`, report check `c` (its message arguments as register forms)
  // and return 1 from the task.
  void fail_if(llvm::Value* failed, Check c, const std::vector<llvm::Value*>& regs);
  llvm::Value* scratch(size_t n);  // an [n x i64] in the entry block
  llvm::Value* env_field(EnvField f);
  llvm::Value* arg_reg(int index);  // argument slot `index`, loaded once
  llvm::Value* tree_base(int tree, SourceLoc loc);
  void poll_interrupt(SourceLoc loc);

  void block(const ir::Block& b);
  void stmt(const ir::Stmt& s);
  // Branches to a new loop head that loads `var` and goes on to a new body
  // block (where it leaves the builder) while the value is below `end`, else
  // to `exit`. Returns the value and the head (the back edge's target).
  std::pair<llvm::Value*, llvm::BasicBlock*> loop_head(llvm::Value* var, llvm::Type* t, llvm::Value* end, bool is_signed,
                                                       llvm::BasicBlock* exit);
  // A counted loop over [begin, end) of type p; `over_cells`: a struct_for's
  // loop over its cell table, whose loop_index reads the table.
  void range_loop(const ir::Stmt* owner, llvm::Value* begin, llvm::Value* end, Prim p, bool poll,
                  const std::function<void()>& body, bool over_cells = false);
  // A GPU task's own loop over [begin, end) in i64: thread t0 runs begin + t0,
  // then every `step` (the grid's size) on (lower_stmt.cpp).
  void grid_stride_loop(const ir::Stmt* owner, llvm::Value* begin, llvm::Value* end, llvm::Value* t0, llvm::Value* step,
                        bool poll, const std::function<void()>& body, bool over_cells);
  // A struct_for over word rows (vm/runtime/word_rows.h: a row per 64-cell
  // word, the body run per set bit; lower_rows.cpp) when its target takes
  // them on the CPU's host lists; false, emitting nothing, when not.
  bool word_rows_loop(const ir::Stmt& task, llvm::Value* begin, llvm::Value* end, const std::function<void()>& body);
  // A loop holding split sums, as blocks of W iterations the loop vectorizer
  // takes (lower_lanes.cpp); moves `begin` past them (the rest runs as
  // written). False, emitting nothing, when the body does not have the shape.
  bool lanes_loop(const ir::Stmt* owner, llvm::Value*& begin, llvm::Value* end, Prim p,
                  const std::function<void()>& body, bool over_cells);
  // A loop whose carried values are all float sums in program order, as
  // blocks of W iterations whose terms LLVM computes in lanes, folded into
  // the sums in order (lower_ordered.cpp); moves `begin` past them. False,
  // emitting nothing, when the body does not have the shape.
  bool ordered_loop(const ir::Stmt* owner, llvm::Value*& begin, llvm::Value* end, Prim p,
                    const std::function<void()>& body, bool over_cells);
  struct OrderedSum {
    const ir::Stmt* slot;   // the sum's alloca, outside the loop
    const ir::Stmt* read;   // its one load in the body
    const ir::Stmt* op;     // the add, sub or fma of the read and the term
    const ir::Stmt* write;  // the store of op into slot
    enum Kind { add, add_first, sub, fma } kind = add;  // s + t, t + s, s - t, fma(a, b, s)
  };
  std::vector<OrderedSum> ordered_sums(const ir::Stmt& owner);
  bool varies_in(const ir::Stmt* e, const ir::Stmt& owner);
  bool is_inner_affine(const ir::Stmt* e, const ir::Stmt& owner);
  llvm::Value* inner_affine(const ir::Stmt* e, const ir::Stmt& owner, llvm::Value* j);
  struct OrderedTerm {
    llvm::Value* slot[2] = {nullptr, nullptr};  // the lane's term (an fma's two factors)
    const ir::Stmt* read = nullptr;
  };
  std::unordered_map<const ir::Stmt*, OrderedTerm> ordered_terms;  // by the sum's op, in ordered_loop's lanes
  bool ordered_term(const ir::Stmt& s);  // s's term into its slots, when s is such an op
  // Blocks of W iterations as lanes (lower_lanes.cpp; lanes_loop and ordered_loop).
  struct LaneBlocks {
    llvm::Type* t = nullptr;  // the index's
    uint64_t w = 0;
    bool is_signed = false;
    llvm::Value *block_var = nullptr, *first = nullptr, *lane_var = nullptr, *lane = nullptr;
    llvm::BasicBlock *block_head = nullptr, *blocks_exit = nullptr, *lane_head = nullptr, *lanes_exit = nullptr,
                     *lanes_next = nullptr;
  };
  LaneBlocks open_lane_blocks(const ir::Stmt* owner, llvm::Value* begin, llvm::Value* blocks_end, Prim p, uint64_t w,
                              bool over_cells, const std::function<void(llvm::Value*)>& at_block);
  void close_lanes(const LaneBlocks& lb);
  void next_block(const LaneBlocks& lb);
  // gpu: the module's limit on nested ti.real_func calls (lower_func.cpp).
  llvm::GlobalVariable* depth_limit();
  std::unordered_set<const ir::Stmt*> dropped;  // lanes_loop: the partials' moves, lowered to nothing
  // lanes_loop: a loop's reads of interleaved fields from de-interleaved
  // copies (lower_deinterleave.cpp). stage_interleaved copies, at the first
  // block of the task's call, and fills `staged` for the blocks' body;
  // global_ptr then addresses a staged read in its copy.
  struct Staged {
    llvm::Value* array = nullptr;  // [n x T] on the task's stack
    int64_t first = 0;             // the loop's first index: element `first` is array[0]
  };
  struct Stage {
    std::vector<const ir::Stmt*> places;                  // a read of each place copied
    std::vector<llvm::Value*> arrays;                     // their copies
    std::unordered_map<const ir::Stmt*, int> reads;       // each staged read -> its place
    llvm::Value* done = nullptr;                          // i1: copied in this call
  };
  std::unordered_map<const ir::Stmt*, Stage> stages;  // by loop
  std::unordered_map<const ir::Stmt*, Staged> staged;
  void stage_interleaved(const ir::Stmt& owner);
  llvm::Value* staged_address(const ir::Stmt& s, llvm::Value* index);
  // gpu: the iteration the log records (the task loop's counter, -1 outside it).
  llvm::Value* log_key();
  // gpu: this thread's index in the grid and the grid's size, as i64.
  std::pair<llvm::Value*, llvm::Value*> grid_position();
  // 0 <= idx[a] < limits[a] for each axis (all i64), each failure reporting
  // `proto` with its axis and the index.
  // `extra`: more values each failure reports after the index.
  void check_bounds(const std::vector<llvm::Value*>& idx, const std::vector<llvm::Value*>& limits, const Check& proto,
                    const std::vector<llvm::Value*>& extra = {});
  void global_ptr(const ir::Stmt& s);
  // A dense field's element at physical index idx (i64s); `in_bounds`: no-wrap offsets.
  llvm::Value* dense_address(const ir::Stmt& s, const std::vector<llvm::Value*>& idx, bool in_bounds);
  // lanes_loop: prefetches, at each block, what the proven streaming accesses read a few blocks later.
  void prefetch_ahead(const ir::Stmt& owner, llvm::Value* first);
  void ext_ptr(const ir::Stmt& s);
  llvm::Value* atomic(const ir::Stmt& s);
  // The values as i64 register forms in an entry-block array, for a runtime call.
  llvm::Value* reg_array(const std::vector<llvm::Value*>& regs);
  // Returns 1 from the task when `rc` (a runtime call's result) is nonzero.
  void return_if_failed(llvm::Value* rc);
  // ---- sparse SNodes (lower_sparse.cpp) ----
  void sparse_ptr(const ir::Stmt& s, const std::vector<llvm::Value*>& idx);
  // A walk's exit: the values it gives (`miss` for a level that is not
  // active) and the blocks they come from.
  struct Walk {
    llvm::BasicBlock* done;
    std::vector<std::pair<llvm::Value*, llvm::BasicBlock*>> ins;
    llvm::Value* miss;
  };
  llvm::Value* finish_walk(Walk& w, llvm::Value* v);  // branches to w.done; the phi of what the walk gave
  // The container of `target` (its element for a place) at the physical
  // index `phys`, walking its path from the root; activating each level when
  // `activate` (the GPU: device pools). `idx`: the virtual index, for the
  // CPU's runtime call when a dynamic chunk is being made.
  llvm::Value* sparse_walk(const SNode& target, const std::vector<llvm::Value*>& phys, bool activate, llvm::Value* miss,
                           const std::vector<llvm::Value*>* idx, const ir::Stmt& at);
  // Cell `cell` of s's container c: its address, or w.miss (branching to w.done).
  llvm::Value* enter_cell(const SNode& s, llvm::Value* c, llvm::Value* cell, bool activate, Walk& w,
                          const std::vector<llvm::Value*>* idx, const ir::Stmt& at);
  llvm::Value* cell_index(const SNode& s, const std::array<int64_t, kMaxIndices>& below, const std::vector<llvm::Value*>& phys);
  llvm::Value* load_slot(llvm::Type* t, llvm::Value* p);  // a slot, length or mask word other threads may change
  llvm::Value* sparse_call(int place, bool activate, const std::vector<llvm::Value*>& idx);
  llvm::Value* quot_const(llvm::Value* a, int64_t b);
  llvm::Value* rem_const(llvm::Value* a, int64_t b);
  llvm::Value* zeros();  // 64 zero bytes: what an inactive cell reads
  llvm::Value* snode_op(const ir::Stmt& s);
  // ---- device pools (lower_pools.cpp): pointer and dynamic SNodes on the GPU ----
  std::map<int, DevicePoolRegion> regions;  // by SNode id
  const DevicePoolRegion& pool_region(const SNode& s, const ir::Stmt& at);
  llvm::Value* byte_at(llvm::Value* p, llvm::Value* off);
  llvm::Value* byte_at(llvm::Value* p, uint64_t off);
  llvm::Value* load_relaxed(llvm::Type* t, llvm::Value* p);
  llvm::Value* pool_alloc(const SNode& s, const ir::Stmt& at);  // a block's address (i64), 0 when the pool is full
  void pool_free(const SNode& s, llvm::Value* block, const ir::Stmt& at);
  // The block in pointer slot `slot`, allocated when empty (a full pool fails the task).
  llvm::Value* slot_activate(const SNode& s, llvm::Value* slot, const ir::Stmt& at);
  // Empties a slot; `count`: a block given back is a deactivation (a pointer cell's; a dynamic list counts once).
  void slot_release(const SNode& s, llvm::Value* slot, const ir::Stmt& at, bool count);
  // Adds 1 to the device counter `which` (device_pools.h) of s's tree.
  void count_device(const SNode& s, DeviceCounter which);
  // Extends dynamic container c to hold `cell`; returns the cell's chunk.
  llvm::Value* dynamic_extend(const SNode& s, llvm::Value* c, llvm::Value* cell, const ir::Stmt& at);
  llvm::Value* device_snode_op(const ir::Stmt& s);
  llvm::Value* appended_cell(const ir::Stmt& s);
  llvm::Value* rng_mix(llvm::Value* z);
  llvm::Value* rng_stream();  // the task's [index, state] (its key is the Env's), set up in the entry block
  // ---- ti.real_func calls (lower_func.cpp) ----
  void call(const ir::Stmt& s);
  void call_ret(const ir::Stmt& s);
  llvm::Function* real_func(const ir::Stmt& call);  // the callee's body in this module, lowered on first use
  // Makes `f` (a TaskFn) the function being lowered: its entry and first blocks.
  void open_function(llvm::Function* f);
  void finish(const ir::Stmt& task);  // lowers the task into F: its body, the last return, the entry block's branch
  llvm::Value* random(const ir::Stmt& s);
  void print(const ir::Stmt& s);
  void tape_op(const ir::Stmt& s);  // ad_stack, ad_push, ad_pop, ad_top
  void assert_(const ir::Stmt& s);
  void ret(const ir::Stmt& s);
  bool rows_of_flat_range(const ir::Stmt& task, llvm::Value* begin, llvm::Value* end, Prim p, bool poll,
                          const std::function<void()>& body);
  void checked_at_ends(const ir::Stmt& task, const ir::Stmt* div, const ir::Stmt* mod, llvm::Value* first,
                       llvm::Value* q, llvm::Value* row_start, llvm::Value* last, const std::function<void()>& loop);
  void range_checked_at_ends(const ir::Stmt& task, llvm::Value* begin, llvm::Value* end, Prim p, bool poll,
                             const std::function<void()>& body);
  // i, q, m: the index, row and column as i64 (q, m null outside a row).
  llvm::Value* row_affine(const ir::Stmt* e, const ir::Stmt& task, const ir::Stmt* div, const ir::Stmt* mod,
                         llvm::Value* i, llvm::Value* q, llvm::Value* m);
  // Inside checked_at_ends' unchecked copy: the loop and row the proven
  // accesses' indices are affine in. Those indices are then computed as
  // row_affine's exact i64 forms (equal to the IR's i32 arithmetic there,
  // being in bounds) with no-wrap flags, so that LLVM sees them as affine in
  // the loop's counter (one pointer increment per access) instead of i32
  // sums sign-extended at every access.
  struct Proof {
    const ir::Stmt* task = nullptr;
    const ir::Stmt* div = nullptr;
    const ir::Stmt* mod = nullptr;
    llvm::Value* q = nullptr;          // the row (i32 or the loop's type), null for a 1-D range
    llvm::Value* row_start = nullptr;  // the row's first index
  };
  Proof proof;  // task null outside the unchecked copy
  llvm::Value* wide_index(llvm::Value* v);  // a signed loop index as an i64
  llvm::Value* proven_index(const ir::Stmt* e);  // e's exact i64 value, null when not affine
  bool depends_on_row(const ir::Stmt* e, const ir::Stmt& task, const ir::Stmt* div, const ir::Stmt* mod);
  void task_body(const ir::Stmt& task);
};

}  // namespace kiln::llvmjit
