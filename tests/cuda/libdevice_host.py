#!/usr/bin/env python3
"""libdevice's math on this CPU, against glibc's (no GPU needed):

    libdevice_host.py [N]

The CUDA backend calls libdevice (__nv_sinf, __nv_exp, ...) where the CPU
engines call glibc; a tests/lang program that prints a result to all bits
then differs on the GPU wherever the two differ. This compiles the installed
libdevice.10.bc ($KILN_LIBDEVICE, or the CUDA toolkit's) for the host:
NVVMReflect with the backend's settings (no FTZ), the nvvm intrinsics and
inline PTX replaced by host functions with the same IEEE results (fma.rn,
mul.rn, div.rn, cvt.rni, 32/64-bit carry chains), and compares each function
with glibc on N random arguments (default 10^6) in a typical range, f32 and
f64. Functions that use the GPU's approximate instructions (MUFU: rcp, rsqrt,
ex2 .approx) are marked `approx`: the host has only a close stand-in for
those, so their figures are estimates; the others reproduce the GPU's bits
(atan2f: the 26 results of tests/lang/atan2_f32.py that the H200 printed
differently, session 21). Exit 77 (skipped) without libdevice or LLVM 19's
tools.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

FUNCS = ["sin", "cos", "tan", "exp", "log", "asin", "acos", "atan", "tanh", "pow", "atan2"]
BINARY = {"pow": ((0, 10), (-5, 5)), "atan2": ((-10, 10), (-10, 10))}
RANGE = {"exp": (-20, 20), "log": (0, 100), "asin": (-1, 1), "acos": (-1, 1), "tanh": (-5, 5)}
TOOLS = ["opt-19", "llvm-extract-19", "llvm-dis-19", "llc-19", "cc"]
X86_LAYOUT = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

# The nvvm intrinsics libdevice's math calls, as C on the host (FTZ variants
# too: NVVMReflect with FTZ 0 leaves them in dead branches).
RUNTIME_C = r"""
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#define F1(n, e) float kiln_nvvm_##n(float x) { return e; }
F1(floor_f, floorf(x)) F1(floor_ftz_f, floorf(x)) F1(fabs_f, fabsf(x)) F1(fabs_ftz_f, fabsf(x))
F1(trunc_f, truncf(x)) F1(round_f, rintf(x))  /* cvt.rni: nearest, ties to even */
F1(saturate_f, !(x > 0) ? 0 : x > 1 ? 1 : x) F1(saturate_ftz_f, !(x > 0) ? 0 : x > 1 ? 1 : x)
double kiln_nvvm_fabs_d(double x) { return fabs(x); }
double kiln_nvvm_trunc_d(double x) { return trunc(x); }
float kiln_nvvm_fma_rn_f(float a, float b, float c) { return fmaf(a, b, c); }
float kiln_nvvm_fma_rn_ftz_f(float a, float b, float c) { return fmaf(a, b, c); }
static float fma_rm(float a, float b, float c) {
  fesetround(FE_DOWNWARD);
  volatile float r = fmaf(a, b, c);
  fesetround(FE_TONEAREST);
  return r;
}
float kiln_nvvm_fma_rm_f(float a, float b, float c) { return fma_rm(a, b, c); }
float kiln_nvvm_fma_rm_ftz_f(float a, float b, float c) { return fma_rm(a, b, c); }
double kiln_nvvm_fma_rn_d(double a, double b, double c) { return fma(a, b, c); }
float kiln_nvvm_div_rn_f(float a, float b) { return a / b; }
float kiln_nvvm_div_rn_ftz_f(float a, float b) { return a / b; }
float kiln_nvvm_add_rn_f(float a, float b) { return a + b; }
float kiln_nvvm_add_rn_ftz_f(float a, float b) { return a + b; }
float kiln_nvvm_mul_rn_f(float a, float b) { return a * b; }
float kiln_nvvm_mul_rn_ftz_f(float a, float b) { return a * b; }
double kiln_nvvm_add_rn_d(double a, double b) { return a + b; }
double kiln_nvvm_mul_rn_d(double a, double b) { return a * b; }
static int32_t to_i32(double x) {  /* cvt.rni.s32: saturating, NaN -> 0 */
  if (x != x) return 0;
  double r = rint(x);
  return r >= 2147483647.0 ? 2147483647 : r <= -2147483648.0 ? INT32_MIN : (int32_t)r;
}
int32_t kiln_nvvm_d2i_rn(double x) { return to_i32(x); }
int32_t kiln_nvvm_f2i_rn(float x) { return to_i32(x); }
int32_t kiln_nvvm_f2i_rn_ftz(float x) { return to_i32(x); }
double kiln_nvvm_lohi_i2d(int32_t lo, int32_t hi) {
  uint64_t u = (uint64_t)(uint32_t)hi << 32 | (uint32_t)lo;
  double d;
  memcpy(&d, &u, 8);
  return d;
}
int32_t kiln_nvvm_d2i_lo(double x) { uint64_t u; memcpy(&u, &x, 8); return (int32_t)(uint32_t)u; }
int32_t kiln_nvvm_d2i_hi(double x) { uint64_t u; memcpy(&u, &x, 8); return (int32_t)(uint32_t)(u >> 32); }
/* The approximate ones (MUFU): stand-ins. rcp/rsqrt.approx.f64 give the high
   word only, as the GPU's; the f32 ones the rounded exact value. */
