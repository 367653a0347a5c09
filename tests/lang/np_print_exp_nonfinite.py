# nan and inf among numbers printed in scientific notation take the full width
import numpy as np

a = np.array([np.nan, -7.14683904e08, 1e-3, 5.5e-7])
print(a)
print(repr(a))
print(np.array([-0.0, np.inf, 1e-9, 123.0]))
print(repr(np.array([np.inf, 1e20, -1e-20], dtype=np.float32)))
