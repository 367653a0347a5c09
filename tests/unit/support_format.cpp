// Python number/string formatting, checked against CPython 3.11.
//
// Every expected string below was produced by running CPython (repr(x),
// format(x, spec)) and pasted in literally; doubles are written as hex
// literals so the inputs are bit-exact. The tables are data, not logic.
#include <doctest/doctest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <string_view>

#include "vm/support/diag.h"
#include "vm/support/format.h"

using namespace kiln;
using namespace std::literals;

namespace {

struct ReprCase {
  double v;
  std::string_view want;
};
struct FmtFloatCase {
  double v;
  std::string_view spec;
  std::string_view want;
};
struct FmtIntCase {
  int64_t v;
  std::string_view spec;
  std::string_view want;
};
struct FmtStrCase {
  std::string_view s;
  std::string_view spec;
  std::string_view want;
};
// kind: 'f' float, 'i' int, 's' str; want is "Kind: message".
struct ErrCase {
  char kind;
  double num;
  std::string_view s;
  std::string_view spec;
  std::string_view want;
};
struct ReprStrCase {
  std::string_view s;
  std::string_view want;
};

const ReprCase kRepr[] = {
    {0.0, "0.0"sv}, {-0.0, "-0.0"sv}, {0x1.0000000000000p+0, "1.0"sv},
    {-0x1.0000000000000p+0, "-1.0"sv}, {0x1.999999999999ap-4, "0.1"sv},
    {0x1.999999999999ap-3, "0.2"sv}, {0x1.3333333333333p-2, "0.3"sv},
    {0x1.3333333333334p-2, "0.30000000000000004"sv}, {0x1.5555555555555p-2, "0.3333333333333333"sv},
    {0x1.5555555555555p-1, "0.6666666666666666"sv}, {0x1.1c37937e08000p+53, "1e+16"sv},
    {0x1.c6bf526340000p+49, "1000000000000000.0"sv},
    {0x1.1c37937e07fffp+53, "9999999999999998.0"sv}, {0x1.c12218377de40p+46, "123456789012345.0"sv},
    {0x1.5ee2a2eb5a5c4p+53, "1.2345678901234568e+16"sv}, {0x1.a36e2eb1c432dp-14, "0.0001"sv},
    {0x1.4f8b588e368f1p-17, "1e-05"sv}, {0x1.02e4b6ce5dc68p-13, "0.00012345"sv},
    {0x1.421f5f40d8376p-23, "1.5e-07"sv}, {0x1.0f0cf064dd592p+73, "1e+22"sv},
    {0x1.52d02c7e14af6p+76, "1e+23"sv}, {0x0.0000000000001p-1022, "5e-324"sv},
    {0x1.0000000000000p-1022, "2.2250738585072014e-308"sv},
    {0x1.fffffffffffffp+1023, "1.7976931348623157e+308"sv}, {INFINITY, "inf"sv},
    {-INFINITY, "-inf"sv}, {0x1.9000000000000p+6, "100.0"sv}, {0x1.249ad2594c37dp+332, "1e+100"sv},
    {0x1.81cd6c8b43958p+13, "12345.678"sv}, {0x1.4000000000000p+1, "2.5"sv},
    {-0x1.12e0be826d695p-32, "-2.5e-10"sv}, {0x1.921fb54442d18p+1, "3.141592653589793"sv},
    {0x1.0000000000000p+53, "9007199254740992.0"sv},
    {0x1.0000000000001p+53, "9007199254740994.0"sv},
    {0x1.0000000000000p+63, "9.223372036854776e+18"sv},
    {0x1.0000000000000p+64, "1.8446744073709552e+19"sv}, {0x1.0000000000000p-1, "0.5"sv},
    {0x1.0000000000000p-10, "0.0009765625"sv}, {0x1.ec00000000000p+6, "123.0"sv},
    {0x1.ad7f29abcaf48p-24, "1e-07"sv}, {0x1.1666666666666p+2, "4.35"sv},
    {0x1.05e1c15097c81p-10, "0.000999"sv}, {0x1.ffc0000000000p+15, "65504.0"sv},
    {0x1.99999a0000000p-4, "0.10000000149011612"sv},
    {0x1.4496e7857dd86p-279, "1.3053460867029954e-84"sv},
    {-0x1.eee3cba6f875cp-703, "-4.593900756363754e-212"sv},
    {0x1.06bc44dc2a627p-203, "7.983430509249571e-62"sv},
    {-0x1.8451ee325faa6p-108, "-4.674232466673235e-33"sv},
    {-0x1.8fac168fb90d7p+30, "-1676346787.9307153"sv},
    {-0x1.54e2bb7740a63p+36, "-91505801076.04057"sv},
    {-0x1.e840043e58844p-888, "-9.242004904000638e-268"sv},
    {-0x1.a95a83ec33dd6p-466, "-8.72031439815143e-141"sv},
    {-0x1.8d756d0055979p-60, "-1.3466424375819714e-18"sv},
    {0x1.b0a377f90ade7p+427, "5.857245089853537e+128"sv},
    {-0x1.f0de26a769806p-912, "-5.6058932322064184e-275"sv},
    {-0x1.b532aba4e6c36p-550, "-4.633834494019838e-166"sv},
    {0x1.72e4af6978770p-130, "1.064411574118151e-39"sv},
    {-0x1.890644f3d4e7bp-844, "-1.3087699255072154e-254"sv},
    {0x1.a84a5b43d4318p+329, "1.8125578230860703e+99"sv},
    {0x1.db61884f42b4bp-718, "1.346681689596359e-216"sv},
    {0x1.8d793da90b768p-25, "4.627201672550136e-08"sv},
    {0x1.68e9d2c13edd8p+28, "378445100.07784796"sv},
    {0x1.2ad5dbee6dc19p-37, "8.493412540709208e-12"sv},
    {0x1.ede10d0ee1884p+15, "63216.52550415791"sv}, {0x1.7f5c6509d9378p+6, "95.84022918117796"sv},
    {0x1.ead769a545a8cp+27, "257342285.16475332"sv},
    {-0x1.a721b9cd5c91cp-41, "-7.516329627436877e-13"sv},
    {0x1.4883932a9cb19p+12, "5256.223429309925"sv},
    {-0x1.d10575eae1953p-29, "-3.3834754906153086e-09"sv},
    {-0x1.54daa1b2e8922p+18, "-349034.526544707"sv},
    {-0x1.3b5452c48276ap-25, "-3.670917217777918e-08"sv},
    {0x1.8b8ca879b8c46p+19, "810085.2648586116"sv},
    {-0x1.3fd194ade5f32p-61, "-5.417939096020004e-19"sv},
    {0x1.d81085ed9e754p-65, "4.998177770557952e-20"sv},
    {0x1.8b2666c12522cp-14, "9.421110282154731e-05"sv},
    {0x1.6036b540b8d26p-1, "0.6879173890596675"sv}, {0x1.b3d90e0000000p+5, "54.48098373413086"sv},
    {0x1.c114060000000p+3, "14.03369426727295"sv}, {0x1.48404c0000000p+5, "41.031394958496094"sv},
    {0x1.6bcbdc0000000p+4, "22.73727035522461"sv}, {-0x1.0e324a0000000p+5, "-33.77455520629883"sv},
    {0x1.e8bb7a0000000p+4, "30.5457706451416"sv}, {0x1.c097620000000p+5, "56.073917388916016"sv},
    {-0x1.a645860000000p+5, "-52.7839469909668"sv}, {NAN, "nan"sv},
};
const FmtFloatCase kFmtFloat[] = {
    {0.0, ".1"sv, "0e+00"sv}, {0.0, ".0f"sv, "0"sv}, {0.0, "#g"sv, "0.00000"sv},
    {0.0, "+.2f"sv, "+0.00"sv}, {0.0, " .2e"sv, " 0.00e+00"sv}, {0.0, "#.2%"sv, "0.00%"sv},
    {-0.0, ".10f"sv, "-0.0000000000"sv}, {-0.0, "G"sv, "-0"sv},
    {-0.0, "015,.2f"sv, "-000,000,000.00"sv}, {-0.0, "x<12,.1f"sv, "-0.0xxxxxxxx"sv},
    {0x1.0000000000000p+0, "f"sv, "1.000000"sv}, {0x1.0000000000000p+0, "010"sv, "00000001.0"sv},
    {0x1.0000000000000p+0, "0=12.1f"sv, "0000000001.0"sv},
    {0x1.0000000000000p+0, "#.2%"sv, "100.00%"sv}, {-0x1.0000000000000p+0, ".12"sv, "-1.0"sv},
    {-0x1.0000000000000p+0, ".0%"sv, "-100%"sv}, {-0x1.0000000000000p+0, "+.2f"sv, "-1.00"sv},
    {-0x1.0000000000000p+0, "z"sv, "-1.0"sv}, {0x1.0000000000000p-1, ".0f"sv, "0"sv},
    {0x1.0000000000000p-1, "#"sv, "0.5"sv}, {0x1.0000000000000p-1, "_"sv, "0.5"sv},
    {0x1.0000000000000p-1, ".25f"sv, "0.5000000000000000000000000"sv},
    {0x1.8000000000000p+0, ".3e"sv, "1.500e+00"sv}, {0x1.8000000000000p+0, "#.0f"sv, "2."sv},
    {0x1.8000000000000p+0, "z"sv, "1.5"sv}, {0x1.8000000000000p+0, "z.1f"sv, "1.5"sv},
    {0x1.4000000000000p+1, "#.0e"sv, "2.e+00"sv}, {0x1.4000000000000p+1, ".0%"sv, "250%"sv},
    {0x1.4000000000000p+1, "015,.2f"sv, "0,000,000,002.50"sv},
    {0x1.4000000000000p+1, ".25f"sv, "2.5000000000000000000000000"sv},
    {0x1.0000000000000p-3, ".1"sv, "0.1"sv}, {0x1.0000000000000p-3, "+"sv, "+0.125"sv},
    {0x1.0000000000000p-3, " "sv, " 0.125"sv},
    {0x1.0000000000000p-3, "0=12.1f"sv, "0000000000.1"sv}, {0x1.0000000000000p-3, "z"sv, "0.125"sv},
    {0x1.0000000000000p-3, ".16"sv, "0.125"sv},
    {0x1.999999999999ap-4, ".17"sv, "0.10000000000000001"sv},
    {0x1.999999999999ap-4, ".0e"sv, "1e-01"sv}, {0x1.999999999999ap-4, "g"sv, "0.1"sv},
    {0x1.999999999999ap-4, "012,"sv, "00,000,000.1"sv}, {-0x1.999999999999ap-4, ".10g"sv, "-0.1"sv},
    {-0x1.999999999999ap-4, "#g"sv, "-0.100000"sv},
    {-0x1.999999999999ap-4, "015,.2f"sv, "-000,000,000.10"sv},
    {-0x1.999999999999ap-4, "z.1f"sv, "-0.1"sv}, {0x1.5555555555555p-2, ".3e"sv, "3.333e-01"sv},
    {0x1.5555555555555p-2, ","sv, "0.3333333333333333"sv},
    {0x1.5555555555555p-2, "020_.4e"sv, "000_000_003.3333e-01"sv},
    {0x1.5555555555555p-2, ".16"sv, "0.3333333333333333"sv},
    {0x1.5555555555555p-1, ".1"sv, "0.7"sv}, {0x1.5555555555555p-1, ".0e"sv, "7e-01"sv},
    {0x1.5555555555555p-1, ","sv, "0.6666666666666666"sv},
    {0x1.81cd6e631f8a1p+13, ".6"sv, "12345.7"sv}, {0x1.81cd6e631f8a1p+13, ".0g"sv, "1e+04"sv},
    {0x1.81cd6e631f8a1p+13, "#.0f"sv, "12346."sv}, {0x1.81cd6e631f8a1p+13, "#.0e"sv, "1.e+04"sv},
    {0x1.81cd6e631f8a1p+13, "020_.4e"sv, "000_000_001.2346e+04"sv},
    {0x1.81cd6e631f8a1p+13, "x<12,.1f"sv, "12,345.7xxxx"sv},
    {-0x1.81cd6e631f8a1p+13, ".0g"sv, "-1e+04"sv}, {-0x1.81cd6e631f8a1p+13, "G"sv, "-12345.7"sv},
    {-0x1.81cd6e631f8a1p+13, "_.3f"sv, "-12_345.679"sv},
    {-0x1.81cd6e631f8a1p+13, "\303\251>8.2f"sv, "-12345.68"sv},
    {-0x1.81cd6e631f8a1p+13, ".15"sv, "-12345.6789"sv}, {0x1.1c37937e08000p+53, ""sv, "1e+16"sv},
    {0x1.1c37937e08000p+53, ".0"sv, "1e+16"sv},
    {0x1.1c37937e08000p+53, ".0f"sv, "10000000000000000"sv},
    {0x1.1c37937e08000p+53, "E"sv, "1.000000E+16"sv}, {0x1.1c37937e08000p+53, "g"sv, "1e+16"sv},
    {0x1.1c37937e08000p+53, ".3g"sv, "1e+16"sv}, {0x1.1c37937e08000p+53, " .2e"sv, " 1.00e+16"sv},
    {0x1.1c37937e08000p+53, ".3g"sv, "1e+16"sv},
    {0x1.1c37937e08000p+53, "012,"sv, "0,000,001e+16"sv},
    {0x1.1c37937e08000p+53, ".3F"sv, "10000000000000000.000"sv},
    {0x1.4f8b588e368f1p-17, ".12"sv, "1e-05"sv}, {0x1.4f8b588e368f1p-17, "010"sv, "000001e-05"sv},
    {0x1.4f8b588e368f1p-17, "+.2f"sv, "+0.00"sv}, {0x1.4f8b588e368f1p-17, ",.2f"sv, "0.00"sv},
    {0x1.4f8b588e368f1p-17, "012,"sv, "0,000,001e-05"sv},
    {0x1.d6f3454000000p+26, ".12"sv, "123456789.0"sv},
    {0x1.d6f3454000000p+26, "=10"sv, "123456789.0"sv},
    {0x1.d6f3454000000p+26, "*^12.3f"sv, "123456789.000"sv},
    {0x1.d6f3454000000p+26, "+015_f"sv, "+123_456_789.000000"sv},
    {0x1.d6f3454000000p+26, "#.2%"sv, "12345678900.00%"sv},
    {0x1.0f0cf064dd592p+73, ".2"sv, "1e+22"sv}, {0x1.0f0cf064dd592p+73, "G"sv, "1E+22"sv},
    {0x1.0f0cf064dd592p+73, "015,.2f"sv, "10,000,000,000,000,000,000,000.00"sv},
    {0x1.0f0cf064dd592p+73, "z"sv, "1e+22"sv},
    {0x1.0f0cf064dd592p+73, ".20e"sv, "1.00000000000000000000e+22"sv},
    {0x1.1eb2d66005835p+997, "G"sv, "1.5E+300"sv},
    {0x1.1eb2d66005835p+997, "%"sv, "150000000000000011444554618627342388021020282725985217552402601309317070432188691726213283447037676114959621365707823142058315581767199907437723417025779746125251474784733472439804552143121910971352726587560188480336237733488595426573794807923933585763926275159787925654625603510774848806855747236265984.000000%"sv},
    {0x1.1eb2d66005835p+997, ".1%"sv, "150000000000000011444554618627342388021020282725985217552402601309317070432188691726213283447037676114959621365707823142058315581767199907437723417025779746125251474784733472439804552143121910971352726587560188480336237733488595426573794807923933585763926275159787925654625603510774848806855747236265984.0%"sv},
    {0x1.1eb2d66005835p+997, "<10"sv, "1.5e+300  "sv},
    {0x1.1eb2d66005835p+997, "=10"sv, "  1.5e+300"sv},
    {0x1.1eb2d66005835p+997, "-"sv, "1.5e+300"sv},
    {0x1.1eb2d66005835p+997, "^+15.4e"sv, " +1.5000e+300  "sv},
    {0x0.0000000000001p-1022, "g"sv, "4.94066e-324"sv},
    {0x0.0000000000001p-1022, "#.3g"sv, "4.94e-324"sv}, {0x0.0000000000001p-1022, "#.0f"sv, "0."sv},
    {0x0.0000000000001p-1022, "^10"sv, "  5e-324  "sv},
    {0x0.0000000000001p-1022, "+015_f"sv, "+000_000.000000"sv},
    {0x0.0000000000001p-1022, ".3F"sv, "0.000"sv}, {0x0.0000000000001p-1022, "#.2%"sv, "0.00%"sv},
    {0x1.06243162a38e4p-10, ".10g"sv, "0.00099999"sv},
    {0x1.06243162a38e4p-10, "+015_f"sv, "+000_000.001000"sv},
    {0x1.06243162a38e4p-10, "^+15.4e"sv, "  +9.9999e-04  "sv},
    {0x1.e847f00000000p+19, "f"sv, "999999.500000"sv},
    {0x1.e847f00000000p+19, ".1%"sv, "99999950.0%"sv},
    {0x1.e847f00000000p+19, "=10"sv, "  999999.5"sv},
    {0x1.e847f00000000p+19, "z.1f"sv, "999999.5"sv},
    {0x1.e847f00000000p+19, "F"sv, "999999.500000"sv}, {-0x1.a36e2eb1c432dp-12, ""sv, "-0.0004"sv},
    {-0x1.a36e2eb1c432dp-12, ".0g"sv, "-0.0004"sv}, {-0x1.a36e2eb1c432dp-12, "#.0f"sv, "-0."sv},
    {-0x1.a36e2eb1c432dp-12, "+z.0f"sv, "+0"sv}, {-0x1.a36e2eb1c432dp-12, "#.3"sv, "-0.000400"sv},
    {0x1.9000000000000p+6, ".2"sv, "1e+02"sv}, {0x1.9000000000000p+6, ".3e"sv, "1.000e+02"sv},
    {0x1.9000000000000p+6, ".0g"sv, "1e+02"sv}, {0x1.9000000000000p+6, "_"sv, "100.0"sv},
    {0x1.9000000000000p+6, "_.3f"sv, "100.000"sv},
    {0x1.9000000000000p+6, ".25f"sv, "100.0000000000000000000000000"sv},
    {0x1.3fd70a3d70a3dp+3, "e"sv, "9.995000e+00"sv}, {0x1.3fd70a3d70a3dp+3, "10"sv, "     9.995"sv},
    {0x1.3fd70a3d70a3dp+3, "+"sv, "+9.995"sv}, {0x1.3fd70a3d70a3dp+3, " "sv, " 9.995"sv},
    {0x1.3fd70a3d70a3dp+3, " .2e"sv, " 9.99e+00"sv}, {INFINITY, ".17"sv, "inf"sv},
    {INFINITY, ".2f"sv, "inf"sv}, {INFINITY, ".10f"sv, "inf"sv}, {INFINITY, "e"sv, "inf"sv},
    {INFINITY, ".0e"sv, "inf"sv}, {INFINITY, ","sv, "inf"sv}, {INFINITY, "_.3f"sv, "inf"sv},
    {INFINITY, "z"sv, "inf"sv}, {INFINITY, "08.3g"sv, "00000inf"sv},
    {INFINITY, "^+15.4e"sv, "     +inf      "sv}, {-INFINITY, ".3"sv, "-inf"sv},
    {-INFINITY, "e"sv, "-inf"sv}, {-INFINITY, ","sv, "-inf"sv},
    {-INFINITY, "08.3g"sv, "-0000inf"sv}, {-INFINITY, ".20e"sv, "-inf"sv},
    {-INFINITY, ".20g"sv, "-inf"sv}, {-INFINITY, "-010.2g"sv, "-000000inf"sv},
    {NAN, "f"sv, "nan"sv}, {NAN, ".1f"sv, "nan"sv}, {NAN, "G"sv, "NAN"sv}, {NAN, "%"sv, "nan%"sv},
    {NAN, "<10"sv, "nan       "sv}, {NAN, ">10"sv, "       nan"sv}, {NAN, ".15"sv, "nan"sv},
    {0x1.ffc0000000000p+15, ".3g"sv, "6.55e+04"sv}, {0x1.ffc0000000000p+15, "n"sv, "65504"sv},
    {0x1.ffc0000000000p+15, "=10"sv, "   65504.0"sv},
    {0x1.ffc0000000000p+15, ".3g"sv, "6.55e+04"sv},
    {0x1.ffc0000000000p+15, "x<12,.1f"sv, "65,504.0xxxx"sv},
    {0x1.ffc0000000000p+15, "F"sv, "65504.000000"sv}, {0x1.921f9f01b866ep+1, ".0g"sv, "3"sv},
    {0x1.921f9f01b866ep+1, "<10"sv, "3.14159   "sv}, {0x1.921f9f01b866ep+1, "#.3"sv, "3.14"sv},
    {0x1.921f9f01b866ep+1, ".25f"sv, "3.1415899999999998826183401"sv},
};
const FmtFloatCase kFmtFloatRandom[] = {
    {-0x1.a721b9cd5c91cp-41, "+.15"sv, "-7.51632962743688e-13"sv},
    {0x1.68e9d2c13edd8p+28, " 12_.15g"sv, " 378_445_100.077848"sv},
    {0x1.6036b540b8d26p-1, "+0.0e"sv, "+7e-01"sv},
    {0x1.68e9d2c13edd8p+28, "+020_.8E"sv, "+00_003.78445100E+08"sv},
    {0x1.4883932a9cb19p+12, "+020,.0"sv, "+000,000,000,005e+03"sv},
    {0x1.b7aafc48c9260p+19, "+0,.15"sv, "+900,439.883884978"sv},
    {-0x1.54daa1b2e8922p+18, "020,f"sv, "-0,000,349,034.526545"sv},
    {0x1.bcb265699b0c0p+19, "+12.0f"sv, "     +910739"sv},
    {0x1.2ad5dbee6dc19p-37, "12_.8f"sv, "  0.00000000"sv},
    {-0x1.1543a2d2bcf12p+18, "012,.8%"sv, "-28,391,854.41124301%"sv},
    {-0x1.6e7fa9d9afb90p+16, "+.8g"sv, "-93823.663"sv},
    {0x1.79a438b8dd260p+19, "0,.0"sv, "8e+05"sv},
    {0x1.d81085ed9e754p-65, " ,.8e"sv, " 4.99817777e-20"sv},
    {-0x1.a721b9cd5c91cp-41, "+12,.8%"sv, "-0.00000000%"sv},
    {0x1.ede10d0ee1884p+15, "012,.8e"sv, "6.32165255e+04"sv},
    {0x1.4883932a9cb19p+12, "+020_.8E"sv, "+00_005.25622343E+03"sv},
    {0x1.8b2666c12522cp-14, ".15e"sv, "9.421110282154731e-05"sv},
    {0x1.4883932a9cb19p+12, "020_.3%"sv, "000_000_525_622.343%"sv},
    {0x1.a6784227341cep+19, "0.8e"sv, "8.65218067e+05"sv},
    {-0x1.3b5452c48276ap-25, "0_.8G"sv, "-3.6709172E-08"sv},
    {0x1.48404c0000000p+5, "0.0g"sv, "4e+01"sv},
    {-0x1.a645860000000p+5, "+0,%"sv, "-5,278.394699%"sv},
    {-0x1.fd7c83ed25b35p+18, "20"sv, "  -521714.0613493205"sv},
    {-0x1.d760b3d960a8cp+19, "+20.3e"sv, "          -9.654e+05"sv},
    {0x1.72e4af6978770p-130, "+_.3G"sv, "+1.06E-39"sv},
    {-0x1.d10575eae1953p-29, " 020,.8g"sv, "-000,003.3834755e-09"sv},
    {-0x1.3fd194ade5f32p-61, "020.15G"sv, "-005.41793909602E-19"sv},
    {0x1.b3d90e0000000p+5, ".15e"sv, "5.448098373413086e+01"sv},
    {-0x1.a721b9cd5c91cp-41, "+12,g"sv, "-7.51633e-13"sv},
    {0x1.72e4af6978770p-130, "+12_E"sv, "+1.064412E-39"sv},
    {-0x1.132257140e50ap+18, "+12E"sv, "-2.817374E+05"sv},
    {0x1.8b8ca879b8c46p+19, "012%"sv, "81008526.485861%"sv},
    {-0x1.a721b9cd5c91cp-41, ",.0E"sv, "-8E-13"sv},
    {0x1.b3d90e0000000p+5, " 0_e"sv, " 5.448098e+01"sv},
    {0x1.48404c0000000p+5, "+12_.15e"sv, "+4.103139495849609e+01"sv},
    {0x1.d81085ed9e754p-65, "+0,.8%"sv, "+0.00000000%"sv},
    {0x1.e8bb7a0000000p+4, "+_.8E"sv, "+3.05457706E+01"sv},
    {0x1.8d793da90b768p-25, " 0_.3e"sv, " 4.627e-08"sv},
    {0x1.48404c0000000p+5, ""sv, "41.031394958496094"sv},
    {0x1.4883932a9cb19p+12, "+020.15f"sv, "+5256.223429309925450"sv},
    {0x1.0cea2619e3dc0p+19, "_.3g"sv, "5.51e+05"sv},
    {0x1.54b5f74600098p+17, "0"sv, "174443.9318237349"sv},
    {0x1.2ad5dbee6dc19p-37, "+0,.15G"sv, "+8.49341254070921E-12"sv},
    {0x1.4883932a9cb19p+12, "12_%"sv, "525_622.342931%"sv},
    {0x1.b0ae21c599b9ep+19, "012,.3%"sv, "88,612,905.537%"sv},
    {0x1.81112ccdf5180p+15, " 20_.8%"sv, " 4_928_858.75088302%"sv},
    {-0x1.8fac168fb90d7p+30, "+20_.3%"sv, "-167_634_678_793.072%"sv},
    {0x1.b3d90e0000000p+5, "012,.0e"sv, "0,000,005e+01"sv},
    {-0x1.2b9efaea1ad38p+19, "_.0e"sv, "-6e+05"sv},
    {0x1.87ab6bf58216ap+19, " 12.15g"sv, " 802139.373719258"sv},
};
const FmtIntCase kFmtInt[] = {
    {0ll, "<5"sv, "0    "sv}, {0ll, "^6"sv, "  0   "sv}, {0ll, "#_b"sv, "0b0"sv},
    {0ll, "c"sv, "\000"sv}, {0ll, ".2f"sv, "0.00"sv}, {0ll, ".3e"sv, "0.000e+00"sv},
    {0ll, "x^#12_X"sv, "xxxx0X0xxxxx"sv}, {0ll, "*>+10,"sv, "********+0"sv},
    {0ll, ",.2f"sv, "0.00"sv}, {0ll, "E"sv, "0.000000E+00"sv}, {1ll, "=+8"sv, "+      1"sv},
    {1ll, "-"sv, "1"sv}, {1ll, "010,"sv, "00,000,001"sv}, {1ll, "01_"sv, "1"sv},
    {1ll, "b"sv, "1"sv}, {1ll, "#_b"sv, "0b1"sv}, {1ll, "#x"sv, "0x1"sv}, {1ll, "#X"sv, "0X1"sv},
    {1ll, "c"sv, "\001"sv}, {1ll, "e"sv, "1.000000e+00"sv}, {1ll, ".3e"sv, "1.000e+00"sv},
    {1ll, "*>+10,"sv, "********+1"sv}, {1ll, "G"sv, "1"sv}, {1ll, "#12o"sv, "         0o1"sv},
    {-1ll, "d"sv, "-1"sv}, {-1ll, "=+8"sv, "-      1"sv}, {-1ll, "05"sv, "-0001"sv},
    {-1ll, " "sv, "-1"sv}, {-1ll, ","sv, "-1"sv}, {-1ll, "X"sv, "-1"sv},
    {-1ll, "#010x"sv, "-0x0000001"sv}, {-1ll, "#_x"sv, "-0x1"sv}, {-1ll, "e"sv, "-1.000000e+00"sv},
    {7ll, "d"sv, "7"sv}, {7ll, " "sv, " 7"sv}, {7ll, "x"sv, "7"sv},
    {7ll, "#010x"sv, "0x00000007"sv}, {7ll, "c"sv, "\007"sv}, {7ll, "5c"sv, "    \007"sv},
    {7ll, "<3c"sv, "\007  "sv}, {7ll, "%"sv, "700.000000%"sv}, {7ll, "x^#12_X"sv, "xxxx0X7xxxxx"sv},
    {7ll, "*>+10,"sv, "********+7"sv}, {7ll, "-#x"sv, "0x7"sv}, {42ll, ""sv, "42"sv},
    {42ll, "d"sv, "42"sv}, {42ll, "^6"sv, "  42  "sv}, {42ll, "=+8"sv, "+     42"sv},
    {42ll, "+"sv, "+42"sv}, {42ll, "_"sv, "42"sv}, {42ll, ",d"sv, "42"sv},
    {42ll, "#_b"sv, "0b10_1010"sv}, {42ll, "#010x"sv, "0x0000002a"sv}, {42ll, "c"sv, "*"sv},
    {-42ll, "^6"sv, " -42  "sv}, {-42ll, "-"sv, "-42"sv}, {-42ll, ","sv, "-42"sv},
    {-42ll, ",d"sv, "-42"sv}, {-42ll, "b"sv, "-101010"sv}, {-42ll, "x"sv, "-2a"sv},
    {-42ll, "#X"sv, "-0X2A"sv}, {-42ll, "_X"sv, "-2A"sv}, {-42ll, "%"sv, "-4200.000000%"sv},
    {-42ll, "G"sv, "-42"sv}, {255ll, "^6"sv, " 255  "sv}, {255ll, "=+8"sv, "+    255"sv},
    {255ll, "+"sv, "+255"sv}, {255ll, "_b"sv, "1111_1111"sv}, {255ll, "o"sv, "377"sv},
    {255ll, "x"sv, "ff"sv}, {255ll, "#x"sv, "0xff"sv}, {255ll, "#_x"sv, "0xff"sv},
    {255ll, "%"sv, "25500.000000%"sv}, {-255ll, "-"sv, "-255"sv},
    {-255ll, "012_"sv, "-000_000_255"sv}, {-255ll, "01_"sv, "-255"sv}, {-255ll, "o"sv, "-377"sv},
    {-255ll, "#o"sv, "-0o377"sv}, {-255ll, "x"sv, "-ff"sv}, {-255ll, "X"sv, "-FF"sv},
    {-255ll, "#X"sv, "-0XFF"sv}, {-255ll, "#010x"sv, "-0x00000ff"sv}, {1234ll, "5"sv, " 1234"sv},
    {1234ll, "-"sv, "1234"sv}, {1234ll, ",d"sv, "1,234"sv}, {1234ll, "012_"sv, "0_000_001_234"sv},
    {1234ll, "01_"sv, "1_234"sv}, {1234ll, "#b"sv, "0b10011010010"sv},
    {1234ll, "#_b"sv, "0b100_1101_0010"sv}, {1234ll, "g"sv, "1234"sv}, {-1234ll, "d"sv, "-1234"sv},
    {-1234ll, "^6"sv, "-1234 "sv}, {-1234ll, "-"sv, "-1234"sv}, {-1234ll, " "sv, "-1234"sv},
    {-1234ll, "01_"sv, "-1_234"sv}, {-1234ll, "#b"sv, "-0b10011010010"sv},
    {-1234ll, "#X"sv, "-0X4D2"sv}, {-1234ll, "e"sv, "-1.234000e+03"sv},
    {-1234ll, "E"sv, "-1.234000E+03"sv}, {-1234ll, "-#x"sv, "-0x4d2"sv}, {65ll, "+"sv, "+65"sv},
    {65ll, " "sv, " 65"sv}, {65ll, ","sv, "65"sv}, {65ll, "010,"sv, "00,000,065"sv},
    {65ll, "#b"sv, "0b1000001"sv}, {65ll, "o"sv, "101"sv}, {65ll, "5c"sv, "    A"sv},
    {65ll, "n"sv, "65"sv}, {65ll, "%"sv, "6500.000000%"sv}, {65ll, "x^#12_X"sv, "xxxx0X41xxxx"sv},
    {65ll, "-#x"sv, "0x41"sv}, {233ll, "5"sv, "  233"sv}, {233ll, "<5"sv, "233  "sv},
    {233ll, "05"sv, "00233"sv}, {233ll, "-"sv, "233"sv}, {233ll, "010,"sv, "00,000,233"sv},
    {233ll, "b"sv, "11101001"sv}, {233ll, "_b"sv, "1110_1001"sv}, {233ll, "o"sv, "351"sv},
    {233ll, "_X"sv, "E9"sv}, {233ll, "n"sv, "233"sv}, {128512ll, "d"sv, "128512"sv},
    {128512ll, "<5"sv, "128512"sv}, {128512ll, "=+8"sv, "+ 128512"sv},
    {128512ll, "o"sv, "373000"sv}, {128512ll, "#o"sv, "0o373000"sv}, {128512ll, "x"sv, "1f600"sv},
    {128512ll, "#010x"sv, "0x0001f600"sv}, {128512ll, "%"sv, "12851200.000000%"sv},
    {128512ll, "E"sv, "1.285120E+05"sv}, {123456789ll, ""sv, "123456789"sv},
    {123456789ll, "5"sv, "123456789"sv}, {123456789ll, "+"sv, "+123456789"sv},
    {123456789ll, "_b"sv, "111_0101_1011_1100_1101_0001_0101"sv},
    {123456789ll, "#_b"sv, "0b111_0101_1011_1100_1101_0001_0101"sv},
    {123456789ll, "n"sv, "123456789"sv}, {123456789ll, ".2f"sv, "123456789.00"sv},
    {-987654321ll, ""sv, "-987654321"sv}, {-987654321ll, "+"sv, "-987654321"sv},
    {-987654321ll, "_b"sv, "-11_1010_1101_1110_0110_1000_1011_0001"sv},
    {-987654321ll, "x"sv, "-3ade68b1"sv}, {-987654321ll, "#x"sv, "-0x3ade68b1"sv},
    {-987654321ll, ".2f"sv, "-987654321.00"sv}, {-987654321ll, "#12o"sv, "-0o7267464261"sv},
    {2147483647ll, ""sv, "2147483647"sv}, {2147483647ll, " "sv, " 2147483647"sv},
    {2147483647ll, ",d"sv, "2,147,483,647"sv},
    {2147483647ll, "_b"sv, "111_1111_1111_1111_1111_1111_1111_1111"sv},
    {2147483647ll, "#x"sv, "0x7fffffff"sv}, {2147483647ll, "X"sv, "7FFFFFFF"sv},
    {2147483647ll, "#X"sv, "0X7FFFFFFF"sv}, {2147483647ll, "_X"sv, "7FFF_FFFF"sv},
    {2147483647ll, "e"sv, "2.147484e+09"sv}, {2147483647ll, "E"sv, "2.147484E+09"sv},
    {-2147483648ll, "5"sv, "-2147483648"sv}, {-2147483648ll, "<5"sv, "-2147483648"sv},
    {-2147483648ll, "^6"sv, "-2147483648"sv}, {-2147483648ll, "=+8"sv, "-2147483648"sv},
    {-2147483648ll, "05"sv, "-2147483648"sv}, {-2147483648ll, "-"sv, "-2147483648"sv},
    {-2147483648ll, " "sv, "-2147483648"sv}, {-2147483648ll, "_"sv, "-2_147_483_648"sv},
    {-2147483648ll, "#X"sv, "-0X80000000"sv}, {-2147483648ll, "e"sv, "-2.147484e+09"sv},
    {-2147483648ll, "g"sv, "-2.14748e+09"sv}, {-2147483648ll, "x^#12_X"sv, "-0X8000_0000"sv},
    {-2147483648ll, "*>+10,"sv, "-2,147,483,648"sv}, {-2147483648ll, "G"sv, "-2.14748E+09"sv},
    {9223372036854775807ll, "05"sv, "9223372036854775807"sv},
    {9223372036854775807ll, "-"sv, "9223372036854775807"sv},
    {9223372036854775807ll, " "sv, " 9223372036854775807"sv},
    {9223372036854775807ll, ","sv, "9,223,372,036,854,775,807"sv},
    {9223372036854775807ll, "012_"sv, "9_223_372_036_854_775_807"sv},
    {9223372036854775807ll, "b"sv, "111111111111111111111111111111111111111111111111111111111111111"sv},
    {9223372036854775807ll, "#b"sv, "0b111111111111111111111111111111111111111111111111111111111111111"sv},
    {9223372036854775807ll, "#o"sv, "0o777777777777777777777"sv},
    {9223372036854775807ll, "_X"sv, "7FFF_FFFF_FFFF_FFFF"sv},
    {9223372036854775807ll, ",.2f"sv, "9,223,372,036,854,775,808.00"sv},
    {9223372036854775807ll, "G"sv, "9.22337E+18"sv},
    {9223372036854775807ll, "#12o"sv, "0o777777777777777777777"sv},
    {INT64_MIN, "<5"sv, "-9223372036854775808"sv}, {INT64_MIN, "05"sv, "-9223372036854775808"sv},
    {INT64_MIN, "-"sv, "-9223372036854775808"sv},
    {INT64_MIN, "012_"sv, "-9_223_372_036_854_775_808"sv},
    {INT64_MIN, "o"sv, "-1000000000000000000000"sv},
    {INT64_MIN, "#o"sv, "-0o1000000000000000000000"sv}, {INT64_MIN, "e"sv, "-9.223372e+18"sv},
    {INT64_MIN, ".3e"sv, "-9.223e+18"sv}, {INT64_MIN, "*>+10,"sv, "-9,223,372,036,854,775,808"sv},
    {INT64_MIN, "#12o"sv, "-0o1000000000000000000000"sv}, {1000000ll, ""sv, "1000000"sv},
    {1000000ll, "+"sv, "+1000000"sv}, {1000000ll, "-"sv, "1000000"sv},
    {1000000ll, "01_"sv, "1_000_000"sv}, {1000000ll, "b"sv, "11110100001001000000"sv},
    {1000000ll, "#b"sv, "0b11110100001001000000"sv}, {1000000ll, "o"sv, "3641100"sv},
    {1000000ll, "#010x"sv, "0x000f4240"sv}, {1000000ll, "#_x"sv, "0xf_4240"sv},
    {1000000ll, "e"sv, "1.000000e+06"sv}, {1000000ll, ".2f"sv, "1000000.00"sv},
    {1000000ll, ".3e"sv, "1.000e+06"sv}, {1000000ll, ",.2f"sv, "1,000,000.00"sv},
    {1000000ll, "E"sv, "1.000000E+06"sv}, {1000000ll, "G"sv, "1E+06"sv},
    {1000000ll, "#12o"sv, "   0o3641100"sv}, {999ll, "05"sv, "00999"sv}, {999ll, "_"sv, "999"sv},
    {999ll, "010,"sv, "00,000,999"sv}, {999ll, "o"sv, "1747"sv}, {999ll, "#o"sv, "0o1747"sv},
    {999ll, "c"sv, "\317\247"sv}, {999ll, ".2f"sv, "999.00"sv}, {999ll, "g"sv, "999"sv},
    {999ll, "x^#12_X"sv, "xxx0X3E7xxxx"sv}, {999ll, "*>+10,"sv, "******+999"sv},
    {999ll, ",.2f"sv, "999.00"sv},
};
const FmtStrCase kFmtStr[] = {
    {""sv, "s"sv, ""sv}, {""sv, "5"sv, "     "sv}, {""sv, "<5"sv, "     "sv}, {""sv, ".2"sv, ""sv},
    {""sv, ".0"sv, ""sv}, {""sv, "*^9"sv, "*********"sv},
    {""sv, "\303\251>7"sv, "\303\251\303\251\303\251\303\251\303\251\303\251\303\251"sv},
    {""sv, "0>5"sv, "00000"sv}, {""sv, "x<8s"sv, "xxxxxxxx"sv}, {"a"sv, ""sv, "a"sv},
    {"a"sv, "^6"sv, "  a   "sv}, {"a"sv, ".2"sv, "a"sv}, {"a"sv, "10.3"sv, "a         "sv},
    {"a"sv, "*^9"sv, "****a****"sv}, {"a"sv, "05"sv, "a0000"sv}, {"a"sv, "0>5"sv, "0000a"sv},
    {"a"sv, ".10"sv, "a"sv}, {"abc"sv, ""sv, "abc"sv}, {"abc"sv, "5"sv, "abc  "sv},
    {"abc"sv, "<5"sv, "abc  "sv}, {"abc"sv, "05"sv, "abc00"sv},
    {"h\303\251llo"sv, ""sv, "h\303\251llo"sv}, {"h\303\251llo"sv, "^6"sv, "h\303\251llo "sv},
    {"h\303\251llo"sv, "10.3"sv, "h\303\251l       "sv},
    {"h\303\251llo"sv, "x<8s"sv, "h\303\251lloxxx"sv},
    {"\346\227\245\346\234\254\350\252\236"sv, "5"sv, "\346\227\245\346\234\254\350\252\236  "sv},
    {"\346\227\245\346\234\254\350\252\236"sv, ">5"sv, "  \346\227\245\346\234\254\350\252\236"sv},
    {"\346\227\245\346\234\254\350\252\236"sv, "x<8s"sv, "\346\227\245\346\234\254\350\252\236xxxxx"sv},
    {"\346\227\245\346\234\254\350\252\236"sv, ".10"sv, "\346\227\245\346\234\254\350\252\236"sv},
    {"\360\237\230\200x"sv, "s"sv, "\360\237\230\200x"sv},
    {"\360\237\230\200x"sv, "5"sv, "\360\237\230\200x   "sv},
    {"\360\237\230\200x"sv, "^5"sv, " \360\237\230\200x  "sv},
    {"\360\237\230\200x"sv, ".0"sv, ""sv}, {"\360\237\230\200x"sv, ".10"sv, "\360\237\230\200x"sv},
    {"hello world"sv, "s"sv, "hello world"sv}, {"hello world"sv, "5"sv, "hello world"sv},
    {"hello world"sv, "^5"sv, "hello world"sv}, {"hello world"sv, ".2"sv, "he"sv},
    {"hello world"sv, "*^9"sv, "hello world"sv}, {"hello world"sv, "\303\251>7"sv, "hello world"sv},
    {"hello world"sv, "0>5"sv, "hello world"sv},
};
const ErrCase kErr[] = {
    {'f', 0x1.0000000000000p+0, ""sv, "d"sv, "ValueError: Unknown format code 'd' for object of type 'float'"sv},
    {'f', 0x1.0000000000000p+0, ""sv, "x"sv, "ValueError: Unknown format code 'x' for object of type 'float'"sv},
    {'f', 0x1.0000000000000p+0, ""sv, "s"sv, "ValueError: Unknown format code 's' for object of type 'float'"sv},
    {'f', 0x1.0000000000000p+0, ""sv, "c"sv, "ValueError: Unknown format code 'c' for object of type 'float'"sv},
    {'f', 0x1.0000000000000p+0, ""sv, ",n"sv, "ValueError: Cannot specify ',' with 'n'."sv},
    {'f', 0x1.0000000000000p+0, ""sv, "."sv, "ValueError: Format specifier missing precision"sv},
    {'f', 0x1.0000000000000p+0, ""sv, "abc"sv, "ValueError: Invalid format specifier 'abc' for object of type 'float'"sv},
    {'f', 0x1.0000000000000p+0, ""sv, ",_"sv, "ValueError: Cannot specify both ',' and '_'."sv},
    {'f', 0x1.0000000000000p+0, ""sv, "1234567890123456789012"sv, "ValueError: Too many decimal digits in format string"sv},
    {'i', 1, ""sv, ".1234567890123456789012f"sv, "ValueError: Too many decimal digits in format string"sv},
    {'i', 1, ""sv, "s"sv, "ValueError: Unknown format code 's' for object of type 'int'"sv},
    {'i', 1, ""sv, ".2"sv, "ValueError: Precision not allowed in integer format specifier"sv},
    {'i', 1, ""sv, "z"sv, "ValueError: Negative zero coercion (z) not allowed in integer format specifier"sv},
    {'i', 1, ""sv, ",x"sv, "ValueError: Cannot specify ',' with 'x'."sv},
    {'i', 1, ""sv, "_,"sv, "ValueError: Cannot specify both ',' and '_'."sv},
    {'i', 1, ""sv, ",n"sv, "ValueError: Cannot specify ',' with 'n'."sv},
    {'i', 1, ""sv, "+c"sv, "ValueError: Sign not allowed with integer format specifier 'c'"sv},
    {'i', 1, ""sv, "#c"sv, "ValueError: Alternate form (#) not allowed with integer format specifier 'c'"sv},
    {'i', 1, ""sv, ",c"sv, "ValueError: Cannot specify ',' with 'c'."sv},
    {'i', 1, ""sv, "abc"sv, "ValueError: Invalid format specifier 'abc' for object of type 'int'"sv},
    {'i', 1, ""sv, "."sv, "ValueError: Format specifier missing precision"sv},
    {'i', 1, ""sv, "_n"sv, "ValueError: Cannot specify '_' with 'n'."sv},
    {'s', 0, "a"sv, "d"sv, "ValueError: Unknown format code 'd' for object of type 'str'"sv},
    {'s', 0, "a"sv, "+"sv, "ValueError: Sign not allowed in string format specifier"sv},
    {'s', 0, "a"sv, " "sv, "ValueError: Space not allowed in string format specifier"sv},
    {'s', 0, "a"sv, "#"sv, "ValueError: Alternate form (#) not allowed in string format specifier"sv},
    {'s', 0, "a"sv, ","sv, "ValueError: Cannot specify ',' with 's'."sv},
    {'s', 0, "a"sv, "=5"sv, "ValueError: '=' alignment not allowed in string format specifier"sv},
    {'s', 0, "a"sv, "z"sv, "ValueError: Negative zero coercion (z) not allowed in string format specifier"sv},
    {'s', 0, "a"sv, "."sv, "ValueError: Format specifier missing precision"sv},
    {'s', 0, "a"sv, "xyz"sv, "ValueError: Invalid format specifier 'xyz' for object of type 'str'"sv},
    {'i', 1114112, ""sv, "c"sv, "OverflowError: %c arg not in range(0x110000)"sv},
    {'i', -1, ""sv, "c"sv, "OverflowError: %c arg not in range(0x110000)"sv},
};
const ReprStrCase kStrRepr[] = {
    {""sv, "''"sv}, {"abc"sv, "'abc'"sv}, {"it's"sv, "\"it's\""sv},
    {"say \"hi\""sv, "'say \"hi\"'"sv}, {"both ' and \""sv, "'both \\' and \"'"sv},
    {"tab\011here"sv, "'tab\\there'"sv}, {"nl\012line"sv, "'nl\\nline'"sv},
    {"cr\015"sv, "'cr\\r'"sv}, {"back\\slash"sv, "'back\\\\slash'"sv},
    {"\000\001\037\177"sv, "'\\x00\\x01\\x1f\\x7f'"sv},
    {"\302\200\302\237\302\240\302\255"sv, "'\\x80\\x9f\\xa0\\xad'"sv},
    {"h\303\251llo w\303\266rld"sv, "'h\303\251llo w\303\266rld'"sv},
    {"\346\227\245\346\234\254\350\252\236"sv, "'\346\227\245\346\234\254\350\252\236'"sv},
    {"\360\237\230\200"sv, "'\360\237\230\200'"sv},
    {"\342\200\250\342\200\251"sv, "'\\u2028\\u2029'"sv},
    {"\343\200\200\342\200\200\342\200\213"sv, "'\\u3000\\u2000\\u200b'"sv},
    {"\357\273\277"sv, "'\\ufeff'"sv}, {"\356\200\200"sv, "'\\ue000'"sv},
    {"\364\217\277\275"sv, "'\\U0010fffd'"sv}, {"\303\251\314\201"sv, "'\303\251\314\201'"sv},
    {"a\033b"sv, "'a\\x1bb'"sv}, {"'\"'"sv, "'\\'\"\\''"sv},
};

std::string error_text(const Error& e) { return e.kind + ": " + e.message; }

}  // namespace

