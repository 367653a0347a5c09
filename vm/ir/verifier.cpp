// The IR verifier: every pass must leave a kernel that passes it.
//
// Scoping in a hierarchical IR: a statement may use a value defined earlier in
// its own block or in any enclosing block (that is dominance, since blocks have
// no side entries). Values defined inside a nested block are out of scope once
// the block ends, so a value cannot leak out of an if, a loop, or a task.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "vm/ir/simt.h"
#include "vm/ir/ir.h"

namespace kiln::ir {

namespace {

bool is_int_scalar(const Type& t) { return t.is_scalar() && prim_is_int(t.prim); }
Type pointee(const Type& t) { Type v = t; v.is_ptr = false; return v; }
bool is_shift(BinaryOp op) { return op == BinaryOp::bit_shl || op == BinaryOp::bit_shr || op == BinaryOp::bit_sar; }
bool is_loop(const Stmt* s) {
  return s->kind == StmtKind::while_ || s->kind == StmtKind::range_for ||
         (s->kind == StmtKind::offloaded && (s->task == Task::range_for || s->task == Task::struct_for));
}

// A check builds its message only when it fails: the verifier runs after
// every pass, and composing messages for checks that pass was most of its
// time on large kernels (issue 16).
#define KILN_VERIFY(ok, s, what) \
  do {                           \
    if (!(ok)) fail((s), (what)); \
  } while (0)

// The values in scope: open addressing over statement pointers, each with a
// flag. A statement enters once and leaves by clearing its flag, so nothing
// is ever removed and probing stays short. (std::unordered_set allocated and
// freed a node per statement: a third of the verifier's time, issue 16.)
struct InScope {
  struct Slot {
    const Stmt* s = nullptr;
    bool in = false;
  };
  std::vector<Slot> slots;
  size_t used = 0;

  explicit InScope(size_t n) { slots.resize(std::bit_ceil(std::max<size_t>(16, 2 * n))); }
  Slot& slot(const Stmt* s) {
    size_t mask = slots.size() - 1;
    size_t i = (size_t)(((uintptr_t)s >> 4) * 0x9E3779B97F4A7C15ull >> 20) & mask;
    while (slots[i].s && slots[i].s != s) i = (i + 1) & mask;
    return slots[i];
  }
  bool has(const Stmt* s) { return slot(s).in; }
  void leave(const Stmt* s) { slot(s).in = false; }
  void enter(const Stmt* s) {
    if (2 * (used + 1) > slots.size()) grow();
    Slot& e = slot(s);
    if (!e.s) used++;
    e = {s, true};
  }
  void grow() {
    std::vector<Slot> old(slots.size() * 2);
    old.swap(slots);
    used = 0;
    for (const Slot& e : old)
      if (e.s) {
        Slot& n = slot(e.s);
        n = e;
        used++;
      }
  }
};

struct Verifier {
  const Kernel& k;
  InScope visible;
  std::vector<const Stmt*> defined;  // definitions of the open blocks, innermost block's last
  std::vector<const Stmt*> loops;  // enclosing loop-like statements, innermost last

  [[noreturn]] void fail(const Stmt* s, const std::string& what) {
    throw Error("InternalError", what + " at $" + (s ? std::to_string(s->id) : std::string("?")));
  }
  std::string tn(const Type& t) { return type_name(t); }

  // Checks `b`; its definitions go out of scope at its end unless `keep`
  // collects them (a TLS prologue's stay visible in the body and epilogue).
  void block(const Block& b, const Stmt* owner, std::vector<const Stmt*>* keep = nullptr) {
    KILN_VERIFY(b.owner == owner, owner ? owner : (b.stmts.empty() ? nullptr : b.stmts[0].get()),
          "block owner link is wrong");
    size_t mark = defined.size();
    for (auto& up : b.stmts) {
      const Stmt* s = up.get();
      KILN_VERIFY(s != nullptr, owner, "null statement");
      KILN_VERIFY(s->parent == &b, s, "statement's parent is not its block");
      stmt(*s);
      visible.enter(s);
      defined.push_back(s);
    }
    if (keep) keep->insert(keep->end(), defined.begin() + (ptrdiff_t)mark, defined.end());
    else for (size_t i = mark; i < defined.size(); i++) visible.leave(defined[i]);
    defined.resize(mark);
  }

  void arity(const Stmt* s, size_t n) {
    if (s->ops.size() != n)
      fail(s, std::string(stmt_kind_name(s->kind)) + " takes " + std::to_string(n) + " operands, has " +
                  std::to_string(s->ops.size()));
  }

