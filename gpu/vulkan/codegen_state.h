// The state of generating one task's module, shared by codegen.cpp (tasks
// and control flow), codegen_arith.cpp (scalar arithmetic and casts) and
// codegen_memory.cpp (buffers, loads, stores, atomics, checks, print).
#pragma once
#include <functional>
#include <map>
#include <vector>
#include <unordered_map>
#include <unordered_set>

#include "gpu/vulkan/codegen.h"
#include "gpu/vulkan/spirv_builder.h"

namespace kiln {
struct SNode;
struct Program;
}  // namespace kiln

namespace kiln::vk {

// Cells a struct-for over SNode `snode` visits on the device (codegen_sparse.cpp).
int64_t struct_for_cells(const Program& prog, int snode);

// The list snapshot of struct-fors over an SNode: per bitmasked level of its
// path, the mask words (u32) of all the level's containers, in container
// order, from context word list_word() + base.
struct SnapshotLevel {
  size_t level = 0;
  uint32_t base = 0, containers = 0, words = 0;  // words per container
  // A block walk's level (below): from context word list_word() + owner, a
  // u32 per block of the level's pool naming the cell that held it at the
  // snapshot (list order over the level's containers); kNoOwner: none.
  uint32_t owner = kNoOwner;
  static constexpr uint32_t kNoOwner = 0xffffffffu;
};

// A struct-for whose target can have more cells than an i32 numbers (a huge
// sparse domain) visits the blocks of its deepest pointer level instead,
// when only dense levels lie below it: `per_block` cells a block, `capacity`
// blocks, their product within an i32 (codegen_sparse.cpp).
struct BlockWalk {
  size_t level = 0;  // the pointer level's index in the target's path
  uint32_t per_block = 0, capacity = 0;
};
bool block_walk(const Program& prog, int snode, BlockWalk& w);
// ti.print_statistics' listgen_elements of a struct-for's lists over target
// t: per active cell of its sparse level j, and the part no sparse level
// decides (codegen_sparse.cpp).
uint32_t list_elements_per_cell(const SNode& t, size_t j);
int64_t list_elements_const(const SNode& t);
// Where block 0 of a device pool starts in its region (after the header and
// the free-stack links; codegen_pools.cpp).
uint32_t pool_blocks_at(const SNode& sn);
std::vector<SnapshotLevel> list_snapshot(KernelShaders& out, const Program& prog, int snode);
uint32_t snapshot_words(const std::vector<SnapshotLevel>& levels);  // the most words of one level

// Where a pointer value points: element `index` of the view of `binding`
// whose elements have type `prim` (a field element, a temp slot).
struct BufPtr {
  int binding = 0;
  Id index = 0;  // u32
  Prim prim = Prim::i32;
  // A sparse element: whether its cells are active (bool; 0 = always).
  // Loads of an inactive one give 0, stores to it are dropped.
  Id active = 0;
  // An element of a shared array (codegen_simt.cpp): its Workgroup
  // variable, an array of words (shared_word(prim)) of which `index` is the
  // element's; `binding` is unused.
  Id wg = 0;
};

// An autodiff tape: Function variables for its values and its count.
struct Tape {
  Id values = 0, count = 0;
  uint32_t capacity = 0;
  Prim prim = Prim::f32;
  int check = 0;  // its overflow CheckInfo
};

struct LoopLabels {
  Id merge = 0, cont = 0;
};

// A ti.real_func's instance in a module: one SPIR-V function per task of
// the function (codegen_call.cpp), made once per module for each mapping of
// its arguments to the kernel's argument slots (its ndarrays' bindings).
struct FuncInstance {
  std::vector<Id> tasks;  // the functions, called in order
  Id fn_type = 0;
  bool keyed = false;     // takes a random key (it draws or calls)
  uint32_t loops = 0;     // loops at any depth (the driver inlines each call)
  // A recursive group's machine (codegen_recursion.cpp): after the caller's
  // depth it takes a mode (kMachine*), a pointer to the caller's variable
  // holding its stack pointer and one per return register (u64), so that a
  // machine that stopped keeps its state in the caller's saved variables.
  bool machine = false;
  uint32_t regs = 0;
};
enum MachineMode : uint32_t { kMachineRun = 0, kMachineMayStop = 1, kMachineResume = 2 };

// A recursive ti.real_func's body in a module (codegen_recursion.cpp): a
// SPIR-V function that runs one frame of the call stack from its resume
// point until it calls a function of its group or returns; `number` names
// it in the frames' headers.
struct BodyFn {
  Id fn = 0;
  uint32_t number = 0;
  uint32_t loops = 0;  // its loops at any depth (the machine's loop inlines it)
};
using FuncKey = std::pair<int, std::vector<int>>;  // (function, argument slots)

// What a task's module holds once for all the functions in it.
struct ModuleState {
  SpirvModule m;
  std::map<std::pair<int, Prim>, Id> views;  // (binding, element type) -> buffer variable
  std::map<uint32_t, Id> builtin_vars;       // BuiltIn -> its Input variable (uvec3 ones)
  std::map<FuncKey, FuncInstance> funcs;     // (function, argument slots) -> instance
  uint32_t shared_bytes = 0;                 // Workgroup memory its shared arrays take
  // Recursive ti.real_func calls (codegen_recursion.cpp). When the kernel
  // has a recursive function, every call passes on the caller's depth and
  // checks it against depth_limit; recursive groups run on an explicit
  // stack of frames of frame_words u64 words (both constants are defined
  // once the task is made: frame_max is known then, the limit from it).
  bool recursive = false;
  std::map<int, std::vector<int>> groups;    // function -> the functions it recurses through (none: not recursive)
  std::map<FuncKey, BodyFn> bodies;
  std::vector<std::vector<FuncKey>> pending; // per machine being made, the bodies it still has to make
  Id depth_limit = 0, frame_words = 0;
  uint32_t frame_max = 0;
  std::vector<size_t> depth_checks;          // the RecursionError checks (their capacity is the limit)
};

// A recursive function's frame, in the body function running it
// (codegen_recursion.cpp): the machine's stack pointer (u32 variable,
// the frames in use), the invocation's first stack word, this frame's first
// word, the call site it resumes at (u32 variable; 0: none), the machine's
// return registers (u64 variables), and per statement holding call sites
// of its group their numbers (first, last).
struct MachineBody {
  Id sp_ptr = 0, base = 0, frame = 0, resume_var = 0;
  uint32_t number = 0;
  std::vector<Id> ret_regs;
  const std::vector<int>* group = nullptr;
  std::unordered_map<const void*, std::pair<uint32_t, uint32_t>> sites;  // Stmt or Block -> call sites
};

// The function a Gen generates, when it is a task of a ti.real_func: its
// parameters (codegen_call.cpp).
struct FuncFrame {
  const ir::Kernel* fn = nullptr;
  std::vector<Id> args;      // per argument slot, its value
  std::vector<int> slot;     // per argument slot, the kernel's argument slot it passes on (-1: none)
  std::vector<Id> rets;      // per returned slot, a pointer to the caller's variable
};

struct Gen {
  const ir::Kernel& kernel;
  const DeviceCaps& caps;
  KernelShaders& out;
  const Program* prog = nullptr;  // its SNodes (sparse access)
  int task_index = 0;
  ModuleState& mod;
  SpirvModule& m;
  const ir::Kernel* owner = nullptr;  // the kernel whose `funcs` calls name
  const FuncFrame* frame = nullptr;   // set in a ti.real_func's task
  const MachineBody* mbody = nullptr; // set in a recursive function's body
  Id depth = 0;                       // u32: the ti.real_func calls active here (0: none, the kernel's task)
  std::unordered_map<const ir::Stmt*, Id> val;        // SSA values
  std::unordered_map<const ir::Stmt*, Id> local;      // alloca -> Function variable
  std::unordered_map<const ir::Stmt*, BufPtr> ptr;    // global_ptr / global_temp
  std::unordered_map<const ir::Stmt*, LoopLabels> loops;
  std::unordered_map<const ir::Stmt*, Id> loop_var;   // range_for / task -> its index variable
  std::unordered_map<const ir::Stmt*, Tape> tapes;    // ad_stack -> its tape
  Id iter = 0;      // u32: this invocation's iteration (prints, errors)
  Id seq_var = 0;   // u32 Function variable: prints so far in this invocation
  Id loop_count = 0;  // u32 Function variable: the driver's loop passes so far (DeviceCaps::loop_limit)
  std::vector<uint32_t> loop_inner;  // per open loop: the loops emitted inside it so far
  uint32_t task_loops = 0;           // the loops of the task, at any depth
  bool terminated = false;  // the current block has its terminator
  Id builtin_x(spv::BuiltIn b, uint32_t component);  // a component of a uvec3 builtin

