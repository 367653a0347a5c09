# f-strings: conversions, specs, nesting
x, y, name = 3.14159, 42, "kiln"
print(f"{x}", f"{x:.3f}", f"{x:10.2f}|", f"{x:<10.1f}|", f"{x:^10.4}|", f"{x:e}", f"{x:.2e}", f"{x:g}", f"{x:%}")
print(f"{y:d}", f"{y:5d}|", f"{y:<5}|", f"{y:05d}", f"{y:x}", f"{y:#x}", f"{y:X}", f"{y:o}", f"{y:b}", f"{y:#b}", f"{y:+d}", f"{-y: d}")
print(f"{1234567:,}", f"{1234567.891:,.2f}", f"{1234567:_}", f"{0.5:.0%}", f"{y:c}")
print(f"{name!r}", f"{name!s}", f"{name:>8}|", f"{name:*^10}", f"{name:.2}", f"{[1, 'a']!r}", f"{[1, 2]}")
w, p = 12, 3
print(f"{x:{w}.{p}f}|", f"{x:{w}}|", f"{'nested':{'>'}{w}}|")
print(f"{y} {{braces}} {y * 2} {y if y > 40 else 0} {len(name)} {name.upper()}")
print(f"{True}", f"{True:>6}", f"{None}", f"{1e20}", f"{1e-7}", f"{0.1 + 0.2}", f"{2.0:.0f}", f"{2.5:.0f}", f"{3.5:.0f}")
print(f"{-0.0}", f"{float('inf'):>6}", f"{float('nan')}", f"{1/3:.15g}", f"{123.456:.1e}", f"{100:.2f}")
d = {"k": 5}
print(f"{d['k']}", f"{d}", f"{(1, 2)}", f"{x=}" if False else "skip")
class P:
    def __init__(self, v): self.v = v
    def __str__(self): return f"P<{self.v}>"
    def __repr__(self): return f"P({self.v!r})"
p = P("a")
print(f"{p}", f"{p!r}", f"{p!s}", str(p), repr(p), [p])
