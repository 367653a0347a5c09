// ConstVal casts (cast_const) and the f16 / bf16 conversions.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "vm/support/diag.h"
#include "vm/types/value.h"

using namespace kiln;

namespace {

bool is_nan16(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0; }
bool is_nan_bf16(uint16_t h) { return (h & 0x7f80) == 0x7f80 && (h & 0x7f) != 0; }

ConstVal I(Prim p, int64_t v) { return ConstVal::make_int(p, v); }
ConstVal U(Prim p, uint64_t v) { return ConstVal::make_uint(p, v); }
ConstVal F(Prim p, double v) { return ConstVal::make_float(p, v); }

double as_f(ConstVal v, Prim to) { return cast_const(v, to).f; }
int64_t as_i(ConstVal v, Prim to) { return cast_const(v, to).i; }
uint64_t as_u(ConstVal v, Prim to) { return cast_const(v, to).u; }

// Reference pairs: a double and its f16 bits, produced by CPython's
// struct.pack('<e', x) (correct round-half-even from double).
struct Ref16 {
  double x;
  uint16_t bits;
};
const Ref16 kF16Ref[] = {
    {0.021794117131612084, 0x2594},
    {2.17112814425386e-07, 0x0004},
    {-1.5094642695458937e-06, 0x8019},
    {66.39972214028703, 0x5426},
    {-2.139710847149238, 0xc048},
    {-5.050232439417787e-07, 0x8008},
    {1994.188493524467, 0x67ca},
    {25839.2547101491, 0x764f},
    {0.98812755279646, 0x3be8},
    {7.686670341084457e-08, 0x0001},
    {1.1985120312856555e-05, 0x00c9},
    {564.7645247711188, 0x606a},
    {1405.3350837511489, 0x657d},
    {800.956566084294, 0x6242},
    {12258.627543969724, 0x71fc},
    {-454.9705663950866, 0xdf1c},
    {-10.89265884755653, 0xc972},
    {0.0008295871258445172, 0x12cc},
    {0.0007687615772747416, 0x124c},
    {-240.0175994333989, 0xdb80},
    {-6.435836076145614, 0xc670},
    {3.60472877179992e-07, 0x0006},
    {-1.7577889017646864e-05, 0x8127},
    {-33.25463222551801, 0xd028},
    {-1372.2852988837842, 0xe55c},
    {-0.09874345026765577, 0xae52},
    {14.719742244100331, 0x4b5c},
    {-0.003314535288724469, 0x9aca},
    {4.1274054876348745e-07, 0x0007},
    {-0.01003590259448554, 0xa123},
    {-0.25564073201389714, 0xb417},
    {-9.344387031252356, 0xc8ac},
    {-2.01979526392233e-06, 0x8022},
    {0.006790481951542165, 0x1ef4},
    {-0.9584081130900307, 0xbbab},
    {37.32372103910146, 0x50aa},
    {-0.9416919132207562, 0xbb89},
    {-3.4127934189930036, 0xc2d3},
    {-0.12235820024774946, 0xafd5},
    {8.973829105303729e-06, 0x0097},
    {0.0002470857079696774, 0x0c0c},
    {2586.1050763234057, 0x690d},
    {2.1143950538714646e-08, 0x0000},
    {-0.24413724069063691, 0xb3d0},
    {93.22519822098398, 0x55d4},
    {-715.8116508444932, 0xe198},
    {0.7407614090825974, 0x39ed},
    {0.5953047687834039, 0x38c3},
    {-0.00014188271335108612, 0x88a6},
    {0.034449362428913194, 0x2869},
    {1573.497536479678, 0x6625},
    {0.13378944701918621, 0x3048},
    {-0.00014020391666636858, 0x8898},
    {-0.0015647257704707112, 0x9669},
    {17.845656257741084, 0x4c76},
    {-47.37264334770075, 0xd1ec},
    {0.008938417892331933, 0x2094},
    {-0.046206935734687225, 0xa9ea},
    {1.839012156221833e-05, 0x0135},
    {-146.76512497908362, 0xd896},
    {450.08459764119993, 0x5f08},
    {0.013251537389904703, 0x22c9},
    {-0.0018635337340459374, 0x97a2},
    {0.09578702484330494, 0x2e21},
    {-104.73228322174151, 0xd68c},
    {14795.395766564188, 0x7339},
    {0.5999589916975748, 0x38cd},
    {-55.39212775921348, 0xd2ed},
    {-4.387617297467158e-08, 0x8001},
    {-8.833176744181662e-05, 0x85ca},
    {-0.06753363284303915, 0xac52},
    {1.4019775221406844e-06, 0x0018},
    {0.04633291569167431, 0x29ee},
    {12119.84630793452, 0x71eb},
    {-58970.72623123367, 0xfb33},
    {9.106527030714621e-07, 0x000f},
    {-0.00011529608181195803, 0x878e},
    {-2.1734997153404887, 0xc059},
    {-0.7006934089338508, 0xb99b},
    {5.57901220308254e-07, 0x0009},
    {4.391291429067573e-06, 0x004a},
    {12.892586697728067, 0x4a72},
    {-6788.170927046738, 0xeea1},
    {0.09679125274917369, 0x2e32},
    {3.869029762863562e-06, 0x0041},
    {50023.00775134185, 0x7a1b},
    {-7.578084645039749e-06, 0x807f},
    {6.274375766762878e-05, 0x041d},
    {-0.00018324730466751077, 0x8a01},
    {-2579.1791007133907, 0xe90a},
    {1.0609045245499689, 0x3c3e},
    {-0.10390467689528537, 0xaea6},
    {-233.87387935421094, 0xdb4f},
    {98.03679759589977, 0x5621},
    {239.7191166306733, 0x5b7e},
    {5.4200407885030116e-05, 0x038d},
    {8.709403770893284e-06, 0x0092},
    {12750.648319198932, 0x723a},
    {-0.027879257427585555, 0xa723},
    {1.190656968157854e-06, 0x0014},
};

}  // namespace

