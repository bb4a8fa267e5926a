"""Widgets used beyond the browse screen: the status line, the key footer, the facet panel."""
