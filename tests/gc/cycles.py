# 10^5 iterations, each leaving four reference cycles behind: the built-in
# evaluator's cycle collector frees them (tests/gc/peak_rss.py keeps the run
# under 64 MB; it took 195 MB without the collector).
import taichi as ti


class Node:
    pass


def make(i):
    def inner():  # a function and the environment it closes over
        return inner
    lst = [i]
    lst.append(lst)  # a list that holds itself
    n = Node()
    n.me = n  # an object whose attribute is itself
    d = {"d": None}
    d["d"] = d
    return i


total = 0
for i in range(100000):
    total += make(i)
print(total)
