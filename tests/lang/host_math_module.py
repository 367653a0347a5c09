# the math module
import math
from math import sqrt, pi as PI
print(math.pi, math.e, math.tau, math.inf, -math.inf, math.nan, PI)
print(sqrt(16), math.sqrt(2), math.sin(0.5), math.cos(0.5), math.tan(0.5), math.asin(0.5), math.acos(0.5), math.atan(0.5))
print(math.atan2(1, -1), math.exp(1), math.exp(-1), math.log(10), math.log(8, 2), math.log(100, 10), math.log2(1024), math.log10(0.001))
print(math.floor(2.7), math.floor(-2.7), math.ceil(2.1), math.ceil(-2.1), math.trunc(-2.7), math.floor(5), type(math.floor(2.5)).__name__)
print(math.fabs(-3), math.pow(2, 10), math.pow(2, 0.5), math.hypot(3, 4), math.hypot(1, 2, 2), math.copysign(3, -0.0))
print(math.isnan(math.nan), math.isinf(math.inf), math.isfinite(1.0), math.isclose(0.1 + 0.2, 0.3), math.isclose(1, 1.1), math.isclose(1, 1.05, rel_tol=0.1))
print(math.degrees(math.pi), math.radians(180), math.gcd(12, 18), math.gcd(0, 5), math.gcd(-4, 6), math.lcm(4, 6))
print(math.prod([1, 2, 3, 4]), math.prod([]), math.prod([0.5, 4]), math.fsum([0.1] * 10), sum([0.1] * 10), math.fsum([1e100, 1.0, -1e100]))
print(math.factorial(10), math.comb(10, 3), math.perm(5, 2), math.isqrt(99), math.fmod(-7, 2), math.modf(-2.5), math.frexp(12.0), math.ldexp(0.75, 3))
print(math.sinh(1), math.cosh(1), math.tanh(0.5), math.erf(0.5), math.gamma(5), math.expm1(1e-10), math.log1p(1e-10))
for bad in [lambda: math.sqrt(-1), lambda: math.log(0), lambda: math.exp(1000), lambda: math.acos(2), lambda: math.floor(math.inf), lambda: math.factorial(-1)]:
    try:
        bad()
    except (ValueError, OverflowError) as e:
        print(type(e).__name__, e)
