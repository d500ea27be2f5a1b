"""The training calculators: one folder each (module, article, test cases)."""
