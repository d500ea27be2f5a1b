"""The kernel: how a calculator is declared (`spec`), how raw input becomes numbers or problems
(`evaluation`), and how numbers are read and written in a locale (`numbers`)."""
