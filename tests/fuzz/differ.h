// Running one program on an engine and shrinking a program that the
// interpreter and the JIT disagree on.
#pragma once
#include <string>

#include "tests/fuzz/program.h"

namespace kiln::fuzz {

// What a run printed: stdout, stderr and how it ended ("ok", "error", or
// "crash: signal N" / "timeout" when the child process died).
struct Outcome {
  std::string status, out, err;
  bool operator==(const Outcome& o) const { return status == o.status && out == o.out && err == o.err; }
};

// Runs `src` in a forked child (so a crash or a hang in an engine cannot take
// the fuzzer down, and each case starts from a fresh process state) on the
// engine "interp" or "jit". The JIT's hot threshold comes from $KILN_JIT,
// which the caller sets (hotloop=1: every loop is compiled).
Outcome run_engine(const std::string& src, const char* engine, int timeout_s);

// The engine compared with the interpreter: "jit" unless `kiln-fuzz
// --engine NAME` says otherwise (llvm: the ORC tier).
extern const char* other_engine;
// `kiln-fuzz --jam`: the other engine runs with KILN_JAM=1 (every parallel
// nest that vm/ir/passes/jam_outer.cpp and jam_while.cpp can jam is jammed),
// the interpreter as written: the jams' reordering against the reference.
extern bool jam_other;

enum class Verdict { same, differ, invalid };
// invalid: the interpreter itself failed (the generator produced a bad
// program), except for an IndexError in a program run with debug=True.
Verdict compare(const std::string& src, Outcome* interp = nullptr, Outcome* jit = nullptr);

// Greedily deletes statements and replaces expressions by literals or by
// their own operands while `keep` (default: the engines still differ) holds.
Node minimize(Node program);
Node minimize(Node program, bool (*keep)(const std::string& src, const std::string& first_line),
              const std::string& first_line);

}  // namespace kiln::fuzz
