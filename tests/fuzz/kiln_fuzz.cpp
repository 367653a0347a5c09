// kiln-fuzz: differential testing of the JIT against the interpreter on
// random well-typed programs (generate.cpp).
//
//   kiln-fuzz [--seed S] [--cases N] [--print] [--keep-going] [--no-minimize]
//             [--engine jit|llvm|vulkan] [--jam]
//
// Case k uses seed S + k, so any case reproduces alone with --seed S+k
// --cases 1 (--print shows its program). On a mismatch it prints the program
// shrunk to a small repro with both engines' output and exits 1. A program
// the interpreter itself rejects is a generator bug: printed, exit 1.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "jit/llvm_module.h"
#include "tests/fuzz/differ.h"

using namespace kiln::fuzz;

namespace {

void show(const char* what, const Outcome& o) {
  std::printf("---- %s: %s\n%s", what, o.status.c_str(), o.out.c_str());
  if (!o.err.empty()) std::printf("---- %s stderr:\n%s", what, o.err.c_str());
}

int usage() {
  std::fprintf(stderr, "usage: kiln-fuzz [--seed S] [--cases N] [--print] [--keep-going] [--no-minimize] [--engine jit|llvm|vulkan] [--jam]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t seed = 1, cases = 100;
  bool print = false, keep_going = false, shrink = true;
  for (int k = 1; k < argc; k++) {
    std::string a = argv[k];
    auto num = [&](uint64_t& v) {
      if (k + 1 >= argc) return false;
      char* end = nullptr;
      v = std::strtoull(argv[++k], &end, 0);
      return *end == 0;
    };
    if (a == "--seed") { if (!num(seed)) return usage(); }
    else if (a == "--cases") { if (!num(cases)) return usage(); }
    else if (a == "--print") print = true;
    else if (a == "--keep-going") keep_going = true;
    else if (a == "--no-minimize") shrink = false;
    else if (a == "--engine" && k + 1 < argc) other_engine = argv[++k];
    else if (a == "--jam") jam_other = true;
    else return usage();
  }
  // Each case runs in a child forked from here: load the LLVM module once,
  // before the forks, rather than in every child (jit/llvm_module.h).
  if (std::strcmp(other_engine, "llvm") == 0) kiln::try_llvm_module(nullptr);
  // Every loop is compiled on its first back edge, as in the tests/lang jit
  // runs; one case in three also grows side traces from exits taken twice,
  // and one in three records later and unrolls little, so that loops with
  // early exits meet recordings that leave them, inner loops without traces
  // yet and side traces at an inner trace's other exits. KILN_JIT, when set,
  // applies to every case.
  // (strict=1: an assembler error the JIT caught in itself is a crash, not a quiet fallback)
  const char* kJitVariants[] = {"hotloop=1,strict=1", "hotloop=1,hotexit=2,strict=1", "hotloop=3,hotexit=2,unroll=2,strict=1"};
  const bool own_params = std::getenv("KILN_JIT") == nullptr;

  auto t0 = std::chrono::steady_clock::now();
  uint64_t same = 0, differ = 0, invalid = 0, raised = 0;
  for (uint64_t c = 0; c < cases; c++) {
    uint64_t s = seed + c;
    Node prog = generate(s);
    std::string src = render(prog);
    const char* jit_params = own_params ? kJitVariants[s % 3] : std::getenv("KILN_JIT");
    if (own_params) setenv("KILN_JIT", jit_params, 1);
    if (print) std::printf("# seed %llu (KILN_JIT=%s)\n%s\n", (unsigned long long)s, jit_params, src.c_str());
    Outcome i, j;
    Verdict v = compare(src, &i, &j);
    if ((c + 1) % 1000 == 0) {  // progress, so that a long run stopped early still tells its count
      std::printf("kiln-fuzz: %llu cases run\n", (unsigned long long)(c + 1));
      std::fflush(stdout);
    }
    if (v == Verdict::same) {
      same++;
      raised += i.status != "ok";  // the same IndexError on both engines
      continue;
    }
    if (v == Verdict::invalid) {
      invalid++;
      std::printf("==== seed %llu: the interpreter rejects the generated program (generator bug)\n%s",
                  (unsigned long long)s, src.c_str());
      if (shrink) {  // to the smallest program the interpreter rejects the same way
        std::string first = i.err.substr(0, i.err.find('\n'));
        prog = minimize(prog, [](const std::string& src, const std::string& f) {
          Outcome o = run_engine(src, "interp", 20);
          return o.status != "ok" && o.err.substr(0, o.err.find('\n')) == f;
        }, first);
        src = render(prog);
        i = run_engine(src, "interp", 20);
        std::printf("---- minimized:\n%s", src.c_str());
      }
      show("interp", i);
    } else {
      differ++;
      std::printf("==== seed %llu: interp and %s differ (KILN_JIT=%s)\n", (unsigned long long)s, other_engine, jit_params);
      if (shrink) {
        prog = minimize(prog);
        src = render(prog);
        compare(src, &i, &j);
      }
      std::printf("%s", src.c_str());
      show("interp", i);
      show(other_engine, j);
    }
    std::fflush(stdout);
    if (!keep_going) break;
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("kiln-fuzz: seeds %llu.., %llu same, %llu differ, %llu invalid (%.1f s; %llu of the same raised IndexError)\n",
              (unsigned long long)seed, (unsigned long long)same, (unsigned long long)differ,
              (unsigned long long)invalid, secs, (unsigned long long)raised);
  return differ || invalid ? 1 : 0;
}