static double high_word(double r) { uint64_t u; memcpy(&u, &r, 8); u &= 0xffffffff00000000ull; memcpy(&r, &u, 8); return r; }
double kiln_nvvm_rcp_approx_ftz_d(double x) { return high_word(1.0 / x); }
double kiln_approx_rsqrt_d(double x) { return high_word(1.0 / sqrt(x)); }
float kiln_nvvm_rsqrt_approx_ftz_f(float x) { return (float)(1.0 / sqrt((double)x)); }
float kiln_nvvm_ex2_approx_ftz_f(float x) { return (float)exp2((double)x); }
float kiln_approx_rcp_f(float x) { return 1.0f / x; }
"""

# libdevice's inline PTX: carry chains on 32-bit halves, as i64/i128 IR.
def mad_ll(name, w):  # {lo, hi} = a * b + c, each w bits, the product 2w
    t, t2 = f"i{w}", f"i{2 * w}"
    return f"""define {{ {t}, {t} }} @{name}({t} %a, {t} %b, {t} %c) {{
  %a2 = zext {t} %a to {t2}
  %b2 = zext {t} %b to {t2}
  %c2 = zext {t} %c to {t2}
  %m = mul {t2} %a2, %b2
  %s = add {t2} %m, %c2
  %lo = trunc {t2} %s to {t}
  %h = lshr {t2} %s, {w}
  %hi = trunc {t2} %h to {t}
  %r0 = insertvalue {{ {t}, {t} }} undef, {t} %lo, 0
  %r1 = insertvalue {{ {t}, {t} }} %r0, {t} %hi, 1
  ret {{ {t}, {t} }} %r1
}}
"""


def wide_ll(name, op):  # a op b on 128 bits given as 64-bit halves
    return f"""define {{ i64, i64 }} @{name}(i64 %a0, i64 %a1, i64 %b0, i64 %b1) {{
  %a = call i128 @join(i64 %a0, i64 %a1)
  %b = call i128 @join(i64 %b0, i64 %b1)
  %s = {op} i128 %a, %b
  %lo = trunc i128 %s to i64
  %h = lshr i128 %s, 64
  %hi = trunc i128 %h to i64
  %r0 = insertvalue {{ i64, i64 }} undef, i64 %lo, 0
  %r1 = insertvalue {{ i64, i64 }} %r0, i64 %hi, 1
  ret {{ i64, i64 }} %r1
}}
"""


HELPERS_LL = mad_ll("kiln_mad32", 32) + mad_ll("kiln_mad64", 64) + wide_ll("kiln_add128", "add") + \
    wide_ll("kiln_sub128", "sub") + """
