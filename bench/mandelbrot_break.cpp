// Baseline for mandelbrot_break.py: mandelbrot.cpp with the escape test as
// a break in the loop's body, as the kernel has it.
#define ESCAPE_AS_BREAK
#include "mandelbrot.cpp"
