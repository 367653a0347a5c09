# reshape (with -1), flatten / ravel, .T and np.transpose
import numpy as np

a = np.arange(12)
print(a.reshape(3, 4))
print(a.reshape((2, -1)), a.reshape(-1, 6).shape, a.reshape(2, 3, 2).shape)
m = a.reshape(3, 4)
print(m.T, m.T.shape, np.transpose(m).shape, m.transpose()[0])
print(m.T.flatten(), m.ravel(), m.T.reshape(-1))
print(np.reshape(m, (6, 2))[5], m.T.T.shape)
