"""Sample memories and session transcripts that ship with dreamgit for ``dreamgit demo``."""
