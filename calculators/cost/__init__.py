"""The cost calculators: one folder each (module, article, test cases)."""
