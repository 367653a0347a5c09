// The text of the statistics counters (seed 001's Statistics). Two kinds:
// what the program did (kernels compiled, statements, tasks, SNode
// activations, list elements, the bytes of the blocks its sparse cells hold),
// which every engine reports alike, and how the engines ran it (launches and
// tasks per device or tier, cache traffic, memory the pools reserved), which
// differ from engine to engine. ti.print_statistics() prints the first kind,
// `kiln run --stats` (Program::statistics_text) both; ti.statistics() gives
// every counter, timers included.
#pragma once
#include <string>

namespace kiln {

struct Program;

// Whether a counter says how the engines ran the program.
bool is_run_counter(const std::string& key);

// The counters, "name: value" a line in name order, counts as integers,
// timers (*_time_ms, which differ from run to run) left out; the engines'
// run counters only when `run_counters`.
std::string counters_text(Program& p, bool run_counters);

}  // namespace kiln
