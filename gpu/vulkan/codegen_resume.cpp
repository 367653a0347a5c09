// Resumable serial tasks: the answer to lavapipe's loop limit (one counter
// of loop passes per invocation, 65535, after which every loop exits;
// docs/vulkan_sparse.md) for serial code whose loops run longer, such as a
// serialized `for k in range(...)` around a while loop. At the top of each
// pass of a top-level loop of the task (a loop directly in its body) the
// task checks its pass count; past half the limit it saves every variable
// of its function (locals, loop indices, the random stream, the print
// sequence) in the context buffer, records the loop in its state word and
// returns. The next dispatch of the task restores them and enters that loop
// again, skipping the code before it; values that code computed go through
// variables too. The host dispatches the task kResumeRepeat times per
// submit and submits again from it until its state says kResumeDone (later
// tasks wait for that), so the program prints what the interpreter prints.
// A single pass of a top-level loop still has half the limit for itself;
// past that, the task fails with the loop-limit error.
#include <algorithm>
#include <utility>

#include "gpu/vulkan/codegen_state.h"

namespace kiln::vk {

using spv::Op;
using SC = spv::StorageClass;
using ir::StmtKind;

bool has_top_loop(const ir::Stmt& task) {
  bool top_loop = false;
  for (auto& s : task.body->stmts) top_loop |= s->kind == StmtKind::range_for || s->kind == StmtKind::while_;
  return top_loop;
}

bool resumable_task(const ir::Stmt& task, const ir::Kernel& k, const DeviceCaps& caps) {
  if (!caps.loop_limit || !caps.int64 || task.kind != StmtKind::offloaded || task.task != ir::Task::serial || !task.body) return false;
  bool calls = false, tape = false;
  ir::walk(*task.body, [&](ir::Stmt* s) {
    tape |= s->kind == StmtKind::ad_stack;
    calls |= recursive_call(*s, k);
  });
  // (shared memory does not outlive a dispatch, and a subgroup's lanes must
  // not stop apart)
  return (has_top_loop(task) || calls) && !tape && !uses_simt(task);
}

Id Gen::resume_skips(int n) {
  // State j + 1 resumes loop j: segments up to j and loops before j are done.
  return m.op(Op::OpUGreaterThan, m.t_bool(), {resume_state, cu32((uint32_t)n)});
}

void Gen::resumable_body(const ir::Stmt& task) {
  Id bt = m.t_bool();
  BufPtr state{0, cu32((uint32_t)out.resume_word(resume)), Prim::u32};
  resume_state = load(state);
  if_then(m.op(Op::OpINotEqual, bt, {resume_state, cu32(0)}), [&] { restore_at = m.body.size(); });
  // A segment: the statements between top-level loops j - 1 and j, run
  // unless the task resumes at loop j or later. What they compute and code
  // after them uses is kept in variables (which a resumed run restores).
  std::vector<const ir::Stmt*> seg;
  int j = 0;
  auto segment = [&] {
    if (seg.empty()) return;
    run_kept(m.op(Op::OpLogicalNot, bt, {resume_skips(j)}), seg);
    seg.clear();
  };
  for (auto& st : task.body->stmts) {
    if (st->kind != StmtKind::range_for && st->kind != StmtKind::while_) {
      seg.push_back(st.get());
      continue;
    }
    segment();
    ensure_open();
    if_then(m.op(Op::OpLogicalNot, bt, {resume_skips(j + 1)}), [&] {
      top_loop = j;
      stmt(*st);
    });
    j++;
  }
  segment();
  ensure_open();
  store(state, cu32(kResumeDone));
}

bool Gen::used_after(const ir::Stmt* s, const std::vector<const ir::Stmt*>& seg) {
  if (users.empty())
    ir::walk(const_cast<ir::Block&>(kernel.root), [&](ir::Stmt* u) {
      for (const ir::Stmt* o : u->ops) users[o].push_back(u);
    });
  auto it = users.find(s);
  if (it == users.end()) return false;
  for (const ir::Stmt* u : it->second) {
    // The user's statement in s's block: a later one, or one of seg's.
    const ir::Stmt* at = u;
    while (at && at->parent != s->parent) at = at->parent ? at->parent->owner : nullptr;
    if (!at || std::find(seg.begin(), seg.end(), at) == seg.end()) return true;
  }
  return false;
}

void Gen::run_kept(Id run, const std::vector<const ir::Stmt*>& seg) {
  struct Kept {
    Id* v;  // where the value is named
    Id var, type;
  };
  std::vector<Kept> kept;
  if_then(run, [&] {
    for (const ir::Stmt* s : seg) {
      ensure_open();
      stmt(*s);
    }
    ensure_open();
    auto keep = [&](Id* v) {
      auto t = m.result_type.find(*v);
      if (!*v || t == m.result_type.end()) return;  // a constant or a global: always there
      Id var = m.function_var(m.t_ptr(SC::Function, t->second));
      m.op_void(Op::OpStore, {var, *v});
      kept.push_back({v, var, t->second});
    };
    for (const ir::Stmt* s : seg) {
      if (!used_after(s, seg)) continue;
      if (auto it = val.find(s); it != val.end()) keep(&it->second);
      if (auto it = ptr.find(s); it != ptr.end()) {
        keep(&it->second.index);
        keep(&it->second.active);
      }
      if (auto it = call_results.find(s); it != call_results.end())
        for (Id& v : it->second) keep(&v);
    }
  });
  for (const Kept& k : kept) *k.v = m.op(Op::OpLoad, k.type, {k.var});
}

void Gen::checkpoint(int loop) {
  if (!loop_count) return;
  Id count = m.op(Op::OpLoad, u32(), {loop_count});
  if_then(m.op(Op::OpUGreaterThanEqual, m.t_bool(), {count, cu32(caps.loop_limit / 2)}), [&] {
    save_at.push_back(m.body.size());
    store(BufPtr{0, cu32((uint32_t)out.resume_word(resume)), Prim::u32}, cu32((uint32_t)loop + 1));
    m.op_void(Op::OpReturn, {});
    terminated = true;
  });
}

// A variable's value as the u64 it is saved as, and back.
Id Gen::to_u64(Id v, Id type) {
  auto [kind, width] = m.scalars.at(type);
  if (kind == 'b') return m.op(Op::OpSelect, u64(), {v, m.c_bits(u64(), 64, 1), m.c_bits(u64(), 64, 0)});
  Id bits = kind == 'u' ? v : m.op(Op::OpBitcast, m.t_int(width, false), {v});
  return width == 64 ? bits : m.op(Op::OpUConvert, u64(), {bits});
}

Id Gen::from_u64(Id u, Id type) {
  auto [kind, width] = m.scalars.at(type);
  if (kind == 'b') return m.op(Op::OpINotEqual, m.t_bool(), {u, m.c_bits(u64(), 64, 0)});
  Id bits = width == 64 ? u : m.op(Op::OpUConvert, m.t_int(width, false), {u});
  return kind == 'u' ? bits : m.op(Op::OpBitcast, type, {bits});
}

int Gen::splice_vars(Id skip, size_t most, const std::function<BufPtr(uint32_t)>& slot) {
  std::vector<std::pair<Id, Id>> vars;
  for (auto [v, t] : m.fn_var_list)
    if (v != skip && !unsaved.count(v)) vars.emplace_back(v, t);
  if (vars.size() > most) return -1;
  for (auto [v, t] : vars)
    if (!m.scalars.count(t)) return -1;
  // Each splice is code of its own (fresh ids), made on an empty body.
  auto code = [&](bool save) {
    Words rest = std::move(m.body);
    m.body.clear();
    for (size_t i = 0; i < vars.size(); i++) {
      auto [v, t] = vars[i];
      BufPtr at = slot((uint32_t)i);
      if (save) store(at, to_u64(m.op(Op::OpLoad, t, {v}), t));
      else m.op_void(Op::OpStore, {v, from_u64(load(at), t)});
    }
    Words made = std::move(m.body);
    m.body = std::move(rest);
    return made;
  };
  // Last position first: the earlier ones stay where they were.
  std::vector<size_t> saves = save_at;
  std::sort(saves.rbegin(), saves.rend());
  for (size_t at : saves) {
    Words c = code(true);
    m.body.insert(m.body.begin() + (std::ptrdiff_t)at, c.begin(), c.end());
  }
  Words c = code(false);
  m.body.insert(m.body.begin() + (std::ptrdiff_t)restore_at, c.begin(), c.end());
  return (int)vars.size();
}

bool Gen::splice_resume() {
  // (the loop pass count starts afresh in each dispatch)
  uint32_t slot0 = (uint32_t)(out.resume_word(resume) + 2) / 2;  // u64 slots
  return splice_vars(loop_count, kResumeSlots, [&](uint32_t i) { return BufPtr{0, cu32(slot0 + i), Prim::u64}; }) >= 0;
}

}  // namespace kiln::vk