  void stmt(const Stmt& st) {
    const Stmt* s = &st;
    for (const Stmt* op : s->ops) {
      KILN_VERIFY(op != nullptr, s, "null operand");
      KILN_VERIFY(visible.has(op), s, "operand $" + std::to_string(op->id) + " is not defined before its use");
      KILN_VERIFY(op->has_value() || (s->kind == StmtKind::call_ret && op->kind == StmtKind::call), s,
                  "operand $" + std::to_string(op->id) + " has no value");
    }
    bool wants_value = true;
    switch (s->kind) {
      case StmtKind::const_:
        arity(s, 0);
        KILN_VERIFY(s->type.is_scalar() && s->type.prim == s->value.prim, s, "const type differs from its value's");
        break;
      case StmtKind::arg_load:
        arity(s, 0);
        KILN_VERIFY(s->index >= 0 && (size_t)s->index < k.args.size(), s, "argument number out of range");
        break;
      case StmtKind::unary: unary(s); break;
      case StmtKind::binary: binary(s); break;
      case StmtKind::select:
        arity(s, 3);
        KILN_VERIFY(prim_is_int(s->ops[0]->type.prim) && !s->ops[0]->type.is_ptr &&
                  (s->ops[0]->type.rows == 0 || (s->ops[0]->type.rows == s->type.rows && s->ops[0]->type.cols == s->type.cols)),
              s, "select condition is not an integer scalar or a tensor of the select's shape");
        KILN_VERIFY(s->ops[1]->type == s->type && s->ops[2]->type == s->type, s, "select operand types differ from its type");
        break;
      case StmtKind::fma:
        arity(s, 3);
        KILN_VERIFY(s->type.is_scalar() && (s->type.prim == Prim::f32 || s->type.prim == Prim::f64), s,
                    "fma of a type other than f32 or f64");
        for (const Stmt* o : s->ops) KILN_VERIFY(o->type == s->type, s, "fma operand types differ from its type");
        break;
      case StmtKind::matrix_init: {
        int n = s->type.rows * std::max<int>(1, s->type.cols);
        KILN_VERIFY(s->type.rows > 0 && !s->type.is_ptr, s, "matrix init of a non-tensor type");
        KILN_VERIFY((int)s->ops.size() == n, s, "matrix init has " + std::to_string(s->ops.size()) + " elements for " + tn(s->type));
        for (const Stmt* e : s->ops) KILN_VERIFY(e->type == Type::scalar(s->type.prim), s, "matrix init element of another type");
        break;
      }
      case StmtKind::matrix_extract: {
        arity(s, 1);
        const Type& t = s->ops[0]->type;
        KILN_VERIFY(t.rows > 0, s, "matrix extract from a non-tensor");
        KILN_VERIFY(s->index >= 0 && s->index < t.rows * std::max<int>(1, t.cols), s, "matrix extract index out of range");
        KILN_VERIFY(s->type == Type::scalar(t.prim), s, "matrix extract type differs from the element type");
        break;
      }
      case StmtKind::alloca:
        arity(s, 0);
        KILN_VERIFY(!s->type.is_ptr, s, "alloca of a pointer");
        break;
      case StmtKind::local_load:
        arity(s, 1);
        KILN_VERIFY(s->ops[0]->kind == StmtKind::alloca, s, "local load of a non-alloca");
        KILN_VERIFY(s->ops[0]->type == s->type, s, "local load type differs from the alloca's");
        break;
      case StmtKind::local_store:
        wants_value = false;
        arity(s, 2);
        KILN_VERIFY(s->ops[0]->kind == StmtKind::alloca, s, "local store to a non-alloca");
        if (s->ops[0]->type.rows && !s->ops[1]->type.rows) {
          // An element store (before scalarize): element `index` of a tensor local.
          const Type& t = s->ops[0]->type;
          KILN_VERIFY(s->ops[1]->type == Type::scalar(t.prim), s, "element store of " + tn(s->ops[1]->type) + " into " + tn(t));
          KILN_VERIFY(s->index >= 0 && s->index < t.rows * (t.cols ? t.cols : 1), s, "element store index out of range");
          break;
        }
        KILN_VERIFY(s->ops[1]->type == s->ops[0]->type, s,
              "stored " + tn(s->ops[1]->type) + " into a local of " + tn(s->ops[0]->type));
        break;
      case StmtKind::global_ptr:
        KILN_VERIFY(s->type.is_ptr, s, "global ptr type is not a pointer");
        for (const Stmt* i : s->ops) KILN_VERIFY(is_int_scalar(i->type), s, "global ptr index is not an integer");
        for (auto& t : s->access->terms)
          KILN_VERIFY(t.axis >= 0 && (size_t)t.axis < s->ops.size(), s, "access term names a missing index");
        // A cell's address: the struct-for's (struct_for_access), or computed
        // from it for a block's cells (the frontend's row loops).
        if (s->access->in_cell)
          KILN_VERIFY(s->ops.size() == 1 && s->ops[0]->type == Type::scalar(Prim::i64), s,
                      "a cell access whose operand is not a cell address (i64)");
        break;
      case StmtKind::global_temp:
        arity(s, 0);
        KILN_VERIFY(s->type.is_ptr, s, "global tmp var type is not a pointer");
        KILN_VERIFY(s->index >= 0 && s->index < k.num_global_temps, s, "global tmp slot out of range");
        break;
      case StmtKind::global_load:
        arity(s, 1);
        KILN_VERIFY(s->ops[0]->type.is_ptr, s, "global load from a non-pointer");
        KILN_VERIFY(pointee(s->ops[0]->type) == s->type, s, "global load type differs from the pointee's");
        break;
      case StmtKind::global_store:
        wants_value = false;
        arity(s, 2);
        KILN_VERIFY(s->ops[0]->type.is_ptr, s, "global store to a non-pointer");
        KILN_VERIFY(pointee(s->ops[0]->type) == s->ops[1]->type, s,
              "stored " + tn(s->ops[1]->type) + " through " + tn(s->ops[0]->type));
        break;
      case StmtKind::atomic:
        arity(s, 2);
        // On global memory, or on a local (ti.atomic_add(local, v); reductions
        // into a local that offloading later moves to a global temporary).
        KILN_VERIFY(s->ops[0]->type.is_ptr || s->ops[0]->kind == StmtKind::alloca, s, "atomic on a non-pointer");
        {
          Type target = s->ops[0]->type;
          target.is_ptr = false;
          KILN_VERIFY(target == s->ops[1]->type && s->type == s->ops[1]->type, s, "atomic operand types differ");
        }
        break;
      case StmtKind::if_:
        wants_value = false;
        arity(s, 1);
        KILN_VERIFY(is_int_scalar(s->ops[0]->type), s, "if condition is not an integer scalar");
        KILN_VERIFY(s->body != nullptr, s, "if without a body");
        break;
      case StmtKind::while_:
        wants_value = false;
        arity(s, 0);
        KILN_VERIFY(s->body != nullptr, s, "while without a body");
        break;
      case StmtKind::range_for:
        wants_value = false;
        arity(s, 2);
        KILN_VERIFY(is_int_scalar(s->ops[0]->type) && s->ops[1]->type == s->ops[0]->type, s,
              "range bounds are not integers of one type");
        KILN_VERIFY(s->body != nullptr, s, "for without a body");
        break;
      case StmtKind::loop_index: {
        arity(s, 0);
        KILN_VERIFY(is_int_scalar(s->type), s, "loop index is not an integer");
        bool enclosing = false;
        for (auto* l : loops) enclosing |= l == s->loop;
        KILN_VERIFY(s->loop && enclosing && s->loop->kind != StmtKind::while_, s, "loop index of a loop that does not enclose it");
        int n = s->loop->kind == StmtKind::range_for && s->loop->snode < 0 ? 1 : s->loop->rare().num_loop_indices;
        bool struct_for = s->loop->kind == StmtKind::offloaded ? s->loop->task == Task::struct_for : s->loop->snode >= 0;
        if (struct_for) n++;  // the cell's address
        KILN_VERIFY(s->index >= 0 && s->index < n, s, "loop index number out of range");
        break;
      }
      case StmtKind::break_:
      case StmtKind::continue_: {
        wants_value = false;
        arity(s, 0);
        // The innermost loop-like statement; break cannot leave a task.
        const Stmt* inner = loops.empty() ? nullptr : loops.back();
        KILN_VERIFY(inner && s->loop == inner, s, std::string(stmt_kind_name(s->kind)) + " does not name the innermost loop");
        KILN_VERIFY(s->kind == StmtKind::continue_ || inner->kind != StmtKind::offloaded, s, "break out of an offloaded task");
        break;
      }
      case StmtKind::print:
        wants_value = false;
        for (auto& p : s->rare().print_parts)
          if (p.is_value) KILN_VERIFY(p.op >= 0 && (size_t)p.op < s->ops.size(), s, "print part names a missing operand");
        break;
      case StmtKind::random:
        arity(s, 1);
        KILN_VERIFY(is_int_scalar(s->ops[0]->type), s, "random stream key is not an integer scalar");
        KILN_VERIFY(s->type.is_scalar() && prim_bits(s->type.prim) >= 32, s, "random draws f32, f64 or 32/64-bit ints");
        break;
      case StmtKind::assert_:
        wants_value = false;
        KILN_VERIFY(!s->ops.empty() && is_int_scalar(s->ops[0]->type), s, "assert condition is not an integer scalar");
        break;
      case StmtKind::return_: wants_value = false; break;
      case StmtKind::call:
        wants_value = false;
        KILN_VERIFY(s->index >= 0, s, "call of no function");
        for (const Stmt* a : s->ops) KILN_VERIFY(a->type.is_scalar() && !a->type.is_ptr, s, "call argument is not a scalar");
        break;
      case StmtKind::call_ret:
        arity(s, 1);
        KILN_VERIFY(s->ops[0]->kind == StmtKind::call && s->index >= 0, s, "call result of no call");
        KILN_VERIFY(s->type.is_scalar(), s, "call result is not a scalar");
        break;
      case StmtKind::snode_op: {
        bool gives = s->sop == SNodeOpKind::is_active || s->sop == SNodeOpKind::append || s->sop == SNodeOpKind::length;
        wants_value = gives;
        KILN_VERIFY(s->snode >= 0, s, "snode op without an SNode");
        for (const Stmt* i : s->ops) KILN_VERIFY(is_int_scalar(i->type), s, "snode op index is not an integer");
        break;
      }
      case StmtKind::shared_array:
        arity(s, 0);
        KILN_VERIFY(s->type.is_ptr && s->index > 0, s, "shared array without a pointer type or elements");
        break;
      case StmtKind::shared_ptr:
        KILN_VERIFY(s->ops.size() >= 2 && s->ops[0]->kind == StmtKind::shared_array, s, "shared ptr into no shared array");
        KILN_VERIFY(s->type == s->ops[0]->type, s, "shared ptr type differs from its array's");
        KILN_VERIFY(s->ops.size() - 1 == s->ops[0]->access->shape.size(), s, "shared ptr index count differs from the array's axes");
        for (size_t i = 1; i < s->ops.size(); i++) KILN_VERIFY(is_int_scalar(s->ops[i]->type), s, "shared ptr index is not an integer");
        break;
      case StmtKind::simt:
        KILN_VERIFY(s->index >= 0 && s->index < kSimtCudaEnd, s, "simt op out of range");
        wants_value = simt_op_has_value((SimtOp)s->index);  // vm/ir/simt.h: ir.h's list and CUDA's
        for (const Stmt* o : s->ops) KILN_VERIFY(o->type.is_scalar(), s, "simt operand is not a scalar");
        break;
      case StmtKind::stop_grad:
        arity(s, 1);
        KILN_VERIFY(s->type == s->ops[0]->type, s, "stop grad changes the type");
        break;
      case StmtKind::ad_stack:
        arity(s, 0);
        KILN_VERIFY(s->type.is_scalar() && s->index > 0, s, "ad stack of a non-scalar or without capacity");
        break;
      case StmtKind::ad_push:
        wants_value = false;
        arity(s, 2);
        KILN_VERIFY(s->ops[0]->kind == StmtKind::ad_stack && s->ops[1]->type == s->ops[0]->type, s, "ad push of the wrong type");
        break;
      case StmtKind::ad_pop:
        wants_value = false;
        arity(s, 1);
        KILN_VERIFY(s->ops[0]->kind == StmtKind::ad_stack, s, "ad pop of a non-stack");
        break;
      case StmtKind::ad_top:
        arity(s, 1);
        KILN_VERIFY(s->ops[0]->kind == StmtKind::ad_stack && s->type == s->ops[0]->type, s, "ad top of the wrong type");
        break;
      case StmtKind::offloaded:
        wants_value = false;
        arity(s, 0);
        KILN_VERIFY(s->parent == &k.root, s, "offloaded task below the kernel's top level");
        if (s->task == Task::range_for) {
          KILN_VERIFY(s->rare().begin_const || (s->begin >= 0 && s->begin < k.num_global_temps), s, "range_for begin slot out of range");
          KILN_VERIFY(s->rare().end_const || (s->end >= 0 && s->end < k.num_global_temps), s, "range_for end slot out of range");
        }
        if (s->task == Task::serial || s->task == Task::range_for || s->task == Task::struct_for)
          KILN_VERIFY(s->body != nullptr, s, "offloaded task without a body");
        break;
    }
    KILN_VERIFY(s->has_value() == wants_value, s,
          std::string(stmt_kind_name(s->kind)) + (wants_value ? " must have a type" : " must not have a type"));
    KILN_VERIFY(s->kind == StmtKind::if_ || !s->else_body, s, "else block on a non-if");
    bool tls = s->tls_prologue() || s->tls_epilogue();
    KILN_VERIFY(!tls || (s->kind == StmtKind::offloaded && (s->task == Task::range_for || s->task == Task::struct_for) &&
                   s->tls_prologue() && s->tls_epilogue()),
          s, "TLS prologue/epilogue on a statement that is not a parallel task, or only one of them");
    // The prologue and epilogue run outside the task's loop: no loop index,
    // break or continue there.
    std::vector<const Stmt*> prologue_defs;
    if (s->tls_prologue()) block(*s->tls_prologue(), s, &prologue_defs);
    if (is_loop(s)) loops.push_back(s);
    if (s->body) block(*s->body, s);
    if (s->else_body) block(*s->else_body, s);
    if (is_loop(s)) loops.pop_back();
    if (s->tls_epilogue()) block(*s->tls_epilogue(), s);
    for (auto* d : prologue_defs) visible.leave(d);
  }

