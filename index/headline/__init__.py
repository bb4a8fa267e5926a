"""One-line headlines for papers that have no title."""