TEST_CASE("py_float_repr matches CPython's repr") {
  for (const ReprCase& c : kRepr) {
    std::string want(c.want);
    CAPTURE(want);
    CHECK(py_float_repr(c.v) == c.want);
    CHECK(py_format_float(c.v, "") == c.want);  // format(x, '') == str(x)
  }
}

TEST_CASE("py_float_repr round-trips and is shortest, over random doubles") {
  std::mt19937_64 rng(12345);
  for (int k = 0; k < 200000; ++k) {
    uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, 8);
    if (!std::isfinite(v)) continue;
    std::string s = py_float_repr(v);
    double back = 0;
    auto res = std::from_chars(s.data(), s.data() + s.size(), back);
    REQUIRE(res.ec == std::errc());
    REQUIRE(res.ptr == s.data() + s.size());
    REQUIRE(std::memcmp(&back, &v, 8) == 0);
    // Shape: fixed notation always has a point, scientific never pads the mantissa.
    bool sci = s.find('e') != std::string::npos;
    double a = std::fabs(v);
    REQUIRE(sci == (a != 0 && (a < 1e-4 || a >= 1e16)));
    if (!sci) REQUIRE(s.find('.') != std::string::npos);
  }
}

TEST_CASE("py_format_spec(double) matches CPython's format()") {
  for (const FmtFloatCase& c : kFmtFloat) {
    CAPTURE(c.v);
    std::string spec(c.spec);
    CAPTURE(spec);
    CHECK(py_format_spec(c.v, c.spec) == c.want);
  }
  for (const FmtFloatCase& c : kFmtFloatRandom) {
    CAPTURE(c.v);
    std::string spec(c.spec);
    CAPTURE(spec);
    CHECK(py_format_spec(c.v, c.spec) == c.want);
  }
}

