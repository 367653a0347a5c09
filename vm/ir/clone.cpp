// clone_kernel: clone_stmt for each statement (its payload), blocks copied
// recursively, then every operand and loop reference moved to its copy.
#include "vm/ir/clone.h"

#include <unordered_map>

namespace kiln::ir {

namespace {

using Map = std::unordered_map<const Stmt*, Stmt*>;

void copy_block(const Block& from, Block& to, Map& map);

std::unique_ptr<Block> copy_child(const std::unique_ptr<Block>& b, Stmt* owner, Map& map) {
  if (!b) return nullptr;
  auto n = std::make_unique<Block>();
  n->owner = owner;
  copy_block(*b, *n, map);
  return n;
}

Stmt* copy_into(const Stmt& s, Block& to, Map& map) {
  Stmt* n = to.add(clone_stmt(s));
  map[&s] = n;
  n->id = s.id;
  n->body = copy_child(s.body, n, map);
  n->else_body = copy_child(s.else_body, n, map);
  if (s.tls_prologue() || s.tls_epilogue()) {
    n->rare_mut().tls_prologue = copy_child(s.rare().tls_prologue, n, map);
    n->rare_mut().tls_epilogue = copy_child(s.rare().tls_epilogue, n, map);
  }
  return n;
}

void copy_block(const Block& from, Block& to, Map& map) {
  for (const auto& s : from.stmts) copy_into(*s, to, map);
}

void relink(Block& b, const Map& map) {
  walk(b, [&](Stmt* s) {
    for (Stmt*& o : s->ops)
      if (auto it = map.find(o); it != map.end()) o = it->second;
    if (s->loop)
      if (auto it = map.find(s->loop); it != map.end()) s->loop = it->second;
  });
}

}  // namespace

std::unique_ptr<Kernel> clone_kernel(const Kernel& k) {
  auto c = std::make_unique<Kernel>();
  c->name = k.name;
  c->args = k.args;
  c->rets = k.rets;
  c->num_global_temps = k.num_global_temps;
  c->loc = k.loc;
  c->frames = k.frames;
  c->keep_names = k.keep_names;
  c->ext_companion = k.ext_companion;
  c->stop_grad_fields = k.stop_grad_fields;
  Map map;
  copy_block(k.root, c->root, map);
  relink(c->root, map);
  for (const auto& f : k.funcs) c->funcs.push_back(clone_kernel(*f));
  return c;
}

std::unique_ptr<Stmt> clone_tree(const Stmt& s) {
  Block tmp;
  Map map;
  copy_into(s, tmp, map);
  relink(tmp, map);
  return tmp.take(0);
}

}  // namespace kiln::ir
