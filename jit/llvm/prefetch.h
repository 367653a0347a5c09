// Software prefetch for the ORC tier's streaming loops (prefetch.cpp), and
// the distance the split sums' lane blocks prefetch at (lower_lanes.cpp).
// Includes LLVM's pass manager: only jit/llvm's LLVM files include it.
#pragma once
#include <llvm/IR/PassManager.h>

#include <cstdint>

namespace kiln::llvmjit {

// How far ahead of a streaming access its prefetch reads, in bytes. Measured
// on this machine's Sapphire Rapids (bench/reduction's sums, whose 128 MiB
// stay in its 300 MiB L3): 2 KiB is within what the out-of-order core
// already has in flight, 4 KiB runs the f32 lane chain ~5% and the i32 sum
// ~5-8% faster, 8 KiB gains nothing more on the f32 chain.
constexpr int64_t kPrefetchBytes = 4096;

// After the vectorizers and the unroller (orc.cpp optimize, CPU only): each
// innermost loop that streams through memory (loads whose address moves by a
// constant 64 bytes or more per iteration, covering at least half of that
// step: a vectorized loop over consecutive elements, not a column walk)
// prefetches, once per cache line the step covers, kPrefetchBytes ahead.
// Loops that prefetch already (lane blocks) are left alone.
struct StreamPrefetchPass : llvm::PassInfoMixin<StreamPrefetchPass> {
  llvm::PreservedAnalyses run(llvm::Function& f, llvm::FunctionAnalysisManager& fam);
};

}  // namespace kiln::llvmjit
