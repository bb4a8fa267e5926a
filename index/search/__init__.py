"""The Whoosh index: schema, queries, highlights, build, the stored snapshot and the directory."""
