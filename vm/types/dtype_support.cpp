#include "vm/types/dtype_support.h"

#include <vector>

namespace kiln {

std::optional<CastMode> cast_mode_from_name(std::string_view n) {
  if (n.empty() || n == "none") return CastMode::none;
  if (n == "upcast") return CastMode::upcast;
  if (n == "downcast") return CastMode::downcast;
  if (n == "crosscast") return CastMode::crosscast;
  if (n == "cast") return CastMode::cast;
  return std::nullopt;
}

const char* cast_mode_name(CastMode m) {
  switch (m) {
    case CastMode::none: return "none";
    case CastMode::upcast: return "upcast";
    case CastMode::downcast: return "downcast";
    case CastMode::crosscast: return "crosscast";
    case CastMode::cast: return "cast";
  }
  return "?";
}

// The group of `p`, narrowest first.
static std::vector<Prim> group_of(Prim p) {
  if (prim_is_float(p)) return {p == Prim::bf16 ? Prim::bf16 : Prim::f16, Prim::f32, Prim::f64};
  if (prim_is_signed(p)) return {Prim::i8, Prim::i16, Prim::i32, Prim::i64};
  return {Prim::u8, Prim::u16, Prim::u32, Prim::u64};
}

static std::optional<Prim> step(Prim p, const std::function<bool(Prim)>& ok, bool wider) {
  std::vector<Prim> g = group_of(p);
  size_t i = 0;
  while (i < g.size() && g[i] != p) i++;
  if (wider) {
    for (size_t j = i + 1; j < g.size(); j++)
      if (ok(g[j])) return g[j];
  } else {
    for (size_t j = i; j-- > 0;)
      if (ok(g[j])) return g[j];
  }
  return std::nullopt;
}

static std::optional<Prim> cross(Prim p, const std::function<bool(Prim)>& ok, const TypeConfig& d) {
  Prim q = prim_is_float(p) ? d.default_ip : d.default_fp;
  if (ok(q)) return q;
  return std::nullopt;
}

std::optional<Prim> map_dtype(Prim p, const std::function<bool(Prim)>& ok, CastMode mode, const TypeConfig& d) {
  if (ok(p)) return p;
  switch (mode) {
    case CastMode::none: return std::nullopt;
    case CastMode::upcast: return step(p, ok, true);
    case CastMode::downcast: return step(p, ok, false);
    case CastMode::crosscast: return cross(p, ok, d);
    case CastMode::cast:
      if (auto q = cross(p, ok, d)) return q;
      if (auto q = step(p, ok, true)) return q;
      return step(p, ok, false);
  }
  return std::nullopt;
}

bool vulkan_core_supports(Prim p) {
  return p == Prim::i32 || p == Prim::u32 || p == Prim::f16 || p == Prim::f32;
}

}  // namespace kiln
