# Python scoping: local by assignment, global, nonlocal, class scope, comprehension scope
x = "global"
def reads():
    return x
def shadows():
    x = "local"
    return x
def unbound():
    try:
        print(x)
    except UnboundLocalError as e:
        print("UnboundLocalError:", e)
    x = 1
print(reads(), shadows(), x)
unbound()
def counter():
    global hits
    hits = hits + 1 if "hits" in globals_list else 1
globals_list = []
hits = 0
def bump():
    global hits
    hits += 1
for _ in range(3):
    bump()
print(hits)
def outer():
    a = 1
    b = 1
    def inner():
        nonlocal a
        a += 10
        b = 100
        return a, b
    r = inner()
    return r, a, b
print(outer())
class K:
    y = 5
    z = y * 2
    items = [y + i for i in range(3)] if False else [1, 2]
    def m(self):
        return self.y, K.z
print(K.y, K.z, K().m(), K.items)
i = "unchanged"
squares = [i * i for i in range(4)]
print(i, squares)
def make():
    fns = []
    for k in range(3):
        def f(k=k):
            return k
        fns.append(f)
    return [g() for g in fns]
print(make())
def loop_var_leaks():
    for j in range(3):
        pass
    return j
print(loop_var_leaks())
def delete_local():
    v = 1
    del v
    try:
        return v
    except UnboundLocalError:
        return "deleted"
print(delete_local())
if True:
    block_var = "visible"
print(block_var)
try:
    print(never_defined)
except NameError as e:
    print("NameError:", e)
def shadow_builtin():
    len = lambda s: 42
    return len("abc")
print(shadow_builtin(), len("abc"))
