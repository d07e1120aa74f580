"""Stub for open_r1/utils/competitive_programming/cf_scoring.py, which decorates loaders with `alru_cache`."""


def alru_cache(*args, **_kwargs):
    """No caching: return the coroutine function unchanged (used bare or with arguments)."""
    if len(args) == 1 and callable(args[0]):
        return args[0]
    return lambda function: function
