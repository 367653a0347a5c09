#include "vm/frontend/ndarray_arg.h"

#include <cstdio>

#include "vm/support/diag.h"

namespace kiln::frontend {

static std::string elements(Prim p, int n, int m) {
  std::string s(prim_name(p));
  if (n) s += m ? " " + std::to_string(n) + "x" + std::to_string(m) + " matrices" : " " + std::to_string(n) + "-vectors";
  return s;
}

void bind_ndarray(const std::string& pname, const NdarrayWant& want, Prim dt, int n, int m, int ndim,
                  const int64_t* shape, const std::string& np_dtype, ArgSpec& spec, std::string& key, SourceLoc loc) {
  if (want.prim && (*want.prim != dt || want.n != n || want.m != m))
    raise("TypeError", "ndarray argument '" + pname + "' expects elements of " + elements(*want.prim, want.n, want.m) +
                           ", got " + elements(dt, n, m) + " (" + np_dtype + ")", loc);
  if (want.ndim >= 0 && want.ndim != ndim)
    raise("TypeError", "ndarray argument '" + pname + "' expects ndim=" + std::to_string(want.ndim) +
                           ", got an array with " + std::to_string(ndim) + " dimension" + (ndim == 1 ? "" : "s"), loc);
  for (int d = 0; d < ndim; d++)
    if (shape[d] > INT32_MAX) raise("ValueError", "ndarray argument '" + pname + "' is too large for i32 indices", loc);
  spec.kind = ArgSpec::Kind::ndarray;
  spec.prim = dt;
  spec.ndim = ndim;
  spec.rows = n;
  spec.cols = m;
  // appended piece by piece: this runs on every launch with an ndarray
  char num[64];
  std::snprintf(num, sizeof num, "/%d/%dx%d|", ndim, n, m);
  key += 'N';
  key += prim_name(dt);
  key += num;
}

}  // namespace kiln::frontend
