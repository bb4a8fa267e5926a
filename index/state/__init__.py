"""The per-user store of stars, read marks and session memory (SQLite)."""
