"""The package's view of the current Program's options (ti.init)."""
config = {"default_ip": "i32", "default_fp": "f32", "debug": False, "arch": "cpu", "kernel_profiler": False}
# Autodiff (taichi.ad): the Tape recording kernel launches, the FwdMode whose
# kernels run as their dual, and how deep we are inside grad_replaced functions.
tape = None
fwd = None
grad_replaced = 0