  Gen(const ir::Kernel& k, const DeviceCaps& c, KernelShaders& o, ModuleState& ms)
      : kernel(k), caps(c), out(o), mod(ms), m(ms.m) {}

  [[noreturn]] void unsupported(const ir::Stmt& s, const std::string& what);

  // ---- types and constants (codegen_arith.cpp) ----
  Id type(Prim p, const ir::Stmt* where = nullptr);
  Id u32() { return m.t_int(32, false); }
  Id i32() { return m.t_int(32, true); }
  Id u64() { return m.t_int(64, false); }
  Id cu32(uint32_t v) { return m.c_bits(u32(), 32, v); }
  Id constant(Prim p, const ir::Const& c);
  Id const_int(Prim p, int64_t v);       // an int constant of type p
  Id const_float(Prim p, double v);      // a float constant of type p
  Id to_bool(Id v, Prim p);              // v != 0
  Id from_bool(Id b, Prim p);            // 1 / 0 of type p
  Id unary(const ir::Stmt& s);
  Id binary(const ir::Stmt& s);
  Id binary_op(ir::BinaryOp op, Prim p, Id a, Id b, const ir::Stmt& s);
  Id cast(Id v, Prim from, Prim to, const ir::Stmt& s);
  Id to_u64_reg(Id v, Prim p);
  Id element_address(const ir::Stmt& s);  // ti.get_addr: a cast_bits of a global pointer
  // exp/log/sin/cos/tan/asin/acos/atan/tanh and atan2 of f64 (codegen_f64math.cpp)
  Id f64_math(ir::UnaryOp op, Id a, const ir::Stmt& s);
  Id f64_atan2(Id y, Id x, const ir::Stmt& s);
  Id f32_atan2(Id y, Id x);  // glibc's atan2f bits (codegen_f32math.cpp)
  Id f64_pow_abs(Id x, Id b, const ir::Stmt& s);  // x ** b for x >= 0
  Id bf16_bits(Id v);                    // f32 -> the u32 holding its rounded bf16 pattern
  Id round_bf16(Id v);                   // f32 -> f32 rounded to bf16
  Id bf16_from_bits(Id bits16);          // u16 pattern -> f32
  Id f64_to_f32_odd(Id d);               // f64 -> f32 rounded to odd (for f16/bf16)
  Id int_to_f32_odd(Id v, Prim from);    // 32/64-bit int -> f32 rounded to odd
  Id fma(Prim p, Id a, Id b, Id c);      // a * b + c rounded once (codegen_fma.cpp)
  Id as_unsigned(Id v, Prim p);          // bitcast to the unsigned type of p's width           // the interpreter's 64-bit register form of v

