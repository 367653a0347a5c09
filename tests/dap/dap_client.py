#!/usr/bin/env python3
"""Drives `kiln dap` through a scripted Debug Adapter Protocol session and
prints a normalized transcript (requests sent, responses and events received)
for comparison with an expected file.

  dap_client.py KILN SCRIPT.json [HOST]

SCRIPT.json is a list of steps: {"send": {command, arguments}} sends a
request and waits for its response; {"wait": "stopped"} waits for an event."""
import json, subprocess, sys, threading, queue

kiln, script = sys.argv[1], sys.argv[2]
host = ["--host=" + sys.argv[3]] if len(sys.argv) > 3 else []
steps = json.load(open(script))
p = subprocess.Popen([kiln, "dap"] + host, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
inbox = queue.Queue()

def reader():
    f = p.stdout
    while True:
        length = None
        while True:
            line = f.readline()
            if not line:
                inbox.put(None)
                return
            line = line.strip()
            if not line:
                break
            if line.startswith(b"Content-Length:"):
                length = int(line.split(b":")[1])
        inbox.put(json.loads(f.read(length)))

threading.Thread(target=reader, daemon=True).start()
seq = 1
out = []

def show(m):
    m = dict(m)
    m.pop("seq", None)
    m.pop("request_seq", None)
    return json.dumps(m, sort_keys=True)

pending = []  # received and not yet consumed by a step

def take(match, timeout=30):
    """The first received message that `match` accepts (waiting for it).
    Others stay pending: events may come before or after a response, and only
    what a step asks for is printed, so the transcript does not depend on
    timing."""
    while True:
        for i, m in enumerate(pending):
            if match(m):
                return pending.pop(i)
        m = inbox.get(timeout=timeout)
        if m is None:
            print("<< end of output")
            sys.exit(1)
        pending.append(m)

for step in steps:
    if "send" in step:
        req = {"seq": seq, "type": "request", "command": step["send"]["command"],
               "arguments": step["send"].get("arguments", {})}
        seq += 1
        data = json.dumps(req).encode()
        p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        p.stdin.flush()
        print(">>", req["command"], json.dumps(req["arguments"], sort_keys=True))
        m = take(lambda m: m.get("type") == "response" and m.get("request_seq") == req["seq"])
        print("<<", show(m))
    else:
        m = take(lambda m: m.get("type") == "event" and m.get("event") == step["wait"])
        print("<<", show(m))
p.stdin.close()
p.wait(timeout=30)
print("exit", p.returncode)
