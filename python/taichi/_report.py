"""How `kiln run` reports an uncaught error that Kiln raised (it is
sys.excepthook's first look there; see tools/python_host.cpp).

Kiln's format, as the built-in host prints it: the kind and message, the
location with the source line and a caret, then the user's frames that led
there; the frames inside this package are Kiln's, not the user's, and are left
out. An error is Kiln's when taichi._core raised it (it carries kiln_text: the
kernel's location) or when it was raised inside this package on behalf of the
user's call (the location is then the user's line). Any other error is the
program's own: report() returns False and Python prints its usual traceback.
"""
import linecache
import os
import sys
import traceback

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def shown_path(path):
    """A path as Kiln's messages show it: relative to the current directory
    when it lies under it (as the user typically typed it), else unchanged."""
    cwd = os.path.join(os.getcwd(), "")
    return path[len(cwd):] if path.startswith(cwd) else path


def _is_kiln(filename):
    return filename.startswith(_PACKAGE) or filename.startswith("<frozen ")


def _location(frame):
    """'  --> file:line:col', the source line and a caret under the column."""
    line = linecache.getline(frame.filename, frame.lineno).rstrip("\r\n")
    col = getattr(frame, "colno", None)
    if col is not None and line:
        col = len(line.encode()[:col].decode(errors="replace"))  # a byte offset in the code object
    out = f"  --> {shown_path(frame.filename)}:{frame.lineno}" + (f":{col + 1}" if col is not None else "") + "\n"
    if line:
        out += "    " + line + "\n"
        if col is not None:  # tabs kept so the caret lines up under tab-indented source
            out += "    " + "".join("\t" if ch == "\t" else " " for ch in line[:col]) + "^\n"
    return out


def _listing(frames):
    out = "Traceback (most recent call last):\n"
    for f in frames:
        out += f'  File "{shown_path(f.filename)}", line {f.lineno}, in {f.name}\n'
        if f.line:
            out += "    " + f.line.strip() + "\n"
    return out


def report(etype, value, tb):
    """Prints `value` in Kiln's format and returns True if Kiln raised it."""
    frames = traceback.extract_tb(tb)
    text = getattr(value, "kiln_text", None)
    if not isinstance(text, str) and not (frames and _is_kiln(frames[-1].filename)):
        return False
    user = [f for f in frames if not _is_kiln(f.filename)]
    if isinstance(text, str):
        head = text if text.endswith("\n") else text + "\n"
        located = bool(getattr(value, "kiln_located", True))
    else:
        message = str(value)
        head = etype.__name__ + (": " + message if message else "") + "\n"
        located = False
    if not located and user:
        # The innermost user frame is the location: it is not listed again.
        head += _location(user[-1])
        user = user[:-1]
    if user:
        head += _listing(user)
    try:
        sys.stdout.flush()  # the program's output so far comes first
    except Exception:
        pass
    sys.stderr.write(head)
    sys.stderr.flush()
    return True
