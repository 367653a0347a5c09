// Host evaluator: Python semantics of module-level code, checked by the exact
// text a program prints (the same contract as tests/lang, but small cases).
#include <doctest/doctest.h>

#include "tests/unit/host_session.h"

using namespace kiln;

namespace {

using Run = test::HostSession;
std::string run(const std::string& src) { return test::run_snippet(src); }
std::string error(const std::string& src) { return test::error_of(src); }

}  // namespace

TEST_CASE("print uses Python's str/repr rules") {
  CHECK(run("print(1, 2.5, 'a', None, True)") == "1 2.5 a None True\n");
  CHECK(run("print([1, 2.5, 'a'], (1,), (), {'a': 1}, {})") == "[1, 2.5, 'a'] (1,) () {'a': 1} {}\n");
  CHECK(run("print(0.1, 1e16, 1e-5, 100.0, -0.0, 1/3)") == "0.1 1e+16 1e-05 100.0 -0.0 0.3333333333333333\n");
  CHECK(run("print(float('inf'), float('nan'), 2.0**0.5)") == "inf nan 1.4142135623730951\n");
  CHECK(run("print('a', 'b', sep='-', end='!')") == "a-b!");
  CHECK(run("print(repr('it\\'s'), repr(\"q\"), str([1.0]))") == "\"it's\" 'q' [1.0]\n");
  CHECK(run("l = [1]\nl.append(l)\nprint(l)") == "[1, [...]]\n");
}

TEST_CASE("int and float arithmetic") {
  CHECK(run("print(7 // 2, -7 // 2, -7 % 2, 7 % -2, 7 / 2, 6 / 2)") == "3 -4 1 -1 3.5 3.0\n");
  CHECK(run("print(-7.5 // 2, -7.5 % 2, 7.5 % -2)") == "-4.0 0.5 -0.5\n");
  CHECK(run("print(2 ** 10, 2 ** -1, (-2) ** 3, 4 ** 0.5)") == "1024 0.5 -8 2.0\n");
  CHECK(run("print(True + True, 1 == 1.0, 3 < 4 < 5, 1 < 2 > 3)") == "2 True True False\n");
  CHECK(run("print(round(2.5), round(3.5), round(-2.5), round(2.675, 2), round(1234, -2))") == "2 4 -2 2.67 1200\n");
  CHECK(run("print(divmod(-7, 2), divmod(7.5, 2), abs(-3), pow(3, 4, 5))") == "(-4, 1) (3.0, 1.5) 3 1\n");
  CHECK(run("print(0 or 'x', 1 and 0, None or [] or 5)") == "x 0 5\n");
  CHECK(error("x = 2 ** 62\nx * 4") == "OverflowError: integer overflow (Kiln ints are 64-bit)");
}

TEST_CASE("comprehensions and generator expressions") {
  CHECK(run("print([i * i for i in range(5) if i % 2 == 0])") == "[0, 4, 16]\n");
  CHECK(run("print([(x, y) for x in range(2) for y in 'ab'])") == "[(0, 'a'), (0, 'b'), (1, 'a'), (1, 'b')]\n");
  CHECK(run("print({k: v for k, v in zip('ab', [1, 2])})") == "{'a': 1, 'b': 2}\n");
  CHECK(run("print(sum(x for x in range(10)), any(x > 8 for x in range(10)), max(len(w) for w in ['a', 'bcd']))") ==
        "45 True 3\n");
  CHECK(run("i = 'kept'\n[i for i in range(3)]\nprint(i)") == "kept\n");
}

TEST_CASE("functions, closures and scoping") {
  CHECK(run("def f(a, b=2, *args, c=3, **kw):\n    return a, b, args, c, kw\nprint(f(1, 5, 6, c=7, z=8))") ==
        "(1, 5, (6,), 7, {'z': 8})\n");
  CHECK(run("def mk():\n    n = 0\n    def inc():\n        nonlocal n\n        n += 1\n        return n\n"
            "    return inc\nc = mk()\nc()\nprint(c())") == "2\n");
  CHECK(run("g = 1\ndef f():\n    global g\n    g = 5\nf()\nprint(g)") == "5\n");
  CHECK(run("fs = [lambda: i for i in range(3)]\nprint([f() for f in fs])") == "[2, 2, 2]\n");
  CHECK(error("x = 1\ndef f():\n    print(x)\n    x = 2\nf()") ==
        "UnboundLocalError: cannot access local variable 'x' where it is not associated with a value");
  CHECK(error("def f(a, b):\n    pass\nf(1)") == "TypeError: f() missing 1 required positional argument: 'b'");
  CHECK(error("def f(a):\n    pass\nf(1, 2)") == "TypeError: f() takes 1 positional argument but 2 were given");
  CHECK(error("def f(a):\n    pass\nf(b=1)") == "TypeError: f() got an unexpected keyword argument 'b'");
  CHECK(error("def f(n):\n    return f(n + 1)\nf(0)") == "RecursionError: maximum recursion depth exceeded");
}

