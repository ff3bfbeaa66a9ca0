"""Seeing a dream and trusting it: memory tests (written in ``.dreamgit/tests.yaml`` and
derived from protected memories and supersessions), the gate a dream passes before it
merges, token estimates, and the run report in HTML and Markdown with its charts.

May import: ``recall``, ``history``, ``store``, ``ruleset`` and the kernel; never ``cli``,
``api`` or ``integrations``.
"""
