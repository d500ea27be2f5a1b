"""The retrieval calculators: one folder each (module, article, test cases)."""
