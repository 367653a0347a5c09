// Guards in a vector loop (vector.h, lane_body.h): the back-off test at its
// entry, the exits of chunks that failed a guard, the entry skipped, and the
// carried values exits read (VecPlan::lasts), exact where the loop stops.
#include "jit/lane_body.h"

#include "jit/backend.h"

namespace kiln::jit {

using namespace asmjit;

namespace {

// A vector loop whose first chunk fails a guard at counter c has done no
// chunk: it is not entered again before c + kGuardBackoff
// (TraceEnv::lanes_after), by a side trace's return to the root trace or by
// the scalar loop, whose back edge re-enters it there (backend.cpp). Where a
// guard fails every few iterations, each exit's return to the root trace
// otherwise entered the vector loop, failed its first chunk and left (roots
// of every second element of 2^22: 6.8 -> 13.5 ms).
constexpr int32_t kGuardBackoff = 64;

x86::Mem lanes_after() { return x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, lanes_after)); }

}  // namespace

void lane_guard_entry(x86::Assembler& a, Label skip) {
  // (the counter in rax) skipped where c <= counter < c + kGuardBackoff
  a.mov(x86::rdi, lanes_after());
  a.sub(x86::rdi, x86::rax);
  a.dec(x86::rdi);
  a.cmp(x86::rdi, kGuardBackoff);
  a.jb(skip);
}

void lane_guard_exits(x86::Assembler& a, const Label* fail, int unroll, int W, bool rows, int32_t t_iv, Label done,
                      const std::function<void(int)>& after) {
  // A lane of copy u failed a guard: copies 0..u-1 of the pass are done, so
  // the vector loop ends at copy u's chunk, and the scalar loop runs that
  // chunk up to the failing iteration, which leaves the trace as the scalar
  // trace would.
  a.jmp(done);
  for (int u = 0; u < unroll; u++) {
    a.bind(fail[u]);
    a.inc(x86::qword_ptr(x86::r12, (int32_t)offsetof(TraceEnv, guard_chunks)));
    if (u) a.add(x86::rax, W * u);
    if (u && rows) a.add(x86::rdx, 8 * u);
    after(u);
    if (u == 0) {  // no chunk done since the loop was entered (t_iv: its counter then): back off
      a.cmp(x86::rax, x86::qword_ptr(x86::rsp, t_iv));
      a.jne(done);
      a.lea(x86::rdi, x86::qword_ptr(x86::rax, kGuardBackoff));
      a.mov(lanes_after(), x86::rdi);
    }
    a.jmp(done);
  }
}

void lane_guard_skipped(x86::Assembler& a, Label skip, bool rows, int32_t t_next) {
  Label past = a.newLabel();
  a.jmp(past);
  a.bind(skip);
  if (rows) {  // (the scalar back edge re-enters the lanes where the back-off ends)
    a.mov(x86::rdi, lanes_after());
    a.mov(x86::qword_ptr(x86::rsp, t_next), x86::rdi);
  }
  a.bind(past);
}

void LaneBody::lasts_init(const FlatMap<Ref, int32_t>& temp) const {
  for (auto& [slot, y] : r.hold) a.vpbroadcastd(ymm(y), x86::dword_ptr(x86::rsp, temp.at(slot)));
}

void LaneBody::lasts_hold() const {
  for (const VecPlan::Last& l : p.lasts)
    if (auto h = r.hold.find(l.slot); h != r.hold.end()) a.vmovaps(ymm(h->second), y_of(l.val));
}

void LaneBody::lasts_out(const FlatMap<Ref, int32_t>& temp, int32_t t_iv, int32_t at) const {
  for (const VecPlan::Last& l : p.lasts) {
    x86::Mem out = x86::qword_ptr(x86::rsp, temp.at(l.slot));
    if (auto h = r.hold.find(l.slot); h != r.hold.end()) {  // lane W-1: the last whole chunk's last iteration (or the slot)
      a.vmovdqu(x86::ptr(x86::rsp, at, W * 4), ymm(h->second));
      a.mov(x86::edi, x86::dword_ptr(x86::rsp, at + 4 * (W - 1)));
      if (!l.zext) a.movsxd(x86::rdi, x86::edi);
      a.mov(out, x86::rdi);
      continue;
    }
    Label same = a.newLabel();  // no iteration ran in lanes: the slot stays
    a.cmp(x86::rax, x86::qword_ptr(x86::rsp, t_iv));
    a.je(same);
    if (l.val == p.iv) a.lea(x86::rdi, x86::qword_ptr(x86::rax, -1));
    else a.mov(x86::rdi, x86::qword_ptr(x86::rsp, temp.at(l.val)));
    a.mov(out, x86::rdi);
    a.bind(same);
  }
}

}  // namespace kiln::jit
