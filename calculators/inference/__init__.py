"""The inference calculators: one folder each (module, article, test cases)."""