TEST_CASE("f16: every bit pattern survives bits -> f32 -> bits") {
  int nans = 0;
  for (uint32_t b = 0; b < 65536; ++b) {
    uint16_t h = (uint16_t)b;
    float f = f16_bits_to_f32(h);
    if (is_nan16(h)) {
      ++nans;
      CHECK(std::isnan(f));
      CHECK(is_nan16(f32_to_f16_bits(f)));
      CHECK(is_nan16(f64_to_f16_bits(f)));
      CHECK((f32_to_f16_bits(f) & 0x8000) == (h & 0x8000));
      continue;
    }
    REQUIRE(f32_to_f16_bits(f) == h);
    REQUIRE(f64_to_f16_bits((double)f) == h);
    REQUIRE(round_to_f16((double)f) == (double)f);
  }
  CHECK(nans == 2 * 1023);
}

TEST_CASE("bf16: every bit pattern survives bits -> f32 -> bits") {
  for (uint32_t b = 0; b < 65536; ++b) {
    uint16_t h = (uint16_t)b;
    float f = bf16_bits_to_f32(h);
    if (is_nan_bf16(h)) {
      CHECK(std::isnan(f));
      CHECK(is_nan_bf16(f32_to_bf16_bits(f)));
      continue;
    }
    REQUIRE(f32_to_bf16_bits(f) == h);
    REQUIRE(f64_to_bf16_bits((double)f) == h);
  }
}

