// Trace IR text -> Emitter calls (parse.h).
#include "jit/parse.h"

#include <cstdlib>
#include <map>
#include <sstream>

#include "vm/bytecode/opcodes.h"
#include "vm/types/type.h"

namespace kiln::jit {

namespace {
const char* kCTNames[] = {"i32", "u32", "i64", "u64", "f32", "f64"};

bool find_op(const std::string& name, IrOp& op) {
  for (int i = 0; i < (int)IrOp::count_; i++)
    if (name == kIrOps[i].name) {
      op = (IrOp)i;
      return true;
    }
  return false;
}
bool find_ct(const std::string& name, bc::CT& ct) {
  for (int i = 0; i < 6; i++)
    if (name == kCTNames[i]) {
      ct = (bc::CT)i;
      return true;
    }
  return false;
}
}  // namespace

ParsedTrace parse_trace(const std::string& text, Trace& t, Emitter& e, size_t num_regs) {
  ParsedTrace out;
  out.end_regs.assign(num_regs, kNoRef);
  std::map<std::string, Ref> names;
  std::istringstream lines(text);
  std::string line;
  int lineno = 0;
  auto fail = [&](const std::string& why) {
    out.error = "line " + std::to_string(lineno) + ": " + why + ": " + line;
    return out;
  };
  while (std::getline(lines, line)) {
    lineno++;
    std::istringstream w(line);
    std::vector<std::string> tok;
    for (std::string s; w >> s;) tok.push_back(s);
    if (tok.empty() || tok[0][0] == '/') continue;
    auto value = [&](const std::string& s, Ref& r) {
      if (s[0] == '#') {
        r = e.kval((uint64_t)std::strtoull(s.c_str() + 1, nullptr, 0));
        return true;
      }
      auto it = names.find(s);
      if (it == names.end()) return false;
      r = it->second;
      return true;
    };
    auto reg_of = [&](const std::string& s, size_t& r) {
      if (s.size() < 2 || s[0] != 'r') return false;
      r = std::strtoul(s.c_str() + 1, nullptr, 10);
      return r < num_regs;
    };
    if (tok[0] == "end") {
      for (size_t i = 1; i < tok.size(); i++) {
        size_t eq = tok[i].find('='), r;
        Ref v;
        if (eq == std::string::npos || !reg_of(tok[i].substr(0, eq), r) || !value(tok[i].substr(eq + 1), v))
          return fail("bad end entry '" + tok[i] + "'");
        out.end_regs[r] = v;
      }
      continue;
    }
    std::string name;
    size_t p = 0;
    if (tok.size() > 2 && tok[1] == "=") {
      name = tok[0];
      p = 2;
    }
    IrOp op;
    if (!find_op(tok[p], op)) return fail("unknown op '" + tok[p] + "'");
    p++;
    bc::CT ct = bc::CT::i64;
    if (p < tok.size() && find_ct(tok[p], ct)) p++;
    const IrOpInfo& info = kIrOps[(int)op];
    Ref ops[3] = {kNoRef, kNoRef, kNoRef};
    int64_t k = 0;
    Ref result = kNoRef;
    if (op == IrOp::sload || op == IrOp::rload) {
      size_t r;
      if (p >= tok.size() || !reg_of(tok[p], r)) return fail("needs a register");
      result = e.emit(op, bc::CT::i64, kNoRef, kNoRef, kNoRef, (int64_t)r);
    } else if (op == IrOp::arg || op == IrOp::base || op == IrOp::gtemp || op == IrOp::faddr) {
      if (p >= tok.size()) return fail("needs an index");
      result = e.emit(op, bc::CT::i64, kNoRef, kNoRef, kNoRef, std::strtoll(tok[p].c_str(), nullptr, 0));
    } else {
      for (int j = 0; j < info.nops; j++, p++)
        if (p >= tok.size() || !value(tok[p], ops[j])) return fail("bad operand");
      if (op == IrOp::load || op == IrOp::store) {
        auto prim = p < tok.size() ? prim_from_name(tok[p]) : std::nullopt;
        if (!prim) return fail("needs a storage type");
        k = (int64_t)*prim;
        p++;
      }
      if (op == IrOp::conv) {  // its bytecode op, as the dump prints it (conv x i64_f32)
        int c = 0;
        while (p < tok.size() && c < bc::kNumOps && tok[p] != bc::op_name((bc::Op)c)) c++;
        if (c == bc::kNumOps) return fail("needs a conversion op");
        k = c;
        p++;
      }
      if (info.flags & G) {
        if (p + 2 >= tok.size() || tok[p] != "->" || tok[p + 2] != "{") return fail("needs '-> PC { ... }'");
        Snapshot s;
        s.pc = (uint32_t)std::strtoul(tok[p + 1].c_str(), nullptr, 10);
        for (p += 3; p < tok.size() && tok[p] != "}"; p++) {
          size_t eq = tok[p].find('='), r;
          Ref v;
          if (eq == std::string::npos || !reg_of(tok[p].substr(0, eq), r) || !value(tok[p].substr(eq + 1), v))
            return fail("bad snapshot entry '" + tok[p] + "'");
          s.regs.push_back({(uint16_t)r, v});
        }
        if (!e.guard(op, ops[0], ops[1], std::move(s))) return fail("a guard on constants that fails");
        continue;
      }
      if (info.flags & M) result = e.effect(op, ops[0], ops[1], k);
      else result = e.emit(op, ct, ops[0], ops[1], ops[2], k);
    }
    if (!name.empty()) names[name] = result;
  }
  return out;
}

}  // namespace kiln::jit
