# functions: defaults, keywords, *args, **kwargs, closures, recursion, lambdas
def f(a, b=2, *args, c=3, **kw):
    return (a, b, args, c, sorted(kw.items()))
print(f(1))
print(f(1, 5, 6, 7, c=8, z=9, y=10))
print(f(b=4, a=3))
print(f(*[1, 2, 3], **{"c": 4, "d": 5}))
def kwonly(*, x, y=1):
    return x + y
print(kwonly(x=5), kwonly(y=2, x=1))
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
print(fact(10), fact(20))
def fib(n, memo={}):
    if n in memo:
        return memo[n]
    r = n if n < 2 else fib(n - 1) + fib(n - 2)
    memo[n] = r
    return r
print(fib(80))
def make_counter():
    count = 0
    def inc(step=1):
        nonlocal count
        count += step
        return count
    return inc
c1, c2 = make_counter(), make_counter()
print(c1(), c1(), c1(10), c2())
adders = [lambda x, i=i: x + i for i in range(3)]
print([a(10) for a in adders])
late = [lambda: i for i in range(3)]
print([g() for g in late])
G = 1
def read_global():
    return G
def write_global():
    global G
    G = 2
print(read_global(), write_global(), read_global())
def outer():
    x = "outer"
    def middle():
        def inner():
            return x
        return inner()
    return middle()
print(outer())
compose = lambda f, g: lambda x: f(g(x))
print(compose(lambda x: x + 1, lambda x: x * 2)(5))
def noreturn():
    pass
print(noreturn(), (lambda: None)())
def apply(fn, *a, **k):
    return fn(*a, **k)
print(apply(max, 3, 9, 2), apply(sorted, [3, 1], reverse=True))
print(f.__name__, fact.__name__, (lambda: 0).__name__)
def deco(fn):
    def wrapper(*a):
        return "<" + str(fn(*a)) + ">"
    return wrapper
@deco
def greet(name):
    return "hi " + name
print(greet("bob"))
def gen_squares(n):
    return [i * i for i in range(n)]
print(gen_squares(4), sum(i * i for i in range(4)), max(len(w) for w in ["a", "abc"]))
