"""A kernel's source: taichi._kernel._source_lines finds a def's lines with
Kiln's lexer instead of inspect's pure-Python tokenizer (a 10^4-line kernel
took a third of a second there). It must give exactly what
inspect.getsourcelines gives, for every shape a def's source takes."""
import importlib.util
import inspect
import textwrap

import pytest

import taichi as ti
from taichi import _kernel

MODULE = '''\
import functools


def plain(a):
    return a + 1


def one_liner(a): return a * 2


@functools.lru_cache()
@functools.lru_cache(
    maxsize=None)
def decorated(a):
    x = (a +
 1)   # a continuation line less indented than the body
    s = """text
at column 0 inside the body
"""
    return x, s


def nested():
    def inner(b):
        if b:
            return b
        # a comment at the end of the body

        # and one more after a blank line
      # less indented than the body: not its

    return inner


def tail_comment(a):
    if a:
        pass
# a comment at column 0 ends nothing
    return a


class Holder:
    @staticmethod
    def method(a):
        for i in range(a):
            pass

    def other(self):
        return [1,
                2]


def backslash(a):
    b = a + \\
        1
    return b


async def coro():
    return 1


def last(a):
    return a'''


@pytest.fixture(scope="module")
def mod(tmp_path_factory):
    path = tmp_path_factory.mktemp("src") / "defs.py"
    path.write_text(MODULE)
    spec = importlib.util.spec_from_file_location("defs_for_source", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def functions(m):
    return [m.plain, m.one_liner, inspect.unwrap(m.decorated), m.nested, m.nested(), m.tail_comment,
            m.Holder.method, m.Holder.other, m.backslash, m.coro, m.last]


def test_same_lines_as_inspect(mod):
    for fn in functions(mod):
        assert _kernel._source_lines(fn) == inspect.getsourcelines(fn), fn.__name__


def test_kernels_compile_from_those_lines(tmp_path):
    path = tmp_path / "k.py"
    path.write_text(textwrap.dedent('''\
        import taichi as ti


        @ti.data_oriented
        class Sim:
            @ti.kernel
            def step(self, n: ti.i32) -> ti.i32:
                s = 0
                for i in range(n):
                    s += (i +
              1)
                return s


        @ti.kernel
        def one() -> ti.i32: return 7'''))
    ti.init(arch=ti.cpu)
    spec = importlib.util.spec_from_file_location("k_for_source", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    assert m.Sim().step(4) == 10
    assert m.one() == 7


def test_a_lexer_error_is_still_pythons(tmp_path):
    # Kiln's lexer refuses the tab/space mix; inspect (and so the error) decides.
    lines = ["def f(a):\n", "\tif a:\n", "        return 1\n"]
    assert ti._core.def_block_lines("".join(lines)) == 0
