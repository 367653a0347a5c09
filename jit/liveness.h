// Which interpreter registers each bytecode pc may still read (live-in), so
// that snapshots hold only those: a register the interpreter overwrites
// before reading needs no value at an exit, and a loop then carries fewer
// values in phis. Computed from the operand modes in opcodes.h.
#pragma once
#include <cstdint>
#include <vector>

#include "vm/bytecode/function.h"

namespace kiln::jit {

class Liveness {
 public:
  // Empty (everything counts as live) when the function is too large for a
  // bit matrix of pcs x registers.
  explicit Liveness(const bc::Function& fn);
  bool live(uint32_t pc, uint16_t reg) const {
    if (bits_.empty() || pc >= npc_ || reg >= nreg_) return true;
    return bits_[(size_t)pc * words_ + reg / 64] >> (reg % 64) & 1;
  }
  // The pc of a register's only definition when that is a constant (kimm,
  // kload), else -1. Such a register holds that constant wherever it is read
  // (a range_for task sets its loop bounds and ndrange extents this way,
  // before the loop), so a trace can fold it instead of loading it.
  int32_t const_def(uint16_t reg) const { return reg < const_def_.size() ? const_def_[reg] : -1; }

 private:
  uint32_t npc_ = 0, nreg_ = 0, words_ = 0;
  std::vector<uint64_t> bits_;
  std::vector<int32_t> const_def_;
};

// Registers the ops in pcs [first, last] may write (an inner loop's body:
// what its trace can change in the frame).
std::vector<bool> written_regs(const bc::Function& fn, uint32_t first, uint32_t last);

}  // namespace kiln::jit
