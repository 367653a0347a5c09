// The cycle collector of the built-in evaluator.
//
// Values are shared_ptrs, so an object is freed when its last reference
// goes — except in a cycle: a function and the module environment that holds
// it, a list that contains itself, an instance whose attribute is itself.
// Every container object (lists, tuples, dicts, functions, classes,
// instances, bound methods, modules, environments, and host objects that hold
// Values) is tracked per thread when it is made. A collection, CPython's
// trial deletion: from each tracked object's strong count subtract the
// references other tracked objects hold to it; what keeps a count above zero
// is referenced from outside (the C++ stack, the evaluator's tables, a
// compiled kernel's handles, a C API handle) and is a root; everything
// reachable from a root lives; the rest is garbage only cycles keep alive,
// and is freed by dropping the references its objects hold.
//
// The evaluator collects at statement boundaries once enough containers were
// made since the last collection (gc_due), where every live object is held
// by a shared_ptr somewhere up the C++ stack, and after each module load or
// REPL input (host.cpp).
#pragma once
#include <cstddef>

namespace kiln::host {

// Containers tracked since the last collection, and how many make one due.
extern thread_local size_t gc_allocations;
extern thread_local size_t gc_threshold;
inline bool gc_due() { return gc_allocations >= gc_threshold; }

// Runs a collection on this thread's objects; returns how many it freed.
size_t gc_collect();
// Tracked objects alive on this thread (after pruning the dead ones).
size_t gc_tracked_count();

}  // namespace kiln::host
