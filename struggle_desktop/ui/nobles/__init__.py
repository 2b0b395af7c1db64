"""The Noble Houses screen."""
