"""dreamgit in other people's machinery: the GitHub workflow and action, cron entries
(and the MCP server).

May import: the API (``dreamgit.api``) and every library layer below it; never ``cli``.
"""
