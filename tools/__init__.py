"""Developer tools (run as scripts; importable as ``tools.<name>`` by the tests)."""
