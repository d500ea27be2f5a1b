"""The infrastructure calculators: one folder each (module, article, test cases)."""
