"""Abstracts' LaTeX, markdown and HTML to display-safe text with style spans."""
