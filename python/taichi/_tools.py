"""ti.tools: image files and videos (Taichi's taichi.tools.image / video).

Images are in Taichi's orientation: img[i, j] is column i from the left and
row j from the bottom, so imwrite(imread(f), g) copies a picture and a
field shown with GUI.set_image looks the same written with imwrite."""
import os

from ._gui_image import as_numpy, file_bytes
from ._ply import PLYWriter  # noqa: F401  (ti.tools.PLYWriter)


def _native():
    from . import _gui_core  # loaded on first use, as in _gui.py
    return _gui_core


def imwrite(img, filename):
    """Writes a field, ndarray or numpy array of shape (w, h) or (w, h, 1/2/3/4)
    as PNG, JPEG, BMP or TGA (by the extension). Floats are clipped to [0, 1]."""
    _native().write_image(os.fspath(filename), file_bytes(img, "imwrite"))


def imread(filename, channels=0):
    """Reads an image file as a uint8 array of shape (w, h, channels);
    channels=0 keeps the file's own count."""
    return _native().read_image(os.fspath(filename), int(channels))


def imresize(img, w, h=None):
    """Resizes to (w, h) by nearest neighbour, as Taichi's imresize picks pixels."""
    import numpy as np
    img = as_numpy(img, "imresize")
    h = w if h is None else h
    if (w, h) == img.shape[:2]:
        return img
    if not (isinstance(w, int) and isinstance(h, int) and w > 1 and h > 1):
        raise ValueError(f"imresize: the size must be integers above 1, not ({w!r}, {h!r})")
    x = np.clip(np.arange(w) * (img.shape[0] / w), 0, img.shape[0] - 1).astype(np.int32)
    y = np.clip(np.arange(h) * (img.shape[1] / h), 0, img.shape[1] - 1).astype(np.int32)
    return img[x][:, y]


def imshow(img, title="imshow"):
    """Shows an image in a GUI window until Escape or the window is closed
    (one frame headless: there is nothing to wait for)."""
    from ._gui import GUI
    a = as_numpy(img, "imshow")
    with GUI(title, res=a.shape[:2]) as gui:
        while gui.running:
            if gui.get_event(GUI.ESCAPE):
                gui.running = False
            gui.set_image(a)
            gui.show()
            if gui.window is None:
                break


def _ffmpeg():
    import shutil
    path = shutil.which("ffmpeg")
    if path is None:
        raise RuntimeError("making a video needs ffmpeg, which is not on PATH (apt install ffmpeg); "
                           "the frames are PNG files in the frame directory")
    return path


def _run(args):
    import subprocess
    # ffmpeg reads commands from stdin unless told not to: keep the caller's stdin
    r = subprocess.run(args[:1] + ["-nostdin"] + args[1:], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        tail = "\n".join(r.stderr.strip().splitlines()[-5:])
        raise RuntimeError(f"ffmpeg failed (exit {r.returncode}):\n{tail}")


class VideoManager:
    """Collects frames as PNG files in output_dir/frames and turns them into
    output_dir/video.mp4 and video.gif with ffmpeg (when it is installed).

    With automatic_build, the video is remade at 4, 8, 16, ... frames, as
    Taichi's does; make_video(mp4=True, gif=True) makes it on demand."""

    FRAME_NAME = "%06d.png"

    def __init__(self, output_dir, video_filename=None, width=None, height=None, post_processor=None, framerate=24,
                 automatic_build=True):
        if (width is None) != (height is None):
            raise ValueError("VideoManager: give both width and height, or neither")
        self.width, self.height = width, height
        self.directory = os.fspath(output_dir)
        self.frame_directory = os.path.join(self.directory, "frames")
        os.makedirs(self.frame_directory, exist_ok=True)
        self.video_filename = video_filename
        self.framerate = framerate
        self.post_processor = post_processor
        self.automatic_build = automatic_build
        self.frame_counter = 0
        self.frame_fns = []
        self.next_video_checkpoint = 4

    def get_output_filename(self, suffix):
        stem = os.path.splitext(self.video_filename)[0] if self.video_filename else "video"
        return os.path.join(self.directory, stem + suffix)

    def get_frame_directory(self):
        return self.frame_directory

    def write_frame(self, img):
        """Adds one frame (a (w, h[, c]) array or field); odd sizes lose their
        last row or column (video encoders want even sizes)."""
        img = as_numpy(img, "VideoManager.write_frame")
        if img.shape[0] % 2:
            img = img[:-1]
        if img.shape[1] % 2:
            img = img[:, :-1]
        if self.post_processor:
            img = self.post_processor.process(img)
        if self.width is None:
            self.width, self.height = img.shape[0], img.shape[1]
        fn = self.FRAME_NAME % self.frame_counter
        imwrite(img, os.path.join(self.frame_directory, fn))
        self.frame_fns.append(fn)
        self.frame_counter += 1
        if self.automatic_build and self.frame_counter % self.next_video_checkpoint == 0:
            import shutil
            self.next_video_checkpoint *= 2
            if shutil.which("ffmpeg"):
                self.make_video()

    def write_frames(self, images):
        for img in images:
            self.write_frame(img)

    def clean_frames(self):
        """Deletes the PNG frames this manager wrote."""
        for fn in self.frame_fns:
            path = os.path.join(self.frame_directory, fn)
            if os.path.exists(path):
                os.remove(path)

    def make_video(self, mp4=True, gif=True):
        """Encodes the frames as MP4 (H.264) and/or GIF; returns the files made."""
        if not self.frame_fns:
            raise RuntimeError("VideoManager.make_video: no frames were written")
        ffmpeg = _ffmpeg()
        pattern = os.path.join(self.frame_directory, self.FRAME_NAME)
        made = []
        mp4_fn = self.get_output_filename(".mp4")
        if mp4:
            _run([ffmpeg, "-loglevel", "error", "-y", "-framerate", str(self.framerate), "-i", pattern,
                  "-s:v", f"{self.width}x{self.height}", "-c:v", "libx264", "-pix_fmt", "yuv420p", mp4_fn])
            made.append(mp4_fn)
        if gif:
            gif_fn = self.get_output_filename(".gif")
            _run([ffmpeg, "-loglevel", "error", "-y", "-framerate", str(self.framerate), "-i", pattern, "-vf",
                  "split[a][b];[a]palettegen[p];[b][p]paletteuse", gif_fn])
            made.append(gif_fn)
        return made