  // ---- memory (codegen_memory.cpp) ----
  Id view(int binding, Prim p);          // the StorageBuffer variable for (binding, p)
  Id chain(const BufPtr& bp);            // OpAccessChain to the element
  Id load(const BufPtr& bp);
  void store(const BufPtr& bp, Id v);
  BufPtr ctx_slot(int slot, Prim p);     // an 8-byte context slot read/written as p
  void global_ptr(const ir::Stmt& s);
  void ndarray_ptr(const ir::Stmt& s);  // global_ptr of an ndarray argument
  Id atomic(const ir::Stmt& s);
  Id arg_load(const ir::Stmt& s);
  void ret(const ir::Stmt& s);
  void print(const ir::Stmt& s);
  void assert_(const ir::Stmt& s);
  // Records check `check` as failed (first failure wins) when `failed` (a
  // bool) is true; `values` (u64 ids) go to the record.
  void fail_if(Id failed, int check, const std::vector<Id>& values);
  Id error_flag();                       // u32: the context's error flag

  // ---- sparse SNodes (codegen_sparse.cpp) ----
  std::vector<Id> sf_index;  // u32: the struct-for's loop indices for the cell being visited
  Id sf_cell = 0;            // u32: that cell's byte offset in the tree's buffer
  const SNode& device_snode(const ir::Stmt& s, int id);
  Id mask_test(int binding, const SNode& l, Id cbase, Id cell);
  Id mask_update(int binding, const SNode& l, Id cbase, Id cell, bool set);
  Id walk_path(const SNode& target, const std::vector<Id>& phys, bool activate, Id& active, const ir::Stmt& s);
  void sparse_ptr(const ir::Stmt& s, const std::vector<Id>& idx32, Id ok);
  void snode_op(const ir::Stmt& s);
  void zero_words(int binding, Id base, uint32_t n, const ir::Stmt& s);
  Id struct_for_cell(const ir::Stmt& task, Id u);
  void count_stat(StatWord w, Id n);  // adds n (u32) to a launch counter (codegen_sparse.cpp)
  void count_activation(Id was);      // one when the bool `was` (set before) is false
  Id struct_for_end(const ir::Stmt& task);  // a block walk's i32 bound: blocks taken x cells a block (0: none)
  // pointer/dynamic SNodes: device pools (codegen_pools.cpp)
  uint32_t pool_region(const ir::Stmt& s, const SNode& sn);  // byte offset of sn's pool in its tree
  Id ld64(int binding, Id byte);                             // atomic u64 load at a byte offset
  Id cas64(int binding, Id byte, Id desired, Id expected);   // the old value
  Id block_offset(int binding, const SNode& sn, Id slot, const ir::Stmt& s);  // u32 byte offset of a slot's block (0: empty)
  Id pool_alloc(int binding, const SNode& sn, const ir::Stmt& s, Id& ok);
  void pool_free(int binding, const SNode& sn, Id idx, const ir::Stmt& s);
  void slot_release(int binding, const SNode& sn, Id slot, const ir::Stmt& s);
  Id slot_activate(int binding, const SNode& sn, Id slot, const ir::Stmt& s);
  void dynamic_extend(int binding, const SNode& sn, Id c, Id cell, const ir::Stmt& s);
  Id enter_cell(int binding, const SNode& lv, Id c, Id cell, bool activate, Id& on, const ir::Stmt& s);
  void pool_snode_op(const ir::Stmt& s, const SNode& sn, Id c, Id cell, Id run);
  void snapshot_copy(const ir::Stmt& task, Id i);
  void record_owners(int binding, const SNode& lv, const SnapshotLevel& sl, Id c, Id i, Id bits, const ir::Stmt& task);
  Id level_bits(int binding, const SNode& lv, Id c, Id w, const ir::Stmt& task);

