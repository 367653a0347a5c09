// Printing numbers and strings the way Python and Taichi do.
//
// Host `print`, `repr`, `str.format` and f-strings must print exactly what
// CPython prints (tests/lang compares stdout byte for byte), so these follow
// CPython 3.11's rules, including its error messages. Kernel `print` goes
// through C printf conversions (Taichi lowers it to printf); the c_format_*
// helpers run one such conversion safely, whatever spec a program supplies.
//
// Strings are UTF-8; widths and precisions of str count code points, as
// Python's do. Errors throw kiln::Error with Python's exception kind.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kiln {

// repr(x) / str(x) of a Python float: the shortest digits that round-trip,
// fixed notation when 1e-4 <= |x| < 1e16 (always with a '.', "1.0"),
// scientific otherwise ("1e+16", "1e-05", "1.5e-07"); "-0.0", "inf", "-inf", "nan".
std::string py_float_repr(double v);

// format(v, spec) for a Python int / float / str: the format-spec mini-language
// [[fill]align][sign][z][#][0][width][,|_][.precision][type].
//   int:   types b c d o x X n (n = d: the VM runs in the C locale) and the float
//          types e E f F g G % (the int is converted to float first);
//   float: types e E f F g G n % and none (none = repr without a precision,
//          'g' keeping a ".0" with one);
//   str:   type s or none; precision truncates.
// Bad specs raise ValueError with CPython's message ("Unknown format code 'd'
// for object of type 'float'"), 'c' out of range raises OverflowError.
// Widths and precisions above 100,000,000 raise ValueError("Too many decimal
// digits in format string") (CPython would try to allocate them).
std::string py_format_spec(int64_t v, std::string_view spec);
std::string py_format_spec(double v, std::string_view spec);
std::string py_format_str(std::string_view s, std::string_view spec);
// Unambiguous names for the same (an `int` argument is ambiguous between the
// py_format_spec overloads).
inline std::string py_format_int(int64_t v, std::string_view spec) { return py_format_spec(v, spec); }
inline std::string py_format_float(double v, std::string_view spec) { return py_format_spec(v, spec); }

// repr(s) of a Python str: single quotes unless the text has ' and no ",
// escapes \\ \n \r \t, the quote, other control characters as \xNN, and
// non-printable code points as \xNN / \uNNNN / \UNNNNNNNN (separators such as
// U+00A0, U+2028, U+3000, format characters such as U+200B and U+FEFF, private
// use); other non-ASCII characters are kept as they are. Bytes that are not
// valid UTF-8 (Python strs cannot hold them) are shown as \xNN.
std::string py_str_repr(std::string_view s);

// Number of code points in UTF-8 text (an invalid byte counts as one).
size_t utf8_length(std::string_view s);
// The UTF-8 encoding of one code point (cp must be < 0x110000).
std::string utf8_encode(uint32_t cp);

// One C printf conversion, as Taichi accepts it in kernel print specs:
//   [%][flags -+ #0][width][.precision][length hh h l ll j z t L][conversion]
// where the conversion is one of c s d i o x X u f F e E a A g G n p and may be
// omitted. Width and precision are numbers (no '*'), at most 100,000,000.
struct CPrintfSpec {
  std::string flags;
  int width = -1;       // -1: none
  int precision = -1;   // -1: none
  std::string length;   // parsed for Taichi's merge rules, ignored when printing
  char conversion = 0;  // 0: none given
};
std::optional<CPrintfSpec> parse_c_printf_spec(std::string_view spec);
// Runs the conversion on a value of that kind. A conversion of the wrong
// kind is mapped to the value's kind instead of being undefined behaviour:
// for ints, float conversions print the value converted to double and
// c s p n (and none) print as d (u for unsigned); for doubles, integer and
// other conversions print as f. Uses the C locale's decimal point.
std::string c_format_int(const CPrintfSpec& spec, int64_t v);
std::string c_format_uint(const CPrintfSpec& spec, uint64_t v);
std::string c_format_double(const CPrintfSpec& spec, double v);

}  // namespace kiln