TEST_CASE("py_format_spec: the examples everyone relies on") {
  CHECK(py_format_float(1.0, "") == "1.0");
  CHECK(py_format_float(1e20, "") == "1e+20");
  CHECK(py_format_float(1.5, ".2") == "1.5");
  CHECK(py_format_float(0.1, ".3f") == "0.100");
  CHECK(py_format_float(1234.5, "012,.1f") == "00,001,234.5");
  CHECK(py_format_int(1234, "012_") == "0_000_001_234");
  CHECK(py_format_int(-255, "#010x") == "-0x00000ff");
  CHECK(py_format_str("ab", "05") == "ab000");
}

TEST_CASE("py_format_spec(int64_t) matches CPython's format()") {
  for (const FmtIntCase& c : kFmtInt) {
    CAPTURE(c.v);
    std::string spec(c.spec);
    CAPTURE(spec);
    CHECK(py_format_spec(c.v, c.spec) == c.want);
  }
}

TEST_CASE("py_format_str matches CPython's format()") {
  for (const FmtStrCase& c : kFmtStr) {
    std::string str(c.s);
    CAPTURE(str);
    std::string spec(c.spec);
    CAPTURE(spec);
    CHECK(py_format_str(c.s, c.spec) == c.want);
  }
}

TEST_CASE("bad format specs raise CPython's errors") {
  for (const ErrCase& c : kErr) {
    std::string spec(c.spec);
    CAPTURE(spec);
    std::string got = "(no error)";
    try {
      if (c.kind == 'f') py_format_spec(c.num, c.spec);
      if (c.kind == 'i') py_format_spec((int64_t)c.num, c.spec);
      if (c.kind == 's') py_format_str(c.s, c.spec);
    } catch (const Error& e) {
      got = error_text(e);
    }
    CHECK(got == c.want);
  }
}

