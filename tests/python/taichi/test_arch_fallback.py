"""ti.init(arch=...) as Taichi chooses: the first available arch of a list;
when none is, the CPU with a warning saying why (enable_fallback=True, the
default) or the backend's RuntimeError (enable_fallback=False). Taichi's
official examples ask for ti.cuda and run on machines without one."""
import pytest

import taichi as ti
from taichi import _core


@pytest.fixture
def no_cuda(monkeypatch):
    monkeypatch.delenv("KILN_ARCH", raising=False)
    if _core.cuda_available():
        pytest.skip("a CUDA device is here: arch=cuda does not fall back")


def _doubled():
    x = ti.field(ti.i32, shape=4)

    @ti.kernel
    def fill():
        for i in x:
            x[i] = i * 2

    fill()
    return x.to_numpy().tolist()


def test_unavailable_arch_falls_back_with_a_warning(no_cuda, capfd):
    ti.init(arch=ti.cuda)
    assert ti.lang_config()["arch"] == ti.cpu
    assert _doubled() == [0, 2, 4, 6]
    err = capfd.readouterr().err
    assert "warning: arch=cuda: " in err
    assert "running on the CPU instead (ti.init(enable_fallback=False) makes this an error)" in err


def test_no_fallback_is_the_backends_error(no_cuda):
    with pytest.raises(RuntimeError, match="arch=cuda: "):
        ti.init(arch=ti.cuda, enable_fallback=False)


def test_a_list_takes_the_first_available(no_cuda, capfd):
    ti.init(arch=[ti.cuda, ti.cpu])
    assert ti.lang_config()["arch"] == ti.cpu
    assert _doubled() == [0, 2, 4, 6]
    assert "warning" not in capfd.readouterr().err


def test_arch_must_be_arches():
    with pytest.raises(TypeError, match=r"takes an arch such as ti.cpu or ti.vulkan, or a list of them, not \[1\]"):
        ti.init(arch=[1])
    with pytest.raises(TypeError, match=r"not \[\]"):
        ti.init(arch=[])