TEST_CASE("f16: ties go to even, just off a tie goes to the nearer value") {
  // Every adjacent pair of positive finite f16 values, including subnormals
  // and the step from the largest subnormal to the smallest normal.
  for (uint16_t h = 0; h < 0x7bff; ++h) {
    double a = f16_bits_to_f32(h), b = f16_bits_to_f32((uint16_t)(h + 1));
    double mid = (a + b) / 2;  // exact: f16 needs far fewer bits than double
    uint16_t even = (h & 1) ? (uint16_t)(h + 1) : h;
    REQUIRE(f32_to_f16_bits((float)mid) == even);  // mid is exact in float too
    REQUIRE(f64_to_f16_bits(mid) == even);
    REQUIRE(f32_to_f16_bits(std::nextafter((float)mid, 1e9f)) == h + 1);
    REQUIRE(f32_to_f16_bits(std::nextafter((float)mid, -1.0f)) == h);
    // A tiny excess that float cannot hold: rounding through float would make
    // it a tie again and round to even; the double path must not.
    double up = std::nextafter(mid, 1e9);
    REQUIRE(f64_to_f16_bits(up) == h + 1);
    REQUIRE(f64_to_f16_bits(std::nextafter(mid, -1.0)) == h);
    REQUIRE(f64_to_f16_bits(-up) == ((h + 1) | 0x8000));
  }
}

TEST_CASE("f16: special values and range edges") {
  CHECK(f32_to_f16_bits(0.0f) == 0x0000);
  CHECK(f32_to_f16_bits(-0.0f) == 0x8000);
  CHECK(f32_to_f16_bits(1.0f) == 0x3c00);
  CHECK(f32_to_f16_bits(-2.0f) == 0xc000);
  CHECK(f32_to_f16_bits(65504.0f) == 0x7bff);
  CHECK(f32_to_f16_bits(65519.996f) == 0x7bff);
  CHECK(f32_to_f16_bits(65520.0f) == 0x7c00);  // the tie above max rounds to inf
  CHECK(f32_to_f16_bits(1e10f) == 0x7c00);
  CHECK(f32_to_f16_bits(-INFINITY) == 0xfc00);
  CHECK(f32_to_f16_bits(0x1p-24f) == 0x0001);
  CHECK(f32_to_f16_bits(0x1p-25f) == 0x0000);  // tie between 0 and 2^-24
  CHECK(f32_to_f16_bits(0x1.000002p-25f) == 0x0001);
  CHECK(f32_to_f16_bits(0x1.8p-24f) == 0x0002);  // tie 1.5 -> 2
  CHECK(f32_to_f16_bits(0x1p-14f) == 0x0400);   // smallest normal
  CHECK(f32_to_f16_bits(0x1.ff8p-15f) == 0x03ff);  // largest subnormal
  CHECK(f32_to_f16_bits(0x1.ffcp-15f) == 0x0400);  // tie: rounds up out of the subnormals
  CHECK(f32_to_f16_bits(1e-30f) == 0);
  CHECK(f32_to_f16_bits(-1e-30f) == 0x8000);
  CHECK(f32_to_f16_bits(1e-45f) == 0);  // float subnormal
  CHECK(f64_to_f16_bits(1e300) == 0x7c00);
  CHECK(f64_to_f16_bits(-1e-300) == 0x8000);
  CHECK(f16_bits_to_f32(0x0001) == 0x1p-24f);
  CHECK(f16_bits_to_f32(0x03ff) == 0x1.ff8p-15f);
  CHECK(f16_bits_to_f32(0x7c00) == INFINITY);
  CHECK(std::signbit(f16_bits_to_f32(0x8000)));
  CHECK(is_nan16(f32_to_f16_bits(NAN)));
  // A NaN whose payload lives only in the low bits must stay a NaN, not become inf.
  uint32_t low_payload = 0x7f800001;
  float lp;
  std::memcpy(&lp, &low_payload, 4);
  CHECK(is_nan16(f32_to_f16_bits(lp)));
  CHECK(is_nan_bf16(f32_to_bf16_bits(lp)));
}

TEST_CASE("f16: agrees with CPython's struct.pack('e')") {
  for (const Ref16& r : kF16Ref) {
    CAPTURE(r.x);
    CHECK(f64_to_f16_bits(r.x) == r.bits);
    CHECK(cast_const(F(Prim::f64, r.x), Prim::f16).f == (double)f16_bits_to_f32(r.bits));
  }
}