  void unary(const Stmt* s) {
    arity(s, 1);
    const Type& in = s->ops[0]->type;
    // The one unary of a pointer: cast_bits to u64, its address (ti.get_addr).
    KILN_VERIFY(!in.is_ptr || (s->uop == UnaryOp::cast_bits && s->type == Type::scalar(Prim::u64)), s,
                "unary operand is a pointer");
    if (in.is_ptr) return;
    switch (s->uop) {
      case UnaryOp::cast_value: break;
      case UnaryOp::cast_bits:
        KILN_VERIFY(prim_bits(in.prim) == prim_bits(s->type.prim), s, "cast_bits between types of different widths");
        break;
      case UnaryOp::logic_not: KILN_VERIFY(prim_is_int(s->type.prim), s, "logic_not result is not an integer"); break;
      case UnaryOp::bit_not:
        KILN_VERIFY(prim_is_int(in.prim), s, "bit_not of a float");
        [[fallthrough]];
      default:
        KILN_VERIFY(s->type == in, s, std::string(unary_op_name(s->uop)) + " result " + tn(s->type) + " differs from operand " + tn(in));
    }
  }

  void binary(const Stmt* s) {
    arity(s, 2);
    const Type& a = s->ops[0]->type;
    const Type& b = s->ops[1]->type;
    KILN_VERIFY(!a.is_ptr && !b.is_ptr, s, "binary operand is a pointer");
    if (is_shift(s->bop)) {
      KILN_VERIFY(prim_is_int(a.prim) && prim_is_int(b.prim), s, "shift of a non-integer");
      KILN_VERIFY(s->type == a, s, "shift result differs from its left operand");
      return;
    }
    KILN_VERIFY(a == b, s, std::string(binary_op_name(s->bop)) + " operand types differ (" + tn(a) + " vs " + tn(b) + ")");
    if (is_comparison(s->bop)) {
      KILN_VERIFY(s->type.prim == Prim::i32 && s->type.rows == a.rows && s->type.cols == a.cols, s,
            "comparison result is not i32");
      return;
    }
    bool bitwise = s->bop == BinaryOp::bit_and || s->bop == BinaryOp::bit_or || s->bop == BinaryOp::bit_xor;
    KILN_VERIFY(!bitwise || prim_is_int(a.prim), s, "bitwise op on floats");
    KILN_VERIFY(s->type == a, s, std::string(binary_op_name(s->bop)) + " result " + tn(s->type) + " differs from operands " + tn(a));
  }
};

}  // namespace

#undef KILN_VERIFY
#define KILN_VERIFY_FUNC(cond, msg) \
  if (!(cond)) raise("InternalError", std::string("IR verification failed in ") + k.name + ": " + (msg))

void verify(const Kernel& k) {
  Verifier v{k, InScope(count_stmts(k.root)), {}, {}};
  v.block(k.root, nullptr);
  for (auto& f : k.funcs) {
    KILN_VERIFY_FUNC(f->funcs.empty(), "a real function owns functions");
    verify(*f);
  }
}
#undef KILN_VERIFY_FUNC

}  // namespace kiln::ir