  // ---- ti.simt: shared arrays, barriers, subgroups (codegen_simt.cpp) ----
  std::unordered_map<const ir::Stmt*, Id> shared_vars;  // shared_array -> its Workgroup variable
  void shared_array(const ir::Stmt& s);
  void shared_ptr(const ir::Stmt& s);
  Id shared_load(const BufPtr& bp);         // bp.wg set: the word, as bp.prim
  void shared_store(const BufPtr& bp, Id v);
  Id shared_atomic(const ir::Stmt& s, const BufPtr& bp, Id v);  // 0: not native (the caller's CAS loop)
  Id builtin_scalar(spv::BuiltIn b);        // a u32 builtin (SubgroupSize, ...)
  void simt(const ir::Stmt& s);

  // ---- ti.random (codegen_random.cpp) ----
  Id rng_key = 0;     // u64: this task's stream key (0: the task draws nothing)
  Id rng_index = 0;   // u64 Function variable: the iteration index of the stream
  Id rng_state = 0;   // u64 Function variable: its state
  Id rng_mix(Id z);
  // At task entry, when the task draws or calls: the stream of task `task_no`
  // of the launch, or of the call keyed `call_key` (u64) in a function.
  void random_init(const ir::Stmt& task, uint32_t task_no, Id call_key = 0);
  Id random(const ir::Stmt& s);

  // ---- ti.real_func calls (codegen_call.cpp) ----
  std::unordered_map<const ir::Stmt*, std::vector<Id>> call_results;  // call -> its returned values
  void call(const ir::Stmt& s);

  Id call_key();  // u64: a keyed callee's random key (advances this stream)
  // A Gen for function `fk` of the kernel, made in this module as a SPIR-V
  // function with parameters of `types` (fresh ids in `params`): its first
  // ones (the caller's iteration, print sequence, loop pass count) set; `p`
  // is then the next.
  Gen function_gen(const ir::Kernel& fk, const std::vector<Id>& types, std::vector<std::pair<Id, Id>>& params, size_t& p);

