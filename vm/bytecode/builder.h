// The state of lowering one task to one bytecode Function (lower.cpp drives
// statements and control flow, lower_expr.cpp value computations).
#pragma once
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "vm/bytecode/function.h"

namespace kiln::bc {

// A task's statements by position. Lowering runs after ir::run_pipeline,
// whose last step numbers the IR in pre-order (Kernel::renumber): a task's
// statements are then ids first .. first + size - 1, and tables indexed by
// id - first replace hash maps keyed by statement (those dominated compiling
// kernels of 10^4 statements, issue 16). lower_kernel renumbers a copy of IR
// that comes unnumbered (built by hand).
struct TaskIndex {
  int first = 0;
  uint32_t size = 0;
  // The statement's position; size or more for one outside the task.
  uint32_t at(const ir::Stmt* s) const { return (uint32_t)(s->id - first); }
  bool in(const ir::Stmt* s) const { return at(s) < size; }
};

// Values whose last use is each statement (liveness.cpp), in definition order:
// the values dying after position p are values[start[p] .. start[p + 1]).
struct Deaths {
  std::vector<uint32_t> start;
  std::vector<const ir::Stmt*> values;
};

struct Builder {
  Function fn;
  TaskIndex ix;
  // By position (ix): each statement's register (-1: none yet) and operand uses.
  std::vector<int32_t> reg_of;
  std::vector<int32_t> uses;
  std::unordered_map<uint64_t, uint16_t> const_index;
  uint32_t next_reg = 0;
  int num_args = 0, num_rets = 0, num_temps = 0;  // slots arg/ret/gtemp may name (launch sizes ctx by them)
  SourceLoc loc;  // of the statement being lowered; every emitted insn gets it
  uint16_t frame = 0;  // ... and its inline frame
  bool keep_vars = false;          // lower_kernel's keep_vars
  std::vector<size_t> open_vars;   // fn.vars entries whose range has not ended
  std::vector<int> open_on_reg;    // how many of them name each register (release skips the rest)
  // Register reuse: values die after the statements liveness.cpp names; a
  // register returns to `free_regs` when the last value using it dies.
  Deaths dies_after;
  std::vector<uint16_t> free_regs;
  std::vector<int> refs;  // values sharing each register; 0 = not reusable (loop registers)
  // By position, flags: values stored straight into a local's register;
  // statements lowered before the task's loop (lower.cpp); local loads that
  // read the local's register (local_reads.cpp).
  std::vector<uint8_t> fused, hoisted, in_place;
  // ti.real_func calls: each callee's return slot count (ir::Kernel::funcs
  // order), and by position the registers each call statement's results land in.
  std::vector<int> func_rets;
  std::vector<int32_t> call_base;
  const ir::Stmt* last_stmt = nullptr;  // the statement lowered just before
  uint32_t last_start = 0;              // ... and the pc its code starts at

  bool flag(const std::vector<uint8_t>& v, const ir::Stmt* s) const { return ix.in(s) && v[ix.at(s)]; }
  int use_count(const ir::Stmt* s) const { return ix.in(s) ? uses[ix.at(s)] : 0; }
  bool has_reg(const ir::Stmt* s) const { return ix.in(s) && reg_of[ix.at(s)] >= 0; }

  // A loop being lowered: where `break` and `continue` go. Jumps to targets
  // not yet known are recorded and patched when the loop ends.
  struct Loop {
    const ir::Stmt* stmt = nullptr;
    uint16_t index_reg = 0;       // counted loops: the loop index register
    std::vector<uint32_t> breaks, continues;
    std::vector<size_t> index_vars;  // fn.vars naming the index: in scope up to the back edge
    // A struct-for run over word rows (flat_rows.h): the visited cell's
    // indices (then its address) in these registers, not read from the table.
    std::vector<uint16_t> cell_regs;
  };
  std::vector<Loop> loops;

  [[noreturn]] void fail(const std::string& what) const;