TEST_CASE("py_str_repr matches CPython's repr of str") {
  for (const ReprStrCase& c : kStrRepr) {
    std::string want(c.want);
    CAPTURE(want);
    CHECK(py_str_repr(c.s) == c.want);
  }
  CHECK(py_str_repr(std::string("a\0b", 3)) == "'a\\x00b'");
  CHECK(py_str_repr("\xff\xfe") == "'\\xff\\xfe'");  // not UTF-8: bytes shown, none lost
}

TEST_CASE("utf8 helpers") {
  CHECK(utf8_length("") == 0);
  CHECK(utf8_length("h\xc3\xa9llo") == 5);
  CHECK(utf8_length("\xf0\x9f\x98\x80") == 1);
  CHECK(utf8_length("\xff") == 1);
  CHECK(utf8_encode(0x41) == "A");
  CHECK(utf8_encode(0xe9) == "\xc3\xa9");
  CHECK(utf8_encode(0x65e5) == "\xe6\x97\xa5");
  CHECK(utf8_encode(0x1f600) == "\xf0\x9f\x98\x80");
}

TEST_CASE("C printf conversions for kernel print") {
  auto spec = [](std::string_view s) {
    auto p = parse_c_printf_spec(s);
    REQUIRE(p.has_value());
    return *p;
  };
  CPrintfSpec p = spec("%-+10.3lf");
  CHECK(p.flags == "-+");
  CHECK(p.width == 10);
  CHECK(p.precision == 3);
  CHECK(p.length == "l");
  CHECK(p.conversion == 'f');
  CHECK(spec(".2").precision == 2);
  CHECK(spec(".2").conversion == 0);
  CHECK(spec("%.f").precision == 0);
  CHECK(spec("hhd").length == "hh");
  CHECK(spec("").conversion == 0);
  CHECK(!parse_c_printf_spec("*d"));
  CHECK(!parse_c_printf_spec(".*f"));
  CHECK(!parse_c_printf_spec("abc"));
  CHECK(!parse_c_printf_spec("d%s"));
  CHECK(!parse_c_printf_spec("999999999999d"));
  CHECK(c_format_double(spec("%f"), 0.1) == "0.100000");
  CHECK(c_format_double(spec("%.12f"), (double)0.1f) == "0.100000001490");
  CHECK(c_format_double(spec("%e"), 12345.678) == "1.234568e+04");
  CHECK(c_format_double(spec("%g"), 1e-5) == "1e-05");
  CHECK(c_format_double(spec("%d"), 2.5) == "2.500000");  // wrong kind -> f, never UB
  CHECK(c_format_double(spec("%s"), 2.5) == "2.500000");
  CHECK(c_format_double(spec("%f"), -INFINITY) == "-inf");
  CHECK(c_format_int(spec("%d"), INT64_MIN) == "-9223372036854775808");
  CHECK(c_format_int(spec("%hd"), -5) == "-5");
  CHECK(c_format_int(spec("%5d"), 42) == "   42");
  CHECK(c_format_int(spec("%s"), 42) == "42");
  CHECK(c_format_int(spec("%n"), 42) == "42");
  CHECK(c_format_int(spec("%p"), 42) == "42");
  CHECK(c_format_int(spec("%.2f"), 3) == "3.00");
  CHECK(c_format_uint(spec("%llu"), UINT64_MAX) == "18446744073709551615");
  CHECK(c_format_uint(spec("%#x"), 255) == "0xff");
  CHECK(c_format_uint(spec("%d"), UINT64_MAX) == "18446744073709551615");
  CHECK(c_format_uint(spec("%08o"), 8) == "00000010");
}
