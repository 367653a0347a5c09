# control flow: loops with else, break/continue, while, nested functions
for i in range(10):
    if i == 2:
        continue
    if i == 5:
        break
    print("i", i)
else:
    print("not reached")
for i in range(3):
    pass
else:
    print("for-else ran", i)
n = 0
while n < 5:
    n += 1
    if n == 3:
        continue
    print("n", n)
else:
    print("while-else", n)
while True:
    n -= 1
    if n < 2:
        break
print("after", n)
for i, (a, b) in enumerate([(1, 2), (3, 4)]):
    print(i, a, b)
for k, v in zip(["x", "y"], [1, 2]):
    print(k, v)
for ch in "ab":
    for j in range(2):
        if j == 1:
            break
        print(ch, j)
total = 0
for i in range(100):
    if i % 3 == 0 or i % 5 == 0:
        total += i
print(total)
x = 15
if x < 10:
    print("small")
elif x < 20:
    print("medium")
else:
    print("large")
def classify(v):
    if v < 0:
        return "neg"
    elif v == 0:
        return "zero"
    return "pos"
print([classify(v) for v in (-1, 0, 1)])
def find(items, target):
    for i, it in enumerate(items):
        if it == target:
            return i
    return -1
print(find([4, 5, 6], 6), find([], 1))
i = 0
while i < 3: i += 1
print(i)
