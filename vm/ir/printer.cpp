// The seed-001 text form of the IR, what print_ir and `kiln dis` show:
//
//   kernel {
//     $0 = offloaded range_for(0, 10) grid_dim=0 block_dim=32
//     body {
//       <i32> $1 = loop $0 index 0
//       <i32> $3 = cmp_lt $1 $2
//       $6 : if $5 {
//         print $1, "\n"
//       }
//     }
//   }
//
// Statements with a value print as `<type> $id = ...`, the others as
// `$id : ...`, except print and offloaded, which Taichi prints without the
// colon form. Two spaces of indentation per nesting level.
#include <charconv>
#include <cstdio>
#include <cstdlib>

#include "vm/ir/ir.h"
#include "vm/types/value.h"

namespace kiln::ir {

namespace {

std::string shortest(double d) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d);
  return std::string(buf, r.ptr);
}

std::string shortest(float f) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, f);
  return std::string(buf, r.ptr);
}

// The fewest significant digits that read back (rounded to the 16-bit format)
// as the same value; then printed in the same style as f32/f64 constants.
std::string shortest16(double v, Prim p) {
  auto round16 = [p](double d) { return p == Prim::f16 ? round_to_f16(d) : round_to_bf16(d); };
  if (v != v || v == 0 || v - v != 0) return shortest(v);  // nan, zeros, infinities
  for (int prec = 1; prec <= 17; ++prec) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
    double back = std::strtod(buf, nullptr);
    if (round16(back) == v) return shortest(back);
  }
  return shortest(v);
}

}  // namespace

// Ints in decimal (unsigned ones as unsigned), floats as the shortest text that
// round-trips at their own width: an f32 0.1 prints "0.1", not 0.100000001.
std::string const_text(const Const& c) {
  switch (c.prim) {
    case Prim::f64: return shortest(c.f);
    case Prim::f32: return shortest((float)c.f);
    case Prim::f16:
    case Prim::bf16: return shortest16(c.f, c.prim);
    case Prim::u8: case Prim::u16: case Prim::u32: case Prim::u64: return std::to_string(c.u);
    default: return std::to_string(c.i);
  }
}

namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (ch < 0x20 || ch == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", ch);
          out += buf;
        } else {
          out += (char)ch;
        }
    }
  }
  return out + "\"";
}

std::string name(const Stmt* s) { return s ? "$" + std::to_string(s->id) : "$?"; }

std::string names(const Operands& ops, size_t from = 0) {
  std::string out;
  for (size_t i = from; i < ops.size(); ++i) {
    if (i > from) out += ", ";
    out += name(ops[i]);
  }
  return out;
}

std::string op(const Stmt* s, size_t i) { return i < s->ops.size() ? name(s->ops[i]) : "$?"; }

std::string bound(bool is_const, int64_t v) {
  // A bound read from a global temp prints its byte offset, slots being 8 bytes.
  return is_const ? std::to_string(v) : "tmp(offset=" + std::to_string(v * 8) + "B)";
}

struct Printer {
  std::string out;
  int depth = 0;

  void line(const std::string& text) {
    out.append((size_t)depth * 2, ' ');
    out += text;
    out += '\n';
  }

  void block(const Block* b) {
    if (!b) return;
    ++depth;
    for (auto& s : b->stmts) stmt(s.get());
    --depth;
  }