TEST_CASE("float -> 16-bit: the bit path and the generic double path agree") {
  // Two independent implementations (bit twiddling vs frexp/ldexp rounding),
  // checked against each other over a spread of float bit patterns.
  for (uint64_t b = 0; b <= 0xffffffffull; b += 4099) {
    uint32_t u = (uint32_t)b;
    float f;
    std::memcpy(&f, &u, 4);
    if (std::isnan(f)) continue;
    REQUIRE(f32_to_f16_bits(f) == f64_to_f16_bits((double)f));
    REQUIRE(f32_to_bf16_bits(f) == f64_to_bf16_bits((double)f));
  }
}

TEST_CASE("bf16: rounding") {
  CHECK(f32_to_bf16_bits(1.0f) == 0x3f80);
  CHECK(bf16_bits_to_f32(f32_to_bf16_bits(0.1f)) == 0.10009765625f);
  CHECK(f32_to_bf16_bits(0x1.01p0f) == 0x3f80);  // tie, even stays
  CHECK(f32_to_bf16_bits(0x1.03p0f) == 0x3f82);  // tie, odd rounds up
  CHECK(f32_to_bf16_bits(0x1.0101p0f) == 0x3f81);
  CHECK(f32_to_bf16_bits(3.4e38f) == 0x7f80);   // rounds past the largest finite
  CHECK(f32_to_bf16_bits(-INFINITY) == 0xff80);
  CHECK(f32_to_bf16_bits(1e-40f) == f32_to_bf16_bits(1e-40f));
  CHECK(bf16_bits_to_f32(f32_to_bf16_bits(0x1p-133f)) == 0x1p-133f);  // smallest subnormal
  CHECK(round_to_bf16(1e39) == INFINITY);
  CHECK(round_to_bf16(0x1.01p0) == 1.0);
  CHECK(round_to_bf16(0x1.0100000001p0) == 0x1.02p0);  // tie only in float, not in double
}

TEST_CASE("cast_const: int -> int wraps two's complement") {
  CHECK(as_i(I(Prim::i32, 300), Prim::i8) == 44);
  CHECK(as_i(I(Prim::i32, -129), Prim::i8) == 127);
  CHECK(as_u(I(Prim::i32, -1), Prim::u8) == 255);
  CHECK(as_u(I(Prim::i32, -1), Prim::u64) == UINT64_MAX);
  CHECK(as_i(U(Prim::u64, UINT64_MAX), Prim::i64) == -1);
  CHECK(as_i(U(Prim::u32, 0x80000000u), Prim::i32) == INT32_MIN);
  CHECK(as_u(I(Prim::i64, 0x1'0000'0005), Prim::u32) == 5);
  CHECK(as_i(I(Prim::i8, -5), Prim::i64) == -5);
  CHECK(as_u(I(Prim::i8, -5), Prim::u16) == 65531);
  CHECK(as_i(U(Prim::u16, 65535), Prim::i16) == -1);
  CHECK(I(Prim::u8, 256).u == 0);
  CHECK(I(Prim::i16, 40000).i == 40000 - 65536);
  CHECK(I(Prim::u32, -1).u == 0xffffffffu);
}