  uint16_t new_reg();
  uint16_t new_regs(int n);  // consecutive
  uint32_t here() const { return (uint32_t)fn.code.size(); }
  uint32_t emit(Op op, uint16_t a = 0, uint16_t b = 0, uint16_t c = 0);
  uint32_t emit_d(Op op, uint16_t a, int32_t d);
  void patch(uint32_t pc, uint32_t target) { fn.code[pc].set_d((int32_t)target); }
  uint16_t reg(const ir::Stmt* s) const;
  uint16_t def(const ir::Stmt* s);
  void share(const ir::Stmt* s, uint16_t r);  // s's value lives in r too
  void release(uint16_t r);
  void close_vars(size_t from, int reg = -1);  // end open ranges (of `reg`, or all) opened since `from`
  // Loads a register representation into `r` (immediate when it fits).
  void load_bits(uint16_t r, uint64_t bits);
  uint16_t add_const(uint64_t bits);
  uint16_t add_string(const std::string& s);
};

// liveness.cpp: by position in `ix`, the values whose last use each statement of
// `body` (a block of the task) is.
Deaths dying_after(const ir::Block& body, const TaskIndex& ix);

// local_reads.cpp: by position in `ix`, 1 for the local_load statements whose
// value may stay in the local's own register (no copy): read only by later
// statements of its block, with no write to the local in between.
std::vector<uint8_t> loads_in_place(const std::vector<ir::Block*>& blocks, const TaskIndex& ix);

// The register representation of a constant (opcodes.h).
uint64_t const_bits(const ir::Const& c);

// lower_expr.cpp: a value statement (const, unary, binary, select, global_ptr,
// global loads, stores and atomics). Returns false for statement kinds it does
// not handle.
bool lower_value(Builder& b, const ir::Stmt& s);
// A unary statement whose result is its operand's register (identity casts).
bool unary_shares_operand(const ir::Stmt& s);
// lower.cpp: one kernel's (or real function's) tasks, each a Function;
// func_rets as Builder::func_rets. flat_rows: struct-fors that
// flat_row_cells takes run as one loop over their blocks' cells. k's ids
// run in pre-order over its root's num_stmts statements.
Kernel lower_tasks(const ir::Kernel& k, int num_stmts, bool keep_vars, bool flat_rows, const std::vector<int>& func_rets,
                   const WordRowsOf& word_rows = {});
// flat_rows.cpp: the cells per block of a struct_for task that runs as one
// loop over its blocks' cells (lower_kernel_flat_rows), or 0.
int64_t flat_row_cells(const ir::Stmt& task);
// lower.cpp: a statement, a block (its variables' scope ends with it), and a
// loop's end (its continues and breaks patched, the loop popped).
void lower_stmt(Builder& b, const ir::Stmt& s);
void lower_block(Builder& b, const ir::Block& blk);
void close_loop(Builder& b, uint32_t cont_target, uint32_t exit_target);
// flat_rows.cpp: a struct-for's body as one loop over its blocks' cells, or
// over the set bits of word rows (flat_rows.h).
void lower_flat_cells(Builder& b, const ir::Block& body, uint16_t counter, uint16_t cells);
void lower_word_cells(Builder& b, const ir::Stmt& task, const WordRowLayout& wl, uint16_t counter);
// flat_rows.cpp: whether a struct_for task's body may run once per set bit
// of a word row (no `break` out of the task's loop).
bool word_rows_body(const ir::Stmt& task);
// lower_call.cpp: a `call` statement (its arguments, the op, the registers
// its results land in) and a `call_ret` (a move out of those registers).
void lower_call(Builder& b, const ir::Stmt& s);
void lower_call_ret(Builder& b, const ir::Stmt& s);
// Emits the op that wraps a computation-type result to `p`'s width (sext8,
// zext16, round_f16, ...), if `p` needs one.
void emit_fixup(Builder& b, Prim p, uint16_t r);

}  // namespace kiln::bc
