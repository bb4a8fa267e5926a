"""One-line headlines for papers that have no title.

They come from the model learned from real (abstract, title) pairs in `learned/` (issue 25): its
`pipeline.headline` makes one and `pipeline.headlines` a batch, the same lines either way. This module holds
only the version that says when those lines change.
"""

HEADLINE_VERSION = 19
"""Bump whenever headline output changes: the search index caches headlines, and SCHEMA_VERSION folds this
in, so an index built by older headline code is rebuilt instead of showing its old headlines."""
