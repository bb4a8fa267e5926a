"""The widgets the browse screen is built from: search bar, paper list, paper detail, status line."""
