# exceptions: hierarchy, messages, finally, raise from, custom classes
def attempt(fn):
    try:
        fn()
        return "ok"
    except Exception as e:
        return f"{type(e).__name__}: {e}"
print(attempt(lambda: 1 / 0))
print(attempt(lambda: 1 // 0))
print(attempt(lambda: 1 % 0))
print(attempt(lambda: 1.0 / 0))
print(attempt(lambda: [][1]))
print(attempt(lambda: {}["k"]))
print(attempt(lambda: int("abc")))
print(attempt(lambda: float("x")))
print(attempt(lambda: undefined_name))
print(attempt(lambda: 1 + "a"))
print(attempt(lambda: "a" * "b"))
print(attempt(lambda: len(5)))
print(attempt(lambda: None.foo))
print(attempt(lambda: (1, 2)[5]))
print(attempt(lambda: [1, 2].index(7)))
print(attempt(lambda: max([])))
print(attempt(lambda: 5()))
print(attempt(lambda: "abc"[1.0]))
print(attempt(lambda: 1 < "a"))
print(attempt(lambda: [].pop()))
print(attempt(lambda: int(float("inf"))))
print(attempt(lambda: {[1]: 2}))
print(attempt(lambda: chr(-1)))
def unpack():
    a, b = [1, 2, 3]
print(attempt(unpack))
try:
    raise ValueError("bad value")
except (TypeError, ValueError) as e:
    print("caught", repr(e), e.args)
try:
    [][0]
except LookupError as e:
    print("lookup", type(e).__name__, isinstance(e, IndexError), isinstance(e, Exception))
try:
    {}["x"]
except KeyError as e:
    print("key", e, repr(e), e.args)
def with_finally():
    try:
        return "from try"
    finally:
        print("finally runs")
print(with_finally())
def finally_override():
    try:
        return 1
    finally:
        return 2
print(finally_override())
for i in range(3):
    try:
        if i == 1:
            continue
        print("body", i)
    finally:
        print("fin", i)
try:
    pass
except Exception:
    print("no")
else:
    print("else branch")
finally:
    print("final")
class AppError(Exception):
    pass
class DetailError(AppError):
    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
try:
    raise DetailError(404, "not found")
except AppError as e:
    print(type(e).__name__, e.code, e, e.args, isinstance(e, Exception))
try:
    try:
        1 / 0
    except ZeroDivisionError as e:
        raise RuntimeError("wrapped") from e
except RuntimeError as e:
    print("outer", e, type(e.__cause__).__name__)
try:
    try:
        raise KeyError("k")
    except KeyError:
        print("reraise")
        raise
except KeyError as e:
    print("got again", repr(e))
try:
    assert 1 == 2, "math is broken"
except AssertionError as e:
    print("assert:", e)
try:
    assert False
except AssertionError as e:
    print("bare assert:", repr(e))
def deep(n):
    if n == 0:
        raise IndexError("bottom")
    return deep(n - 1)
try:
    deep(5)
except IndexError as e:
    print("deep", e)
err = ValueError("x", 1)
print(str(err), repr(err), repr(ValueError()), str(ValueError()))
try:
    raise TypeError
except TypeError as e:
    print("class raised", repr(e))
x = 0
try:
    x = int("12")
except ValueError:
    x = -1
print(x)
try:
    import nosuchmodule
except ImportError as e:
    print(type(e).__name__, e)
