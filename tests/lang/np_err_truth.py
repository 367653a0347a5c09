# `if` on a many-element array is ambiguous
import numpy as np

a = np.array([1, 2, 3])
if (a > 0).all():
    print("all positive")
if a > 1:
    print("unreachable")