TEST_CASE("classes: init, methods, inheritance, dunders, properties") {
  CHECK(run("class A:\n    k = 1\n    def __init__(self, v):\n        self.v = v\n"
            "    def __repr__(self):\n        return f'A({self.v})'\n"
            "class B(A):\n    def __init__(self, v):\n        super().__init__(v * 2)\n"
            "print([A(1), B(2)], B.k, isinstance(B(1), A), type(B(1)).__name__)") == "[A(1), A(4)] 1 True B\n");
  CHECK(run("class V:\n    def __init__(self, x):\n        self.x = x\n    def __add__(self, o):\n        return V(self.x + o.x)\n"
            "    def __eq__(self, o):\n        return self.x == o.x\n"
            "print((V(1) + V(2)).x, V(1) == V(1), V(1) != V(2))") == "3 True True\n");
  CHECK(run("class T:\n    @property\n    def p(self):\n        return 42\n    @staticmethod\n    def s():\n        return 's'\n"
            "    @classmethod\n    def c(cls):\n        return cls.__name__\nprint(T().p, T.s(), T.c())") == "42 s T\n");
  CHECK(error("class A:\n    pass\nA().missing") == "AttributeError: 'A' object has no attribute 'missing'");
}

TEST_CASE("exceptions: kinds, messages, matching, finally") {
  CHECK(error("1 / 0") == "ZeroDivisionError: division by zero");
  CHECK(error("1 // 0") == "ZeroDivisionError: integer division or modulo by zero");
  CHECK(error("1.0 % 0") == "ZeroDivisionError: float modulo");
  CHECK(error("[][0]") == "IndexError: list index out of range");
  CHECK(error("{}['k']") == "KeyError: 'k'");
  CHECK(error("int('x')") == "ValueError: invalid literal for int() with base 10: 'x'");
  CHECK(error("nope") == "NameError: name 'nope' is not defined");
  CHECK(error("1 + 'a'") == "TypeError: unsupported operand type(s) for +: 'int' and 'str'");
  CHECK(error("1 < 'a'") == "TypeError: '<' not supported between instances of 'int' and 'str'");
  CHECK(error("None()") == "TypeError: 'NoneType' object is not callable");
  CHECK(error("assert 1 == 2, 'no'") == "AssertionError: no");
  CHECK(error("import nothere") == "ModuleNotFoundError: No module named 'nothere'");
  CHECK(error("class E(Exception):\n    pass\nraise E('custom')") == "E: custom");
  CHECK(run("try:\n    [][1]\nexcept LookupError as e:\n    print(type(e).__name__, e)") == "IndexError list index out of range\n");
  CHECK(run("try:\n    {}[1]\nexcept (TypeError, KeyError) as e:\n    print(repr(e), e.args)") == "KeyError(1) (1,)\n");
  CHECK(run("def f():\n    try:\n        return 1\n    finally:\n        print('fin')\nprint(f())") == "fin\n1\n");
  CHECK(run("try:\n    pass\nexcept Exception:\n    pass\nelse:\n    print('else')\nfinally:\n    print('final')") ==
        "else\nfinal\n");
  CHECK(run("try:\n    try:\n        1/0\n    except ZeroDivisionError as e:\n        raise ValueError('v') from e\n"
            "except ValueError as e:\n    print(e, type(e.__cause__).__name__)") == "v ZeroDivisionError\n");
  CHECK(run("try:\n    try:\n        raise KeyError('k')\n    except KeyError:\n        raise\nexcept KeyError as e:\n    print(repr(e))") ==
        "KeyError('k')\n");
}

TEST_CASE("errors carry the failing location and a traceback of host frames") {
  Run r;
  try {
    run_source(*r.host, "t.py", "def g(x):\n    return x[3]\n\ndef f():\n    return g([1])\n\nf()\n");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind == "IndexError");
    CHECK(e.loc.line == 2);
    CHECK(e.loc.col == 12);
    REQUIRE(e.traceback.size() == 3);
    CHECK(e.traceback[0].function == "<module>");
    CHECK(e.traceback[0].loc.line == 7);
    CHECK(e.traceback[1].function == "f");
    CHECK(e.traceback[1].loc.line == 5);
    CHECK(e.traceback[2].function == "g");
  }
}

