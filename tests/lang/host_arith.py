# int/float arithmetic with Python semantics
for a, b in [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 3)]:
    print(a, b, a / b, a // b, a % b, divmod(a, b))
for a, b in [(7.5, 2), (-7.5, 2), (7.5, -2), (-7.5, -2.5), (1e300, 1e-300), (0.0, -1.0)]:
    print(a, b, a / b, a // b, a % b, divmod(a, b))
print(2 ** 10, 2 ** -2, (-2) ** 3, 2.0 ** 0.5, 4 ** 0.5, 0 ** 0, (-8) ** 2)
print(pow(2, 10), pow(2, 10, 1000), pow(3, 4, 5), pow(2.5, 2))
print(1 << 10, 1024 >> 3, -16 >> 2, 5 & 3, 5 | 3, 5 ^ 3, ~0)
print(True & False, True | False, True ^ True)
print(abs(-5), abs(-2.5), abs(0), round(2.5), round(3.5), round(-2.5), round(0.5))
print(round(2.675, 2), round(1.005, 2), round(123.456, -1), round(1234, -2), round(1250, -2), round(-0.5))
print(round(3.14159, 3), round(2.5, 0), round(7, 0), round(0.1 + 0.2, 15))
print(int(3.9), int(-3.9), int("  42 "), int("-0x1f", 16), int("0b101", 0), int("1_000"), float("1e3"), float(" -2.5 "))
print(float("inf"), float("-Infinity"), float(7), int(True), bool(0), bool(0.0), bool(""), bool([0]))
print(min(3, 1, 2), max([1, 7, 3]), min("bca"), max([], default=-1), max([1, 3, 2], key=lambda v: -v))
print(sum([1, 2, 3]), sum([0.1] * 10), sum([[1], [2]], []), sum(range(101)), sum([1.5, 2], 10))
print(hex(255), hex(-255), bin(10), oct(8), chr(65), ord('a'), chr(0x263a))
print(7 == 7.0, 1 == True, 0.1 + 0.2 == 0.3, 3 < 4 < 5, 3 < 4 > 5, 1 < 2.5, "abc" < "abd", [1, 2] < [1, 3], (1, 2) <= (1, 2))
print(1 if 0 else 2, 0 or "x", 1 and 0, None or [] or 5, "a" and "b")
x = 5
x += 3; x -= 1; x *= 2; x //= 3; x **= 2; x %= 7
print(x)
f = 1.0
f /= 3; f += 1
print(f)
print(9007199254740993, 2**53 + 1.0, 10 / 4, 10 // 4, -10 // 4, 10 % -4)
print(1e308 * 10, -1e308 * 10, 5e-324 / 2)
