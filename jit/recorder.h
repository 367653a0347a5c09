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
struct ExitInfo;
struct TraceEnv {
  const uint64_t* args = nullptr;
  uint8_t* const* tree_bases = nullptr;
  uint64_t num_trees = 0;
  uint64_t* temps = nullptr;
  const std::atomic<bool>* stop = &kNoInterrupt;  // Ctrl-C: polled at each back edge
  Program* program = nullptr;                       // runtime calls (sparse lookups)
  ExitInfo* exit = nullptr;                         // written by the exit a trace left through
  uint64_t lane_runs = 0;                           // vector loop entries (jit/asm_vector.cpp), for tests
  uint64_t row_tails = 0;                           // ndrange rows it ended under a mask, for tests
  uint64_t plain_tails = 0;                         // plain vector loops it ended under a mask, for tests
  uint64_t guard_chunks = 0;                        // vector chunks a lane failed a guard in (left to the scalar loop), for tests
  uint64_t lane_heads = 0;                          // vector loops started under a mask to align their passes, for tests
  uint64_t lane_exits = 0;                          // vector loops that left through the loop test from their lanes, for tests
  // A vector loop whose first chunk failed a guard at counter c is not
  // entered again before c + kGuardBackoff (jit/asm_vector.cpp).
  int64_t lanes_after = 0;
  // Inner loop traces running as calls (calltr): an exit that leaves its
  // loop for the enclosing one returns to the caller then, never links.
  uint32_t calls = 0;
};

// A compiled trace: runs the loop from the frame R until a guard fails,
// writes that guard's snapshot into R and returns the pc to resume at.
using TraceFn = uint32_t (*)(uint64_t* R, const TraceEnv* env);
// The compiled trace of the loop whose body starts at a pc, or null.
using InnerTraces = std::function<TraceFn(uint32_t head)>;

// One per guard of a compiled trace, as long as the code lives. An exit that
// keeps being taken grows a side trace: the exit stub then jumps to it
// instead of returning to the interpreter.
struct ExitInfo {
  std::atomic<const void*> link{nullptr};  // a side trace's warm entry; first: the exit stub reads it at offset 0
  // An exit after a calltr leaves at whatever pc the inner trace returned:
  // its side trace starts at this pc and is taken only for it.
  std::atomic<uint32_t> link_pc{UINT32_MAX};
  std::atomic<uint32_t> count{0};
  std::atomic<bool> blacklisted{false};
  int attempts = 0;                    // failed recordings (under the function's lock)
  bool hoisted = false;                // a hoisted bounds check's exit (Snapshot::hoisted)
  uint32_t root_head = 0;              // the loop the trace belongs to
  // An exit that leaves root_head's loop for the loop enclosing it (whose
  // body starts here): its side trace goes on through that loop until it
  // enters root_head's loop again, and links there (stitching).
  uint32_t outer_head = UINT32_MAX;
  uint32_t pc = 0;                     // the snapshot's resume pc (the shared exit tail returns it)
  // Where the exit stub jumps (rax = this ExitInfo): its trace's exit tail,
  // which returns pc, until a side trace is linked; then that trace's warm
  // entry, one indirect jump from the guard to the side trace.
  std::atomic<const void*> jump{nullptr};
};

struct Recording {
  bool ok = false;
  std::string why;          // the abort reason
  // Where the interpreter continues: after an abort, the op it stopped at;
  // after a recording, the loop head, or the pc past the loop when the
  // recorded iteration was the loop's last (or a side trace ended at an exit
  // that leaves the loop): the trace is compiled but not entered now.
  uint32_t resume_pc = 0;
  // An abort that says nothing against the loop: the recorded iteration left
  // it (a break, a while test), or an inner loop has no trace yet. The loop
  // is tried again later instead of counting toward its blacklist.
  bool transient = false;
  bool inner_cold = false;  // the abort was an inner loop without a trace
  Trace trace;              // optimized (peeled, DCE'd) when ok
};

struct RecordArgs {
  const Liveness* live = nullptr;  // prunes snapshots to the registers the interpreter may still read
  InnerTraces inner;               // inner loops with traces become calltrs
  // A side trace: recording starts at `start` (a hot exit's pc) and ends at
  // the loop head with a jump to the root trace's warm entry `link_to`.
  uint32_t start = UINT32_MAX;
  const void* link_to = nullptr;
  // A side trace from an exit that left the loop for the loop enclosing it
  // (ExitInfo::outer_head): it records through that loop and ends where it
  // enters the trace's loop again.
  uint32_t outer = UINT32_MAX;
  // The warm entries of inner loops' traces: a side trace that enters an
  // inner loop of its loop with a trace links to it (instead of a calltr).
  std::function<const void*(uint32_t head)> inner_warm;
  bool hoist = true;               // bounds checks may leave the loop (off once one kept failing)
};

// The last op of the loop whose body starts at `body` (its forl, or a while
// loop's last jump back): with the body's first op, the loop's extent.
uint32_t loop_last(const bc::Function& fn, uint32_t body);
// Its first op: the body, or a while loop's `loop` op before it.
uint32_t loop_first(const bc::Function& fn, uint32_t body);
// The body's first pc of the innermost loop around the loop whose body
// starts at `body`, or UINT32_MAX when none is.
uint32_t enclosing_loop(const bc::Function& fn, uint32_t body);

// Records the loop whose body starts at `head`. The frame R is advanced by
// what was executed; on abort the interpreter resumes at resume_pc (which may
// be an op that raises: recording never raises itself). An inner loop whose
// trace args.inner knows becomes a call of that trace; one without is
// unrolled up to p.unroll iterations, else the recording aborts.
Recording record(const bc::Function& fn, uint32_t head, uint64_t* R, const TraceEnv& env, const Params& p,
                 const RecordArgs& args = {});

}  // namespace kiln::jit
