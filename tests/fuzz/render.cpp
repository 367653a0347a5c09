// Rendering of program trees (program.h) to Python source.
#include <cctype>

#include "tests/fuzz/program.h"

namespace kiln::fuzz {

const char* ti_name(Ty t) {
  switch (t) {
    case Ty::i32: return "ti.i32";
    case Ty::i64: return "ti.i64";
    case Ty::f32: return "ti.f32";
    case Ty::f64: return "ti.f64";
    default: return "ti.math.vec3";
  }
}

std::string zero_of(Ty t) {
  switch (t) {
    case Ty::i32: return "0";
    case Ty::i64: return "ti.i64(0)";
    case Ty::f32: return "0.0";
    case Ty::f64: return "ti.f64(0.0)";
    default: return "ti.math.vec3(0.0)";
  }
}

Node expr(Ty t, std::string tmpl, std::vector<Node> kids) {
  Node n;
  n.kind = Node::Expr;
  n.ty = t;
  n.tmpl = std::move(tmpl);
  n.kids = std::move(kids);
  return n;
}

Node stmt(std::string tmpl, std::vector<Node> kids, bool removable) {
  Node n;
  n.kind = Node::Stmt;
  n.tmpl = std::move(tmpl);
  n.kids = std::move(kids);
  n.removable = removable;
  return n;
}

Node block(std::vector<Node> stmts) {
  Node n;
  n.kind = Node::Block;
  n.kids = std::move(stmts);
  return n;
}

namespace {

// Replaces $0..$9 in `line` by the rendered expression kids.
std::string fill(const std::string& line, const Node& n) {
  std::string out;
  for (size_t i = 0; i < line.size(); i++) {
    if (line[i] == '$' && i + 1 < line.size() && std::isdigit((unsigned char)line[i + 1])) {
      size_t k = (size_t)(line[i + 1] - '0');
      const Node& kid = n.kids.at(k);
      out += kid.kind == Node::Expr ? fill(kid.tmpl, kid) : std::string("?");
      i++;
    } else {
      out += line[i];
    }
  }
  return out;
}

void render_block(const Node& b, int indent, std::string& out);

void render_stmt(const Node& s, int indent, std::string& out) {
  size_t start = 0;
  while (start <= s.tmpl.size()) {
    size_t end = s.tmpl.find('\n', start);
    if (end == std::string::npos) end = s.tmpl.size();
    std::string line = s.tmpl.substr(start, end - start);
    size_t lead = line.find_first_not_of(' ');
    if (lead == std::string::npos) lead = line.size();
    if (line.compare(lead, 2, "$B") == 0) {
      render_block(s.kids.at((size_t)(line[lead + 2] - '0')), indent + (int)lead / 4 + 1, out);
    } else {
      out += std::string((size_t)indent * 4, ' ') + fill(line, s) + "\n";
    }
    start = end + 1;
  }
}

void render_block(const Node& b, int indent, std::string& out) {
  bool any = false;
  for (const Node& s : b.kids) {
    render_stmt(s, indent, out);
    any = true;
  }
  if (!any) out += std::string((size_t)indent * 4, ' ') + "pass\n";
}

}  // namespace

std::string render(const Node& program) {
  std::string out;
  for (const Node& s : program.kids) render_stmt(s, 0, out);
  return out;
}

}  // namespace kiln::fuzz
