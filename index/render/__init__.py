"""Abstracts' LaTeX, markdown and HTML to display-safe text with style spans."""

RENDER_VERSION = 1
"""Bump whenever rendered text changes: the search index holds every abstract's rendered text (and headlines
made from it), and SCHEMA_VERSION folds this in, so an index of older rendering is rebuilt, not searched.
1: web addresses kept byte for byte, `(cid:NNN)` PDF artefacts put back."""
