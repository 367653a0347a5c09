# np.allclose and np.array_equal
import numpy as np

a = np.arange(5) * 0.1
print(np.allclose(a, a + 1e-9), np.allclose(a, a + 1), np.allclose([1.0, 2.0], [1.0, 2.00001]))
print(np.allclose(a, a + 0.01, atol=0.1), np.allclose([1.0], [1.1], rtol=0.2), np.allclose(np.ones((2, 2)), 1))
print(np.array_equal(a, a.copy()), np.array_equal(a, a[:4]), np.array_equal(np.arange(3), [0, 1, 2]))
