"""Reading listing files (plain text and JSON/JSONL) into papers with stable ids."""
