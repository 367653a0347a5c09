// Methods of str (and the small methods of int and float). Each native gets
// the receiver as args.pos[0].
#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>

#include "vm/host/evaluator.h"
#include "vm/support/format.h"

namespace kiln::host {

namespace {

const std::string& self_str(CallArgs& a) { return str_of(a.pos[0]); }

std::string arg_str(Evaluator& ev, const Value& v, const char* what, SourceLoc loc) {
  if (v.kind != Kind::Str) raise("TypeError", std::string(what) + " arg must be None or str", loc);
  return str_of(v);
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

Value do_strip(Evaluator& ev, CallArgs& a, bool left, bool right) {
  expect_args(a, "strip", 1, 2);
  const std::string& s = self_str(a);
  std::string chars;
  bool ws = a.pos.size() < 2 || a.pos[1].is_none();
  if (!ws) chars = arg_str(ev, a.pos[1], "strip", a.loc);
  auto strip_it = [&](char c) { return ws ? is_space(c) : chars.find(c) != std::string::npos; };
  size_t b = 0, e = s.size();
  if (left) while (b < e && strip_it(s[b])) b++;
  if (right) while (e > b && strip_it(s[e - 1])) e--;
  return Value::str(s.substr(b, e - b));
}

Value do_split(Evaluator& ev, CallArgs& a, bool from_right) {
  Value sepv, maxv;
  a.take_kw("sep", sepv);
  a.take_kw("maxsplit", maxv);
  if (a.pos.size() > 1) sepv = a.pos[1];
  if (a.pos.size() > 2) maxv = a.pos[2];
  int64_t maxsplit = maxv.is_none() ? -1 : arg_int(ev, maxv, "split", a.loc);
  const std::string& s = self_str(a);
  std::vector<std::string> parts;
  if (sepv.is_none()) {
    // Runs of whitespace separate; leading/trailing whitespace is dropped.
    if (!from_right) {
      size_t k = 0;
      while (true) {
        while (k < s.size() && is_space(s[k])) k++;
        if (k >= s.size()) break;
        if (maxsplit >= 0 && (int64_t)parts.size() == maxsplit) {
          size_t e = s.size();
          while (e > k && is_space(s[e - 1])) e--;
          parts.push_back(s.substr(k, e - k));
          break;
        }
        size_t b = k;
        while (k < s.size() && !is_space(s[k])) k++;
        parts.push_back(s.substr(b, k - b));
      }
    } else {
      size_t k = s.size();
      while (true) {
        while (k > 0 && is_space(s[k - 1])) k--;
        if (k == 0) break;
        if (maxsplit >= 0 && (int64_t)parts.size() == maxsplit) {
          size_t b = 0;
          while (b < k && is_space(s[b])) b++;
          parts.push_back(s.substr(b, k - b));
          break;
        }
        size_t e = k;
        while (k > 0 && !is_space(s[k - 1])) k--;
        parts.push_back(s.substr(k, e - k));
      }
      std::reverse(parts.begin(), parts.end());
    }
  } else {
    std::string sep = arg_str(ev, sepv, "split", a.loc);
    if (sep.empty()) raise("ValueError", "empty separator", a.loc);
    if (!from_right) {
      size_t b = 0;
      while (true) {
        size_t p = (maxsplit >= 0 && (int64_t)parts.size() >= maxsplit) ? std::string::npos : s.find(sep, b);
        if (p == std::string::npos) {
          parts.push_back(s.substr(b));
          break;
        }
        parts.push_back(s.substr(b, p - b));
        b = p + sep.size();
      }
    } else {
      size_t e = s.size();
      while (true) {
        size_t p = (maxsplit >= 0 && (int64_t)parts.size() >= maxsplit) || e < sep.size() ? std::string::npos
                                                                                            : s.rfind(sep, e - sep.size());
        if (p == std::string::npos) {
          parts.push_back(s.substr(0, e));
          break;
        }
        parts.push_back(s.substr(p + sep.size(), e - p - sep.size()));
        e = p;
      }
      std::reverse(parts.begin(), parts.end());
    }
  }
  std::vector<Value> out;
  for (auto& p : parts) out.push_back(Value::str(p));
  return make_list(std::move(out));
}

// The [start, end) window of str.find/count/startswith, as byte offsets (ASCII indices).
void window(Evaluator& ev, CallArgs& a, size_t first, const std::string& s, size_t& b, size_t& e) {
  int64_t n = (int64_t)s.size();
  auto norm = [&](const Value& v, int64_t def) {
    if (v.is_none()) return def;
    int64_t x = arg_int(ev, v, "slice", a.loc);
    if (x < 0) x = std::max<int64_t>(0, x + n);
    return std::min(x, n);
  };
  b = (size_t)(a.pos.size() > first ? norm(a.pos[first], 0) : 0);
  e = (size_t)(a.pos.size() > first + 1 ? norm(a.pos[first + 1], n) : n);
}

Value find_impl(Evaluator& ev, CallArgs& a, bool rev, bool raise_missing) {
  expect_args(a, "find", 2, 4);
  const std::string& s = self_str(a);
  std::string sub = arg_str(ev, a.pos[1], "find", a.loc);
  size_t b, e;
  window(ev, a, 2, s, b, e);
  size_t p = std::string::npos;
  if (e >= b && e - b >= sub.size()) {
    std::string_view w(s.data() + b, e - b);
    p = rev ? w.rfind(sub) : w.find(sub);
    if (p != std::string::npos) p += b;
  }
  if (p == std::string::npos) {
    if (raise_missing) raise("ValueError", "substring not found", a.loc);
    return Value::integer(-1);
  }
  return Value::integer((int64_t)p);
}

Value affix(Evaluator& ev, CallArgs& a, bool prefix) {
  expect_args(a, prefix ? "startswith" : "endswith", 2, 4);
  const std::string& s = self_str(a);
  size_t b, e;
  window(ev, a, 2, s, b, e);
  std::string_view w = e >= b ? std::string_view(s.data() + b, e - b) : std::string_view();
  auto test = [&](const Value& v) {
    if (v.kind != Kind::Str)
      raise("TypeError", std::string(prefix ? "startswith" : "endswith") + " first arg must be str or a tuple of str, not " + ev.type_name(v), a.loc);
    const std::string& x = str_of(v);
    return w.size() >= x.size() && (prefix ? w.substr(0, x.size()) == x : w.substr(w.size() - x.size()) == x);
  };
  if (a.pos[1].kind == Kind::Tuple) {
    for (auto& v : a.pos[1].as<TupleObj>()->items)
      if (test(v)) return Value::boolean(true);
    return Value::boolean(false);
  }
  return Value::boolean(test(a.pos[1]));
}

template <class Pred> Value all_chars(CallArgs& a, Pred p) {
  const std::string& s = self_str(a);
  if (s.empty()) return Value::boolean(false);
  for (unsigned char c : s)
    if (!p(c)) return Value::boolean(false);
  return Value::boolean(true);
}

Value pad(Evaluator& ev, CallArgs& a, char align) {
  expect_args(a, "pad", 2, 3);
  if (a.pos.size() == 3 && a.pos[2].kind != Kind::Str)
    raise("TypeError", "The fill character must be a unicode character, not " + ev.type_name(a.pos[2]), a.loc);
  std::string fill = a.pos.size() == 3 ? str_of(a.pos[2]) : " ";
  if (utf8_length(fill) != 1) raise("TypeError", "The fill character must be exactly one character long", a.loc);
  int64_t w = arg_int(ev, a.pos[1], "pad", a.loc);
  return Value::str(py_format_str(self_str(a), fill + align + std::to_string(std::max<int64_t>(w, 0))));
}

// str.format: "{}", "{0}", "{name}", "{0.attr}", "{0[k]}", "{!r}", "{:spec}", "{{", "}}".
Value str_format(Evaluator& ev, CallArgs& a) {
  const std::string& f = self_str(a);
  std::string out;
  int auto_idx = 0;
  bool used_auto = false, used_manual = false;
  std::function<std::string(const std::string&, size_t&)> field;
  auto render = [&](const std::string& text) {
    std::string r;
    for (size_t k = 0; k < text.size(); k++) {
      char c = text[k];
      if (c == '{') {
        if (k + 1 < text.size() && text[k + 1] == '{') { r += '{'; k++; continue; }
        r += field(text, k);
      } else if (c == '}') {
        if (k + 1 < text.size() && text[k + 1] == '}') { r += '}'; k++; continue; }
        raise("ValueError", "Single '}' encountered in format string", a.loc);
      } else {
        r += c;
      }
    }
    return r;
  };
  field = [&](const std::string& text, size_t& k) -> std::string {
    // k is at '{'; find the matching '}' allowing one level of nesting in the spec.
    size_t depth = 0, e = k;
    for (; e < text.size(); e++) {
      if (text[e] == '{') depth++;
      else if (text[e] == '}' && --depth == 0) break;
    }
    if (e >= text.size()) raise("ValueError", "expected '}' before end of string", a.loc);
    std::string inner = text.substr(k + 1, e - k - 1);
    k = e;
    std::string name = inner, conv, spec;
    size_t colon = std::string::npos, bang = std::string::npos;
    for (size_t i = 0; i < inner.size(); i++) {
      if (inner[i] == '[') { while (i < inner.size() && inner[i] != ']') i++; continue; }
      if (inner[i] == '!' && bang == std::string::npos && colon == std::string::npos) bang = i;
      if (inner[i] == ':') { colon = i; break; }
    }
    if (colon != std::string::npos) { spec = inner.substr(colon + 1); name = inner.substr(0, colon); }
    if (bang != std::string::npos) { conv = name.substr(bang + 1); name = name.substr(0, bang); }
    size_t head_end = name.find_first_of(".[");
    std::string head = name.substr(0, head_end);
    Value v;
    if (head.empty()) {
      if (used_manual) raise("ValueError", "cannot switch from manual field specification to automatic field numbering", a.loc);
      used_auto = true;
      size_t idx = (size_t)auto_idx++ + 1;
      if (idx >= a.pos.size())
        raise("IndexError", "Replacement index " + std::to_string(idx - 1) + " out of range for positional args tuple", a.loc);
      v = a.pos[idx];
    } else if (std::all_of(head.begin(), head.end(), [](char c) { return std::isdigit((unsigned char)c); })) {
      if (used_auto) raise("ValueError", "cannot switch from automatic field numbering to manual field specification", a.loc);
      used_manual = true;
      size_t idx = std::stoul(head) + 1;
      if (idx >= a.pos.size())
        raise("IndexError", "Replacement index " + head + " out of range for positional args tuple", a.loc);
      v = a.pos[idx];
    } else {
      bool found = false;
      for (auto& [kn, kv] : a.kw)
        if (kn == head) { v = kv; found = true; }
      if (!found) ev.raise_value(ev.make_exception(ev.exception_class("KeyError"), {Value::str(head)}), a.loc);
    }
    // .attr and [key] accessors
    for (size_t i = head_end; i != std::string::npos && i < name.size();) {
      if (name[i] == '.') {
        size_t j = name.find_first_of(".[", i + 1);
        v = ev.get_attr(v, name.substr(i + 1, j == std::string::npos ? std::string::npos : j - i - 1), a.loc);
        i = j;
      } else {
        size_t j = name.find(']', i);
        std::string key = name.substr(i + 1, j - i - 1);
        bool digits = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) { return std::isdigit((unsigned char)c); });
        v = ev.get_item(v, digits ? Value::integer(std::stoll(key)) : Value::str(key), a.loc);
        i = j == std::string::npos ? j : j + 1;
      }
    }
    if (conv == "r" || conv == "a") v = Value::str(ev.repr(v));
    else if (conv == "s") v = Value::str(ev.str(v));
    else if (!conv.empty()) raise("ValueError", "Unknown conversion specifier " + conv, a.loc);
    if (spec.find('{') != std::string::npos) spec = render(spec);
    return ev.format(v, spec, a.loc);
  };
  out = render(f);
  return Value::str(std::move(out));
}

using Table = std::unordered_map<std::string, NativeFn>;

const Table& str_table() {
  static const Table t = {
      {"format", str_format},
      {"join", [](Evaluator& ev, CallArgs& a) {
         expect_args(a, "join", 2, 2);
         std::string out;
         size_t idx = 0;
         ev.iterate(a.pos[1], a.loc, [&](const Value& x) {
           if (x.kind != Kind::Str)
             raise("TypeError", "sequence item " + std::to_string(idx) + ": expected str instance, " + ev.type_name(x) + " found", a.loc);
           if (idx++) out += self_str(a);
           out += str_of(x);
           return true;
         });
         return Value::str(std::move(out));
       }},
      {"split", [](Evaluator& ev, CallArgs& a) { return do_split(ev, a, false); }},
      {"rsplit", [](Evaluator& ev, CallArgs& a) { return do_split(ev, a, true); }},
      {"splitlines", [](Evaluator& ev, CallArgs& a) {
         const std::string& s = self_str(a);
         std::vector<Value> out;
         size_t b = 0;
         for (size_t k = 0; k < s.size(); k++) {
           if (s[k] == '\n' || s[k] == '\r') {
             out.push_back(Value::str(s.substr(b, k - b)));
             if (s[k] == '\r' && k + 1 < s.size() && s[k + 1] == '\n') k++;
             b = k + 1;
           }
         }
         if (b < s.size()) out.push_back(Value::str(s.substr(b)));
         return make_list(std::move(out));
       }},
      {"strip", [](Evaluator& ev, CallArgs& a) { return do_strip(ev, a, true, true); }},
      {"lstrip", [](Evaluator& ev, CallArgs& a) { return do_strip(ev, a, true, false); }},
      {"rstrip", [](Evaluator& ev, CallArgs& a) { return do_strip(ev, a, false, true); }},
      {"upper", [](Evaluator&, CallArgs& a) {
         std::string s = self_str(a);
         for (auto& c : s) c = (char)std::toupper((unsigned char)c);
         return Value::str(s);
       }},
      {"lower", [](Evaluator&, CallArgs& a) {
         std::string s = self_str(a);
         for (auto& c : s) c = (char)std::tolower((unsigned char)c);
         return Value::str(s);
       }},
      {"capitalize", [](Evaluator&, CallArgs& a) {
         std::string s = self_str(a);
         for (size_t k = 0; k < s.size(); k++) s[k] = (char)(k ? std::tolower((unsigned char)s[k]) : std::toupper((unsigned char)s[k]));
         return Value::str(s);
       }},
      {"title", [](Evaluator&, CallArgs& a) {
         std::string s = self_str(a);
         bool prev_alpha = false;
         for (auto& c : s) {
           bool al = std::isalpha((unsigned char)c);
           c = (char)(al && !prev_alpha ? std::toupper((unsigned char)c) : std::tolower((unsigned char)c));
           prev_alpha = al;
         }
         return Value::str(s);
       }},
      {"replace", [](Evaluator& ev, CallArgs& a) {
         expect_args(a, "replace", 3, 4);
         const std::string& s = self_str(a);
         std::string from = arg_str(ev, a.pos[1], "replace", a.loc), to = arg_str(ev, a.pos[2], "replace", a.loc);
         int64_t count = a.pos.size() == 4 ? arg_int(ev, a.pos[3], "replace", a.loc) : -1;
         std::string out;
         if (from.empty()) {
           // Inserts `to` between characters (and at both ends).
           int64_t n = 0;
           for (size_t k = 0; k <= s.size(); k++) {
             if (count < 0 || n < count) { out += to; n++; }
             if (k < s.size()) out += s[k];
           }
           return Value::str(out);
         }
         size_t b = 0;
         int64_t n = 0;
         while (count < 0 || n < count) {
           size_t p = s.find(from, b);
           if (p == std::string::npos) break;
           out += s.substr(b, p - b) + to;
           b = p + from.size();
           n++;
         }
         out += s.substr(b);
         return Value::str(out);
       }},
      {"startswith", [](Evaluator& ev, CallArgs& a) { return affix(ev, a, true); }},
      {"endswith", [](Evaluator& ev, CallArgs& a) { return affix(ev, a, false); }},
      {"find", [](Evaluator& ev, CallArgs& a) { return find_impl(ev, a, false, false); }},
      {"rfind", [](Evaluator& ev, CallArgs& a) { return find_impl(ev, a, true, false); }},
      {"index", [](Evaluator& ev, CallArgs& a) { return find_impl(ev, a, false, true); }},
      {"rindex", [](Evaluator& ev, CallArgs& a) { return find_impl(ev, a, true, true); }},
      {"count", [](Evaluator& ev, CallArgs& a) {
         expect_args(a, "count", 2, 4);
         const std::string& s = self_str(a);
         std::string sub = arg_str(ev, a.pos[1], "count", a.loc);
         size_t b, e;
         window(ev, a, 2, s, b, e);
         if (e < b) return Value::integer(0);
         std::string_view w(s.data() + b, e - b);
         if (sub.empty()) return Value::integer((int64_t)utf8_length(w) + 1);
         int64_t n = 0;
         for (size_t p = w.find(sub); p != std::string::npos; p = w.find(sub, p + sub.size())) n++;
         return Value::integer(n);
       }},
      {"isdigit", [](Evaluator&, CallArgs& a) { return all_chars(a, [](unsigned char c) { return std::isdigit(c) != 0; }); }},
      {"isnumeric", [](Evaluator&, CallArgs& a) { return all_chars(a, [](unsigned char c) { return std::isdigit(c) != 0; }); }},
      {"isdecimal", [](Evaluator&, CallArgs& a) { return all_chars(a, [](unsigned char c) { return std::isdigit(c) != 0; }); }},
      {"isalpha", [](Evaluator&, CallArgs& a) { return all_chars(a, [](unsigned char c) { return std::isalpha(c) != 0; }); }},
      {"isalnum", [](Evaluator&, CallArgs& a) { return all_chars(a, [](unsigned char c) { return std::isalnum(c) != 0; }); }},
      {"isspace", [](Evaluator&, CallArgs& a) { return all_chars(a, [](unsigned char c) { return is_space((char)c); }); }},
      {"isidentifier", [](Evaluator&, CallArgs& a) {
         const std::string& s = self_str(a);
         bool ok = !s.empty() && !std::isdigit((unsigned char)s[0]);
         for (unsigned char c : s) ok = ok && (std::isalnum(c) || c == '_');
         return Value::boolean(ok);
       }},
      {"isupper", [](Evaluator&, CallArgs& a) {
         bool cased = false;
         for (unsigned char c : self_str(a)) {
           if (std::islower(c)) return Value::boolean(false);
           if (std::isupper(c)) cased = true;
         }
         return Value::boolean(cased);
       }},
      {"islower", [](Evaluator&, CallArgs& a) {
         bool cased = false;
         for (unsigned char c : self_str(a)) {
           if (std::isupper(c)) return Value::boolean(false);
           if (std::islower(c)) cased = true;
         }
         return Value::boolean(cased);
       }},
      {"zfill", [](Evaluator& ev, CallArgs& a) {
         expect_args(a, "zfill", 2, 2);
         std::string s = self_str(a);
         int64_t w = arg_int(ev, a.pos[1], "zfill", a.loc);
         int64_t n = (int64_t)utf8_length(s);
         if (n >= w) return Value::str(s);
         size_t at = !s.empty() && (s[0] == '+' || s[0] == '-') ? 1 : 0;
         s.insert(at, std::string((size_t)(w - n), '0'));
         return Value::str(s);
       }},
      {"center", [](Evaluator& ev, CallArgs& a) { return pad(ev, a, '^'); }},
      {"ljust", [](Evaluator& ev, CallArgs& a) { return pad(ev, a, '<'); }},
      {"rjust", [](Evaluator& ev, CallArgs& a) { return pad(ev, a, '>'); }},
      {"partition", [](Evaluator& ev, CallArgs& a) {
         expect_args(a, "partition", 2, 2);
         const std::string& s = self_str(a);
         std::string sep = arg_str(ev, a.pos[1], "partition", a.loc);
         if (sep.empty()) raise("ValueError", "empty separator", a.loc);
         size_t p = s.find(sep);
         if (p == std::string::npos) return make_tuple({Value::str(s), Value::str(""), Value::str("")});
         return make_tuple({Value::str(s.substr(0, p)), Value::str(sep), Value::str(s.substr(p + sep.size()))});
       }},
      {"rpartition", [](Evaluator& ev, CallArgs& a) {
         expect_args(a, "rpartition", 2, 2);
         const std::string& s = self_str(a);
         std::string sep = arg_str(ev, a.pos[1], "rpartition", a.loc);
         if (sep.empty()) raise("ValueError", "empty separator", a.loc);
         size_t p = s.rfind(sep);
         if (p == std::string::npos) return make_tuple({Value::str(""), Value::str(""), Value::str(s)});
         return make_tuple({Value::str(s.substr(0, p)), Value::str(sep), Value::str(s.substr(p + sep.size()))});
       }},
      {"__len__", [](Evaluator&, CallArgs& a) { return Value::integer((int64_t)utf8_length(self_str(a))); }},
  };
  return t;
}

const Table& int_table() {
  static const Table t = {
      {"bit_length", [](Evaluator&, CallArgs& a) {
         int64_t v = a.pos[0].as_int();
         uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
         int64_t n = 0;
         while (u) { n++; u >>= 1; }
         return Value::integer(n);
       }},
      {"conjugate", [](Evaluator&, CallArgs& a) { return Value::integer(a.pos[0].as_int()); }},
  };
  return t;
}

const Table& float_table() {
  static const Table t = {
      {"is_integer", [](Evaluator&, CallArgs& a) {
         double d = a.pos[0].f;
         return Value::boolean(std::isfinite(d) && d == (double)(int64_t)d);
       }},
      {"conjugate", [](Evaluator&, CallArgs& a) { return a.pos[0]; }},
  };
  return t;
}

}  // namespace

const NativeFn* list_method(const std::string& name);
const NativeFn* tuple_method(const std::string& name);
const NativeFn* dict_method(const std::string& name);

const NativeFn* builtin_method(Kind k, const std::string& name) {
  const Table* t = nullptr;
  switch (k) {
    case Kind::Str: t = &str_table(); break;
    case Kind::Int: t = &int_table(); break;
    case Kind::Float: t = &float_table(); break;
    case Kind::List: return list_method(name);
    case Kind::Tuple: return tuple_method(name);
    case Kind::Dict: return dict_method(name);
    default: return nullptr;
  }
  auto it = t->find(name);
  return it == t->end() ? nullptr : &it->second;
}

}  // namespace kiln::host
