"""One-line headlines for papers that have no title."""

HEADLINE_VERSION = 19
"""Bump whenever headline output changes: the search index caches headlines, and SCHEMA_VERSION folds this
in, so an index built by older headline code is rebuilt instead of showing its old headlines."""
