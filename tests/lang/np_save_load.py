# np.save then np.load gives back every dtype, shape and value (views saved in C order)
import numpy as np
import random

path = "/tmp/kiln_np_save_load_%d.npy" % random.randrange(10**12)
for dt in [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
           np.float16, np.float32, np.float64]:
    a = (np.arange(6) * 3 + 1).astype(dt).reshape(2, 3)
    np.save(path, a)
    b = np.load(path)
    print(b.dtype, b.shape, np.array_equal(a, b), b.tolist())
np.save(path, np.array([True, False]))
print(repr(np.load(path)))
m = np.arange(12).reshape(3, 4)
np.save(path, m.T[1:])
print(np.load(path))
np.save(path, np.array(2.5))
print(repr(np.load(path)), np.load(path).shape)