TEST_CASE("cast_const: float -> int truncates, saturates, NaN gives 0") {
  CHECK(as_i(F(Prim::f64, 3.7), Prim::i32) == 3);
  CHECK(as_i(F(Prim::f64, -3.7), Prim::i32) == -3);
  CHECK(as_i(F(Prim::f32, -0.5), Prim::i32) == 0);
  CHECK(as_i(F(Prim::f64, NAN), Prim::i32) == 0);
  CHECK(as_u(F(Prim::f64, NAN), Prim::u64) == 0);
  CHECK(as_i(F(Prim::f64, 1e10), Prim::i32) == INT32_MAX);
  CHECK(as_i(F(Prim::f64, -1e10), Prim::i32) == INT32_MIN);
  CHECK(as_i(F(Prim::f64, INFINITY), Prim::i64) == INT64_MAX);
  CHECK(as_i(F(Prim::f64, -INFINITY), Prim::i64) == INT64_MIN);
  CHECK(as_i(F(Prim::f64, 0x1p63), Prim::i64) == INT64_MAX);
  CHECK(as_i(F(Prim::f64, -0x1p63), Prim::i64) == INT64_MIN);
  CHECK(as_i(F(Prim::f64, 0x1.fffffffffffffp62), Prim::i64) == 0x7ffffffffffffc00);
  CHECK(as_u(F(Prim::f64, -1.0), Prim::u32) == 0);
  CHECK(as_u(F(Prim::f64, 1e20), Prim::u64) == UINT64_MAX);
  CHECK(as_u(F(Prim::f64, 0x1p64), Prim::u64) == UINT64_MAX);
  CHECK(as_u(F(Prim::f64, 0x1.fffffffffffffp63), Prim::u64) == 0xfffffffffffff800u);
  CHECK(as_u(F(Prim::f64, 300.5), Prim::u8) == 255);  // saturates, does not wrap
  CHECK(as_i(F(Prim::f64, -200.0), Prim::i8) == -128);
  CHECK(as_i(F(Prim::f64, 32767.9), Prim::i16) == 32767);
  CHECK(as_i(F(Prim::f16, 65504.0), Prim::i16) == 32767);
  CHECK(as_i(F(Prim::f64, 2147483647.9), Prim::i32) == 2147483647);
  CHECK(as_i(F(Prim::f64, -2147483648.9), Prim::i32) == INT32_MIN);
}

TEST_CASE("cast_const: int -> float rounds once, to nearest even") {
  CHECK(as_f(I(Prim::i64, (1ll << 53) + 1), Prim::f64) == 0x1p53);
  CHECK(as_f(I(Prim::i64, (1ll << 53) + 3), Prim::f64) == 0x1p53 + 4);
  CHECK(as_f(I(Prim::i32, 16777217), Prim::f32) == 16777216.0);
  CHECK(as_f(I(Prim::i32, 16777219), Prim::f32) == 16777220.0);
  // 2^60 + 2^36 + 1: through double it would become the f32 tie 2^60 + 2^36
  // and round down to 2^60; one rounding gives 2^60 + 2^37.
  CHECK(as_f(I(Prim::i64, (1ll << 60) + (1ll << 36) + 1), Prim::f32) == 0x1p60 + 0x1p37);
  CHECK(as_f(I(Prim::i64, (1ll << 62) + (1ll << 54) + 1), Prim::bf16) == 0x1p62 + 0x1p55);
  CHECK(as_f(I(Prim::i64, (1ll << 62) + (1ll << 54)), Prim::bf16) == 0x1p62);
  CHECK(as_f(I(Prim::i64, -((1ll << 62) + (1ll << 54) + 1)), Prim::bf16) == -(0x1p62 + 0x1p55));
  CHECK(as_f(U(Prim::u64, UINT64_MAX), Prim::f32) == 0x1p64);
  CHECK(as_f(U(Prim::u64, UINT64_MAX), Prim::f64) == 0x1p64);
  CHECK(as_f(U(Prim::u64, UINT64_MAX), Prim::f16) == INFINITY);
  CHECK(as_f(I(Prim::i64, INT64_MIN), Prim::f16) == -INFINITY);
  CHECK(as_f(I(Prim::i64, INT64_MIN), Prim::bf16) == -0x1p63);
  CHECK(as_f(I(Prim::i32, 65519), Prim::f16) == 65504.0);
  CHECK(as_f(I(Prim::i32, 65520), Prim::f16) == INFINITY);
  CHECK(as_f(I(Prim::i32, 2049), Prim::f16) == 2048.0);
  CHECK(as_f(I(Prim::i32, 2051), Prim::f16) == 2052.0);
  CHECK(as_f(I(Prim::i32, -7), Prim::f64) == -7.0);
  CHECK(as_f(U(Prim::u8, 200), Prim::f32) == 200.0);
}

