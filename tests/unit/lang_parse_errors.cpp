// Parser errors: CPython's SyntaxError/IndentationError messages, each at its
// exact line:col, and which error wins when a file has several.
#include <doctest/doctest.h>

#include "tests/unit/lang_helpers.h"

using namespace kiln;

namespace {

std::string err(const std::string& src) { return test::parse_error(src); }

}  // namespace

TEST_CASE("f-string errors") {
  CHECK(err("f'{}'") == "SyntaxError: f-string: empty expression not allowed @1:4");
  CHECK(err("f'{x!z}'") == "SyntaxError: f-string: invalid conversion character: expected 's', 'r', or 'a' @1:6");
  CHECK(err("f'{x'") == "SyntaxError: f-string: expecting '}' @1:3");
  CHECK(err("f'}'") == "SyntaxError: f-string: single '}' is not allowed @1:3");
  CHECK(err("f'{x)}'") == "SyntaxError: f-string: unmatched ')' @1:5");
  CHECK(err("f'{a#}'") == "SyntaxError: f-string expression part cannot include '#' @1:5");
  CHECK(err("f'{a:{b:{c}}}'") == "SyntaxError: f-string: expressions nested too deeply @1:9");
}

TEST_CASE("syntax errors: CPython's messages at the offending token") {
  // Messages and positions match CPython 3.11 unless noted.
  CHECK(err("x = = 1") == "SyntaxError: invalid syntax @1:5");
  CHECK(err("a b") == "SyntaxError: invalid syntax @1:3");
  CHECK(err("x = 1 +") == "SyntaxError: invalid syntax @1:8");
  CHECK(err("if x\n  pass") == "SyntaxError: expected ':' @1:5");
  CHECK(err("def f()\n  pass") == "SyntaxError: expected ':' @1:8");
  CHECK(err("for x in y\n  pass") == "SyntaxError: expected ':' @1:11");
  CHECK(err("x = (1,\n2") == "SyntaxError: '(' was never closed @1:5");
  CHECK(err("f(a,\n  b\nx = 1\n") == "SyntaxError: '(' was never closed @1:2");
  CHECK(err("s = 'abc\ny\n") == "SyntaxError: unterminated string literal (detected at line 1) @1:5");
  CHECK(err("x = 1\ns = 'abc") == "SyntaxError: unterminated string literal (detected at line 2) @2:5");
  CHECK(err("x = 1 if y") == "SyntaxError: expected 'else' after 'if' expression @1:11");
  CHECK(err("x = 1 if y else") == "SyntaxError: invalid syntax @1:16");
  CHECK(err("print 'x'") == "SyntaxError: invalid syntax @1:7");
  CHECK(err("x = class") == "SyntaxError: invalid syntax @1:5");
  CHECK(err("x = $a") == "SyntaxError: invalid syntax @1:5");
  CHECK(err("a b\nx = `\ns = 'abc") == "SyntaxError: unterminated string literal (detected at line 3) @3:5");
  // "expected ':'": always after def/else/try/finally, else only at the end of the line
  CHECK(err("while x y:\n pass") == "SyntaxError: invalid syntax @1:9");
  CHECK(err("while x\n pass") == "SyntaxError: expected ':' @1:8");
  CHECK(err("class A x:\n pass") == "SyntaxError: invalid syntax @1:9");
  CHECK(err("def f() x:\n pass") == "SyntaxError: expected ':' @1:9");
  CHECK(err("if x:\n pass\nelse x:\n pass") == "SyntaxError: expected ':' @3:6");
  CHECK(err("try x:\n pass") == "SyntaxError: expected ':' @1:5");
  CHECK(err("def f x(): pass") == "SyntaxError: expected '(' @1:7");
  CHECK(err("a - b:\n  pass") == "SyntaxError: invalid syntax @1:7");
  CHECK(err("a - b: int") == "SyntaxError: illegal target for annotation @1:1");
  CHECK(err("f(a b)") == "SyntaxError: invalid syntax. Perhaps you forgot a comma? @1:3");
  CHECK(err("x = [1, 2 3]") == "SyntaxError: invalid syntax. Perhaps you forgot a comma? @1:9");
  CHECK(err("x = (1 2\n") == "SyntaxError: '(' was never closed @1:5");
  CHECK(err("x = [1, 2\ny = 3\n") == "SyntaxError: '[' was never closed @1:5");
  CHECK(err("foo(a, b\nif x:\n  pass\n") == "SyntaxError: '(' was never closed @1:4");
  CHECK(err("x = 1 +\ny = (") == "SyntaxError: invalid syntax @1:8");
  // a generic error yields to a tokenizer error later in the file
  CHECK(err("x = = 1\ns = 'abc") == "SyntaxError: unterminated string literal (detected at line 2) @2:5");
  CHECK(err("if x\n  pass\ns = 'abc") == "SyntaxError: unterminated string literal (detected at line 3) @3:5");
  CHECK(err("if x\n  pass\ny = (") == "SyntaxError: expected ':' @1:5");
  CHECK(err("f() = 1\ns = 'abc") == "SyntaxError: unterminated string literal (detected at line 2) @2:5");
  CHECK(err("[x if y\n") == "SyntaxError: '[' was never closed @1:1");
  CHECK(err("f(**k, *a\n") == "SyntaxError: iterable argument unpacking follows keyword argument unpacking @1:8");
}

