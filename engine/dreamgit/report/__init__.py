"""Seeing a dream and trusting it: memory tests (written in ``.dreamgit/tests.yaml`` and
derived from protected memories and supersessions), the gate a dream passes before it
merges, token estimates, and the run report in HTML and Markdown with its charts.

May import: ``dream``, ``recall``, ``history``, ``store``, ``ruleset``, ``textsim`` and the
kernel; never ``cli``, ``api`` or ``integrations``.
"""
