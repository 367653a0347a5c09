# sys and time modules
import sys
import time
print(len(sys.argv) >= 1, sys.argv[0].endswith("host_sys_time.py"))
sys.stdout.write("written directly\n")
n = sys.stdout.write("abc")
print("", n)
t0 = time.perf_counter()
time.sleep(0.01)
t1 = time.perf_counter()
print(t1 > t0, t1 - t0 >= 0.005, time.time() > 1.6e9, isinstance(time.time(), float))
print(sys.maxsize == 9223372036854775807, sys.platform)
def f():
    try:
        sys.exit(0)
    finally:
        print("finally before exit")
try:
    sys.exit(3)
except SystemExit as e:
    print("SystemExit caught:", e.code)
try:
    sys.exit("message")
except SystemExit as e:
    print("code is", repr(e.code))
print("exiting")
sys.exit()
print("not printed")