TEST_CASE("indentation errors") {
  CHECK(err("x\n    y = 2\n") == "IndentationError: unexpected indent @2:5");
  CHECK(err("  x = 1") == "IndentationError: unexpected indent @1:3");
  CHECK(err("if 1:\n    x\n  y\n") == "IndentationError: unindent does not match any outer indentation level @3:3");
  CHECK(err("if x:\npass\n") == "IndentationError: expected an indented block after 'if' statement on line 1 @2:1");
  CHECK(err("if x:\n  pass\nelif y:\nz\n") ==
        "IndentationError: expected an indented block after 'elif' statement on line 3 @4:1");
  CHECK(err("while 1:\n  pass\nelse:\nz") ==
        "IndentationError: expected an indented block after 'else' statement on line 3 @4:1");
  CHECK(err("for x in y:\nfoo()") ==
        "IndentationError: expected an indented block after 'for' statement on line 1 @2:1");
  CHECK(err("class C:\nx") == "IndentationError: expected an indented block after class definition on line 1 @2:1");
  CHECK(err("@d\ndef f():\nreturn") ==
        "IndentationError: expected an indented block after function definition on line 2 @3:1");
  CHECK(err("try:\nx") == "IndentationError: expected an indented block after 'try' statement on line 1 @2:1");
  CHECK(err("try:\n  x\nexcept:\ny") ==
        "IndentationError: expected an indented block after 'except' statement on line 3 @4:1");
  CHECK(err("try:\n  x\nfinally:\ny") ==
        "IndentationError: expected an indented block after 'finally' statement on line 3 @4:1");
  CHECK(err("if x:\n") == "IndentationError: expected an indented block after 'if' statement on line 1 @2:1");
}

TEST_CASE("invalid assignment targets") {
  CHECK(err("f() = 1") == "SyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='? @1:1");
  CHECK(err("x = f() = 1") == "SyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='? @1:5");
  CHECK(err("f() = x = 1") == "SyntaxError: cannot assign to function call @1:1");
  CHECK(err("a + 1 = 2") == "SyntaxError: cannot assign to expression here. Maybe you meant '==' instead of '='? @1:1");
  CHECK(err("(a, f()) = 1") == "SyntaxError: cannot assign to function call @1:5");
  CHECK(err("[a, 1] = x") == "SyntaxError: cannot assign to literal @1:5");
  CHECK(err("True = 1") == "SyntaxError: cannot assign to True @1:1");
  CHECK(err("None = 1") == "SyntaxError: cannot assign to None @1:1");
  CHECK(err("1 = x") == "SyntaxError: cannot assign to literal here. Maybe you meant '==' instead of '='? @1:1");
  CHECK(err("a < b = 1") == "SyntaxError: cannot assign to comparison @1:1");
  CHECK(err("a and b = 1") == "SyntaxError: cannot assign to expression @1:1");
  CHECK(err("-a = 1") == "SyntaxError: cannot assign to expression here. Maybe you meant '==' instead of '='? @1:1");
  CHECK(err("x if y else z = 1") == "SyntaxError: cannot assign to conditional expression @1:1");
  CHECK(err("del f()") == "SyntaxError: cannot delete function call @1:5");
  CHECK(err("del a, 1") == "SyntaxError: cannot delete literal @1:8");
  CHECK(err("for f() in x: pass") == "SyntaxError: cannot assign to function call @1:5");
  CHECK(err("[x for 1 in y]") == "SyntaxError: cannot assign to literal @1:8");
  CHECK(err("f() += 1") == "SyntaxError: 'function call' is an illegal expression for augmented assignment @1:1");
  CHECK(err("x.y += 1; [a] += 1") == "SyntaxError: 'list' is an illegal expression for augmented assignment @1:11");
  CHECK(err("a, b += 1") == "SyntaxError: 'tuple' is an illegal expression for augmented assignment @1:1");
  CHECK(err("(a, b): int") == "SyntaxError: only single target (not tuple) can be annotated @1:1");
  CHECK(err("f(): int") == "SyntaxError: illegal target for annotation @1:1");
  CHECK(err("*a = 1") == "SyntaxError: starred assignment target must be in a list or tuple @1:1");
  CHECK(err("x = *a") == "ok");  // CPython: a compile-time error, not a syntax error
}

