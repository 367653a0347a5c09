// Python's number/string formatting and C printf conversions (see format.h).
//
// Floats: the digits come from std::to_chars, which is exact (shortest
// round-trip digits, or correctly rounded to a given precision); the layout of
// those digits (where the point goes, when to switch to an exponent, '.0',
// '#') follows CPython's float formatting rules, written out below.
#include "vm/support/format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "vm/support/diag.h"

namespace kiln {

namespace {

constexpr int64_t kMaxWidth = 100000000;  // see format.h

[[noreturn]] void value_error(std::string msg) { raise("ValueError", std::move(msg)); }

// Length of the UTF-8 sequence starting at s[i] (1 for an invalid byte), and
// its code point through *cp.
size_t utf8_step(std::string_view s, size_t i, uint32_t* cp) {
  unsigned char c = (unsigned char)s[i];
  int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) {
    *cp = 0xFFFFFFFF;  // invalid
    return 1;
  }
  uint32_t v = n == 1 ? c : c & (0x7F >> n);
  for (int k = 1; k < n; ++k) {
    unsigned char d = (unsigned char)s[i + k];
    if ((d & 0xC0) != 0x80) {
      *cp = 0xFFFFFFFF;
      return 1;
    }
    v = (v << 6) | (d & 0x3F);
  }
  *cp = v;
  return (size_t)n;
}

// ---- the format-spec mini-language ------------------------------------

struct PySpec {
  std::string fill;  // one code point, UTF-8; empty = not given
  char align = 0;    // < > = ^ or 0
  char sign = 0;     // + - space or 0
  bool no_neg_zero = false;  // 'z'
  bool alt = false;          // '#'
  int64_t width = -1;
  char grouping = 0;  // ',' or '_' or 0
  int64_t precision = -1;
  char type = 0;
};

bool is_align(char c) { return c == '<' || c == '>' || c == '=' || c == '^'; }

int64_t parse_number(std::string_view s, size_t* pos) {
  int64_t v = 0;
  while (*pos < s.size() && s[*pos] >= '0' && s[*pos] <= '9') {
    v = v * 10 + (s[*pos] - '0');
    if (v > kMaxWidth) value_error("Too many decimal digits in format string");
    ++*pos;
  }
  return v;
}

std::string code_text(char type) {
  unsigned char c = (unsigned char)type;
  if (c > 32 && c < 128) return std::string(1, type);
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%x", c);
  return buf;
}

// Parses `spec` the way CPython's parse_internal_render_format_spec does.
// default_align is '>' for numbers and '<' for strings: it decides whether a
// leading '0' also means '=' alignment. default_type stands in for a missing
// type letter ('d' for int, 's' for str, none for float), which is why
// format('a', ',') complains about 's'.
PySpec parse_spec(std::string_view spec, char default_align, char default_type,
                  const char* type_name) {
  PySpec f;
  f.type = default_type;
  size_t pos = 0;
  uint32_t cp;
  size_t first = spec.empty() ? 0 : utf8_step(spec, 0, &cp);
  if (spec.size() > first && is_align(spec[first])) {
    f.fill = std::string(spec.substr(0, first));
    f.align = spec[first];
    pos = first + 1;
  } else if (!spec.empty() && is_align(spec[0])) {
    f.align = spec[0];
    pos = 1;
  }
  if (pos < spec.size() && (spec[pos] == '+' || spec[pos] == '-' || spec[pos] == ' '))
    f.sign = spec[pos++];
  if (pos < spec.size() && spec[pos] == 'z') f.no_neg_zero = true, ++pos;
  if (pos < spec.size() && spec[pos] == '#') f.alt = true, ++pos;
  // A '0' before the width means zero padding: fill '0' and, for numbers
  // without an explicit alignment, padding after the sign ('=').
  if (f.fill.empty() && pos < spec.size() && spec[pos] == '0') {
    f.fill = "0";
    if (!f.align && default_align == '>') f.align = '=';
    ++pos;
  }
  size_t w0 = pos;
  int64_t w = parse_number(spec, &pos);
  if (pos > w0) f.width = w;
  if (pos < spec.size() && (spec[pos] == ',' || spec[pos] == '_')) {
    f.grouping = spec[pos++];
    if (pos < spec.size() && (spec[pos] == ',' || spec[pos] == '_'))
      value_error("Cannot specify both ',' and '_'.");
  }
  if (pos < spec.size() && spec[pos] == '.') {
    ++pos;
    size_t p0 = pos;
    f.precision = parse_number(spec, &pos);
    if (pos == p0) value_error("Format specifier missing precision");
  }
  if (spec.size() - pos > 1)
    value_error("Invalid format specifier '" + std::string(spec) + "' for object of type '" +
                type_name + "'");
  if (pos < spec.size()) f.type = spec[pos];
  if (f.grouping && f.type) {
    // PEP 378: ',' and '_' go with the decimal types (and with no type);
    // PEP 515: '_' also with b o x X, where it groups by four.
    bool decimal = std::strchr("defgEG%F", f.type) != nullptr;
    bool under_radix = f.grouping == '_' && std::strchr("boxX", f.type) != nullptr;
    if (!decimal && !under_radix)
      value_error(std::string("Cannot specify '") + f.grouping + "' with '" + code_text(f.type) +
                  "'.");
  }
  if (f.fill.empty()) f.fill = " ";
  if (!f.align) f.align = default_align;
  return f;
}

[[noreturn]] void unknown_code(char type, const char* type_name) {
  value_error("Unknown format code '" + code_text(type) + "' for object of type '" + type_name +
              "'");
}

// Inserts separators into a digit run from the right, every `group` digits.
// With min_width > 0 (zero padding with '=' alignment) the padding zeros are
// produced here too, grouped like digits, until the run is min_width wide;
// this is why format(1234, '012_') gives '0_000_001_234' (13 wide): a
// separator is never left at the front, a zero is put before it instead.
std::string group_digits(std::string_view digits, int group, char sep, int64_t min_width) {
  std::string out;  // built reversed
  int64_t remaining = (int64_t)digits.size();
  bool first = true;
  for (;;) {
    int64_t want = std::max<int64_t>(std::max<int64_t>(remaining, min_width), 1);
    int64_t len = std::min<int64_t>(group, want);
    int64_t take = std::min(remaining, len);
    if (!first && sep) out.push_back(sep);
    first = false;
    for (int64_t k = 0; k < take; ++k) out.push_back(digits[remaining - 1 - k]);
    for (int64_t k = take; k < len; ++k) out.push_back('0');
    remaining -= take;
    min_width -= len;
    if (remaining <= 0 && min_width <= 0) break;
    if (sep) min_width -= 1;
  }
  return std::string(out.rbegin(), out.rend());
}

// Puts a formatted number together: [pad][sign][prefix][pad '='][digits][rest][pad].
// `digits` is the leading run that grouping applies to; `rest` is everything
// after it (".5", "e+20", "%", or the whole text of "inf").
std::string layout_number(const PySpec& f, bool negative, std::string_view prefix,
                          std::string_view digits, std::string_view rest, int group) {
  std::string sign;
  if (negative)
    sign = "-";
  else if (f.sign == '+' || f.sign == ' ')
    sign = std::string(1, f.sign);
  int64_t fixed = (int64_t)(sign.size() + prefix.size() + utf8_length(rest));
  std::string body;
  bool zero_fill = f.fill == "0" && f.align == '=';
  if (!digits.empty()) {
    char sep = f.grouping;
    int64_t min_w = zero_fill && f.width > 0 ? f.width - fixed : 0;
    body = (sep || min_w > 0) ? group_digits(digits, group, sep, min_w) : std::string(digits);
  }
  int64_t pad = f.width - fixed - (int64_t)body.size();
  std::string left, mid, right;
  auto fill_n = [&](std::string& s, int64_t n) {
    for (int64_t k = 0; k < n; ++k) s += f.fill;
  };
  if (pad > 0) {
    switch (f.align) {
      case '<': fill_n(right, pad); break;
      case '^': fill_n(left, pad / 2), fill_n(right, pad - pad / 2); break;
      case '=': fill_n(mid, pad); break;
      default: fill_n(left, pad); break;
    }
  }
  return left + sign + std::string(prefix) + mid + body + std::string(rest) + right;
}

// ---- float digits ------------------------------------------------------

// Decimal digits of |v| and the position of the point: value = 0.DIGITS * 10^decpt.
struct Digits {
  std::string d;
  int decpt = 0;
};

// From to_chars' scientific output "d.ddde+XX".
Digits from_scientific(const char* s, size_t n) {
  Digits r;
  size_t i = 0;
  for (; i < n && s[i] != 'e'; ++i)
    if (s[i] != '.') r.d.push_back(s[i]);
  int exp = 0;
  if (i < n) std::from_chars(s + i + 1 + (s[i + 1] == '+'), s + n, exp);
  r.decpt = exp + 1;
  return r;
}

Digits shortest_digits(double a) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, a, std::chars_format::scientific);
  return from_scientific(buf, res.ptr - buf);
}

