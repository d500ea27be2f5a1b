"""Drawing: the charts a page shows (the memory bar, a curve, steps), as text the report writes into the page."""
