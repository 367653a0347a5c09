// Bytecode listings (`kiln dis`, CompiledKernel::disassemble), in the manner
// of `luajit -bl`: one line per instruction, and the source location with its
// line text whenever the source line changes.
#include <cstdio>

#include "vm/bytecode/function.h"

namespace kiln::bc {

namespace {

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    switch (ch) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      default: out += ch;
    }
  }
  return out + "\"";
}

std::string prim_str(unsigned p) {
  return p < (unsigned)kNumPrims ? std::string(prim_name((Prim)p)) : "?" + std::to_string(p);
}

std::string operand(const Function& fn, Mode m, uint16_t v, int32_t d) {
  char buf[64];
  switch (m) {
    case Mode::dst: case Mode::reg: case Mode::acc: return "r" + std::to_string(v);
    case Mode::lit: return std::to_string(v);
    case Mode::prm: return prim_str(v);
    case Mode::str:
      if (v == kNoStr) return "-";
      return v < fn.strings.size() ? quote(fn.strings[v]) : "str?" + std::to_string(v);
    case Mode::trm:
      if (v >= fn.terms.size()) return "term?" + std::to_string(v);
      std::snprintf(buf, sizeof buf, "[/%lld %%%lld *%lld]", (long long)fn.terms[v].div,
                    (long long)fn.terms[v].mod, (long long)fn.terms[v].stride);
      return buf;
    case Mode::acd:
      if (v >= fn.accesses.size()) return "access?" + std::to_string(v);
      return fn.accesses[v].field.empty() ? "field" : "field '" + fn.accesses[v].field + "'";
    case Mode::cvt: return prim_str(v & 0xff) + "->" + prim_str(v >> 8);
    case Mode::imm: return std::to_string(d);
    case Mode::kc:
    case Mode::kst: {
      uint32_t k = m == Mode::kc ? v : (uint32_t)d;
      if (k >= fn.consts.size()) return "K?" + std::to_string(k);
      std::snprintf(buf, sizeof buf, "K%u=0x%llx", k, (unsigned long long)fn.consts[k]);
      return buf;
    }
    case Mode::jmp: std::snprintf(buf, sizeof buf, "-> %04d", d); return buf;
    case Mode::arg: return "arg" + std::to_string(d);
    case Mode::ret: return "ret" + std::to_string(d);
    case Mode::tmp: return "tmp" + std::to_string(d);
    case Mode::asr:
      if ((uint32_t)d >= fn.asserts.size()) return "assert?" + std::to_string(d);
      return quote(fn.asserts[d].text);
    case Mode::sd:
      if ((uint32_t)d >= fn.strings.size()) return "str?" + std::to_string(d);
      return quote(fn.strings[d]);
    default: return "";
  }
}

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

}  // namespace

std::string format_insn(const Function& fn, uint32_t pc) {
  const Insn& in = fn.code[pc];
  const OpInfo& info = kOpInfo[(int)in.op];
  std::string name = info.name;
  if (name.size() > 1 && name.back() == '_') name.pop_back();  // assert_ -> assert
  std::string out = name;
  out.resize(std::max<size_t>(out.size() + 1, 11), ' ');
  std::string ops;
  auto add = [&](Mode m, uint16_t v) {
    if (m == Mode::___) return;
    if (!ops.empty()) ops += ", ";
    ops += operand(fn, m, v, in.d());
  };
  if (in.op == Op::call && in.a < fn.calls.size()) {  // call f#1 (r3, r4) -> r9..r10
    const CallDesc& c = fn.calls[in.a];
    out += c.name + "#" + std::to_string(c.callee) + " (";
    for (size_t i = 0; i < c.args.size(); i++) out += (i ? ", r" : "r") + std::to_string(c.args[i]);
    out += ")";
    if (c.nrets) out += " -> r" + std::to_string(c.ret_base) + (c.nrets > 1 ? "..r" + std::to_string(c.ret_base + c.nrets - 1) : "");
    return out;
  }
  add(info.a, in.a);
  add(info.b, in.b);
  if (!mode_is_d(info.b)) add(info.c, in.c);
  return ops.empty() ? name : out + ops;
}

std::string disassemble(const Function& fn) {
  std::string out;
  char buf[32];
  const SourceFile* last_file = nullptr;
  uint32_t last_line = 0;
  for (uint32_t pc = 0; pc < fn.code.size(); pc++) {
    std::snprintf(buf, sizeof buf, "%04u  ", pc);
    std::string line = buf + format_insn(fn, pc);
    SourceLoc loc = fn.loc_at(pc);
    if (loc.known() && (loc.file != last_file || loc.line != last_line)) {
      last_file = loc.file;
      last_line = loc.line;
      if (line.size() < 44) line.resize(44, ' ');
      line += " ; " + loc.file->path + ":" + std::to_string(loc.line);
      std::string src = trim(loc.file->line(loc.line));
      if (!src.empty()) line += "  " + src;
    }
    out += line + "\n";
  }
  return out;
}

std::string disassemble(const Kernel& k) {
  std::string out;
  for (size_t i = 0; i < k.tasks.size(); i++) {
    const TaskCode& t = k.tasks[i];
    out += "-- task " + std::to_string(i) + ": " + ir::task_name(t.kind);
    if (t.kind == ir::Task::range_for) {
      auto bound = [](bool is_const, int64_t v) {
        return is_const ? std::to_string(v) : "tmp" + std::to_string(v);
      };
      out += " [" + bound(t.begin_const, t.begin) + ", " + bound(t.end_const, t.end) + ")";
      if (t.serialize) out += " serialize";
    }
    out += "  " + t.fn.name + " (regs " + std::to_string(t.fn.num_regs) + ", consts " +
           std::to_string(t.fn.consts.size()) + ")\n";
    out += disassemble(t.fn);
  }
  if (k.funcs)
    for (size_t i = 0; i < k.funcs->size(); i++) {
      const Kernel& f = (*k.funcs)[i];
      out += "-- func " + f.name + "#" + std::to_string(i) + " (args " + std::to_string(f.num_args) + ", rets " +
             std::to_string(f.num_rets) + ")\n";
      for (auto& t : f.tasks) out += disassemble(t.fn);
    }
  return out;
}

}  // namespace kiln::bc