TEST_CASE("call and parameter errors") {
  CHECK(err("f(a=1, b)") == "SyntaxError: positional argument follows keyword argument @1:8");
  CHECK(err("f(**k, b)") == "SyntaxError: positional argument follows keyword argument unpacking @1:8");
  CHECK(err("f(**k, *a)") == "SyntaxError: iterable argument unpacking follows keyword argument unpacking @1:8");
  CHECK(err("f(x for x in y, 1)") == "SyntaxError: Generator expression must be parenthesized @1:3");
  CHECK(err("f(1, x for x in y)") == "SyntaxError: Generator expression must be parenthesized @1:6");
  CHECK(err("f(a.b=1)") == "SyntaxError: expression cannot contain assignment, perhaps you meant \"==\"? @1:3");
  CHECK(err("f(a=1, a=2)") == "SyntaxError: keyword argument repeated: a @1:8");
  CHECK(err("def f(a=1, b): pass") == "SyntaxError: non-default argument follows default argument @1:12");
  CHECK(err("def f(a, a): pass") == "SyntaxError: duplicate argument 'a' in function definition @1:10");
  CHECK(err("def f(*): pass") == "SyntaxError: named arguments must follow bare * @1:7");
  CHECK(err("def f(**k, a): pass") == "SyntaxError: arguments cannot follow var-keyword argument @1:12");
  CHECK(err("def f(*a, *b): pass") == "SyntaxError: * argument may appear only once @1:11");
  CHECK(err("lambda x: (yield)") == "SyntaxError: 'yield' is not supported by Kiln @1:12");
  CHECK(err("lambda x y: 1") == "SyntaxError: invalid syntax @1:10");
}

TEST_CASE("try statement errors") {
  CHECK(err("try:\n  pass\nx = 1") == "SyntaxError: expected 'except' or 'finally' block @3:1");
  CHECK(err("try:\n  pass\nexcept:\n  pass\nexcept E:\n  pass") == "SyntaxError: default 'except:' must be last @3:1");
  CHECK(err("try:\n  pass\nexcept A, B:\n  pass") == "SyntaxError: multiple exception types must be parenthesized @3:8");
  CHECK(err("try:\n  pass\nelse:\n  pass") == "SyntaxError: invalid syntax @3:1");
}

TEST_CASE("unsupported Python features get a clear message") {
  CHECK(err("x = b'abc'") == "SyntaxError: bytes literals are not supported by Kiln @1:5");
  CHECK(err("def g():\n    yield 1") == "SyntaxError: 'yield' is not supported by Kiln @2:5");
  CHECK(err("x = await f()") == "SyntaxError: 'await' is not supported by Kiln @1:5");
  CHECK(err("class A(metaclass=M): pass") ==
        "SyntaxError: class keyword arguments (metaclass=...) are not supported by Kiln @1:9");
  CHECK(err("x = {1, 2}") == "SyntaxError: set literals are not supported by Kiln @1:5");
  CHECK(err("x = {a for a in b}") == "SyntaxError: set literals are not supported by Kiln @1:5");
  CHECK(err("with open(f) as g:\n  pass") == "SyntaxError: 'with' statements are not supported by Kiln @1:1");
  CHECK(err("async def f():\n  pass") == "SyntaxError: 'async' is not supported by Kiln @1:1");
  CHECK(err("s = f'{b\"x\"}'") == "SyntaxError: bytes literals are not supported by Kiln @1:8");
  // they are reported after the whole file parses: real syntax errors come first
  CHECK(err("with open(f) as g:\n  x = = 1") == "SyntaxError: invalid syntax @2:7");
  CHECK(err("x = b'a'\ny = (") == "SyntaxError: '(' was never closed @2:5");
  CHECK(err("x = {1, 2}\nif x\n  pass") == "SyntaxError: expected ':' @2:5");
  CHECK(err("next((e for e in x), None)") == "ok");
}