TEST_CASE("cast_const: float -> float") {
  CHECK(as_f(F(Prim::f64, 0.1), Prim::f32) == (double)0.1f);
  CHECK(as_f(F(Prim::f64, 1e300), Prim::f32) == INFINITY);
  CHECK(as_f(F(Prim::f64, 0.1), Prim::f16) == 0.0999755859375);
  CHECK(as_f(F(Prim::f64, 0.1), Prim::bf16) == 0.10009765625);
  CHECK(as_f(F(Prim::f64, 1 + 0x1p-11 + 0x1p-40), Prim::f16) == 1 + 0x1p-10);
  CHECK(as_f(F(Prim::f16, 0.1), Prim::f32) == 0.0999755859375);
  CHECK(as_f(F(Prim::f16, 1.0 / 3), Prim::bf16) == round_to_bf16(round_to_f16(1.0 / 3)));
  CHECK(std::isnan(as_f(F(Prim::f64, NAN), Prim::f16)));
  CHECK(std::isnan(as_f(F(Prim::f64, NAN), Prim::bf16)));
  CHECK(std::signbit(as_f(F(Prim::f64, -0.0), Prim::f16)));
  CHECK(std::signbit(as_f(F(Prim::f64, -1e-30), Prim::f16)));
  CHECK(F(Prim::f32, 0.1).f == (double)0.1f);
  CHECK(F(Prim::f16, 1e6).f == INFINITY);
}

TEST_CASE("cast_const: every pair of types is total, and same-type casts are identity") {
  const Prim all[] = {Prim::i8,  Prim::i16, Prim::i32, Prim::i64, Prim::u8,   Prim::u16,
                      Prim::u32, Prim::u64, Prim::f16, Prim::bf16, Prim::f32, Prim::f64};
  const double samples[] = {0.0, -0.0, 1.0, -1.0, 0.5, 127.5, 255.0, -32768.0, 65504.0,
                            1e9, -3e9, 1e19, 1e300, -1e300, INFINITY, -INFINITY, NAN, 0x1p-20};
  for (Prim from : all)
    for (double s : samples) {
      ConstVal v = F(from, s);
      CHECK(cast_const(v, from).identical(v));
      for (Prim to : all) {
        ConstVal r = cast_const(v, to);
        CHECK(r.prim == to);
        // Whatever the source, the result is a canonical value of its type.
        CHECK(cast_const(r, to).identical(r));
        if (prim_is_float(to) && std::isfinite(r.f) && to != Prim::f64)
          CHECK(cast_const(F(Prim::f64, r.f), to).f == r.f);
      }
    }
}

TEST_CASE("const bits and ConstVal accessors") {
  CHECK(const_to_bits(F(Prim::f32, 0.1)) == 0x3dcccccd);
  CHECK(const_to_bits(F(Prim::f16, 1.0)) == 0x3c00);
  CHECK(const_to_bits(F(Prim::bf16, -2.0)) == 0xc000);
  CHECK(const_to_bits(F(Prim::f64, 1.0)) == 0x3ff0000000000000ull);
  CHECK(const_to_bits(I(Prim::i8, -1)) == 0xff);
  CHECK(const_to_bits(I(Prim::i32, -2)) == 0xfffffffe);
  CHECK(const_from_bits(Prim::i8, 0xff).i == -1);
  CHECK(const_from_bits(Prim::u16, 0x1ffff).u == 0xffff);
  CHECK(const_from_bits(Prim::f16, 0x3555).f == (double)f16_bits_to_f32(0x3555));
  CHECK(const_from_bits(Prim::f32, 0x3dcccccd).f == (double)0.1f);
  for (uint32_t b = 0; b < 65536; b += 7) {
    if (is_nan16((uint16_t)b)) continue;
    REQUIRE(const_to_bits(const_from_bits(Prim::f16, b)) == b);
  }
  CHECK(I(Prim::i32, -5).as_double() == -5.0);
  CHECK(F(Prim::f64, 2.9).as_int64() == 2);
  CHECK(I(Prim::i8, -1).as_uint64() == UINT64_MAX);
  CHECK(U(Prim::u64, UINT64_MAX).as_int64() == -1);
  CHECK(!F(Prim::f64, 0.0).identical(F(Prim::f64, -0.0)));
}

