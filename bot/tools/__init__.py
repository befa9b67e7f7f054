"""Operators' tools run from the command line: backup, migrate, forget, check."""
