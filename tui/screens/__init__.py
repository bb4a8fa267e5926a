"""Screens of the reader: browsing, help, and modal confirmation."""