define internal i128 @join(i64 %lo, i64 %hi) {
  %l = zext i64 %lo to i128
  %h = zext i64 %hi to i128
  %hs = shl i128 %h, 64
  %v = or i128 %l, %hs
  ret i128 %v
}
define { i64, i64 } @kiln_mul128(i64 %a, i64 %b) {
  %r = call { i64, i64 } @kiln_mad64(i64 %a, i64 %b, i64 0)
  ret { i64, i64 } %r
}
declare float @kiln_approx_rcp_f(float)
declare double @kiln_approx_rsqrt_d(double)
"""

# Each inline PTX block libdevice's math uses, by a line of its text.
ASM = [("rcp.approx.ftz.f32", "float @kiln_approx_rcp_f("), ("rsqrt.approx.ftz.f64", "double @kiln_approx_rsqrt_d("),
       ("madc.hi.u32     $1", "{ i32, i32 } @kiln_mad32("), ("add.cc.u32      r0", "{ i64, i64 } @kiln_add128("),
       ("sub.cc.u32      r0", "{ i64, i64 } @kiln_sub128("),
       ("mad.lo.cc.u32   r0, alo, blo, clo", "{ i64, i64 } @kiln_mad64("),
       ("mul.lo.u32      r0, alo, blo", "{ i64, i64 } @kiln_mul128(")]

DRIVER_C = r"""
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static uint64_t s = 0x9e3779b97f4a7c15ull;
static double u(double lo, double hi) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return lo + (hi - lo) * ((s >> 11) * 0x1p-53); }
/* bits -> integers in the values' order (ulp distance: their difference) */
static int64_t k32(uint32_t b) { int64_t m = b & 0x7fffffff; return b >> 31 ? -m : m; }
static int64_t k64(uint64_t b) { int64_t m = (int64_t)(b & 0x7fffffffffffffffull); return b >> 63 ? -m : m; }
static uint32_t bf(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static uint64_t bd(double f) { uint64_t b; memcpy(&b, &f, 8); return b; }
static void report(const char* name, const char* w, long n, long d, long long m) {
  printf("%-6s %s  %7.3f%% differ  max %lld ulp\n", name, w, 100.0 * d / n, m);
}
#define CMP(BITS, KEY)                                  \
  if (BITS(g) != BITS(v) && !(isnan(g) && isnan(v))) {  \
    d++;                                                \
    long long e = llabs(KEY(BITS(g)) - KEY(BITS(v)));   \
    if (e > m) m = e;                                   \
  }
#define UNARY(n, lo, hi)                                                                                  \
  {                                                                                                   \
    float __nv_##n##f(float); double __nv_##n(double);                                                \
    long d = 0; long long m = 0;                                                                      \
    for (long i = 0; i < N; i++) { float x = (float)u(lo, hi), g = n##f(x), v = __nv_##n##f(x); CMP(bf, k32) } \
    report(#n, "f32", N, d, m); d = 0; m = 0;                                                         \
    for (long i = 0; i < N; i++) { double x = u(lo, hi), g = n(x), v = __nv_##n(x); CMP(bd, k64) } \
    report(#n, "f64", N, d, m);                                                                       \
  }
#define BINARY(n, lo, hi, lo2, hi2)                                                                       \
  {                                                                                                   \
    float __nv_##n##f(float, float); double __nv_##n(double, double);                                 \
    long d = 0; long long m = 0;                                                                      \
    for (long i = 0; i < N; i++) { float x = (float)u(lo, hi), y = (float)u(lo2, hi2), g = n##f(x, y), v = __nv_##n##f(x, y); CMP(bf, k32) } \
    report(#n, "f32", N, d, m); d = 0; m = 0;                                                         \
    for (long i = 0; i < N; i++) { double x = u(lo, hi), y = u(lo2, hi2), g = n(x, y), v = __nv_##n(x, y); CMP(bd, k64) } \
    report(#n, "f64", N, d, m);                                                                       \
  }
int main(int argc, char** argv) {
  long N = atol(argv[1]);
  CASES
  return 0;
}
"""


def run(cmd, **kw):
    subprocess.run(cmd, check=True, **kw)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
    libdevice = os.environ.get("KILN_LIBDEVICE", "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc")
    missing = [t for t in TOOLS if not shutil.which(t)]
    if not os.path.exists(libdevice) or missing:
        print("skipped: no", libdevice if missing == [] else " ".join(missing))
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        p = lambda name: os.path.join(tmp, name)
        run(["opt-19", "-mtriple=nvptx64-nvidia-cuda", "-passes=nvvm-reflect", libdevice, "-o", p("r.bc")])
        names = [f"__nv_{f}{s}" for f in FUNCS for s in ("f", "")]
        extract = ["llvm-extract-19", "--recursive", "-o", p("m.bc"), p("r.bc")] + ["--func=" + f for f in names]
        run(extract)
        run(["llvm-dis-19", p("m.bc"), "-o", p("m.ll")])
        # Again with the constant tables they read (the first pass declares them).
        tables = re.findall(r"^@([\w.$]+) = external", open(p("m.ll")).read(), re.M)
        run(extract + ["--glob=" + t for t in tables])
        run(["llvm-dis-19", p("m.bc"), "-o", p("m.ll")])
        ir = open(p("m.ll")).read()
        ir = re.sub(r'target datalayout = ".*"', f'target datalayout = "{X86_LAYOUT}"', ir)
        ir = re.sub(r'target triple = ".*"', 'target triple = "x86_64-pc-linux-gnu"', ir)
        ir = ir.replace(" addrspace(1)", "").replace("hidden ", "")
        ir = re.sub(r"@llvm\.nvvm\.([a-z0-9.]+)", lambda m: "@kiln_nvvm_" + m.group(1).replace(".", "_"), ir)

        def asm(m):
            for text, callee in ASM:
                if text in m.group(0):
                    return "call " + callee
            raise SystemExit("libdevice_host.py: unknown inline PTX: " + m.group(0)[:200])

        ir = re.sub(r'call [a-z0-9{}, ]* asm "[^"]*", "[^"]*"\(', asm, ir)
        ir = re.sub(r"define (internal )?(float|double) @__nv_", r"define \2 @__nv_", ir)
        open(p("m.ll"), "w").write(ir + HELPERS_LL)
        # Which functions reach an approximate instruction (their figures are estimates).
        bodies = {m.group(1): m.group(0) for m in re.finditer(r"^define [^@]*@([\w.$]+)\(.*?^}", ir, re.S | re.M)}

        def approx(f, seen=None):
            seen = seen or set()
            if f in seen or f not in bodies:
                return False
            seen.add(f)
            if re.search(r"@kiln_(approx_|nvvm_\w*approx)", bodies[f]):
                return True
            return any(approx(c, seen) for c in re.findall(r"call [^@]*@([\w.$]+)\(", bodies[f]))

        cases = []
        for f in FUNCS:
            if f in BINARY:
                (a, b), (c, d) = BINARY[f]
                cases.append(f"BINARY({f}, {a}, {b}, {c}, {d})")
            else:
                lo, hi = RANGE.get(f, (-10, 10))
                cases.append(f"UNARY({f}, {lo}, {hi})")
        open(p("drive.c"), "w").write(DRIVER_C.replace("CASES", "\n  ".join(cases)))
        open(p("rt.c"), "w").write(RUNTIME_C)
        run(["llc-19", "-O2", "-relocation-model=pic", "-filetype=obj", p("m.ll"), "-o", p("m.o")])
        run(["cc", "-O1", "-ffp-contract=off", "-frounding-math", "-c", p("rt.c"), "-o", p("rt.o")])
        run(["cc", "-O1", "-ffp-contract=off", p("drive.c"), p("m.o"), p("rt.o"), "-lm", "-o", p("drive")])
        out = subprocess.run([p("drive"), str(n)], check=True, capture_output=True, text=True).stdout
        print(f"libdevice ({libdevice}) against glibc, {n} random arguments each:")
        for line in out.splitlines():
            name, width = line.split()[:2]
            fn = f"__nv_{name}{'f' if width == 'f32' else ''}"
            print(line + ("  (approx: estimate)" if approx(fn) else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