  // The text after `<type> $id = ` for statements with a value.
  std::string value_text(const Stmt* s) {
    switch (s->kind) {
      case StmtKind::const_: return "const [" + const_text(s->value) + "]";
      case StmtKind::arg_load: return "arg[" + std::to_string(s->index) + "]";
      case StmtKind::unary:
        if (s->uop == UnaryOp::cast_value || s->uop == UnaryOp::cast_bits)
          return std::string(unary_op_name(s->uop)) + "<" + type_name(s->type) + "> " + op(s, 0);
        return std::string(unary_op_name(s->uop)) + " " + op(s, 0);
      case StmtKind::binary: return std::string(binary_op_name(s->bop)) + " " + op(s, 0) + " " + op(s, 1);
      case StmtKind::select: return "select " + op(s, 0) + " " + op(s, 1) + " " + op(s, 2);
      case StmtKind::fma: return "fma " + op(s, 0) + " " + op(s, 1) + " " + op(s, 2);
      case StmtKind::matrix_init: return "[" + names(s->ops) + "]";
      case StmtKind::matrix_extract: return op(s, 0) + "[" + std::to_string(s->index) + "]";
      case StmtKind::alloca: return "alloca";
      case StmtKind::local_load: return "local load [" + op(s, 0) + "]";
      case StmtKind::global_ptr:
        if (s->access->in_cell)
          return "global ptr [" + s->access->snode + "], cell " + op(s, 0) + " + " + std::to_string(s->access->offset) + " B";
        return "global ptr [" + s->access->snode + "], index [" + names(s->ops) + "]" +
               (s->access->checked ? " checked" : "");
      case StmtKind::global_temp: return "global tmp var (offset = " + std::to_string(s->index * 8) + " B)";
      case StmtKind::global_load: return "global load " + op(s, 0);
      case StmtKind::atomic:
        return std::string("atomic ") + atomic_op_name(s->aop) + "(" + op(s, 0) + ", " + op(s, 1) + ")";
      case StmtKind::loop_index:
        // Seed 001 prints a struct_for's indices without naming the task.
        if (s->loop && s->loop->kind == StmtKind::offloaded && s->loop->task == Task::struct_for)
          return s->index == s->loop->rare().num_loop_indices ? "loop cell address" : "loop index " + std::to_string(s->index);
        return "loop " + name(s->loop) + " index " + std::to_string(s->index);
      case StmtKind::snode_op:
        return std::string(snode_op_name(s->sop)) + " " + s->rare().text + " [" + names(s->ops) + "]";
      case StmtKind::random: return "rand " + op(s, 0);
      case StmtKind::stop_grad: return "stop grad " + op(s, 0);
      case StmtKind::ad_stack: return "ad stack (capacity " + std::to_string(s->index) + ")";
      case StmtKind::ad_push: return "ad push [" + op(s, 0) + " <- " + op(s, 1) + "]";
      case StmtKind::ad_pop: return "ad pop [" + op(s, 0) + "]";
      case StmtKind::ad_top: return "ad top [" + op(s, 0) + "]";
      case StmtKind::call: return "call " + s->rare().text + "#" + std::to_string(s->index) + " [" + names(s->ops) + "]";
      case StmtKind::call_ret: return "call result " + op(s, 0) + " " + std::to_string(s->index);
      case StmtKind::shared_array: {
        std::string shape;
        for (int64_t d : s->access->shape) shape += (shape.empty() ? "" : ", ") + std::to_string(d);
        return "shared array " + s->access->field + " (" + shape + ")";
      }
      case StmtKind::shared_ptr: return "shared ptr " + op(s, 0) + ", index [" + names(s->ops, 1) + "]";
      case StmtKind::simt: {
        auto o = (SimtOp)s->index;
        bool scan = o == SimtOp::reduce || o == SimtOp::inclusive || o == SimtOp::exclusive;
        std::string t = std::string("simt ") + simt_op_name(o) + (scan ? std::string(" ") + atomic_op_name(s->aop) : "");
        return s->ops.empty() ? t : t + " " + names(s->ops);
      }
      default: return stmt_kind_name(s->kind);
    }
  }

  std::string print_text(const Stmt* s) {
    std::string t = "print ";
    bool first = true;
    for (auto& p : s->rare().print_parts) {
      if (!first) t += ", ";
      first = false;
      if (p.is_value) {
        t += p.op >= 0 && (size_t)p.op < s->ops.size() ? name(s->ops[p.op]) : "$?";
        if (!p.text.empty()) t += ":" + p.text;
      } else {
        t += quoted(p.text);
      }
    }
    return t;
  }

