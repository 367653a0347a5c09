// Bytecode functions and compiled kernels: what lowering produces and what the
// interpreter, the disassembler, the debugger and the JIT read.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "vm/bytecode/opcodes.h"
#include "vm/ir/ir.h"
#include "vm/support/diag.h"

namespace kiln::bc {

// One term of a global address: ((index / div) % mod) * stride, mod 0 = none.
struct AddrTerm {
  int64_t div = 1, mod = 0, stride = 0;
};

// What a failed bounds check names: "index 8 is out of bounds for axis 0 of
// field 'x' with shape (8, 8)".
struct AccessDesc {
  std::string field;
  std::vector<int64_t> shape;
  std::vector<int64_t> offset;  // the field's index offsets (messages add them back)
  // ndarray arguments: the shape is in argument slots ext_arg+1 .. +ndim (bndx
  // checks read it from registers; the message reads the launch's arguments).
  int ext_arg = -1;
  int ndim = 0;
  int axis = 0;  // the axis a bndx checks (one description per axis)
};

// A sparse element lookup (op sptr): the place SNode, how many index
// registers follow the op's b, and whether the access writes (activates).
struct SparseDesc {
  int32_t place = -1;
  uint8_t nidx = 0;
  bool activate = false;
};
// ti.activate & co (op snop): which op (ir::SNodeOpKind), on which SNode.
struct SNodeOpDesc {
  uint8_t op = 0;
  int32_t snode = -1;
  uint8_t nidx = 0;
};

// An assert's message: printf-style text ("x is %d") and the registers (with
// their types) that fill its conversions, in order.
struct AssertDesc {
  std::string text;
  std::vector<uint16_t> regs;
  std::vector<Prim> prims;
};

// An autodiff tape (ir::StmtKind::ad_stack) at `offset` slots past the
// frame's registers: [capacity, count, values...]. stk_init puts its address
// in a register, which the other stk ops use (the JIT inlines them).
struct StackDesc {
  uint32_t offset = 0;
  uint32_t capacity = 0;
};
inline constexpr uint32_t kStackHeader = 2;
// The one message for a full tape (every engine).
inline std::string stack_overflow_message(uint64_t capacity) {
  return "autodiff stack overflow: a loop carried more than " + std::to_string(capacity) +
         " values through the gradient kernel; raise ti.init(ad_stack_size=...)";
}

// A ti.real_func call (op call): the callee (an index into the kernel's
// Kernel::funcs), the registers of its arguments, and where its returned
// slots land (nrets consecutive registers from ret_base, reserved for it).
struct CallDesc {
  uint32_t callee = 0;
  std::vector<uint16_t> args;
  uint16_t ret_base = 0;
  uint16_t nrets = 0;
  std::string name;            // the function's name, for messages and listings
};

struct Kernel;

// A register holds a named source variable over pcs [begin, end).
struct VarRange {
  uint16_t reg = 0;
  std::string name;            // "x", "v[1]", "p.mass"
  uint32_t begin = 0, end = 0;
  Prim prim = Prim::i32;       // how to read the register
  uint16_t frame = 0;          // the inline frame it belongs to
  uint8_t kind = 0;            // 0 a local, 1 a kernel argument, 2 a loop index
};

// A counted loop (fori/forl) or while loop header, for the JIT and the debugger:
// `head` is the pc the back edge returns to; `counter` the hot-counter register.
struct LoopInfo {
  uint32_t head = 0;
  uint16_t base = 0;     // fori/forl: index register (end at base+1); while: unused
  uint16_t counter = 0;
  bool counted = true;
};

struct Function {
  std::string name;                 // "kernel_name.task3_range_for"
  std::vector<Insn> code;
  std::vector<uint64_t> consts;     // register representations
  std::vector<SourceLoc> lines;     // lines[pc]: where code[pc] came from
  std::vector<VarRange> vars;       // named source variables, for the debugger
  std::vector<uint16_t> frame_at;   // frame_at[pc]: the inlined ti.func code[pc] came from
  std::vector<ir::InlineFrame> frames;  // the kernel's inline frames (ir::Kernel::frames)
  std::vector<AddrTerm> terms;
  std::vector<AccessDesc> accesses;
  std::vector<std::string> strings; // print literals and format specs
  std::vector<AssertDesc> asserts;
  std::vector<LoopInfo> loops;
  std::vector<SparseDesc> sparse;
  std::vector<SNodeOpDesc> snode_ops;
  uint32_t num_regs = 0;
  std::vector<StackDesc> stacks;    // autodiff tapes
  uint32_t stack_slots = 0;         // 8-byte slots after the registers that they take
  uint32_t task_no = 0;             // the task's position in its kernel (random streams)
  uint16_t rng_reg = 0xffff;        // ti.random's three stream registers (none: 0xffff)
  // A register in [0, its type's max - 1] at every pc (none: 0xffff): a
  // range_for task's index when its bounds are constants, the begin >= 0
  // and the end below that max (its chunks lie within the task's bounds).
  // The JIT's floor `%` and `//` of it or of it + 1 need no sign fix.
  uint16_t nonneg_reg = 0xffff;
  std::vector<CallDesc> calls;      // ti.real_func calls
  // The kernel's real functions (its Kernel::funcs): owned by the top-level
  // Kernel, shared by all its Functions and theirs, so a call finds its
  // callee, and a recursive one itself.
  const std::vector<Kernel>* callees = nullptr;

