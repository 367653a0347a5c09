# zeros / ones / full / arange / linspace / *_like and their dtypes
import numpy as np

print(repr(np.zeros(3)), repr(np.zeros((2, 2), dtype=np.int32)), repr(np.ones(4, dtype=np.uint8)))
print(repr(np.full((2, 2), 7)), repr(np.full(3, 1.5)), repr(np.full(2, True)), repr(np.full(2, 3, dtype=np.float32)))
print(repr(np.arange(5)), repr(np.arange(2, 11, 3)), repr(np.arange(0, 1, 0.25)), repr(np.arange(5, dtype=np.float32)))
print(repr(np.arange(1.5, 4)), repr(np.arange(10, 0, -3)), repr(np.arange(0)))
print(repr(np.linspace(0, 1, 5)), repr(np.linspace(0, 1, 4, dtype=np.float32)), repr(np.linspace(2, 3, 4, endpoint=False)))
a = np.array([[1, 2], [3, 4]], dtype=np.int16)
print(repr(np.zeros_like(a)), repr(np.ones_like(a)), repr(np.full_like(a, 9)), repr(np.zeros_like(a, dtype=np.float64)))
print(np.empty((2, 3)).shape, np.empty(4, dtype=np.int32).dtype)
print(repr(np.zeros(3, dtype=int)), repr(np.zeros(3, dtype=float)), repr(np.zeros(2, dtype=bool)), repr(np.ones(2, dtype="float32")))