  void offloaded(const Stmt* s) {
    std::string head = name(s) + " = offloaded ";
    // The SNode a struct_for/clear_list/gc task works on, and listgen's
    // "parent->child", are carried in `text` (sparse tasks come later).
    switch (s->task) {
      case Task::serial: head += "serial"; break;
      case Task::range_for:
        head += "range_for(" + bound(s->rare().begin_const, s->begin) + ", " + bound(s->rare().end_const, s->end) +
                ") grid_dim=0 block_dim=" + std::to_string(s->rare().block_dim);
        break;
      case Task::struct_for:
        head += "struct_for(" + s->rare().text + ") block_dim=" + std::to_string(s->rare().block_dim);
        if (s->tls_prologue()) break;  // sections named, as for range_for
        // Seed 001's form: the body opens on the task's line.
        line(head + " {");
        block(s->body.get());
        line("}");
        return;
      case Task::clear_list: line(head + "clear_list " + s->rare().text); return;
      case Task::listgen: line(head + "listgen " + s->rare().text); return;
      case Task::gc: line(head + "gc (snode=" + s->rare().text + ")"); return;
    }
    line(head);
    // Taichi's section names: what runs once per chunk before the loop, each
    // iteration, once per chunk after it.
    if (s->tls_prologue()) {
      line("tls prologue {");
      block(s->tls_prologue());
      line("}");
    }
    line("body {");
    block(s->body.get());
    line("}");
    if (s->tls_epilogue()) {
      line("tls epilogue {");
      block(s->tls_epilogue());
      line("}");
    }
  }

  void stmt(const Stmt* s) {
    std::string id = name(s);
    switch (s->kind) {
      case StmtKind::local_store:
        if (s->ops[0]->type.rows && !s->ops[1]->type.rows)  // an element store
          line(id + " : local store [" + op(s, 0) + "[" + std::to_string(s->index) + "] <- " + op(s, 1) + "]");
        else
          line(id + " : local store [" + op(s, 0) + " <- " + op(s, 1) + "]");
        return;
      case StmtKind::global_store:
        line(id + " : global store [" + op(s, 0) + " <- " + op(s, 1) + "]");
        return;
      case StmtKind::if_:
        line(id + " : if " + op(s, 0) + " {");
        block(s->body.get());
        // Like Taichi after simplification: an absent or empty else is not shown.
        if (s->else_body && !s->else_body->stmts.empty()) {
          line("} else {");
          block(s->else_body.get());
        }
        line("}");
        return;
      case StmtKind::while_:
        line(id + " : while true {");
        block(s->body.get());
        line("}");
        return;
      case StmtKind::range_for:
        line(id + " : for in range(" + op(s, 0) + ", " + op(s, 1) + ") block_dim=" +
             (s->rare().block_dim == 0 ? std::string("adaptive") : std::to_string(s->rare().block_dim)) + " {");
        block(s->body.get());
        line("}");
        return;
      case StmtKind::break_: line(id + " : break"); return;
      case StmtKind::continue_: line(id + " : continue"); return;
      case StmtKind::print: line(print_text(s)); return;
      case StmtKind::assert_: {
        std::string t = id + " : assert " + op(s, 0) + ", " + quoted(s->rare().text);
        if (s->ops.size() > 1) t += ", " + names(s->ops, 1);
        line(t);
        return;
      }
      case StmtKind::return_: line(id + " : return " + names(s->ops)); return;
      case StmtKind::offloaded: offloaded(s); return;
      default:
        if (s->has_value())
          line("<" + type_name(s->type) + "> " + id + " = " + value_text(s));
        else
          line(id + " : " + value_text(s));
        return;
    }
  }
};

}  // namespace

std::string print_kernel(Kernel& k) {
  k.renumber();
  Printer p;
  p.line("kernel {");
  p.block(&k.root);
  p.line("}");
  // ti.real_func instances, by the index their calls name
  for (size_t i = 0; i < k.funcs.size(); i++) {
    Kernel& f = *k.funcs[i];
    f.renumber();
    p.line("func " + f.name + "#" + std::to_string(i) + " {");
    p.block(&f.root);
    p.line("}");
  }
  return p.out;
}

}  // namespace kiln::ir
