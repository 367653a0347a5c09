"""The package's view of the current Program's options (ti.init)."""
config = {"default_ip": "i32", "default_fp": "f32", "debug": False, "arch": "cpu", "kernel_profiler": False}
