"""Stub for openrlhf/utils/agent.py, which calls `init_logger(__name__)` at module level."""
import logging


def init_logger(name):
    """A standard-library logger, as OpenRLHF's is."""
    return logging.getLogger(name)
