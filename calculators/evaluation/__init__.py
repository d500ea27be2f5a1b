"""The evaluation calculators: one folder each (module, article, test cases)."""
