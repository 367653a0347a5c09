# nan and inf widen the columns; scientific notation when the range is wide
import numpy as np

print(np.array([np.nan, 1.5]))
print(np.array([np.inf, -np.inf, 2.25]))
print(repr(np.array([np.nan, np.inf, -np.inf, 1.5])))
print(np.array([1e-10, 1.0, 1e5]))
print(np.array([1.5e300, -2.0]))
print(repr(np.array([np.nan], dtype=np.float32)))
