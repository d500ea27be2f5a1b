"""The dev server: serves the built site on localhost and rebuilds what an edit touches (`watcher.py`)."""
