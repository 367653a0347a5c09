// np.save / np.load in numpy's NPY format, so that files round-trip with
// real numpy. We write version 1.0 exactly as numpy 1.24 does (magic,
// version, little-endian u16 header length, a Python-literal dict padded with
// spaces to a multiple of 64 bytes and ended by '\n', then the raw C-order
// data). We read versions 1.0, 2.0 and 3.0, little-endian or byte-order-free
// dtypes, C or Fortran order.
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"

namespace kiln::host {

namespace {

const char kMagic[] = "\x93NUMPY";

std::string descr_of(Prim dt) {
  switch (dt) {
    case Prim::none: return "|b1";
    case Prim::i8: return "|i1";
    case Prim::u8: return "|u1";
    case Prim::i16: return "<i2";
    case Prim::i32: return "<i4";
    case Prim::i64: return "<i8";
    case Prim::u16: return "<u2";
    case Prim::u32: return "<u4";
    case Prim::u64: return "<u8";
    case Prim::f16: return "<f2";
    case Prim::f32: return "<f4";
    case Prim::f64: return "<f8";
    default: return "";
  }
}

[[noreturn]] void os_error(const std::string& path, SourceLoc loc) {
  int e = errno;
  std::string kind = e == ENOENT ? "FileNotFoundError" : e == EACCES ? "PermissionError" : e == EISDIR ? "IsADirectoryError" : "OSError";
  raise(kind, "[Errno " + std::to_string(e) + "] " + std::strerror(e) + ": '" + path + "'", loc);
}

struct File {
  FILE* f = nullptr;
  ~File() {
    if (f) std::fclose(f);
  }
};

// The value of `key` in the header dict text: the characters after "'key':" up to the
// matching end (a quoted string, a parenthesised tuple, or a word).
std::string header_value(const std::string& h, const std::string& key, const std::string& path, SourceLoc loc) {
  size_t k = h.find("'" + key + "'");
  if (k == std::string::npos) raise("ValueError", "Header does not contain the correct keys: missing '" + key + "' in " + path, loc);
  size_t p = h.find(':', k);
  if (p == std::string::npos) raise("ValueError", "Cannot parse header: " + h, loc);
  p++;
  while (p < h.size() && h[p] == ' ') p++;
  if (p >= h.size()) raise("ValueError", "Cannot parse header: " + h, loc);
  size_t e;
  if (h[p] == '\'' || h[p] == '"') {
    e = h.find(h[p], p + 1);
    if (e == std::string::npos) raise("ValueError", "Cannot parse header: " + h, loc);
    return h.substr(p + 1, e - p - 1);
  }
  if (h[p] == '(') {
    e = h.find(')', p);
    if (e == std::string::npos) raise("ValueError", "Cannot parse header: " + h, loc);
    return h.substr(p, e - p + 1);
  }
  e = p;
  while (e < h.size() && h[e] != ',' && h[e] != '}' && h[e] != ' ') e++;
  return h.substr(p, e - p);
}

}  // namespace

void np_save(Evaluator& ev, const std::string& path, const NpArrayObj& a, SourceLoc loc) {
  std::string shape = "(";
  for (size_t k = 0; k < a.shape.size(); k++) shape += (k ? ", " : "") + std::to_string(a.shape[k]);
  shape += a.shape.size() == 1 ? ",)" : ")";
  std::string header = "{'descr': '" + descr_of(a.dtype) + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // magic(6) + version(2) + length(2) + header + padding + '\n' is a multiple of 64
  size_t total = 10 + header.size() + 1;
  header += std::string((64 - total % 64) % 64, ' ') + "\n";
  File out;
  out.f = std::fopen(path.c_str(), "wb");
  if (!out.f) os_error(path, loc);
  uint8_t pre[10];
  std::memcpy(pre, kMagic, 6);
  pre[6] = 1;
  pre[7] = 0;
  pre[8] = (uint8_t)(header.size() & 0xff);
  pre[9] = (uint8_t)(header.size() >> 8);
  bool ok = std::fwrite(pre, 1, 10, out.f) == 10 && std::fwrite(header.data(), 1, header.size(), out.f) == header.size();
  int64_t bytes = a.size() * a.itemsize();
  if (ok && a.contiguous()) {
    ok = std::fwrite(a.data(), 1, (size_t)bytes, out.f) == (size_t)bytes;
  } else if (ok) {
    auto c = np_copy(ev, a, a.dtype, loc);
    ok = std::fwrite(c->data(), 1, (size_t)bytes, out.f) == (size_t)bytes;
  }
  if (!ok || std::fflush(out.f) != 0) os_error(path, loc);
}

Value np_load(Evaluator& ev, const std::string& path, SourceLoc loc) {
  File in;
  in.f = std::fopen(path.c_str(), "rb");
  if (!in.f) os_error(path, loc);
  uint8_t pre[8];
  if (std::fread(pre, 1, 8, in.f) != 8 || std::memcmp(pre, kMagic, 6) != 0)
    raise("ValueError", "'" + path + "' is not a .npy file (Kiln's np.load reads NPY files only; no pickles or .npz)", loc);
  int major = pre[6];
  size_t hlen = 0;
  if (major == 1) {
    uint8_t l[2];
    if (std::fread(l, 1, 2, in.f) != 2) raise("ValueError", "EOF: reading array header length in '" + path + "'", loc);
    hlen = (size_t)l[0] | (size_t)l[1] << 8;
  } else if (major == 2 || major == 3) {
    uint8_t l[4];
    if (std::fread(l, 1, 4, in.f) != 4) raise("ValueError", "EOF: reading array header length in '" + path + "'", loc);
    hlen = (size_t)l[0] | (size_t)l[1] << 8 | (size_t)l[2] << 16 | (size_t)l[3] << 24;
  } else {
    raise("ValueError", "we only support format version (1,0), (2,0), and (3,0), not (" + std::to_string(major) + ", " +
                            std::to_string(pre[7]) + ")", loc);
  }
  std::string h(hlen, '\0');
  if (std::fread(h.data(), 1, hlen, in.f) != hlen) raise("ValueError", "EOF: reading array header in '" + path + "'", loc);
  std::string descr = header_value(h, "descr", path, loc);
  std::string fortran = header_value(h, "fortran_order", path, loc);
  std::string shape_text = header_value(h, "shape", path, loc);
  Prim dt = Prim::f64;
  bool found = false;
  for (Prim p : {Prim::none, Prim::i8, Prim::u8, Prim::i16, Prim::i32, Prim::i64, Prim::u16, Prim::u32, Prim::u64,
                 Prim::f16, Prim::f32, Prim::f64}) {
    std::string d = descr_of(p);
    if (descr == d || (d[0] == '<' && descr == "=" + d.substr(1)) || (d[0] == '|' && descr.size() == 3 && descr.substr(1) == d.substr(1))) {
      dt = p;
      found = true;
      break;
    }
  }
  if (!found) raise("TypeError", "Kiln's np.load does not support the dtype '" + descr + "' in '" + path + "' (little-endian numbers and bool only)", loc);
  std::vector<int64_t> shape;
  for (size_t p = 1; p < shape_text.size();) {
    while (p < shape_text.size() && (shape_text[p] == ' ' || shape_text[p] == ',')) p++;
    if (p >= shape_text.size() || shape_text[p] == ')') break;
    size_t e = p;
    while (e < shape_text.size() && std::isdigit((unsigned char)shape_text[e])) e++;
    if (e == p) raise("ValueError", "shape in header is not a tuple of ints: " + shape_text, loc);
    shape.push_back(std::stoll(shape_text.substr(p, e - p)));
    p = e;
  }
  bool f_order = fortran == "True";
  std::vector<int64_t> stored = shape;
  if (f_order) std::reverse(stored.begin(), stored.end());
  auto r = np_new(dt, stored);
  size_t bytes = (size_t)(r->size() * r->itemsize());
  if (std::fread(r->data(), 1, bytes, in.f) != bytes)
    raise("ValueError", "cannot reshape array: '" + path + "' is shorter than its header says (shape " + np_shape_str(shape) + ")", loc);
  if (!f_order) return Value::of(r);
  std::vector<int64_t> st(r->strides.rbegin(), r->strides.rend());
  return Value::of(np_view(*r, shape, st, 0));
}

}  // namespace kiln::host
