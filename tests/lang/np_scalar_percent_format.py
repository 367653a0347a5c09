# numpy scalars in %-formatting format as the numbers they hold.
import numpy as np

a = np.array([1.5, 2.25, 3.0], dtype=np.float32)
print("mean %.4f" % a.mean())
print("%d items, first %5.2f, %s" % (np.int32(3), a[0], a[1]))
print("%e | %g" % (np.float64(12345.678), np.float32(0.5)))
