# np.concatenate / stack / vstack / hstack, and their shape errors
import numpy as np
a = np.arange(6).reshape(2, 3)
b = np.arange(6, 12).reshape(2, 3)
print(np.concatenate([a, b]), np.concatenate((a, b), axis=1), np.concatenate([a, b], axis=None))
print(repr(np.concatenate([np.ones(2, dtype=np.float32), np.arange(3)])))
print(np.stack([a, b]).shape, np.stack([a, b], axis=1), np.stack([a, b], axis=-1).shape)
print(np.vstack([np.arange(3), np.arange(3, 6)]), np.hstack([np.arange(2), np.arange(3)]), np.hstack([a, b]))
print(np.vstack([a, np.arange(3)]))
try:
    np.concatenate([a, np.ones((2, 2))])
except ValueError as e:
    print(e)
try:
    np.stack([a, np.ones((3, 2))])
except ValueError as e:
    print(e)