  // ---- recursive ti.real_func calls (codegen_recursion.cpp) ----
  Id depth_limit();                   // u32: the task's call depth limit
  Id frame_words();                   // u32: the words of a frame
  void check_depth(const ir::Stmt& call, const std::string& callee);  // RecursionError past the limit
  // The resume points of the code being made (a recursive function's call
  // sites, a resumable parallel task's waits), numbered from 1: per
  // statement and block holding some, their first and last; the u32
  // variable naming the one a resumed run enters (0: a fresh run).
  const std::unordered_map<const void*, std::pair<uint32_t, uint32_t>>* resume_sites = nullptr;
  Id resume_var = 0;
  Id resuming_into(const void* stmt_or_block);  // bool: the run resumes at a site in it (0: none in it)
  void guarded_block(const ir::Block& b);
  void machine_call(const ir::Stmt& s);
  void machine_ret(const ir::Stmt* s);
  const FuncInstance& machine(const ir::Stmt& call, const FuncKey& key);
  const BodyFn& body_fn(const ir::Stmt& call, const FuncKey& key);
  void make_body(const FuncKey& key, BodyFn& bf);

  // ---- autodiff tapes (codegen_tape.cpp) ----
  void tape_decl(const ir::Stmt& s);
  void tape_push(const ir::Stmt& s);
  void tape_pop(const ir::Stmt& s);
  Id tape_top(const ir::Stmt& s);

  // ---- resumable serial tasks (codegen_resume.cpp) ----
  int resume = -1;              // the task's number among the resumable ones (-1: not one)
  Id resume_state = 0;          // u32: its state word at entry
  int top_loop = -1;            // the top-level loop stmt() emits next (its number), else -1
  std::vector<size_t> save_at;  // body positions where a checkpoint saves the variables
  size_t restore_at = 0;        // the body position where a resumed run restores them
  void resumable_body(const ir::Stmt& task);
  // At the top of top-level loop `loop`'s body: past half the driver's loop
  // limit, saves the variables and stops, to go on in the next dispatch.
  void checkpoint(int loop);
  Id resume_skips(int loop_or_segment);  // bool: a resumed run skips it
  // Writes the saves and the restore of every variable of the task where
  // they go; false when the task has more than kResumeSlots of them.
  bool splice_resume();
  // The same for the function being made, its variables but `skip` saved
  // in u64 words slot(0), slot(1), ... (a BufPtr of `u64`); how many (-1:
  // one is not a scalar, or there are more than `most`).
  int splice_vars(Id skip, size_t most, const std::function<BufPtr(uint32_t)>& slot);
  // Runs the statements under `if (run)`; what they compute that later
  // code uses goes through variables (a run that skips them has those
  // values restored).
  void run_kept(Id run, const std::vector<const ir::Stmt*>& seg);
  // Whether code after the statements `seg` (s among them) uses s's value.
  bool used_after(const ir::Stmt* s, const std::vector<const ir::Stmt*>& seg);
  std::unordered_map<const ir::Stmt*, std::vector<const ir::Stmt*>> users;  // value -> the statements using it
  // ---- resumable parallel tasks (codegen_resume_parallel.cpp) ----
  std::unordered_map<const void*, std::pair<uint32_t, uint32_t>> wait_ranges;  // resume_sites of the task
  std::unordered_map<const ir::Stmt*, uint32_t> wait_sites;  // a statement that may wait -> its number
  uint32_t cur_site = 0;   // the wait site being made (0: none; waits there do not stop)
  Id site_word = 0;        // u32: the context word a stopping site records itself in (0: none stops)
  std::vector<Id> site_saved;  // variables of the site being made that its checkpoints save
  // u32 variables of the wait site being made, kNoProgress in a fresh run,
  // kept when it stops: the index ti.append claimed, the dynamic chunk being
  // activated (0: not a wait site).
  Id site_claim = 0, site_chunk = 0;
  static constexpr uint32_t kNoProgress = 0xffffffffu;
  // Variables no checkpoint saves: those a wait site makes for its own work
  // (a resumed run makes it again from its start; only its progress is kept).
  // Saving them would keep their values alive across the whole loop.
  std::unordered_set<Id> unsaved;
  Id par_state = 0;        // u32: this invocation's state word (0: not a resumable parallel task)
  Id par_resumed = 0;      // bool: this run restores its variables
  Id par_saves = 0;        // u32: the invocation's first save word in the stack buffer
  Id par_vars = 0;         // u32 constant: the variables an invocation saves (defined once known)
  void parallel_entry(const ir::Stmt& task);
  void grid_checkpoint();                  // at the top of each grid-stride iteration
  void wait_checkpoint(Id waiting, Id waited);  // in each pass of a wait for a slot (`waited`: u32 variable)
  void enter_site(const ir::Stmt& s, uint32_t site);  // makes wait site `site`
  void parallel_finish(const TaskShader& ts);
  // A serial task whose recursive calls (made in its own code) may stop
  // past half the loop limit and resume in the next dispatch.
  void site_body(const ir::Stmt& task);
  void site_stop(Id stop);  // at a site: when `stop`, saves the variables and returns
  bool splice_parallel(TaskShader& ts);
  Id to_u64(Id v, Id type);    // a scalar's bits as the u64 it is saved as
  Id from_u64(Id u, Id type);  // and back

