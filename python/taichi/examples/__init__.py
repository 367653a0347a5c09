"""taichi.examples: what Taichi's example programs import from the package
(`from taichi.examples.patterns import taichi_logo`). The examples
themselves are Taichi's; docs/taichi_examples.md says how to run them."""
