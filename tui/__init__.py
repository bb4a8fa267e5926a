"""The Textual reader: a UI over `index.library`, with no search or storage logic of its own."""