  // ---- control flow (codegen.cpp) ----
  void block(const ir::Block& b);
  void stmt(const ir::Stmt& s);
  // Starts a fresh block after a terminator when more code follows (it is
  // unreachable, which SPIR-V allows).
  void ensure_open();
  void branch(Id to);
  // Every loop's header, continue block and merge call these (codegen.cpp
  // says how they model the driver's loop limiter).
  void loop_open(const ir::Stmt* owner);
  void loop_back_edge();
  void loop_close();
  // if (cond) { then() }: a selection construct; then() may terminate.
  template <class F> void if_then(Id cond, F&& then) {
    Id t = m.fresh(), merge = m.fresh();
    m.op_void(spv::Op::OpSelectionMerge, {merge, 0});
    m.op_void(spv::Op::OpBranchConditional, {cond, t, merge});
    m.label(t);
    terminated = false;
    then();
    branch(merge);
    m.label(merge);
    terminated = false;
  }
};

// The SPIR-V atomic of an integer atomic op other than mul (codegen_memory.cpp).
spv::Op int_atomic_op(ir::AtomicOp aop, bool is_signed);

// ti.real_func calls (codegen_call.cpp): whether a function takes a random
// key (it draws or calls); the kernel argument slot each operand of a call
// passes on (-1: none).
bool draws_or_calls(const ir::Kernel& f);
std::vector<int> arg_slots(const Gen& g, const ir::Stmt& call);
// The functions function `index` recurses through, itself included (its
// strongly connected part of the call graph); empty when it does not
// recurse (codegen_recursion.cpp). Whether any function of `k` recurses.
const std::vector<int>& recursive_group(ModuleState& ms, const ir::Kernel& owner, int index);
bool has_recursion(const ir::Kernel& k);
// Whether a task calls a recursive function (directly or not).
bool calls_recursion(const ir::Stmt& task, const ir::Kernel& k);

// Whether a task's code uses ti.simt: shared arrays, barriers, subgroup
// operations (its blocks must stay whole: codegen_simt.cpp).
bool uses_simt(const ir::Stmt& task);

// Whether a task is resumable (codegen_resume.cpp): a serial task whose
// top-level loops may pass the driver's loop limit.
bool resumable_task(const ir::Stmt& task, const ir::Kernel& k, const DeviceCaps& caps);
// A serial task's top-level loops (codegen_resume.cpp); whether it calls a
// recursive function in its own code (such calls are its sites).
bool has_top_loop(const ir::Stmt& task);
bool recursive_call(const ir::Stmt& s, const ir::Kernel& k);
// Whether a parallel task (range_for, struct_for) is resumable
// (codegen_resume_parallel.cpp): its body may wait for a pool slot that
// another invocation fills; and the workgroups it then runs.
bool resumable_parallel(const ir::Stmt& task, const ir::Kernel& k, const DeviceCaps& caps, const Program* prog);
uint32_t resumable_groups(const TaskShader& ts, const DeviceCaps& caps);

// A structured loop around `body()`: header (with `test` choosing body or
// exit when given), body, continue block running `step()`.
template <class Test, class Body, class Step>
void loop(Gen& g, const ir::Stmt* owner, Test&& test, Body&& body, Step&& step) {
  SpirvModule& m = g.m;
  using spv::Op;
  Id header = m.fresh(), first = m.fresh(), cont = m.fresh(), merge = m.fresh();
  g.branch(header);
  m.label(header);
  Id cond = test();  // computed in the header, before the merge instruction's block end
  m.op_void(Op::OpLoopMerge, {merge, cont, 0});
  if (cond) m.op_void(Op::OpBranchConditional, {cond, first, merge});
  else m.op_void(Op::OpBranch, {first});
  m.label(first);
  g.terminated = false;
  if (owner) g.loops[owner] = LoopLabels{merge, cont};
  g.loop_open(owner);
  body();
  g.branch(cont);
  m.label(cont);
  g.terminated = false;
  step();
  g.loop_back_edge();
  m.op_void(Op::OpBranch, {header});
  m.label(merge);
  g.terminated = false;
  g.loop_close();
}

}  // namespace kiln::vk
