// Which primitive types an engine computes with, and what to do about the
// others (seed 000's support table; seed 004's casting modes).
//
// An engine declares the types it supports. A kernel that uses another one
// fails to compile, naming the type, the engine and the line, unless
// ti.init(dtype_cast_mode=...) says how to map it:
//   upcast     the next wider supported type of the same group (u8 -> u16 ...)
//   downcast   the next narrower supported type of the same group (f64 -> f32)
//   crosscast  int <-> float: an integer type becomes default_fp, a float default_ip
//   cast       crosscast, then upcast, then downcast (seed 004's order)
// Groups: signed integers, unsigned integers, floats (bf16 sits with f16).
#pragma once
#include <functional>
#include <optional>
#include <string_view>

#include "vm/types/type.h"

namespace kiln {

enum class CastMode : uint8_t { none, upcast, downcast, crosscast, cast };

// "upcast", "downcast", "crosscast", "cast" ("" and "none" are none); nullopt otherwise.
std::optional<CastMode> cast_mode_from_name(std::string_view name);
const char* cast_mode_name(CastMode m);

// What an unsupported `p` becomes under `mode`; nullopt when the mode finds nothing.
std::optional<Prim> map_dtype(Prim p, const std::function<bool(Prim)>& supported, CastMode mode,
                              const TypeConfig& defaults);

// Seed 000's Vulkan column (types needing extensions counted as unsupported):
// i32 u32 f16 f32. Used by tests and, later, by the Vulkan engine's defaults.
bool vulkan_core_supports(Prim p);

}  // namespace kiln
