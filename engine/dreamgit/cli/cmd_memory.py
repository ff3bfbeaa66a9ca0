"""Everyday commands on memories and sessions (placeholder until the foundation lands)."""

from __future__ import annotations
