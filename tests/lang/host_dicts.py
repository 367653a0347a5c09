# dict semantics: insertion order, methods, keys of mixed types
d = {"b": 1, "a": 2}
d["c"] = 3; d["b"] = 10
print(d, len(d), d["a"], d.get("z"), d.get("z", 0), "a" in d, "z" not in d)
print(list(d.keys()), list(d.values()), list(d.items()))
print(d.pop("a"), d, d.pop("zz", "dflt"), d.setdefault("e", 5), d.setdefault("b", 0), d)
d.update({"f": 6}, g=7); d.update([("h", 8)]); print(d)
del d["b"]; print(d, d.popitem(), d)
counts = {}
for ch in "mississippi":
    counts[ch] = counts.get(ch, 0) + 1
print(counts, sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
m = {1: "int", 1.0: "float", True: "bool", (1, 2): "tuple", None: "none"}
print(m, m[1], m[(1, 2)])
sq = {i: i * i for i in range(5) if i % 2 == 1}
print(sq, dict(a=1, b=2), dict([("x", 1)]), dict(zip("ab", [1, 2])), dict.fromkeys("xy", 0))
for k in {"z": 1, "y": 2}:
    print(k, end=" ")
print()
for k, v in sorted({"z": 1, "y": 2}.items()):
    print(k, v)
e = {}
e.setdefault("list", []).append(1)
e.setdefault("list", []).append(2)
print(e, {**e, "more": 1}, {} == {}, {"a": 1} == {"a": 1.0}, d.copy() == d)
nested = {"a": {"b": {"c": [1, 2]}}}
nested["a"]["b"]["c"].append(3)
print(nested, len({}), bool({}), bool({0: 0}))
x = {"k": 1}
x.clear()
print(x, d.keys(), d.values(), d.items())