Digits precise_digits(double a, int ndigits) {
  std::vector<char> buf(ndigits + 32);
  auto res = std::to_chars(buf.data(), buf.data() + buf.size(), a, std::chars_format::scientific,
                           ndigits - 1);
  return from_scientific(buf.data(), res.ptr - buf.data());
}

std::string exponent_text(int exp, bool upper) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%c%c%02d", upper ? 'E' : 'e', exp < 0 ? '-' : '+',
                exp < 0 ? -exp : exp);
  return buf;
}

// Lays out digits in CPython's 'r' / 'g' style. `sci_above`: use an exponent
// when decpt > sci_above (or decpt <= -4). `min_digits`: digits to show at
// least (trailing zeros added; '#' with 'g'). `add_dot_0`: an integral fixed
// result gets ".0". `alt`: always show the point.
std::string layout_digits(Digits g, int sci_above, size_t min_digits, bool add_dot_0, bool alt,
                          bool upper) {
  bool use_exp = g.decpt <= -4 || g.decpt > sci_above;
  int exp = 0;
  if (use_exp) exp = g.decpt - 1, g.decpt = 1;
  int vend = (int)std::max(g.d.size(), min_digits);
  int need = g.decpt + ((add_dot_0 && !use_exp) ? 1 : 0);
  if (vend < need) vend = need;
  auto digit = [&](int i) { return i >= 0 && i < (int)g.d.size() ? g.d[i] : '0'; };
  std::string out;
  if (g.decpt <= 0) out = "0";
  for (int i = 0; i < g.decpt; ++i) out.push_back(digit(i));
  std::string frac;
  for (int i = g.decpt; i < vend; ++i) frac.push_back(digit(i));
  if (!frac.empty() || alt) out += "." + frac;
  if (use_exp) out += exponent_text(exp, upper);
  return out;
}

