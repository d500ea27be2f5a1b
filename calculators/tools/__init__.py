"""The tools: calculators that work on what a reader pastes (two vectors), one folder each."""
