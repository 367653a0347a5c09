# Kiln ints are 64-bit: overflow is an error instead of a silent bignum
x = 1
for i in range(70):
    x *= 2
    if i > 60:
        print(i, x)
