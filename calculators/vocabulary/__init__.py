"""The shared vocabulary: inputs and formulas that several calculators use, declared once, one module per domain."""
