# Reads .npy files written by real numpy 1.24 (Debian's python3-numpy), made with:
#   /usr/bin/python3 -c "import numpy as np
#   np.save('np_real_f32.npy', (np.arange(12, dtype=np.float32) / 4).reshape(3, 4))
#   np.save('np_real_i16_fortran.npy', np.asfortranarray(np.array([[1, -2, 3], [400, 5, -600]], dtype=np.int16)))
#   np.save('np_real_bool.npy', np.array([True, False, True]))
#   np.save('np_real_u8_3d.npy', np.arange(24, dtype=np.uint8).reshape(2, 3, 4))"
# (run in tests/lang/data).
import numpy as np

a = np.load("data/np_real_f32.npy")
print(repr(a), a.shape, a.dtype)
b = np.load("data/np_real_i16_fortran.npy")
print(repr(b), b.shape, b.T[2])
print(repr(np.load("data/np_real_bool.npy")))
c = np.load("data/np_real_u8_3d.npy")
print(c[1], c.dtype, c.sum())