void strip_trailing_zeros(Digits& g) {
  while (g.d.size() > 1 && g.d.back() == '0') g.d.pop_back();
}

// The text of |v| for a float presentation type (never a sign).
std::string float_body(double a, char type, int64_t precision, bool alt, bool add_dot_0) {
  bool upper = type == 'E' || type == 'F' || type == 'G';
  if (std::isinf(a)) return upper ? "INF" : "inf";
  if (std::isnan(a)) return upper ? "NAN" : "nan";
  switch (type) {
    case 'r': {  // repr
      Digits g = shortest_digits(a);
      return layout_digits(g, 16, 0, add_dot_0, alt, false);
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E': {
      bool fixed = type == 'f' || type == 'F';
      std::vector<char> buf((size_t)precision + (fixed ? 330 : 32));
      auto res = std::to_chars(buf.data(), buf.data() + buf.size(), a,
                               fixed ? std::chars_format::fixed : std::chars_format::scientific,
                               (int)precision);
      std::string s(buf.data(), res.ptr);
      if (alt && precision == 0) {  // '#' keeps the point: "1." / "1.e+00"
        size_t e = s.find('e');
        s.insert(e == std::string::npos ? s.size() : e, ".");
      }
      if (type == 'E') {
        size_t e = s.find('e');
        if (e != std::string::npos) s[e] = 'E';
      }
      return s;
    }
    default: {  // 'g' / 'G'
      int p = precision == 0 ? 1 : (int)precision;
      Digits g = precise_digits(a, p);
      if (!alt) strip_trailing_zeros(g);
      if (a == 0.0) g.decpt = 1;
      return layout_digits(g, add_dot_0 ? p - 1 : p, alt ? (size_t)p : 0, add_dot_0, alt, upper);
    }
  }
}

