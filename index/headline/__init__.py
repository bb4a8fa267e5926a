"""One-line headlines for papers that have no title, from a model learned from real (abstract, title) pairs.

`pipeline.headline` makes one and `pipeline.headlines` a batch (the same lines either way); the pipeline's
docstring names its five stages, each a module. `train.py` makes the shipped weights (`model.npz`) from the
corpus with a fixed seed and records how they do on venues it never saw (`model.json`); `features.py` and
`phrases.py` beside it are what the model looks at, and `words.py` every word list fixed by hand.
"""

HEADLINE_VERSION = 22
"""Bump whenever headline output changes: the search index caches headlines, and SCHEMA_VERSION folds this
in, so an index built by older headline code is rebuilt instead of showing its old headlines."""
