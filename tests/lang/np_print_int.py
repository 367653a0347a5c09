# numpy's str and repr of integer arrays of every width
import numpy as np

for dt in [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]:
    a = np.array([0, 7, 100, 3], dtype=dt)
    print(a)
    print(repr(a))
print(np.array([-5, 10, -300]))
print(repr(np.array([[1, -22], [333, 4]], dtype=np.int16)))
