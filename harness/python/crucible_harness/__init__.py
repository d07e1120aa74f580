"""Crucible's trusted in-box Python judge harness (see harness.py for the theory of operation)."""
