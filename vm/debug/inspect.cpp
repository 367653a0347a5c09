// Reading a stopped place: kernel variables from the register frame, host
// variables from the scope, expressions through the host evaluator, frames
// and source lines.
#include <bit>
#include <map>

#include "vm/debug/builtin_host.h"

namespace kiln::debug {

namespace {

// A kernel variable's register as a host value.
host::Value reg_value(uint64_t bits, Prim p) {
  switch (p) {
    case Prim::f16: case Prim::bf16: case Prim::f32:
      return host::Value::floating(std::bit_cast<float>((uint32_t)bits));
    case Prim::f64: return host::Value::floating(std::bit_cast<double>(bits));
    default: return host::Value::integer((int64_t)bits);
  }
}

// As the kernel's type shows it: an f32 as the shortest text that reads back
// to the same f32 (0.1, not 0.10000000149011612).
std::string reg_text(uint64_t bits, Prim p) {
  if (prim_is_float(p)) {
    double d = p == Prim::f64 ? std::bit_cast<double>(bits) : (double)std::bit_cast<float>((uint32_t)bits);
    std::string s = ir::const_text(ir::Const::of_float(p == Prim::f64 ? Prim::f64 : Prim::f32, d));
    if (s.find_first_of(".enia") == std::string::npos) s += ".0";
    return s;
  }
  if (prim_is_signed(p)) return std::to_string((int64_t)bits);
  return std::to_string(bits);
}

// The variables in scope at a kernel place, innermost binding of each name,
// grouped by what the user named: "v" gathers v[0], v[1]; "p" gathers p.mass.
struct Var {
  std::string name;   // full: "v[1]", "p.mass", "x"
  uint64_t bits = 0;
  Prim prim = Prim::i32;
};
struct Group {
  std::string base;
  std::vector<Var> parts;
  int kind = 0;  // bc::VarRange::kind of its first part
};

std::string base_of(const std::string& n) {
  size_t k = n.find_first_of("[.");
  return k == std::string::npos ? n : n.substr(0, k);
}

std::vector<Group> kernel_vars(const Place& p) {
  const bc::Function& fn = *p.fn;
  int frame = p.frame;
  std::map<std::string, const bc::VarRange*> latest;
  std::vector<std::string> order;
  for (auto& v : fn.vars) {
    if (v.frame != frame || p.pc < v.begin || p.pc >= v.end) continue;
    if (!latest.count(v.name)) order.push_back(v.name);
    latest[v.name] = &v;  // later ranges are inner scopes: they shadow
  }
  std::vector<Group> groups;
  for (auto& n : order) {
    const bc::VarRange* v = latest[n];
    std::string b = base_of(n);
    if (groups.empty() || groups.back().base != b) {
      bool found = false;
      for (auto& g : groups)
        if (g.base == b) found = true;
      if (!found) groups.push_back({b, {}, v->kind});
    }
    for (auto& g : groups)
      if (g.base == b) g.parts.push_back({n, p.R[v->reg], v->prim});
  }
  return groups;
}

// A group as text: a scalar, a vector [a, b], a matrix [[a, b], [c, d]], or a
// struct {'pos': [..], 'mass': ..}.
std::string group_text(const Group& g, const std::string& prefix) {
  if (g.parts.size() == 1 && g.parts[0].name == prefix) return reg_text(g.parts[0].bits, g.parts[0].prim);
  std::string rest0 = g.parts[0].name.substr(prefix.size());
  if (!rest0.empty() && rest0[0] == '.') {  // a struct: split by member
    std::vector<Group> members;
    for (auto& v : g.parts) {
      std::string rest = v.name.substr(prefix.size() + 1);
      std::string m = base_of(rest);
      if (members.empty() || members.back().base != m) members.push_back({m, {}});
      members.back().parts.push_back(v);
    }
    std::string s = "{";
    for (size_t i = 0; i < members.size(); i++)
      s += (i ? ", '" : "'") + members[i].base + "': " + group_text(members[i], prefix + "." + members[i].base);
    return s + "}";
  }
  bool matrix = rest0.find(',') != std::string::npos;
  std::string s = "[";
  std::string row;
  for (size_t i = 0; i < g.parts.size(); i++) {
    const std::string& n = g.parts[i].name;
    std::string r = matrix ? n.substr(prefix.size() + 1, n.find(',', prefix.size()) - prefix.size() - 1) : "";
    if (matrix && r != row) {
      if (!row.empty()) s += "], ";
      s += "[";
      row = r;
    } else if (i) {
      s += ", ";
    }
    s += reg_text(g.parts[i].bits, g.parts[i].prim);
  }
  return s + (matrix ? "]]" : "]");
}

// The same, as a host value for expressions (vectors as lists, structs as dicts).
host::Value group_value(const Group& g, const std::string& prefix) {
  if (g.parts.size() == 1 && g.parts[0].name == prefix) return reg_value(g.parts[0].bits, g.parts[0].prim);
  std::string rest0 = g.parts[0].name.substr(prefix.size());
  if (!rest0.empty() && rest0[0] == '.') {
    host::Value d = host::make_dict();
    std::vector<Group> members;
    for (auto& v : g.parts) {
      std::string m = base_of(v.name.substr(prefix.size() + 1));
      if (members.empty() || members.back().base != m) members.push_back({m, {}});
      members.back().parts.push_back(v);
    }
    for (auto& m : members) d.as<host::DictObj>()->set(host::Value::str(m.base), group_value(m, prefix + "." + m.base));
    return d;
  }
  std::vector<host::Value> items;
  bool matrix = rest0.find(',') != std::string::npos;
  std::vector<host::Value> row;
  std::string cur;
  for (auto& v : g.parts) {
    if (!matrix) {
      items.push_back(reg_value(v.bits, v.prim));
      continue;
    }
    std::string r = v.name.substr(prefix.size() + 1, v.name.find(',', prefix.size()) - prefix.size() - 1);
    if (r != cur && !row.empty()) {
      items.push_back(host::make_list(row));
      row.clear();
    }
    cur = r;
    row.push_back(reg_value(v.bits, v.prim));
  }
  if (matrix && !row.empty()) items.push_back(host::make_list(row));
  return host::make_list(items);
}

}  // namespace

int Session::kernel_depth(int f, const bc::Function& fn) const {
  int d = side->depth() + 1;
  while (f > 0 && f < (int)fn.frames.size()) {
    d++;
    f = fn.frames[f].parent;
  }
  return d;
}

std::string Session::where(const Place& p) const {
  if (!p.kernel) return side->where(p);
  int f = p.frame;
  if (f > 0 && f < (int)p.fn->frames.size()) return "ti.func '" + p.fn->frames[f].func + "'";
  return "kernel '" + (p.fn->frames.empty() ? p.fn->name : p.fn->frames[0].func) + "'";
}

std::string Session::source_line(const SourceLoc& loc) const {
  if (!loc.known()) return "";
  return std::to_string(loc.line) + "\t" + std::string(loc.file->line(loc.line)) + "\n";
}

std::string Session::list(const Place* p, int center) const {
  SourceFile whole(path, text);
  const SourceFile* f = p && p->loc.file ? p->loc.file : &whole;
  int n = (int)f->line_starts.size();
  if (center <= 0) center = p ? (int)p->loc.line : 1;
  if (center > n) return "Line number " + std::to_string(center) + " out of range; \"" + f->path + "\" has " +
                         std::to_string(n) + " lines.\n";
  int from = std::max(1, center - 5), to = std::min(n, from + 9);
  std::string out;
  for (int l = from; l <= to; l++) out += std::to_string(l) + "\t" + std::string(f->line(l)) + "\n";
  return out;
}

std::vector<FrameView> Session::frames(const Place& p) const {
  std::vector<FrameView> out;
  if (p.kernel) {
    const bc::Function& fn = *p.fn;
    Place v = p;
    while (v.frame > 0 && v.frame < (int)fn.frames.size()) {
      out.push_back({"ti.func '" + fn.frames[v.frame].func + "' (inlined)", v.loc, v});
      v.loc = fn.frames[v.frame].call;
      v.frame = fn.frames[v.frame].parent;
    }
    out.push_back({"kernel '" + (fn.frames.empty() ? fn.name : fn.frames[0].func) + "'", v.loc, v});
  }
  side->frames(p, out);
  return out;
}

std::string Session::backtrace(const Place& p) const {
  std::string out;
  int k = 0;
  for (auto& f : frames(p))
    out += "#" + std::to_string(k++) + "  " + f.name + " at " + (f.loc.file ? f.loc.file->path : "?") + ":" +
           std::to_string(f.loc.line) + "\n";
  return out;
}

namespace {

VarView group_view(const Group& g, const std::string& prefix, const std::string& label, int kind) {
  VarView v{label, group_text(g, prefix), kind, {}};
  if (g.parts.size() == 1 && g.parts[0].name == prefix) return v;
  // Children: the next level of names under prefix (v[0], p.mass, m[0, 1]).
  std::vector<Group> sub;
  std::vector<std::string> labels;
  for (auto& part : g.parts) {
    std::string rest = part.name.substr(prefix.size());
    std::string key;
    if (rest[0] == '.') key = "." + base_of(rest.substr(1));
    else key = rest.substr(0, rest.find(',') == std::string::npos ? rest.find(']') + 1 : rest.find(',')) ;
    if (sub.empty() || labels.back() != key) {
      sub.push_back({prefix + key, {}});
      labels.push_back(key);
    }
    sub.back().parts.push_back(part);
  }
  for (size_t i = 0; i < sub.size(); i++) {
    std::string child_label = labels[i][0] == '.' ? labels[i].substr(1) : labels[i] + (labels[i].back() == ']' ? "" : "]");
    if (sub[i].parts.size() == 1 && sub[i].parts[0].name == sub[i].base)
      v.children.push_back({child_label, reg_text(sub[i].parts[0].bits, sub[i].parts[0].prim), kind, {}});
    else if (labels[i][0] == '.')
      v.children.push_back(group_view(sub[i], sub[i].base, child_label, kind));
    else {  // a matrix row: its elements m[0, 0], m[0, 1]
      Group row = sub[i];
      VarView rv{child_label, "[", kind, {}};
      for (size_t j = 0; j < row.parts.size(); j++) {
        rv.value += (j ? ", " : "") + reg_text(row.parts[j].bits, row.parts[j].prim);
        rv.children.push_back({"[" + std::to_string(j) + "]", reg_text(row.parts[j].bits, row.parts[j].prim), kind, {}});
      }
      rv.value += "]";
      v.children.push_back(rv);
    }
  }
  return v;
}

}  // namespace

std::vector<VarView> Session::variables(const Place& p) {
  if (!p.kernel) return side->variables(p);
  std::vector<VarView> out;
  for (auto& g : kernel_vars(p)) out.push_back(group_view(g, g.base, g.base, g.kind));
  return out;
}

std::string Session::locals(const Place& p) {
  std::string out;
  for (auto& v : variables(p)) out += v.name + " = " + v.value + "\n";
  return out;
}

std::vector<std::pair<std::string, host::Value>> Session::kernel_values(const Place& p) const {
  std::vector<std::pair<std::string, host::Value>> out;
  for (auto& g : kernel_vars(p)) out.emplace_back(g.base, group_value(g, g.base));
  return out;
}

std::vector<std::pair<std::string, std::string>> Session::kernel_literals(const Place& p) const {
  // group_text is Python literal syntax already: lists, dicts, numbers.
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& g : kernel_vars(p)) out.emplace_back(g.base, group_text(g, g.base));
  return out;
}

std::string Session::value_text(const Place& p, const std::string& expr) {
  if (p.kernel) {
    // A variable by its own name prints in its kernel type's format.
    for (auto& g : kernel_vars(p)) {
      if (g.base == expr) return group_text(g, g.base);
      Group sub{expr, {}};
      for (auto& v : g.parts)
        if (v.name == expr || v.name.rfind(expr + "[", 0) == 0 || v.name.rfind(expr + ".", 0) == 0) sub.parts.push_back(v);
      if (!sub.parts.empty()) return group_text(sub, expr);
    }
  }
  return side->value_text(*this, p, expr);
}

}  // namespace kiln::debug