bool all_zero_digits(std::string_view body) {
  for (char c : body) {
    if (c == 'e' || c == 'E') break;
    if (c >= '1' && c <= '9') return false;
  }
  return true;
}

std::string format_float(double v, const PySpec& f) {
  char type = f.type;
  bool add_dot_0 = false;
  int64_t precision = f.precision;
  int64_t default_precision = 6;
  if (type == 0) {
    add_dot_0 = true;
    type = precision < 0 ? 'r' : 'g';
    default_precision = 0;
  } else if (type == 'n') {
    type = 'g';  // C locale: no grouping, '.' as the point
  }
  bool pct = type == '%';
  if (pct) type = 'f', v *= 100;
  if (precision < 0) precision = default_precision;
  bool negative = std::signbit(v) && !std::isnan(v);  // Python never prints "-nan"
  std::string body = float_body(std::fabs(v), type, precision, f.alt, add_dot_0);
  if (negative && f.no_neg_zero && all_zero_digits(body) && std::isfinite(v)) negative = false;
  if (pct) body += "%";
  size_t run = 0;
  while (run < body.size() && body[run] >= '0' && body[run] <= '9') ++run;
  return layout_number(f, negative, "", std::string_view(body).substr(0, run),
                       std::string_view(body).substr(run), 3);
}

}  // namespace

// ---- public entry points ----------------------------------------------

size_t utf8_length(std::string_view s) {
  size_t n = 0;
  uint32_t cp;
  for (size_t i = 0; i < s.size(); i += utf8_step(s, i, &cp)) ++n;
  return n;
}

