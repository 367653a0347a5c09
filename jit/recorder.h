// The recorder: runs one iteration of a hot loop on the live interpreter
// frame (so recording is also execution) and emits each executed bytecode op
// as trace IR through the Emitter. Branch outcomes become guards whose
// snapshots resume the interpreter on the other path.
#pragma once
#include <atomic>
#include <functional>
#include <string>

#include "jit/liveness.h"
#include "jit/params.h"
#include "jit/trace.h"
#include "vm/bytecode/function.h"

namespace kiln {
struct Program;
}

namespace kiln::jit {

// What a trace reads besides the frame: the launch's arguments, tree base
// pointers and global temporaries (they differ per launch, so traces load
// them instead of baking them in).
inline const std::atomic<bool> kNoInterrupt{false};
struct TraceEnv {
  const uint64_t* args = nullptr;
  uint8_t* const* tree_bases = nullptr;
  uint64_t num_trees = 0;
  uint64_t* temps = nullptr;
  const std::atomic<bool>* stop = &kNoInterrupt;  // Ctrl-C: polled at each back edge
  Program* program = nullptr;                       // runtime calls (sparse lookups)
};

// A compiled trace: runs the loop from the frame R until a guard fails,
// writes that guard's snapshot into R and returns the pc to resume at.
using TraceFn = uint32_t (*)(uint64_t* R, const TraceEnv* env);
// The compiled trace of the loop whose body starts at a pc, or null.
using InnerTraces = std::function<TraceFn(uint32_t head)>;

struct Recording {
  bool ok = false;
  std::string why;          // the abort reason
  uint32_t resume_pc = 0;   // where the interpreter continues (after an abort)
  Trace trace;              // optimized (peeled, DCE'd) when ok
};

// Records the loop whose body starts at `head`. The frame R is advanced by
// what was executed; on abort the interpreter resumes at resume_pc (which may
// be an op that raises: recording never raises itself).
// `live` prunes snapshots to the registers the interpreter may still read.
// An inner loop whose trace `inner` knows becomes a call of that trace (a
// calltr); any other inner loop aborts the recording.
Recording record(const bc::Function& fn, uint32_t head, uint64_t* R, const TraceEnv& env, const Params& p,
                 const Liveness* live = nullptr, const InnerTraces& inner = nullptr);

}  // namespace kiln::jit
