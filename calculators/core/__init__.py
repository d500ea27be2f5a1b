"""The machinery every calculator shares: the declaration vocabulary (`spec`), shared inputs and
model shapes (`architecture`), evaluation, numbers, the report and chart the reader sees, config.json
reading, and the entry points of the browser worker (`live`) and the library (`api`)."""
