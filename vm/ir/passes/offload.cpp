// Offloading: the kernel's top level becomes a sequence of tasks (seed 001).
//
// Each top-level range_for that is not serialized becomes a parallel
// `offloaded range_for` task; every run of other top-level statements becomes
// one `offloaded serial` task. Tasks run one after another but share no
// registers, so a value or local defined in one task and used in another moves
// through a global temporary (an 8-byte slot of the launch's scratch):
//   - a local (alloca) used by several tasks lives in its slot for good;
//   - any other value is stored to a slot right after it is computed and
//     loaded at the start of each task that uses it;
//   - constants and argument loads are simply recomputed where needed;
//   - range_for bounds are constants, or read by the launcher from a slot.
#include <cstdlib>
#include <unordered_map>
#include <unordered_set>

#include "vm/ir/passes/passes.h"

namespace kiln::ir {

namespace {

struct Part {
  bool parallel = false;
  StmtList stmts;
  Stmt* loop = nullptr;  // parallel: the original range_for
};

// Which task each top-level statement (and everything nested in it) belongs
// to, by id (offload numbers the kernel first).
void mark(Block& b, int task, std::vector<int>& home) {
  walk(b, [&](Stmt* s) { home[(size_t)s->id] = task; });
}

}  // namespace

void offload(Kernel& k) {
  size_t num_stmts = number_stmts(k);
  // 1. Partition the top level.
  std::vector<Part> parts;
  for (auto& s : k.root.stmts) {
    // A struct-for over sparse SNodes needs its lists even when serialized.
    bool par = s->kind == StmtKind::range_for && (!s->serialize || s->snode >= 0);
    if (par) {
      parts.emplace_back();
      parts.back().parallel = true;
      parts.back().loop = s.get();
    } else if (parts.empty() || parts.back().parallel) {
      parts.emplace_back();
    }
    parts.back().stmts.push_back(std::move(s));
  }
  k.root.stmts.clear();

  std::vector<int> home(num_stmts, -1);
  for (size_t t = 0; t < parts.size(); t++)
    for (auto& s : parts[t].stmts) {
      home[(size_t)s->id] = (int)t;
      if (s->body) mark(*s->body, (int)t, home);
      if (s->else_body) mark(*s->else_body, (int)t, home);
    }
  // The statements in program order (pre-order): values crossing tasks are
  // routed in this order (not the hash maps'), so that slots and temps come
  // out the same for the same program.
  std::vector<Stmt*> order;
  for (auto& p : parts)
    for (auto& s : p.stmts) {
      order.push_back(s.get());
      for (auto* blk : {s->body.get(), s->else_body.get()})
        if (blk) walk(*blk, [&](Stmt* x) { order.push_back(x); });
    }

  // 2. Find values used outside their task.
  std::unordered_map<Stmt*, std::unordered_set<int>> users;  // value -> tasks using it elsewhere
  for (size_t t = 0; t < parts.size(); t++) {
    auto visit = [&](Stmt* s) {
      for (Stmt* o : s->ops)
        if (int h = home[(size_t)o->id]; h >= 0 && h != (int)t) users[o].insert((int)t);
    };
    for (auto& s : parts[t].stmts) {
      if (parts[t].parallel) {
        // The loop's bounds are read by the launcher, not by the task (a
        // struct-for's are placeholders).
        if (s->body) walk(*s->body, visit);
      } else {
        visit(s.get());
        if (s->body) walk(*s->body, visit);
        if (s->else_body) walk(*s->else_body, visit);
      }
    }
  }

  // Under the debugger every task can show the kernel's arguments.
  if (k.keep_names)
    for (size_t t = 0; t < parts.size(); t++)
      for (auto& s : parts[t].stmts)
        if (s->kind == StmtKind::arg_load && !s->name.empty())
          for (size_t u = 0; u < parts.size(); u++)
            if (u != t) users[s.get()].insert((int)u);

  // 3. Build the tasks.
  std::unordered_map<Stmt*, int> slot_of;  // values and allocas given a temp slot
  auto slot = [&](Stmt* v) {
    auto it = slot_of.find(v);
    if (it != slot_of.end()) return it->second;
    return slot_of[v] = k.num_global_temps++;
  };
  auto make_temp = [&](int s, Prim p, SourceLoc loc) {
    auto g = std::make_unique<Stmt>(StmtKind::global_temp);
    g->index = s;
    g->type = Type::ptr(p);
    g->loc = loc;
    return g;
  };

  StmtList tasks;
  // List generation before each struct_for (seed 001): per level of the
  // SNode's path below the root, clear its list and generate it from the
  // level above. The root's one-container list is never regenerated.
  std::vector<StmtList> lists(parts.size());
  for (size_t t = 0; t < parts.size(); t++) {
    Part& p = parts[t];
    auto task = std::make_unique<Stmt>(StmtKind::offloaded);
    task->body = std::make_unique<Block>();
    task->body->owner = task.get();
    if (p.parallel && p.loop->snode >= 0) {
      Stmt* loop = p.loop;
      for (size_t l = 1; l < loop->rare().path_ids.size(); l++) {
        for (Task kind : {Task::clear_list, Task::listgen}) {
          auto lt = std::make_unique<Stmt>(StmtKind::offloaded);
          lt->task = kind;
          lt->loc = loop->loc;
          lt->snode = loop->snode;
          lt->index = (int)l - 1;
          const std::vector<std::string>& names = loop->rare().path_names;
          lt->rare_mut().text = kind == Task::clear_list ? names[l] : names[l - 1] + "->" + names[l];
          lists[t].push_back(std::move(lt));
        }
      }
      task->task = Task::struct_for;
      task->loc = loop->loc;
      task->snode = loop->snode;
      task->rare_mut().text = loop->rare().path_names.back();
      task->rare_mut().num_loop_indices = loop->rare().num_loop_indices;
      task->serialize = loop->serialize;
      task->rare_mut().block_dim = loop->rare().block_dim;
      for (auto& s : loop->body->stmts) task->body->add(std::move(s));
      walk(*task->body, [&](Stmt* s) {
        if (s->loop == loop) s->loop = task.get();
      });
      p.stmts.clear();
    } else if (p.parallel) {
      Stmt* loop = p.loop;
      task->task = Task::range_for;
      task->loc = loop->loc;
      task->rare_mut().block_dim = loop->rare().block_dim;  // ti.loop_config(block_dim=N)
      for (int b = 0; b < 2; b++) {
        Stmt* bound = loop->ops[b];
        bool is_const = bound->kind == StmtKind::const_;
        (b == 0 ? task->rare_mut().begin_const : task->rare_mut().end_const) = is_const;
        (b == 0 ? task->begin : task->end) = is_const ? bound->value.i : slot(bound);
      }
      // The loop's body becomes the task's body; its loop_index/continue now
      // refer to the task.
      for (auto& s : loop->body->stmts) task->body->add(std::move(s));
      walk(*task->body, [&](Stmt* s) {
        if (s->loop == loop) s->loop = task.get();
      });
      p.stmts.clear();
    } else {
      task->task = Task::serial;
      task->loc = p.stmts.empty() ? k.loc : p.stmts.front()->loc;
      for (auto& s : p.stmts) task->body->add(std::move(s));
      p.stmts.clear();
    }
    tasks.push_back(std::move(task));
  }

  // Step 4 collects its edits per task and applies them with one walk of
  // each task (renaming its operands) and one rebuild of its top level, so
  // that it stays linear in the kernel's size with many tasks and many values
  // crossing them (issue 16). The result is what inserting and renaming in
  // place, value by value, gave: a task's new leading statements come in the
  // reverse order of the values they serve.
  struct Edits {
    std::vector<StmtList> front;   // groups, in the order made
    std::unordered_map<const Stmt*, Stmt*> rename;           // operand -> its replacement here
    std::unordered_set<Stmt*> local_temps;                   // temps now holding a local
    std::unordered_map<Stmt*, StmtList> after;  // top-level value -> what follows it
  };
  std::vector<Edits> edits(tasks.size());

  // Stores value `v` into slot `s` right after v's definition in its task.
  std::unordered_set<Stmt*> stored;
  auto store_after_def = [&](Stmt* v, int s) {
    stored.insert(v);
    auto& follow = edits[(size_t)home[(size_t)v->id]].after[v];
    Stmt* g = follow.emplace_back(make_temp(s, v->type.prim, v->loc)).get();
    auto st = std::make_unique<Stmt>(StmtKind::global_store);
    st->ops = {g, v};
    st->loc = v->loc;
    follow.push_back(std::move(st));
  };

  // 4. Route cross-task values through temps.
  for (Stmt* v : order) {
    auto u = users.find(v);
    if (u == users.end()) continue;
    const std::unordered_set<int>& using_tasks = u->second;
    int def_task = home[(size_t)v->id];
    if (v->kind == StmtKind::const_ || v->kind == StmtKind::arg_load) {
      for (int t : using_tasks) {
        auto c = clone_stmt(*v);
        edits[t].rename[v] = c.get();
        edits[t].front.emplace_back().push_back(std::move(c));
      }
      continue;
    }
    int s = slot(v);
    if (v->kind == StmtKind::alloca) {
      // The local lives in its slot: every task addresses it through a temp.
      std::unordered_set<int> all = using_tasks;
      all.insert(def_task);
      for (int t : all) {
        auto g = make_temp(s, v->type.prim, v->loc);
        edits[t].rename[v] = g.get();
        edits[t].local_temps.insert(g.get());
        edits[t].front.emplace_back().push_back(std::move(g));
      }
      // The alloca itself is now unused (DCE removes it); temps start at zero
      // like locals do.
      continue;
    }
    // A value: store after its definition, load where used.
    store_after_def(v, s);
    for (int t : using_tasks) {
      auto gt = make_temp(s, v->type.prim, v->loc);
      auto ld = std::make_unique<Stmt>(StmtKind::global_load);
      ld->type = Type::scalar(v->type.prim);
      ld->ops = {gt.get()};
      ld->loc = v->loc;
      edits[t].rename[v] = ld.get();
      auto& group = edits[t].front.emplace_back();
      group.push_back(std::move(gt));
      group.push_back(std::move(ld));
    }
  }
  // Bounds computed by serial code need their store (the launcher reads the
  // slot) also when no statement of another task uses them, or when the
  // other tasks recompute them (constants and arguments).
  for (Stmt* v : order)
    if (auto s = slot_of.find(v); s != slot_of.end() && !stored.count(v) && v->kind != StmtKind::alloca)
      store_after_def(v, s->second);

  for (size_t t = 0; t < tasks.size(); t++) {
    Edits& e = edits[t];
    Block& body = *tasks[t]->body;
    if (!e.rename.empty())
      walk(body, [&](Stmt* x) {
        rename_operands(*x, e.rename);
        if (!x->ops.empty() && e.local_temps.count(x->ops[0])) {
          if (x->kind == StmtKind::local_load) x->kind = StmtKind::global_load;
          if (x->kind == StmtKind::local_store) x->kind = StmtKind::global_store;
        }
      });
    if (e.front.empty() && e.after.empty()) continue;
    StmtList old = std::move(body.stmts);
    body.stmts.clear();
    for (size_t g = e.front.size(); g-- > 0;)
      for (auto& x : e.front[g]) body.add(std::move(x));
    for (auto& x : old) {
      Stmt* v = x.get();
      body.stmts.push_back(std::move(x));
      if (auto f = e.after.find(v); f != e.after.end()) {
        for (auto& y : f->second) body.add(std::move(y));
        e.after.erase(f);
      }
    }
    // A value defined inside a nested block cannot be used by another task.
    if (!e.after.empty()) raise("InternalError", "offload: a value crossing tasks is not at its task's top level", tasks[t]->loc);
  }

  for (size_t t = 0; t < tasks.size(); t++) {
    for (auto& l : lists[t]) k.root.add(std::move(l));
    k.root.add(std::move(tasks[t]));
  }
}

// The verifier after every pass costs as much as a third of a large kernel's
// compile: programs verify the pipeline's result only, and KILN_VERIFY_IR=1
// (set by tests/lang/run_one.sh, so every conformance program checks each
// pass) verifies after each pass, naming the first one that broke the IR.
static bool verify_each_pass() {
  static const bool on = [] {
    const char* v = std::getenv("KILN_VERIFY_IR");
    return v && *v && *v != '0';
  }();
  return on;
}

int run_pipeline(Kernel& k, bool check, const std::function<void(Kernel&)>& after_scalarize, bool fast_math,
                  int jam) {
  auto verify_if = [&]() {
    if (check && verify_each_pass()) verify(k);
  };
  verify_if();
  if (inline_calls(k)) verify_if();
  scalarize(k);
  if (after_scalarize) {
    verify_if();
    after_scalarize(k);
  }
  mark_activation(k);
  verify_if();
  constant_fold(k);
  eliminate_dead_code(k);
  verify_if();
  offload(k);
  layout_access(k);
  struct_for_access(k);
  demote_atomics(k);
  promote_elements(k);  // after demotion: `x[i] += e` in an inner loop is a load and a store by now
  // After demotion: `x[i] += a * b` is a load, a sum and a store by now.
  if (fast_math) contract_fma(k);
  verify_if();
  constant_fold(k);
  eliminate_dead_code(k);
  // Serial tasks left empty (their constants folded into the loops' bounds)
  // would still cost a launch each.
  auto& tasks = k.root.stmts;
  std::erase_if(tasks, [](const std::unique_ptr<Stmt>& t) { return t->task == Task::serial && t->body->stmts.empty(); });
  verify_if();
  make_thread_local(k);
  if (jam && jam_outer(k, jam, fast_math)) {
    eliminate_dead_code(k);  // (copy 1's reads of the inner loop's bounds)
    verify_if();
  }
  // After make_thread_local: a parallel sum is a per-chunk accumulator by now.
  if (fast_math) split_sums(k);
  if (check) verify(k);
  int n = k.renumber();  // bytecode lowering indexes its tables by these ids (bc::TaskIndex)
  // ti.real_func bodies: the same pipeline; their loops are serial (the
  // frontend marks them), so each is one serial task run by its caller.
  for (auto& f : k.funcs) run_pipeline(*f, check, {}, fast_math);
  return n;
}

}  // namespace kiln::ir
