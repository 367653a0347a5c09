# bool arrays: + is or, * is and, & | ^ stay bool, mixing with numbers promotes
import numpy as np

t = np.array([True, True, False, False])
f = np.array([True, False, True, False])
print(t + f, t * f, t & f, t | f, t ^ f, ~t)
print(repr(t + 1), repr(t * 2.5), repr(t * True), repr(t // f), (t + f).dtype)
print(t.sum(), t.any(), t.all(), np.array([[True, False], [True, True]]).sum(axis=1))
