"""ti.tools: image files, videos and PLY files (imwrite, imread, imshow,
imresize, VideoManager, PLYWriter), as `import taichi.tools` /
`from taichi.tools import ...`."""
from .._tools import PLYWriter, VideoManager, imread, imresize, imshow, imwrite

__all__ = ["PLYWriter", "VideoManager", "imread", "imresize", "imshow", "imwrite"]
