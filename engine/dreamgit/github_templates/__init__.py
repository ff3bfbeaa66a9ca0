"""GitHub workflow templates that ``dreamgit init --github`` writes (package data)."""
