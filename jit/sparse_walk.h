// Sparse lookups inline in traces. The recorder's sptr (a sparse element's
// address) and ti.append were a runtime call each, walking the tree from the
// root (Program::locate) per element: in a loop of appends or of accesses
// to active cells, most of the time. Here the walk is trace IR with the
// layout's extents, strides and offsets as constants, and each sparse level
// a guard that its cell is active (a pointer slot set, a mask bit set, a
// cell below a list's length whose chunk exists), or for a read that
// recording finds inactive, a guard that it is not. An activation of an
// inactive cell keeps the runtime call. A guard that fails later grows a side
// trace that takes the other path.
#pragma once
#include <cstdint>

#include "jit/opt.h"
#include "jit/recorder.h"
#include "jit/rtcall.h"

namespace kiln::jit {

// A value while recording: its trace ref and its bits now.
struct Val {
  Ref ref = kNoRef;
  uint64_t bits = 0;
};

// What a walk did: nothing (the caller records the runtime call), the
// inline form, or an inconsistent recording (the caller aborts it).
enum class Walked { no, yes, abort };

// Program::sparse_element(place, idx, activate) inline: the element's
// address in `out`; a read of an inactive cell walks to the level that is
// inactive, guards that, and reads the runtime's zeros. No, having emitted
// nothing, when the layout is not walked inline or an activation would
// activate something.
Walked walk_element(Emitter& e, const TraceEnv& env, int place, bool activate, const Val* idx, int nidx,
                    const Snapshot& snap, Val& out);

// ti.append(snode, idx, v): the dynamic container found inline, then the
// length's fetch_add in the trace (the new cell's chunk is made by the write
// that follows); while recording, append_in through a runtime call that
// `call` describes (the location errors name). No, having emitted and done nothing, when the
// container is not reached inline (an index out of bounds, an inactive
// level above the list). `full` is the state after the append (the next
// pc), where a full list's append leaves with the capacity in register `dst`.
Walked walk_append(Emitter& e, const TraceEnv& env, int snode, const Val* idx, int nidx, const Snapshot& snap,
                   Snapshot full, uint16_t dst, const RtCall& call, Val& out);

}  // namespace kiln::jit
