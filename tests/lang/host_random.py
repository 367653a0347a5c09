# the random module draws CPython's numbers for a given seed
import random
random.seed(42)
print(random.random(), random.random())
print([random.randint(1, 6) for _ in range(10)])
print(random.uniform(-1, 1), random.choice("abcdef"), random.randrange(0, 100, 7))
l = list(range(10))
random.shuffle(l)
print(l)
print(random.gauss(0, 1), random.gauss(5, 2), random.getrandbits(40))
random.seed(2**40 + 5)
print(random.random(), random.randrange(1000000))
