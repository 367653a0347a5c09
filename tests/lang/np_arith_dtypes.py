# result dtypes of numpy 1.24: array-array promotion, value-based scalars
import numpy as np

i8 = np.array([1, 2], dtype=np.int8)
u8 = np.array([1, 2], dtype=np.uint8)
i32 = np.array([1, 2], dtype=np.int32)
f32 = np.array([1.5, 2.5], dtype=np.float32)
i64 = np.array([1, 2])
print(repr(i8 + 1), repr(i8 + 1000), repr(u8 + 300), repr(u8 + -1), repr(i32 * 3), repr(i32 * 3.0))
print(repr(f32 + 1.5), repr(f32 * 2), repr(f32 + i64), repr(f32 + i32), repr(f32 + np.arange(2, dtype=np.int16)))
print(repr(i8 + u8), repr(i32 + u8), repr(i64 / 2), repr(i32 // 2), repr(f32 / 2), repr(i8 + np.int64(5)))
print(repr(f32 + np.float64(1.0)), repr(np.array([True, False]) + 1), repr(np.array([True, False]) & np.array([True, True])))
print(repr(i64 % 2), repr(-i64), repr(i64 ** 2), repr(f32 ** 2), repr(~np.array([0, 5], dtype=np.uint8)))
print(repr(np.array([-7, 7]) // 2), repr(np.array([-7, 7]) % 3), repr(np.array([-7.5, 7.5]) % 2))
print(np.float32(1.5) + 1, np.int32(7) + 1, np.float32(3) + 3.0)
