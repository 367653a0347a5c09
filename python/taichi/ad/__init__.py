"""ti.ad: automatic differentiation (issue 18). The adjoint and dual kernels
are IR transformations in Kiln's core (vm/autodiff); this module keeps
Taichi's Python API over them: Tape (reverse mode over a recorded sequence of
kernel calls), FwdMode (forward mode), custom gradients and clearing."""
from .. import _core, _state


def _field_like(x):
    return hasattr(x, "_components")


def _has_grad(x):
    if _field_like(x):
        try:
            return all(_core.field_placed(c) for c in x.grad._components())
        except AttributeError:
            return False
    return getattr(x, "grad", None) is not None


class Tape:
    """with ti.ad.Tape(loss): records the kernels launched in the block; on
    exit sets loss.grad to 1 and runs their adjoints in reverse order."""

    def __init__(self, loss=None, clear_gradients=True, validation=False, grad_check=None):
        self.loss = loss
        self.clear_gradients = clear_gradients
        self.validation = validation
        self.grad_check = grad_check
        self.calls = []
        self.modes = []
        self.entered = False
        self.gradient_evaluated = False

    def __enter__(self):
        if self.entered:
            raise RuntimeError("a ti.ad.Tape can be entered only once")
        self.entered = True
        _core.materialize()
        loss = self.loss
        if loss is not None:
            if _field_like(loss):
                if len(loss.shape) != 0:
                    raise RuntimeError("The loss of `Tape` must be a 0-D field, i.e. scalar")
                if not _has_grad(loss):
                    raise RuntimeError("Gradients of loss are not allocated, please use ti.field(..., needs_grad=True)")
                if self.clear_gradients:
                    clear_all_gradients()
            else:
                n = 1
                for s in loss.shape:
                    n *= s
                if n != 1:
                    raise RuntimeError("The loss of `Tape` must be an ndarray with only one element")
                if getattr(loss, "grad", None) is None:
                    raise RuntimeError("Gradients of loss are not allocated, please set needs_grad=True for all "
                                       "ndarrays that are required by autodiff.")
            loss.fill(0.0)
        if self.validation:  # checkbits for the global data access rule, cleared
            _core.ensure_checkbits()
            _core.clear_companions("checkbit")
        if _state.tape is not None:
            raise RuntimeError("ti.ad.Tape blocks cannot be nested")
        _state.tape = self
        return self

    def __exit__(self, typ, value, tb):
        _state.tape = None
        for (func, _), mode in zip(self.calls, self.modes):
            if mode is not None:
                try:
                    func.autodiff_mode = mode
                except AttributeError:
                    pass
        if typ is None and self.loss is not None:
            self.grad()

    def insert(self, func, args):
        self.calls.append((func, args))
        mode = getattr(func, "autodiff_mode", None)
        self.modes.append(mode)
        if self.validation and mode is not None:
            from .._kernel import AutodiffMode
            try:
                func.autodiff_mode = AutodiffMode.VALIDATION
            except AttributeError:
                pass

    def grad(self):
        if not self.entered:
            raise RuntimeError("Before evaluating gradients tape must be entered.")
        if self.gradient_evaluated:
            raise RuntimeError("Gradients of grad can be evaluated only once.")
        if self.loss is not None:
            self.loss.grad.fill(1.0)
        for func, args in reversed(self.calls):
            g = getattr(func, "grad", None)
            if g is not None:
                g(*args)
        self.gradient_evaluated = True


def clear_all_gradients(gradient_type="grad"):
    """Sets every placed gradient (or dual) field to zero."""
    kind = getattr(gradient_type, "_kiln_kind", gradient_type)
    _core.clear_companions(kind if kind in ("dual", "checkbit") else "grad")


def _replaced(func, grad):
    """`func` recorded on an active Tape as one call whose gradient is `grad`
    (the kernels it launches are not recorded themselves)."""

    def decorated(*args, **kwargs):
        tape = _state.tape
        if tape is not None and _state.grad_replaced == 0:
            tape.insert(decorated, args)
        _state.grad_replaced += 1
        try:
            return func(*args, **kwargs)
        finally:
            _state.grad_replaced -= 1

    decorated.grad = grad
    decorated.__name__ = getattr(func, "__name__", "decorated")
    return decorated


def grad_replaced(func):
    """A Python function whose gradient is the function given by @ti.ad.grad_for."""
    return _replaced(func, None)


def grad_for(primal):
    """Declares the decorated function as the gradient of `primal` (a @ti.ad.grad_replaced function)."""

    def decorator(func):
        def decorated(*args, **kwargs):
            func(*args, **kwargs)

        if not hasattr(primal, "grad"):
            raise RuntimeError(f"Primal function `{primal.__name__}` must be decorated by ti.ad.grad_replaced")
        if primal.grad is not None:
            raise RuntimeError("Primal function must be a **python** function instead of a taichi kernel. Please wrap "
                               "the taichi kernel in a @ti.ad.grad_replaced decorated python function instead.")
        primal.grad = decorated
        return decorated

    return decorator


def no_grad(func):
    """A Python function that autodiff skips (its gradient does nothing)."""
    return _replaced(func, lambda *args, **kwargs: None)


class FwdMode:
    """with ti.ad.FwdMode(loss, param, seed): kernels launched in the block also
    compute derivatives along `seed` (param.dual), into loss.dual."""

    def __init__(self, loss, param, seed=None, clear_gradients=True):
        self.loss = loss
        self.param = param
        self.seed = seed
        self.clear_gradients = clear_gradients
        self.entered = False

    def __enter__(self):
        if self.entered:
            raise RuntimeError("Forward mode manager can be entered only once.")
        self.entered = True
        _core.materialize()
        if _core.field_snode(self.param.dual) is None:
            name = getattr(self.param, "name", None) or "the parameter"
            raise RuntimeError(f"ti.ad.FwdMode: field '{name}' has no dual to seed: declare it with needs_dual=True "
                               f"(or place {name}.dual, e.g. ti.root.lazy_dual())")
        shape = self.param.shape
        n = 1
        for s in shape:
            n *= s
        if not self.seed:
            if n != 1:
                raise RuntimeError("`seed` is not set for non 0-D field, please specify. `seed` is a list to specify "
                                   "which parameters the computed derivatives respect to; its length is that of the "
                                   "parameters.")
            self.seed = [1.0]
        elif len(self.seed) != n:
            raise RuntimeError(f"`seed` has {len(self.seed)} values for a parameter of {n} elements")
        if self.clear_gradients:
            clear_all_gradients("dual")
        if len(self.seed) == 1:
            self.param.dual[None if len(shape) == 0 else 0] = 1.0 * self.seed[0]
        else:
            import numpy as np
            self.param.dual.from_numpy(np.array(self.seed, dtype=np.float64).reshape(shape))
        if _state.fwd is not None:
            raise RuntimeError("ti.ad.FwdMode blocks cannot be nested")
        _state.fwd = self
        return self

    def __exit__(self, typ, value, tb):
        _state.fwd = None
        if len(self.seed) == 1:
            self.param.dual[None if len(self.param.shape) == 0 else 0] = 0.0
        else:
            self.param.dual.fill(0)


class _GradType:
    def __init__(self, kind):
        self._kiln_kind = kind


class SNodeGradType:
    PRIMAL = _GradType("primal")
    ADJOINT = _GradType("grad")
    DUAL = _GradType("dual")
    ADJOINT_CHECKBIT = _GradType("checkbit")


__all__ = ["Tape", "FwdMode", "clear_all_gradients", "grad_replaced", "grad_for", "no_grad"]
