# line wrapping at 75 columns, in str and in repr (hanging indent after "array(")
import numpy as np

print(np.arange(40))
print(repr(np.arange(40)))
print(np.arange(30) * 0.5)
print(repr(np.arange(30) * 0.5))
print(repr(np.arange(25, dtype=np.int32)))
print(repr(np.arange(20, dtype=np.float32) / 3))
print(np.arange(60).reshape(2, 30))
