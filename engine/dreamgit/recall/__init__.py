"""Recall: ranking memories for a query, the signals recalls leave, and promotion by them.

Below the dream and beside history and llm: it reads the store and the rules,
and the dream and the command line call it.
"""
