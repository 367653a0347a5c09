"""ti.tools: image files and videos (imwrite, imread, imshow, imresize,
VideoManager), as `import taichi.tools` / `from taichi.tools import ...`."""
from .._tools import VideoManager, imread, imresize, imshow, imwrite

__all__ = ["VideoManager", "imread", "imresize", "imshow", "imwrite"]