std::string utf8_encode(uint32_t cp) {
  std::string s;
  if (cp < 0x80) {
    s.push_back((char)cp);
  } else if (cp < 0x800) {
    s.push_back((char)(0xC0 | (cp >> 6)));
    s.push_back((char)(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    s.push_back((char)(0xE0 | (cp >> 12)));
    s.push_back((char)(0x80 | ((cp >> 6) & 0x3F)));
    s.push_back((char)(0x80 | (cp & 0x3F)));
  } else {
    s.push_back((char)(0xF0 | (cp >> 18)));
    s.push_back((char)(0x80 | ((cp >> 12) & 0x3F)));
    s.push_back((char)(0x80 | ((cp >> 6) & 0x3F)));
    s.push_back((char)(0x80 | (cp & 0x3F)));
  }
  return s;
}

std::string py_float_repr(double v) {
  if (std::isnan(v)) return "nan";
  std::string body = float_body(std::fabs(v), 'r', 0, false, true);
  return std::signbit(v) ? "-" + body : body;
}

std::string py_format_spec(double v, std::string_view spec) {
  if (spec.empty()) return py_float_repr(v);
  PySpec f = parse_spec(spec, '>', 0, "float");
  if (f.type && !std::strchr("eEfFgGn%", f.type)) unknown_code(f.type, "float");
  return format_float(v, f);
}

std::string py_format_spec(int64_t v, std::string_view spec) {
  PySpec f = parse_spec(spec, '>', 'd', "int");
  if (f.type && std::strchr("eEfFgG%", f.type)) return format_float((double)v, f);
  if (f.type && !std::strchr("bcdoxXn", f.type)) unknown_code(f.type, "int");
  if (f.precision >= 0) value_error("Precision not allowed in integer format specifier");
  if (f.no_neg_zero)
    value_error("Negative zero coercion (z) not allowed in integer format specifier");
  bool negative = v < 0;
  uint64_t mag = negative ? 0 - (uint64_t)v : (uint64_t)v;  // safe for INT64_MIN
  if (f.type == 'c') {
    if (f.sign) value_error("Sign not allowed with integer format specifier 'c'");
    if (f.alt) value_error("Alternate form (#) not allowed with integer format specifier 'c'");
    if (negative || mag >= 0x110000) raise("OverflowError", "%c arg not in range(0x110000)");
    return layout_number(f, false, "", "", utf8_encode((uint32_t)mag), 3);
  }
  int base = 10;
  std::string prefix;
  switch (f.type) {
    case 'b': base = 2, prefix = "0b"; break;
    case 'o': base = 8, prefix = "0o"; break;
    case 'x': base = 16, prefix = "0x"; break;
    case 'X': base = 16, prefix = "0X"; break;
  }
  if (!f.alt) prefix.clear();
  char buf[72];
  auto res = std::to_chars(buf, buf + sizeof buf, mag, base);
  std::string digits(buf, res.ptr);
  if (f.type == 'X')
    for (char& c : digits) c = (char)std::toupper((unsigned char)c);
  return layout_number(f, negative, prefix, digits, "", base == 10 ? 3 : 4);
}

std::string py_format_str(std::string_view s, std::string_view spec) {
  PySpec f = parse_spec(spec, '<', 's', "str");
  if (f.type && f.type != 's') unknown_code(f.type, "str");
  if (f.sign == ' ') value_error("Space not allowed in string format specifier");
  if (f.sign) value_error("Sign not allowed in string format specifier");
  if (f.no_neg_zero)
    value_error("Negative zero coercion (z) not allowed in string format specifier");
  if (f.alt) value_error("Alternate form (#) not allowed in string format specifier");
  if (f.align == '=') value_error("'=' alignment not allowed in string format specifier");
  std::string_view text = s;
  if (f.precision >= 0) {  // keep the first `precision` code points
    size_t i = 0;
    uint32_t cp;
    for (int64_t k = 0; k < f.precision && i < s.size(); ++k) i += utf8_step(s, i, &cp);
    text = s.substr(0, i);
  }
  int64_t pad = f.width - (int64_t)utf8_length(text);
  if (pad <= 0) return std::string(text);
  int64_t left = f.align == '>' ? pad : f.align == '^' ? pad / 2 : 0;
  std::string out;
  for (int64_t k = 0; k < left; ++k) out += f.fill;
  out += text;
  for (int64_t k = left; k < pad; ++k) out += f.fill;
  return out;
}

namespace {

// Code points Python's str.isprintable() rejects beyond the ASCII controls:
// the separators (Zs except space, Zl, Zp), the format characters (Cf, all of
// Unicode 14's), C1 controls, private use and non-characters. Unassigned code
// points (Cn) are not tracked, as that needs the Unicode database: they are
// kept as they are, where CPython would escape them.
bool non_printable(uint32_t cp) {
  if (cp < 0x20 || cp == 0x7F) return true;
  if (cp >= 0x80 && cp <= 0xA0) return true;
  if (cp == 0xAD || cp == 0x1680 || cp == 0x180E || cp == 0x202F || cp == 0x205F ||
      cp == 0x3000 || cp == 0xFEFF || cp == 0x061C || cp == 0x06DD || cp == 0x070F)
    return true;
  if ((cp >= 0x600 && cp <= 0x605) || cp == 0x890 || cp == 0x891 || cp == 0x8E2) return true;
  if (cp == 0x110BD || cp == 0x110CD || (cp >= 0x13430 && cp <= 0x1343F)) return true;
  if ((cp >= 0x1BCA0 && cp <= 0x1BCA3) || (cp >= 0x1D173 && cp <= 0x1D17A)) return true;
  if (cp >= 0x2000 && cp <= 0x200F) return true;  // spaces, ZW*, LRM/RLM
  if (cp >= 0x2028 && cp <= 0x202E) return true;  // line/para separators, bidi
  if (cp >= 0x2060 && cp <= 0x206F) return true;
  if (cp >= 0xD800 && cp <= 0xF8FF) return true;  // surrogates, private use
  if (cp >= 0xFFF9 && cp <= 0xFFFB) return true;
  if ((cp & 0xFFFE) == 0xFFFE || (cp >= 0xFDD0 && cp <= 0xFDEF)) return true;
  if (cp >= 0xE0000 && cp <= 0xE007F) return true;  // tags
  if (cp >= 0xF0000) return true;                   // supplementary private use
  return false;
}

}  // namespace

std::string py_str_repr(std::string_view s) {
  bool has_single = s.find('\'') != std::string_view::npos;
  bool has_double = s.find('"') != std::string_view::npos;
  char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  char buf[16];
  uint32_t cp;
  for (size_t i = 0; i < s.size();) {
    size_t n = utf8_step(s, i, &cp);
    if (cp == 0xFFFFFFFF) {  // a stray byte: shown, never dropped
      std::snprintf(buf, sizeof buf, "\\x%02x", (unsigned char)s[i]);
      out += buf;
    } else if (cp == '\\' || cp == (uint32_t)quote) {
      out += '\\';
      out += (char)cp;
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (non_printable(cp)) {
      const char* fmt = cp <= 0xFF ? "\\x%02x" : cp <= 0xFFFF ? "\\u%04x" : "\\U%08x";
      std::snprintf(buf, sizeof buf, fmt, cp);
      out += buf;
    } else {
      out.append(s.substr(i, n));
    }
    i += n;
  }
  out += quote;
  return out;
}

// ---- C printf ----------------------------------------------------------

std::optional<CPrintfSpec> parse_c_printf_spec(std::string_view s) {
  CPrintfSpec c;
  size_t pos = 0;
  if (pos < s.size() && s[pos] == '%') ++pos;
  while (pos < s.size() && std::strchr("-+ #0", s[pos]) && s[pos]) c.flags.push_back(s[pos++]);
  auto number = [&](int* out) {
    size_t p0 = pos;
    int64_t v = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      v = v * 10 + (s[pos++] - '0');
      if (v > kMaxWidth) return false;
    }
    if (pos > p0) *out = (int)v;
    return true;
  };
  if (!number(&c.width)) return std::nullopt;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    c.precision = 0;  // "%.f" means precision 0, as in C
    if (!number(&c.precision)) return std::nullopt;
  }
  for (const char* len : {"hh", "ll", "h", "l", "j", "z", "t", "L"}) {
    if (s.substr(pos).substr(0, std::strlen(len)) == len) {
      c.length = len;
      pos += c.length.size();
      break;
    }
  }
  if (pos < s.size() && s[pos] && std::strchr("csdioxXufFeEaAgGnp", s[pos])) c.conversion = s[pos++];
  if (pos != s.size()) return std::nullopt;
  return c;
}

namespace {

// Builds a format string from parsed (hence harmless) parts plus a fixed
// length and conversion, and runs snprintf twice: once to size, once to fill.
template <class T>
std::string run_printf(const CPrintfSpec& c, const char* length, char conv, T v) {
  std::string fmt = "%" + c.flags;
  if (c.width >= 0) fmt += std::to_string(c.width);
  if (c.precision >= 0) fmt += "." + std::to_string(c.precision);
  fmt += length;
  fmt += conv;
  int n = std::snprintf(nullptr, 0, fmt.c_str(), v);
  if (n < 0) return "";
  std::string out((size_t)n + 1, '\0');
  std::snprintf(out.data(), out.size(), fmt.c_str(), v);
  out.resize((size_t)n);
  return out;
}

bool is_float_conv(char c) { return c && std::strchr("fFeEaAgG", c); }

}  // namespace

std::string c_format_int(const CPrintfSpec& c, int64_t v) {
  if (is_float_conv(c.conversion)) return run_printf(c, "", c.conversion, (double)v);
  char conv = c.conversion && std::strchr("dioxXu", c.conversion) ? c.conversion : 'd';
  if (conv == 'd' || conv == 'i') return run_printf(c, "ll", conv, (long long)v);
  return run_printf(c, "ll", conv, (unsigned long long)v);
}

std::string c_format_uint(const CPrintfSpec& c, uint64_t v) {
  if (is_float_conv(c.conversion)) return run_printf(c, "", c.conversion, (double)v);
  char conv = c.conversion && std::strchr("oxXu", c.conversion) ? c.conversion : 'u';
  return run_printf(c, "ll", conv, (unsigned long long)v);
}

std::string c_format_double(const CPrintfSpec& c, double v) {
  char conv = is_float_conv(c.conversion) ? c.conversion : 'f';
  return run_printf(c, "", conv, v);
}

}  // namespace kiln
