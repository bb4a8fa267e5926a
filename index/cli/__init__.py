"""The `papers` command line."""
