// Software prefetch in streaming loops (StreamPrefetchPass, prefetch.h).
//
// Why: a vectorized loop that reads fields from memory (bench/reduction's i32
// sum, a stencil's rows) keeps only as many loads in flight as its reorder
// window holds, a few KiB, and the hardware prefetcher alone leaves the loop
// short of the bandwidth g++'s code reaches: prefetching a page ahead keeps the
// lines coming. A prefetch never faults, so one past a field's end (the
// loop's last iterations) costs a wasted line, not an error.
#include "jit/llvm/prefetch.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>

#include <algorithm>
#include <vector>

namespace kiln::llvmjit {

namespace {

constexpr int64_t kLine = 64;      // x86-64's cache line
constexpr int64_t kMaxLines = 16;  // prefetches per stream and iteration
// A loop that runs more IR instructions than this per line it reads is
// busy with its own work, and its reorder window spans more of its stream:
// prefetches would only take issue slots. The bench's streaming loops (sums,
// saxpy, jacobi's rows) run 5-8 per line; bench/nbody's body loop, bound by
// its square roots and divisions, 16.
constexpr int64_t kMaxWorkPerLine = 12;

// The loads of one loop at constant distances from one another, less than a
// step apart: one stream of lines.
struct Stream {
  const llvm::SCEV* first;  // the address of the first load seen
  int64_t step;             // bytes per iteration
  int64_t lo, hi;           // bytes read, relative to `first`
  llvm::LoadInst* lowest;   // the load at `lo`: the prefetches go before it
};

bool prefetches(const llvm::Loop& l) {
  for (llvm::BasicBlock* b : l.blocks())
    for (llvm::Instruction& i : *b)
      if (auto* c = llvm::dyn_cast<llvm::IntrinsicInst>(&i); c && c->getIntrinsicID() == llvm::Intrinsic::prefetch)
        return true;
  return false;
}

std::vector<Stream> streams(llvm::Loop& l, llvm::ScalarEvolution& se, const llvm::DataLayout& dl) {
  std::vector<Stream> out;
  for (llvm::BasicBlock* b : l.blocks())
    for (llvm::Instruction& i : *b) {
      auto* ld = llvm::dyn_cast<llvm::LoadInst>(&i);
      if (!ld || !ld->isSimple()) continue;
      // The task's own arrays (lower_deinterleave.cpp's copies) were written
      // by the task just before: in the cache, not streaming from memory.
      if (llvm::isa<llvm::AllocaInst>(llvm::getUnderlyingObject(ld->getPointerOperand()))) continue;
      auto* ar = llvm::dyn_cast<llvm::SCEVAddRecExpr>(se.getSCEV(ld->getPointerOperand()));
      if (!ar || ar->getLoop() != &l || !ar->isAffine()) continue;
      auto* st = llvm::dyn_cast<llvm::SCEVConstant>(ar->getStepRecurrence(se));
      if (!st || st->getAPInt().getSignificantBits() > 32) continue;
      int64_t step = st->getAPInt().getSExtValue();
      if (step < kLine) continue;  // a scalar walk: the hardware prefetcher follows it
      int64_t size = (int64_t)dl.getTypeStoreSize(ld->getType()).getFixedValue();
      bool joined = false;
      for (Stream& s : out) {
        if (s.step != step) continue;
        auto* d = llvm::dyn_cast<llvm::SCEVConstant>(se.getMinusSCEV(ar, s.first));
        if (!d || d->getAPInt().getSignificantBits() > 32) continue;
        int64_t off = d->getAPInt().getSExtValue();
        if (off + size <= s.lo - step || off >= s.hi + step) continue;
        if (off < s.lo) {
          s.lo = off;
          s.lowest = ld;
        }
        s.hi = std::max(s.hi, off + size);
        joined = true;
        break;
      }
      if (!joined) out.push_back(Stream{ar, step, 0, size, ld});
    }
  return out;
}

}  // namespace

llvm::PreservedAnalyses StreamPrefetchPass::run(llvm::Function& f, llvm::FunctionAnalysisManager& fam) {
  if (f.isDeclaration()) return llvm::PreservedAnalyses::all();
  auto& li = fam.getResult<llvm::LoopAnalysis>(f);
  auto& se = fam.getResult<llvm::ScalarEvolutionAnalysis>(f);
  const llvm::DataLayout& dl = f.getDataLayout();
  bool changed = false;
  for (llvm::Loop* l : li.getLoopsInPreorder()) {
    if (!l->isInnermost() || prefetches(*l)) continue;
    // A stream that reads less than half of each step (a strided walk)
    // would fetch lines it never reads.
    std::vector<Stream> dense;
    int64_t lines = 0, work = 0;
    for (const Stream& s : streams(*l, se, dl))
      if (2 * (s.hi - s.lo) >= s.step) {
        dense.push_back(s);
        lines += std::min(kMaxLines, (s.step + kLine - 1) / kLine);
      }
    for (llvm::BasicBlock* b : l->blocks()) work += (int64_t)b->sizeWithoutDebug();
    if (dense.empty() || work > kMaxWorkPerLine * lines) continue;
    for (const Stream& s : dense) {
      llvm::IRBuilder<> b(s.lowest);
      llvm::Value* p = s.lowest->getPointerOperand();
      for (int64_t k = 0; k < std::min(kMaxLines, (s.step + kLine - 1) / kLine); k++) {
        llvm::Value* a = b.CreateGEP(b.getInt8Ty(), p, b.getInt64(kPrefetchBytes + k * kLine));
        b.CreateIntrinsic(llvm::Intrinsic::prefetch, {a->getType()}, {a, b.getInt32(0), b.getInt32(3), b.getInt32(1)});
      }
      changed = true;
    }
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

}  // namespace kiln::llvmjit
