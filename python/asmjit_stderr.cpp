// What the module's copy of asmjit's globals.cpp.o reads instead of `stderr`
// (see CMakeLists.txt: a reference to libc's stderr cannot be relocated in a
// shared object, a reference to a variable of our own can).
#include <cstdio>

extern "C" {
__attribute__((visibility("hidden"))) FILE* kiln_asmjit_stderr = stderr;
}
