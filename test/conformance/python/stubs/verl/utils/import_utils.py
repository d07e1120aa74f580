"""Stub for verl/utils/reward_score/__init__.py, which imports `deprecated` (a decorator factory) at module level."""


def deprecated(*_args, **_kwargs):
    """Return the decorated function unchanged (verl's warns on use; nothing under test uses it)."""
    return lambda function: function