TEST_CASE("kernel print: Taichi's printf conversions") {
  CHECK(kernel_printf_spec(Prim::i8) == "%hd");
  CHECK(kernel_printf_spec(Prim::u16) == "%hu");
  CHECK(kernel_printf_spec(Prim::i64) == "%lld");
  CHECK(kernel_printf_spec(Prim::f32) == "%f");
  CHECK(kernel_printf_spec(Prim::f64) == "%.12f");
  CHECK(kernel_print_scalar(F(Prim::f32, 0.1)) == "0.100000");
  CHECK(kernel_print_scalar(F(Prim::f64, 0.1)) == "0.100000000000");
  CHECK(kernel_print_scalar(F(Prim::f16, 0.1)) == "0.099976");
  CHECK(kernel_print_scalar(F(Prim::bf16, 0.1)) == "0.100098");
  CHECK(kernel_print_scalar(F(Prim::f32, 1e10)) == "10000000000.000000");
  CHECK(kernel_print_scalar(F(Prim::f32, -INFINITY)) == "-inf");
  CHECK(kernel_print_scalar(I(Prim::i32, -7)) == "-7");
  CHECK(kernel_print_scalar(I(Prim::i8, -128)) == "-128");
  CHECK(kernel_print_scalar(U(Prim::u8, 255)) == "255");
  CHECK(kernel_print_scalar(U(Prim::u64, UINT64_MAX)) == "18446744073709551615");
  CHECK(kernel_print_scalar(I(Prim::i64, INT64_MIN)) == "-9223372036854775808");
  // f-string specs inside kernels, merged as Taichi merges them.
  CHECK(kernel_print_scalar(F(Prim::f32, 0.1), ".2f") == "0.10");
  CHECK(kernel_print_scalar(F(Prim::f64, 0.1), "e") == "1.000000000000e-01");
  CHECK(kernel_print_scalar(F(Prim::f64, 0.1), ".3") == "0.100");
  CHECK(kernel_print_scalar(F(Prim::f64, 2.5), "-+10lf") == "+2.500000000000");
  CHECK(kernel_print_scalar(F(Prim::f32, 2.5), "8.1f") == "     2.5");
  CHECK(kernel_print_scalar(F(Prim::f32, 2.5), "d") == "2.500000");  // wrong group: type wins
  CHECK(kernel_print_scalar(U(Prim::u32, 255), "x") == "ff");
  CHECK(kernel_print_scalar(U(Prim::u32, 255), "#06X") == "0X00FF");
  CHECK(kernel_print_scalar(I(Prim::i32, 255), "x") == "255");  // signed: 'x' is another group
  CHECK(kernel_print_scalar(I(Prim::i32, 7), "5d") == "    7");
  CHECK(kernel_print_scalar(I(Prim::i32, 7), "%-5d") == "7    ");
  CHECK(kernel_print_scalar(I(Prim::i32, 7), "05") == "00007");
  CHECK(kernel_print_scalar(I(Prim::i8, -3), "+d") == "-3");
  CHECK_THROWS_AS(kernel_print_scalar(I(Prim::i32, 7), "abc"), Error);
  CHECK_THROWS_AS(kernel_print_scalar(I(Prim::i32, 7), "*d"), Error);
  CHECK_THROWS_AS(kernel_print_scalar(I(Prim::i32, 7), "n"), Error);
}
