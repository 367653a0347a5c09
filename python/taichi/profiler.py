"""ti.profiler: kernel timing (ti.init(kernel_profiler=True)). Each kernel
call's wall time, compile included on the first call, is recorded per kernel
and printed in Taichi's table."""
import time

from . import _state

_records = {}  # kernel name -> [count, total, min, max] in seconds


def _enabled():
    return _state.config.get("kernel_profiler", False)


def _record(name, seconds):
    r = _records.get(name)
    if r is None:
        _records[name] = [1, seconds, seconds, seconds]
    else:
        r[0] += 1
        r[1] += seconds
        r[2] = min(r[2], seconds)
        r[3] = max(r[3], seconds)


def _timed(core, name, args, kw):
    t0 = time.perf_counter()
    try:
        return core(*args, **kw)
    finally:
        _record(name, time.perf_counter() - t0)


class KernelProfilerQueryResult:
    def __init__(self, counter, min, max, avg):
        self.counter, self.min, self.max, self.avg = counter, min, max, avg


def query_kernel_profiler_info(name):
    """Counter and min/max/avg time in milliseconds of kernel `name`."""
    r = _records.get(name)
    if r is None:
        return KernelProfilerQueryResult(0, 0.0, 0.0, 0.0)
    return KernelProfilerQueryResult(r[0], r[2] * 1e3, r[3] * 1e3, r[1] / r[0] * 1e3)


def clear_kernel_profiler_info():
    _records.clear()


def get_kernel_profiler_total_time():
    return sum(r[1] for r in _records.values())


def print_kernel_profiler_info(mode="count"):
    if not _enabled():
        print("kernel profiler is off: ti.init(kernel_profiler=True) turns it on")
        return
    total = get_kernel_profiler_total_time()
    bar = "=" * 73
    print(bar)
    print("Kernel Profiler(count, default) @ X64")
    print(bar)
    print("[      %     total   count |      min       avg       max   ] Kernel name")
    print("-" * 73)
    for name, (n, t, lo, hi) in sorted(_records.items(), key=lambda kv: -kv[1][1]):
        pct = 100.0 * t / total if total else 0.0
        print(f"[{pct:6.2f}% {t:7.3f} s {n:6d}x |{lo * 1e3:9.3f} {t / n * 1e3:9.3f} {hi * 1e3:9.3f} ms] {name}")
    print("-" * 73)
    print(f"[100.00%] Total execution time: {total:7.3f} s   number of results: {len(_records)}")
    print(bar)
