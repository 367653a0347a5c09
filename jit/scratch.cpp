// A trace compile's scratch memory (scratch.h): one block per thread.
#include "jit/scratch.h"

namespace kiln::jit {

namespace {

// The bench's largest trace (nbody's step, ~300 IR) takes ~40 KB of it; a
// larger compile goes on from the heap.
constexpr size_t kBlockBytes = 128 << 10;

struct Block {
  char* base = nullptr;
  size_t top = 0;   // the next byte to take
  size_t live = 0;  // taken and not given back
  int depth = 0;    // open scopes
  ~Block() {
    if (live == 0) ::operator delete(base);  // (else a vector still holds some of it: it goes with the thread's exit)
  }
};
thread_local Block block;

size_t rounded(size_t bytes) { return (bytes + 15) & ~size_t(15); }

}  // namespace

namespace scratch {

void* take(size_t bytes) {
  Block& b = block;
  if (b.depth > 0 && rounded(bytes) <= kBlockBytes - b.top) {
    char* p = b.base + b.top;
    b.top += rounded(bytes);
    b.live++;
    return p;
  }
  return ::operator new(bytes);
}

void give(void* p, size_t bytes) {
  Block& b = block;
  if (!in_block(p)) return ::operator delete(p, bytes);
  b.live--;
  char* c = static_cast<char*>(p);
  if (c + rounded(bytes) == b.base + b.top) b.top = c - b.base;  // the last taken (a vector that grew): taken again next
}

size_t block_bytes() { return block.base ? kBlockBytes : 0; }

bool in_block(const void* p) {
  const char* c = static_cast<const char*>(p);
  return block.base && c >= block.base && c < block.base + kBlockBytes;
}

}  // namespace scratch

ScratchScope::ScratchScope() {
  Block& b = block;
  if (b.depth++ > 0) return;
  if (!b.base) b.base = static_cast<char*>(::operator new(kBlockBytes));
  if (b.live == 0) b.top = 0;
}

ScratchScope::~ScratchScope() {
  Block& b = block;
  if (--b.depth == 0 && b.live == 0) b.top = 0;
}

}  // namespace kiln::jit
