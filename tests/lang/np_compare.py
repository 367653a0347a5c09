# comparisons give bool arrays; chained use needs any()/all()
import numpy as np

a = np.arange(6).reshape(2, 3)
print(a > 2)
print(a == np.array([0, 4, 2]))
print(repr(a != 3), repr(a <= 1.5), repr(2 < a))
print((a > 1) & (a < 4), (a > 4) | (a < 1))
print((a > 2).any(), (a >= 0).all(), np.any(a > 5), np.all(a > 0))
print(np.array([np.nan, 1.0]) == np.array([np.nan, 1.0]))
