// A small helper for building IR by hand (tests, lowering): each call appends
// one statement to the current block and returns it. Control statements
// create their blocks with the owner link set; `in(block)` moves the cursor.
//
//   Builder b(k.root);
//   Stmt* i = b.const_int(Prim::i32, 4);
//   Stmt* c = b.binary(BinaryOp::cmp_lt, i, i);
//   Stmt* f = b.if_(c);
//   b.in(*f->body).print({PrintPart{true, 0, ""}}, {i});
#pragma once
#include <string>
#include <vector>

#include "vm/ir/ir.h"

namespace kiln::ir {

struct Builder {
  Block* cur;

  explicit Builder(Block& b) : cur(&b) {}
  Builder& in(Block& b) { cur = &b; return *this; }

  Stmt* add(StmtKind kind, Type type, std::vector<Stmt*> ops = {}) {
    auto s = std::make_unique<Stmt>(kind);
    s->type = type;
    s->ops = std::move(ops);
    return cur->add(std::move(s));
  }
  static Block* new_block(std::unique_ptr<Block>& slot, Stmt* owner) {
    slot = std::make_unique<Block>();
    slot->owner = owner;
    return slot.get();
  }

  Stmt* constant(const Const& c) {
    Stmt* s = add(StmtKind::const_, Type::scalar(c.prim));
    s->value = c;
    return s;
  }
  Stmt* const_int(Prim p, int64_t v) { return constant(Const::of_int(p, v)); }
  Stmt* const_float(Prim p, double v) { return constant(Const::of_float(p, v)); }
  Stmt* arg(int index, Type t) {
    Stmt* s = add(StmtKind::arg_load, t);
    s->index = index;
    return s;
  }
  Stmt* unary(UnaryOp op, Stmt* a, Type result) {
    Stmt* s = add(StmtKind::unary, result, {a});
    s->uop = op;
    return s;
  }
  Stmt* unary(UnaryOp op, Stmt* a) { return unary(op, a, a->type); }
  // Comparisons give i32; everything else the left operand's type.
  Stmt* binary(BinaryOp op, Stmt* a, Stmt* b) {
    Stmt* s = add(StmtKind::binary, is_comparison(op) ? Type::scalar(Prim::i32) : a->type, {a, b});
    s->bop = op;
    return s;
  }
  Stmt* select(Stmt* c, Stmt* t, Stmt* f) { return add(StmtKind::select, t->type, {c, t, f}); }
  Stmt* alloca(Type t) { return add(StmtKind::alloca, t); }
  Stmt* local_load(Stmt* var) { return add(StmtKind::local_load, var->type, {var}); }
  Stmt* local_store(Stmt* var, Stmt* v) { return add(StmtKind::local_store, Type::none(), {var, v}); }
  Stmt* global_ptr(Access a, Prim elem, std::vector<Stmt*> idx) {
    Stmt* s = add(StmtKind::global_ptr, Type::ptr(elem), std::move(idx));
    s->access = std::move(a);
    return s;
  }
  Stmt* global_temp(int slot, Prim elem) {
    Stmt* s = add(StmtKind::global_temp, Type::ptr(elem));
    s->index = slot;
    return s;
  }
  Stmt* global_load(Stmt* ptr) { return add(StmtKind::global_load, Type::scalar(ptr->type.prim), {ptr}); }
  Stmt* global_store(Stmt* ptr, Stmt* v) { return add(StmtKind::global_store, Type::none(), {ptr, v}); }
  Stmt* atomic(AtomicOp op, Stmt* ptr, Stmt* v) {
    Stmt* s = add(StmtKind::atomic, v->type, {ptr, v});
    s->aop = op;
    return s;
  }
  Stmt* if_(Stmt* cond, bool with_else = false) {
    Stmt* s = add(StmtKind::if_, Type::none(), {cond});
    new_block(s->body, s);
    if (with_else) new_block(s->else_body, s);
    return s;
  }
  Stmt* while_() {
    Stmt* s = add(StmtKind::while_, Type::none());
    new_block(s->body, s);
    return s;
  }
  Stmt* range_for(Stmt* begin, Stmt* end) {
    Stmt* s = add(StmtKind::range_for, Type::none(), {begin, end});
    new_block(s->body, s);
    return s;
  }
  Stmt* loop_index(Stmt* loop, int index = 0, Prim p = Prim::i32) {
    Stmt* s = add(StmtKind::loop_index, Type::scalar(p));
    s->loop = loop;
    s->index = index;
    return s;
  }
  Stmt* break_(Stmt* loop) {
    Stmt* s = add(StmtKind::break_, Type::none());
    s->loop = loop;
    return s;
  }
  Stmt* continue_(Stmt* loop) {
    Stmt* s = add(StmtKind::continue_, Type::none());
    s->loop = loop;
    return s;
  }
  Stmt* print(std::vector<PrintPart> parts, std::vector<Stmt*> ops) {
    Stmt* s = add(StmtKind::print, Type::none(), std::move(ops));
    s->rare_mut().print_parts = std::move(parts);
    return s;
  }
  Stmt* assert_(Stmt* cond, std::string msg, std::vector<Stmt*> args = {}) {
    args.insert(args.begin(), cond);
    Stmt* s = add(StmtKind::assert_, Type::none(), std::move(args));
    s->rare_mut().text = std::move(msg);
    return s;
  }
  Stmt* return_(std::vector<Stmt*> vals) { return add(StmtKind::return_, Type::none(), std::move(vals)); }
  Stmt* offloaded(Task t) {
    Stmt* s = add(StmtKind::offloaded, Type::none());
    s->task = t;
    new_block(s->body, s);
    return s;
  }
};

}  // namespace kiln::ir
