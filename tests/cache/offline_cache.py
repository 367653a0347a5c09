#!/usr/bin/env python3
"""The offline cache (vm/runtime/code_cache.h) on the LLVM engine:
    offline_cache.py KILN
A second run takes the compiled code from the cache and prints the same; a
damaged or truncated entry is rejected and rebuilt; a stale one (its file
well formed, its checksum right, but written for another key: another Kiln,
LLVM or CPU, or a collision of the file name's hash) is rejected and
rebuilt; offline_cache=False writes nothing; offline_cache_file_path chooses
the directory."""
import os
import struct
import subprocess
import sys
import tempfile

kiln = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
prog = os.path.join(here, "prog.py")


def run(cache, *args):
    env = dict(os.environ, KILN_ENGINE="llvm", KILN_CACHE_DIR=cache)
    p = subprocess.run([kiln, "run", "--stats", prog, *args], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    stats = {}
    for line in p.stderr.splitlines():
        k, _, v = line.partition(":")
        if k.startswith("offline_cache_"):
            stats[k] = float(v)
    return p.stdout, stats


MAGIC = b"KILNCACHE1\n"


def fnv(data, h=1469598103934665603):
    for c in data:
        h = ((h ^ c) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def restamp(path, edit):
    """Rewrites entry `path` with its key passed through edit(key), and a
    checksum that matches the new key: well formed, only the key differs."""
    data = open(path, "rb").read()
    assert data.startswith(MAGIC), path
    at = len(MAGIC)
    (klen,) = struct.unpack_from("<Q", data, at)
    key = data[at + 8 : at + 8 + klen]
    at += 8 + klen
    (plen,) = struct.unpack_from("<Q", data, at)
    payload = data[at + 8 : at + 8 + plen]
    assert fnv(payload, fnv(key)) == struct.unpack_from("<Q", data, at + 8 + plen)[0], "the format changed"
    key = edit(key)
    out = MAGIC + struct.pack("<Q", len(key)) + key + struct.pack("<Q", len(payload)) + payload
    open(path, "wb").write(out + struct.pack("<Q", fnv(payload, fnv(key))))


def entries(d):
    return sorted(f for f in os.listdir(d) if f.endswith(".kc")) if os.path.isdir(d) else []


with tempfile.TemporaryDirectory() as tmp:
    d = os.path.join(tmp, "cache")
    first, s1 = run(d)
    assert s1.get("offline_cache_stores", 0) >= 3 and not s1.get("offline_cache_hits"), s1
    files = entries(d)
    assert len(files) >= 3, files
    second, s2 = run(d)
    assert second == first, (first, second)
    assert s2.get("offline_cache_hits", 0) == len(files) and not s2.get("offline_cache_stores"), s2
    # Damage every entry: one flipped byte in the payload, one truncated.
    for i, f in enumerate(files):
        p = os.path.join(d, f)
        data = bytearray(open(p, "rb").read())
        if i % 2 == 0:
            data[len(data) // 2 + 7] ^= 0x55
        else:
            data = data[: len(data) - 9]
        open(p, "wb").write(bytes(data))
    third, s3 = run(d)
    assert third == first, (first, third)
    assert s3.get("offline_cache_rejected", 0) == len(files) and s3.get("offline_cache_stores", 0) == len(files), s3
    fourth, s4 = run(d)
    assert fourth == first and s4.get("offline_cache_hits", 0) == len(files), s4
    # Stale entries: the same file name, a valid checksum, another key (the
    # version line of one written by another Kiln; the module text of another
    # program whose key's hash collided).
    for i, f in enumerate(files):
        p = os.path.join(d, f)
        if i % 2 == 0:
            restamp(p, lambda k: k.replace(b"kiln ", b"kiln 0", 1))
        else:
            restamp(p, lambda k: k + b"; another module\n")
    fifth, s5 = run(d)
    assert fifth == first, (first, fifth)
    assert s5.get("offline_cache_rejected", 0) == len(files) and s5.get("offline_cache_stores", 0) == len(files), s5
    sixth, s6 = run(d)
    assert sixth == first and s6.get("offline_cache_hits", 0) == len(files), s6
    # ti.init(offline_cache=False): nothing read or written.
    off = os.path.join(tmp, "off")
    out, s7 = run(off, "off")
    assert out == first and not entries(off) and not s7, s7
    # ti.init(offline_cache_file_path=DIR) wins over $KILN_CACHE_DIR.
    chosen = os.path.join(tmp, "chosen")
    out, s8 = run(os.path.join(tmp, "env"), chosen)
    assert out == first and len(entries(chosen)) == len(files) and not entries(os.path.join(tmp, "env")), s8
print("ok:", first.strip().replace("\n", " | "))
