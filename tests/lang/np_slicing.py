# basic indexing: ints, slices, negative steps, None and ... give views
import numpy as np

g = np.arange(12).reshape(3, 4)
print(g[1], g[-1], g[1, 2], g[-1, -1])
print(g[:, 1], g[1:, 1:3], g[::2, ::-1])
print(g[..., 0], g[None, 0].shape, g[:, None].shape, g[1:1].shape)
print(g[::-1])
print(g.T[1], g.T.shape, g[0:2].T)
print(g[1:, 1:3].sum(), g[0, ::2], g[0, 5:], g[-2:, -2:])
