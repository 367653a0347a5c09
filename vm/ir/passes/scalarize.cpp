// Scalarize: tensors (vectors and matrices) become their elements.
//
// The frontend keeps a vector whole (`<[Tensor (3) f32]> $7 = add $5 $6`) so
// that print_ir shows the program as written; this pass rewrites each tensor
// statement as one scalar statement per element, placed where the tensor
// statement was, and forwards element reads (matrix_extract) to them. It walks
// statements in order, so a tensor's operands are always split before it.
#include <unordered_map>

#include "vm/ir/passes/passes.h"

namespace kiln::ir {

namespace {

int num_elements(const Type& t) { return t.rows * (t.cols ? t.cols : 1); }
bool is_tensor(const Type& t) { return t.rows > 0; }

struct Scalarizer {
  Kernel& k;
  std::unordered_map<const Stmt*, std::vector<Stmt*>> elems;  // tensor value -> its scalars
  std::unordered_map<const Stmt*, Stmt*> forward;             // removed extract -> element

  // The i-th element of operand `v` (a tensor already split, or a scalar
  // broadcast: select's condition may be a scalar for a tensor select).
  Stmt* elem(Stmt* v, int i) {
    auto it = elems.find(v);
    return it == elems.end() ? v : it->second.at(i);
  }

  std::unique_ptr<Stmt> like(const Stmt* s, Type t) {
    auto n = std::make_unique<Stmt>(s->kind);
    n->type = t;
    n->loc = s->loc;
    n->uop = s->uop;
    n->bop = s->bop;
    n->aop = s->aop;
    n->frame = s->frame;
    return n;
  }

  // The debugger's name of element e of a named tensor: v[1], m[0, 1].
  static std::string elem_name(const Stmt* s, size_t e) {
    if (s->name.empty()) return {};
    if (!s->type.cols) return s->name + "[" + std::to_string(e) + "]";
    return s->name + "[" + std::to_string(e / s->type.cols) + ", " + std::to_string(e % s->type.cols) + "]";
  }

  StmtList removed;  // kept alive: later operands still name them

  // Each block is rebuilt in one pass (inserting before each tensor
  // statement in place made unrolled vector code quadratic, issue 16).
  void run(Block& b) {
    StmtList in = take_all(b);
    for (auto& owned : in) {
      Stmt* s = owned.get();
      rename_operands(*s, forward);
      if (s->body) run(*s->body);
      if (s->else_body) run(*s->else_body);
      if (split(b, s)) {
        s->parent = nullptr;  // as Block::take leaves it
        removed.push_back(std::move(owned));
      } else {
        b.stmts.push_back(std::move(owned));
      }
    }
  }

  // Appends the scalar statements for `s` to `b`; false when `s` is not a
  // tensor statement (it stays, after them).
  bool split(Block& b, Stmt* s) {
    switch (s->kind) {
      case StmtKind::matrix_init:
        elems[s] = s->ops.vec();
        for (size_t e = 0; e < s->ops.size(); e++)
          if (s->ops[e]->name.empty()) {
            s->ops[e]->name = elem_name(s, e);
            s->ops[e]->var_kind = s->var_kind;
          }
        return true;
      case StmtKind::matrix_extract:
        forward[s] = elem(s->ops[0], s->index);
        return true;
      case StmtKind::local_store:
        if (is_tensor(s->ops[0]->type) && !is_tensor(s->ops[1]->type)) {  // element `index` of a tensor local
          auto st = like(s, Type::none());
          st->ops = {elem(s->ops[0], s->index), s->ops[1]};
          b.add(std::move(st));
          return true;
        }
        if (!is_tensor(s->ops[1]->type)) return false;
        {
          size_t n = num_elements(s->ops[1]->type);
          for (size_t e = 0; e < n; e++) {
            auto st = like(s, Type::none());
            st->ops = {elem(s->ops[0], (int)e), elem(s->ops[1], (int)e)};
            b.add(std::move(st));
          }
          return true;
        }
      case StmtKind::atomic:  // on a tensor local (a vector reduction): one atomic per element
      case StmtKind::alloca:
      case StmtKind::local_load:
      case StmtKind::unary:
      case StmtKind::binary:
      case StmtKind::stop_grad:
      case StmtKind::select: {
        if (!is_tensor(s->type)) return false;
        size_t n = num_elements(s->type);
        Type et = Type::scalar(s->type.prim);
        std::vector<Stmt*> out;
        for (size_t e = 0; e < n; e++) {
          auto st = like(s, et);
          if (s->kind != StmtKind::atomic) {
            st->name = elem_name(s, e);
            st->var_kind = s->var_kind;
          }
          for (Stmt* o : s->ops) st->ops.push_back(elem(o, (int)e));
          out.push_back(b.add(std::move(st)));
        }
        elems[s] = out;
        return true;
      }
      default:
        for (Stmt* o : s->ops)
          if (is_tensor(o->type))
            raise("InternalError", std::string("scalarize: ") + stmt_kind_name(s->kind) + " has a tensor operand", s->loc);
        return false;
    }
  }
};

}  // namespace

void scalarize(Kernel& k) {
  Scalarizer z{k, {}, {}, {}};
  z.run(k.root);
}

}  // namespace kiln::ir