TEST_CASE("f-strings with conversions and format specs") {
  CHECK(run("x = 3.14159\nprint(f'{x:.2f}|{x:8.3f}|{x:<8.1f}|{x:e}')") == "3.14|   3.142|3.1     |3.141590e+00\n");
  CHECK(run("n = 42\nprint(f'{n:5d}|{n:<5}|{n:05d}|{n:x}|{n:#b}|{n:+d}|{1234567:,}')") ==
        "   42|42   |00042|2a|0b101010|+42|1,234,567\n");
  CHECK(run("s = 'ab'\nprint(f'{s!r} {s:>4} {s:*^6} {[1, s]}')") == "'ab'   ab **ab** [1, 'ab']\n");
  CHECK(run("w, p = 8, 2\nprint(f'{3.14159:{w}.{p}f}|{{x}}')") == "    3.14|{x}\n");
  CHECK(run("print('{} {:.1f} {name}'.format(1, 2.25, name='n'), '%5.2f|%-4d|%s' % (1.5, 3, 'x'))") ==
        "1 2.2 n  1.50|3   |x\n");
}

TEST_CASE("strings, lists and dicts: common methods") {
  CHECK(run("print('a,b,,c'.split(','), ' x y '.split(), '-'.join('abc'), 'Hello'.upper(), 'xhix'.strip('x'))") ==
        "['a', 'b', '', 'c'] ['x', 'y'] a-b-c HELLO hi\n");
  CHECK(run("s = 'hello'\nprint(s[1:4], s[::-1], s[-2:], s.find('l'), s.replace('l', 'L'), s.startswith('he'))") ==
        "ell olleh lo 2 heLLo True\n");
  CHECK(run("l = [3, 1, 2]\nl.sort()\nl.append(9)\nl.insert(0, 7)\nprint(l, l.pop(), l.index(3), sorted(l, reverse=True))") ==
        "[7, 1, 2, 3] 9 3 [7, 3, 2, 1]\n");
  CHECK(run("print(sorted(['bb', 'a', 'ccc'], key=len), min([3, 1], key=lambda v: -v), max([], default=0))") ==
        "['a', 'bb', 'ccc'] 3 0\n");
  CHECK(run("d = {'b': 1}\nd['a'] = 2\nd.update(c=3)\nprint(d, d.get('z', 0), list(d.items()), d.pop('b'), d.setdefault('e', 5))") ==
        "{'a': 2, 'c': 3, 'e': 5} 0 [('b', 1), ('a', 2), ('c', 3)] 1 5\n");
  CHECK(run("a, *b, c = range(5)\nprint(a, b, c)") == "0 [1, 2, 3] 4\n");
  CHECK(run("for i, (k, v) in enumerate(zip('ab', [1, 2])):\n    print(i, k, v)") == "0 a 1\n1 b 2\n");
}

TEST_CASE("loops: break, continue, else") {
  CHECK(run("for i in range(5):\n    if i == 1:\n        continue\n    if i == 3:\n        break\n    print(i)\nelse:\n    print('no')") ==
        "0\n2\n");
  CHECK(run("n = 0\nwhile n < 3:\n    n += 1\nelse:\n    print('done', n)") == "done 3\n");
}

TEST_CASE("math, sys, time") {
  CHECK(run("import math\nprint(math.sqrt(2), math.floor(-2.5), math.log(8, 2), math.gcd(12, 18), math.isclose(0.1 + 0.2, 0.3))") ==
        "1.4142135623730951 -3 3.0 6 True\n");
  CHECK(run("import math\nprint(math.fsum([0.1] * 10), math.prod([1, 2, 3]), math.hypot(3, 4), math.inf, math.pi)") ==
        "1.0 6 5.0 inf 3.141592653589793\n");
  CHECK(error("import math\nmath.sqrt(-1)") == "ValueError: math domain error");
  CHECK(run("import sys\nprint(sys.argv)\nsys.stdout.write('w\\n')") == "['t.py']\nw\n");
  CHECK(run("import time\nt = time.perf_counter()\nprint(time.perf_counter() >= t)") == "True\n");
}

TEST_CASE("sys.exit surfaces as kiln::SystemExit with the code") {
  Run r;
  CHECK_THROWS_AS(run_source(*r.host, "t.py", "import sys\nsys.exit(3)"), SystemExit);
  try {
    run_source(*r.host, "t.py", "import sys\nsys.exit(3)");
  } catch (const SystemExit& e) {
    CHECK(e.code == 3);
  }
  try {
    run_source(*r.host, "t.py", "import sys\nsys.exit('bye')");
  } catch (const SystemExit& e) {
    CHECK(e.code == 1);
    CHECK(r.err == "bye\n");
  }
  CHECK(run("import sys\ntry:\n    sys.exit(2)\nexcept SystemExit as e:\n    print('caught', e.code)") == "caught 2\n");
}

TEST_CASE("the session keeps globals across runs, run_interactive echoes values") {
  Run r;
  run_source(*r.host, "a.py", "x = 20");
  run_interactive(*r.host, "<stdin>", "x + 1\ny = 2\nNone\n'text'");
  CHECK(r.out == "21\n'text'\n");
  CHECK_THROWS_AS(run_interactive(*r.host, "<stdin>", "undefined_thing"), Error);
  run_interactive(*r.host, "<stdin>", "x");  // the session survives the error
  CHECK(r.out == "21\n'text'\n20\n");
}
