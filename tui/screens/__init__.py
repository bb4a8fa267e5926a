"""Modal screens the reader opens over the browse screen: help, confirmation, prompts, the note editor."""