  // Register slots of a frame: at least 4 (a range task's begin, end, loop
  // counter and struct-for cell table); autodiff tapes start after them.
  uint32_t frame_regs() const { return num_regs < 4 ? 4 : num_regs; }
  SourceLoc loc_at(uint32_t pc) const { return pc < lines.size() ? lines[pc] : SourceLoc{}; }
};

// One offloaded task. A range_for task's Function receives [chunk_begin,
// chunk_end) in registers 0 and 1 and loops over them itself (register 2 is
// that loop's hot counter); the launcher splits [begin, end) into chunks.
// A struct_for task loops the same way over cells whose indices the launcher
// put in a table (register 3 points at it, num_indices int64s per cell).
// clear_list and listgen tasks have no code: the launcher runs them on
// `snode`'s path at `level`.
struct TaskCode {
  ir::Task kind = ir::Task::serial;
  Function fn;
  bool begin_const = true, end_const = true;
  int64_t begin = 0, end = 0;       // the constant, or the global-temp slot
  bool serialize = false;
  int block_dim = 0;
  Prim index_prim = Prim::i32;      // type of the task's loop index
  int snode = -1;                   // struct_for / clear_list / listgen
  int level = 0;                    // clear_list / listgen
  int num_indices = 0;              // struct_for
  // struct_for: the launcher gives a row per 64-cell word of each container
  // (its cells' indices and address at the word's first cell, then the
  // word's bits of active cells), not a row per cell (flat_rows.h).
  bool word_rows = false;
};

// What lowering a struct-for over word rows (flat_rows.h) needs of its
// target: the stride of a word's cells' addresses (the cell size) and the
// index column the cell number moves (-1: none). A WordRowsOf answers, for a
// struct-for's target SNode id and index count, whether it runs over word
// rows (and fills the layout).
struct WordRowLayout {
  int64_t cell_size = 0;
  int col = -1;
};
using WordRowsOf = std::function<bool(int snode, int nidx, WordRowLayout& out)>;

struct Kernel {
  std::string name;
  std::vector<TaskCode> tasks;
  int num_args = 0;
  int num_rets = 0;
  int num_global_temps = 0;
  // ti.real_func bodies (ir::Kernel::funcs lowered), each one serial task;
  // Function::callees points here.
  std::shared_ptr<std::vector<Kernel>> funcs;
};

// lower.cpp: an offloaded kernel (its root holds only `offloaded` statements,
// after ir::run_pipeline) to bytecode, one Function per task. Throws
// kiln::Error("InternalError", ...) for IR it cannot lower.
// keep_vars (under the debugger): registers of named variables are never
// reused, so every variable stays readable until its scope ends.
Kernel lower_kernel(const ir::Kernel& k, bool keep_vars = false);

// disasm.cpp: a listing, one line per instruction, with source lines.
std::string disassemble(const Function& fn);
std::string disassemble(const Kernel& k);
// One instruction's text without pc or source ("add_i32    r3, r1, r2").
std::string format_insn(const Function& fn, uint32_t pc);

// The computation type of a primitive (i8 -> i32, u16 -> u32, f16 -> f32, ...).
CT compute_type(Prim p);

}  // namespace kiln::bc
