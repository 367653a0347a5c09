from .._types import i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64, u1

int8, int16, int32, int64 = i8, i16, i32, i64
uint8, uint16, uint32, uint64 = u8, u16, u32, u64
float16, float32, float64 = f16, f32, f64
all_types = [i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64]
integer_types = [i8, i16, i32, i64, u8, u16, u32, u64]
real_types = [f16, f32, f64]
